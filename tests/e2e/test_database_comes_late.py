"""`chronicle serve` started before its database answers waits for it (saying so once), then
serves, on a `?schema=NAME` it creates: the database here is a port where nothing listens
until the server has said it waits, then a relay to the test's PostgreSQL."""

from __future__ import annotations

import socket
import threading
import time
from contextlib import suppress
from pathlib import Path
from urllib.parse import urlparse

import httpx
import pytest

from tests.conftest import POSTGRES
from tests.e2e.cluster import ServeProcess
from tests.e2e.support import free_port
from tests.postgres_support import missing_schema, schema_exists


class LateListener:
    """A port that refuses connections until `open()`, then relays each one to PostgreSQL."""

    def __init__(self) -> None:
        self.port = free_port()
        target = urlparse(POSTGRES)
        self.target = (target.hostname or "127.0.0.1", target.port or 5432)
        self.server: socket.socket | None = None
        self.sockets: list[socket.socket] = []

    def url(self, schema: str) -> str:
        parsed = urlparse(POSTGRES)
        return parsed._replace(
            netloc=f"{parsed.username}@127.0.0.1:{self.port}", query=f"schema={schema}"
        ).geturl()

    def open(self) -> None:
        self.server = socket.create_server(("127.0.0.1", self.port))
        threading.Thread(target=self._accept, args=(self.server,), daemon=True).start()

    def _accept(self, server: socket.socket) -> None:
        while True:
            try:
                client, _ = server.accept()
            except OSError:  # closed
                return
            upstream = socket.create_connection(self.target)
            self.sockets += [client, upstream]
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    @staticmethod
    def _pump(source: socket.socket, sink: socket.socket) -> None:
        try:
            while data := source.recv(65536):
                sink.sendall(data)
        except OSError:
            pass
        finally:
            with suppress(OSError):
                sink.shutdown(socket.SHUT_WR)

    def close(self) -> None:
        if self.server is not None:
            self.server.close()
        for each in self.sockets:
            with suppress(OSError):
                each.close()


@pytest.mark.postgres
def test_a_server_started_before_its_database_waits_for_it_then_serves_on_a_fresh_schema(
    tmp_path: Path,
) -> None:
    listener = LateListener()
    log = tmp_path / "server.log"
    waiting = (
        f"chronicle: waiting up to 60 s for PostgreSQL at 127.0.0.1:{listener.port}/test (Connection refused)"
    )
    with missing_schema() as (name, _):
        server = ServeProcess(listener.url(name), log, wait=False)
        try:
            deadline = time.monotonic() + 120
            while waiting not in log.read_text():
                assert server.process is not None and server.process.poll() is None, log.read_text()
                assert time.monotonic() < deadline, f"the server did not say it waits:\n{log.read_text()}"
                time.sleep(0.1)
            time.sleep(1)  # a try or two more, refused
            listener.open()
            server.wait_until_healthy()
            created = httpx.post(
                f"{server.url}/games", json={"ruleset": "province", "players": ["Ann", "Ben"]}, timeout=30
            )
            assert created.status_code == 201, created.text
            assert schema_exists(name)
        finally:
            server.stop()
            listener.close()
    text = log.read_text()
    assert text.count("chronicle: waiting") == 1 and "Traceback" not in text, text
