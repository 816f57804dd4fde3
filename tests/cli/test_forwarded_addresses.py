"""Which client address `chronicle serve` counts for the write limit per address: the
connection's own, unless the connection comes from a proxy named by `--forwarded-allow-ips`
(or `CHRONICLE_TRUSTED_PROXIES`); then the address that proxy names in `X-Forwarded-For`.
Against a real server, from 127.0.0.1, so a forged header from the same machine is met too."""

from __future__ import annotations

import json
from pathlib import Path

import httpx

from tests.cli.conftest import Cli, serving

LIMITED = {"CHRONICLE_WRITE_LIMIT_ADDRESS": "2/minute", "CHRONICLE_WRITE_LIMIT_TOKEN": "off"}


def write(url: str, forwarded_for: str) -> int:
    """A write the server counts and then refuses (an empty creation): its status."""
    return httpx.post(f"{url}/games", json={}, headers={"X-Forwarded-For": forwarded_for}).status_code


def remotes(log: Path) -> list[str]:
    return [json.loads(line)["remote"] for line in log.read_text().splitlines() if '"POST"' in line]


def test_by_default_a_forged_forwarded_for_from_loopback_does_not_change_the_counted_address(
    cli: Cli,
) -> None:
    log = cli.home / "access.log"
    with serving(cli, LIMITED | {"CHRONICLE_ACCESS_LOG": str(log)}) as server:
        statuses = [write(server.url, f"203.0.113.{n}") for n in range(1, 4)]
    # three addresses named, one counted: the connection's, over its limit at the third
    assert statuses == [400, 400, 429]
    assert remotes(log) == ["127.0.0.1"] * 3


def test_a_configured_proxy_names_the_counted_address(cli: Cli) -> None:
    log = cli.home / "access.log"
    env = LIMITED | {"CHRONICLE_ACCESS_LOG": str(log)}
    with serving(cli, env, "--forwarded-allow-ips", "127.0.0.1") as server:
        apart = [write(server.url, f"203.0.113.{n}") for n in range(1, 4)]
        together = [write(server.url, "198.51.100.9") for _ in range(3)]
    assert apart == [400, 400, 400]  # each address counted on its own
    assert together == [400, 400, 429]  # and one address still meets its limit
    assert remotes(log) == [*(f"203.0.113.{n}" for n in range(1, 4)), *["198.51.100.9"] * 3]


def test_the_environment_names_trusted_proxies_as_networks(cli: Cli) -> None:
    env = LIMITED | {"CHRONICLE_TRUSTED_PROXIES": "10.0.0.0/8, 127.0.0.0/8"}
    with serving(cli, env) as server:
        assert [write(server.url, f"203.0.113.{n}") for n in range(1, 4)] == [400, 400, 400]


def test_a_trusted_proxy_that_is_no_address_stops_the_server_with_one_line(cli: Cli) -> None:
    message = cli.fails(2, "serve", "--forwarded-allow-ips", "127.0.0.1,proxy.example")
    assert "CHRONICLE_TRUSTED_PROXIES" in message and "'proxy.example'" in message
