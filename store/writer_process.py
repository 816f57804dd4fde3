"""The server's commits on SQLite, written by a process of their own.

Group commit (store/group_commit.py) writes the appends that arrive together in one
transaction. Its writer used to be a thread of the server's process, and each call it made
into SQLite (begin, insert, commit) gave the interpreter's lock away and had to take it back
from the event loop. While the loop was busy, each take waited until the loop let go (up to
the interpreter's switch interval, 5 ms). So a batch of a dozen actions took about 7 ms, most
of it spent waiting, and the loop stood idle about a fifth of the time, waiting for commits.

A writer process has an interpreter of its own. Once the callbacks of a turn of the event loop
have run, the loop sends the appends they made down a pipe as one batch, and goes on; it reads
each answer when it comes. The process writes the batches in the order sent: every batch that
waited in the pipe while it wrote the last one goes into the next transaction, as in a thread,
with the group commit's writing (a clashing version fails that append alone; any other error
writes them again one append per transaction). It answers a batch only once it is committed,
so nothing is acknowledged before its commit, as before.

The events come without their digests in the hash chain: the writer gives each game event its
digest in the transaction that stores it (store/stamping.py), on its own core.

When the process dies, the appends it had not answered fail with `WriterStopped`, a store
error (503 `store_unavailable`): each one's outcome is unknown, so none is written again here.
Appends not yet sent go to a new process, which the next batch starts. When the server's
process dies, the writer reads the end of its pipe and exits after the batch it is writing.

A process that stops answering without dying (stopped by a signal, hung on a disk, frozen by
a debugger) is seen: while it has batches to answer, it must answer one at least every
`ANSWER_WAIT` seconds (15: a transaction waits up to 10 for the lock, store/sqlite.py, so a
writer taking turns with other processes answers well within it). A writer silent for longer
is killed and replaced as if it had died, its unanswered appends failing with `WriterStuck`
(their outcome is unknown too: killed mid-commit, a transaction is either whole or absent).
So no write waits longer than that for a stuck writer, and the server recovers by itself.
`answers` pings the writer for `/health`: an empty batch, answered in its turn without a
transaction; a ping unanswered counts as a batch for the silence.

Frames on both pipes are a 4-byte little-endian length and a MessagePack body: a batch is a
list of appends, each a list of `[stream id (32 hex digits), version, topic, state]` (a game
event's state without its digest); its answer is, per append, `["ok", [notification id, ...]]`
or `["error", error class, message]`.

    python -m store.writer_process URL

Mutants judged equivalent (bench/mutation.py, group append): a stream id passed as text where
it is a UUID (the writer reads either form); the turn's flag set to None (a second flush finds
the queue empty); the asserts' `and` and `or` among their not-None checks; the wording of the
errors a closing store gives (no caller is left to read them); the waits' bounds (`CLOSE_WAIT`,
the drain's deadline and poll, the reaping's timeout), reached only when a writer hangs; the
drain letting None go (its error makes `close` let the process go itself); the closed-loop
test of a failing future as `or` (no one awaits a future of a closed loop); an answer of no
ids (the recorder numbers every append); `ended` as None; and in `_batches`, reading on in a
spin, or waiting a second, or never, for more input while a whole batch waits (the outcome is
the same; the time, or how many batches share a transaction, is not).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import select
import signal
import struct
import subprocess
import sys
from collections import deque
from collections.abc import Iterator, Sequence
from typing import Any, BinaryIO, NamedTuple

import msgspec
from eventsourcing import persistence
from eventsourcing.persistence import StoredEvent

from store.errors import StoreNotAnswering
from store.group_commit import Append

Outcome = Sequence[int] | None
Row = tuple[str, int, str, bytes]
Answer = tuple[Any, ...]  # ("ok", ids) or ("error", class name, message)

_HEADER = struct.Struct("<I")
_ENCODE = msgspec.msgpack.Encoder().encode
_BATCH = msgspec.msgpack.Decoder(list[list[Row]])
_ANSWERS = msgspec.msgpack.Decoder(list[Answer])
CLOSE_WAIT = 10.0  # seconds a closing store gives its writer to finish what it was sent
ANSWER_WAIT = 15.0  # seconds a writer with batches to answer may answer none before it is replaced
READ_SIZE = 1 << 20

log = logging.getLogger("chronicle.store")


class WriterStopped(persistence.OperationalError):
    """The writer process ended before it answered an append: its outcome is unknown."""


class WriterStuck(WriterStopped, StoreNotAnswering):
    """The writer process answered nothing for too long and was replaced: the outcome of the
    appends it had not answered is unknown. The message is for the caller."""


class _Batch(NamedTuple):
    """A batch sent and not yet answered: its appends' futures, or a ping's future (True once
    answered, False if the writer is let go first)."""

    futures: list[asyncio.Future[Outcome]]
    pong: asyncio.Future[bool] | None = None


def _frame(body: bytes) -> bytes:
    return _HEADER.pack(len(body)) + body


def _error(name: str, message: str) -> Exception:
    """The store error a writer named, as the library's class of that name."""
    found = getattr(persistence, name, None)
    if isinstance(found, type) and issubclass(found, persistence.PersistenceError):
        return found(message)
    return persistence.PersistenceError(f"{name}: {message}")


class WriterProcess:
    """One server process's writer: `submit` (on the event loop it was first used on) returns
    an append's notification ids once committed, or raises what failed it."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.loop: asyncio.AbstractEventLoop | None = None
        self.process: subprocess.Popen[bytes] | None = None
        self._queue: list[tuple[list[Row], asyncio.Future[Outcome]]] = []
        self._flushing = False
        self._sent: deque[_Batch] = deque()  # batches not yet answered
        self._received = bytearray()
        self._unsent = bytearray()  # a batch's bytes the pipe has not taken yet
        self.answer_wait = ANSWER_WAIT
        self._silent_since = 0.0  # the loop's time of the last answer, or of a send to an idle writer
        self._watch: asyncio.TimerHandle | None = None  # when the silence runs out
        self._pong: asyncio.Future[bool] | None = None  # the ping waiting for its answer

    def serves(self, loop: asyncio.AbstractEventLoop) -> bool:
        """Whether appends on `loop` go through this writer (the first loop to ask keeps it)."""
        if self.loop is None:
            self.loop = loop
        return self.loop is loop

    async def submit(self, rows: list[Row]) -> Outcome:
        """Append `rows` (each a stored event: stream id in 32 hex digits, version, topic, state)."""
        assert self.loop is not None
        future: asyncio.Future[Outcome] = self.loop.create_future()
        self._queue.append((rows, future))
        if not self._flushing:
            self._flushing = True
            self.loop.call_soon(self._flush)
        return await future

    async def answers(self, within: float) -> bool:
        """Whether the writer answers a ping within `within` seconds, after the batches sent
        before it (True when no writer runs, or it serves another loop: the next write starts
        one). Pings asked for while one waits share its answer."""
        loop = asyncio.get_running_loop()
        if self.process is None or self.loop is not loop:
            return True
        pong = self._pong
        if pong is None:
            pong = self._pong = loop.create_future()
            self._send(_Batch([], pong), _ENCODE([]))
        try:
            return await asyncio.wait_for(asyncio.shield(pong), within)
        except TimeoutError:
            return False

    # -- on the event loop ------------------------------------------------------------------

    def _flush(self) -> None:
        """Send the appends made since the last batch as one batch."""
        self._flushing = False
        batch, self._queue = self._queue, []
        if not batch:
            return
        try:
            if self.process is None:
                self._start()
        except OSError as error:
            for _, future in batch:
                if not future.done():
                    future.set_exception(WriterStopped(f"the writer process did not start: {error}"))
            return
        self._send(_Batch([future for _, future in batch]), _ENCODE([rows for rows, _ in batch]))

    def _send(self, batch: _Batch, body: bytes) -> None:
        """Send a batch; a writer that had nothing to answer is silent from now."""
        assert self.loop is not None
        if not self._sent:
            self._silent_since = self.loop.time()
        self._sent.append(batch)
        self._unsent += _frame(body)
        self._write()
        self._watching()

    def _watching(self) -> None:
        """Look at the writer when its silence would run out, while it has batches to answer."""
        if self._sent and self._watch is None and self.loop is not None:
            self._watch = self.loop.call_at(self._silent_since + self.answer_wait, self._watched)

    def _watched(self) -> None:
        """Replace the writer if it answered nothing for `answer_wait` seconds."""
        self._watch = None
        process = self.process
        if process is None or not self._sent:
            return
        assert self.loop is not None
        if self.loop.time() < self._silent_since + self.answer_wait:  # it answered meanwhile
            self._watching()
            return
        log.warning(
            "the writer process %d answered nothing for %g s: replaced", process.pid, self.answer_wait
        )
        process.kill()
        self._let_go(
            process,
            f"The store's writer process answered nothing for {self.answer_wait:g} s and was replaced; "
            "this write's outcome is unknown: retry it (with its action_id).",
            WriterStuck,
        )
        _reap(process)

    def _start(self) -> subprocess.Popen[bytes]:
        assert self.loop is not None
        process = subprocess.Popen(
            [sys.executable, "-m", __name__, self.url], stdin=subprocess.PIPE, stdout=subprocess.PIPE
        )
        assert process.stdin is not None and process.stdout is not None
        os.set_blocking(process.stdin.fileno(), False)
        os.set_blocking(process.stdout.fileno(), False)
        self.loop.add_reader(process.stdout.fileno(), self._read)
        self.process = process
        return process

    def _write(self) -> None:
        """Give the pipe what it takes of the unsent bytes; wait until it takes the rest."""
        process = self.process
        assert process is not None and process.stdin is not None and self.loop is not None
        fd = process.stdin.fileno()
        try:
            written = os.write(fd, self._unsent)
        except BlockingIOError:
            written = 0
        except OSError:  # the process is gone: its end of the pipe tells `_read`
            self.loop.remove_writer(fd)
            return
        del self._unsent[:written]
        if self._unsent:
            self.loop.add_writer(fd, self._write)
        else:
            self.loop.remove_writer(fd)

    def _read(self) -> None:
        process = self.process
        assert process is not None and process.stdout is not None
        try:
            data = os.read(process.stdout.fileno(), READ_SIZE)
        except BlockingIOError:
            return
        except OSError:
            data = b""
        if not data:
            self._stopped()
            return
        self._received += data
        while len(self._received) >= _HEADER.size:
            (size,) = _HEADER.unpack_from(self._received)
            end = _HEADER.size + size
            if len(self._received) < end:
                return
            answers = _ANSWERS.decode(bytes(self._received[_HEADER.size : end]))
            del self._received[:end]
            batch = self._sent.popleft()
            assert self.loop is not None
            self._silent_since = self.loop.time()
            if not self._sent and self._watch is not None:
                self._watch.cancel()
                self._watch = None
            if batch.pong is not None:
                if self._pong is batch.pong:
                    self._pong = None
                if not batch.pong.done():
                    batch.pong.set_result(True)
            for future, answer in zip(batch.futures, answers, strict=True):
                if future.done():  # its waiter was cancelled: the append is written, not answered
                    continue
                if answer[0] == "ok":
                    future.set_result(answer[1])
                else:
                    future.set_exception(_error(answer[1], answer[2]))

    def _stopped(self) -> None:
        """The process ended: fail what it had not answered; the next batch starts a new one."""
        process = self.process
        if process is None:
            return
        self._let_go(process, "the writer process ended before it answered")
        _reap(process)

    def _let_go(
        self, process: subprocess.Popen[bytes], why: str, error: type[WriterStopped] = WriterStopped
    ) -> None:
        """Forget `process` (its pipes closed, so it exits once its batch is written), and fail
        every append it had not answered, since its outcome is unknown."""
        assert process.stdin is not None and process.stdout is not None and self.loop is not None
        self.process = None
        if self._watch is not None:
            self._watch.cancel()
            self._watch = None
        self._pong = None
        if not self.loop.is_closed():
            self.loop.remove_reader(process.stdout.fileno())
            self.loop.remove_writer(process.stdin.fileno())
        process.stdin.close()
        process.stdout.close()
        while self._sent:
            batch = self._sent.popleft()
            for future in batch.futures:
                if not future.done() and not future.get_loop().is_closed():
                    future.set_exception(error(why))
            if batch.pong is not None and not batch.pong.done() and not batch.pong.get_loop().is_closed():
                batch.pong.set_result(False)
        self._received.clear()
        self._unsent.clear()

    async def _drain(self) -> None:
        """Wait (on the loop) until every batch sent is answered, then let the process go."""
        deadline = asyncio.get_running_loop().time() + CLOSE_WAIT
        while (self._sent or self._queue) and self.process is not None:
            if asyncio.get_running_loop().time() > deadline:
                break
            await asyncio.sleep(0.01)
        if self.process is not None:
            self._let_go(self.process, "the store closed before the writer process answered")

    def close(self) -> None:
        """End the writer once it has answered what it was sent (the store is closing). From
        another thread than its loop's, this waits for those answers; on the loop itself, or
        once the loop stopped, what is unanswered fails."""
        loop, process = self.loop, self.process
        if loop is None or process is None:
            return
        if loop.is_running() and not _on(loop):
            done = asyncio.run_coroutine_threadsafe(self._drain(), loop)
            try:
                done.result(timeout=CLOSE_WAIT + 1)
            except Exception:  # the loop stopped meanwhile, or the wait ran out
                if self.process is process:
                    self._let_go(process, "the store closed before the writer process answered")
        else:
            self._let_go(process, "the store closed before the writer process answered")
        _reap(process)


def _on(loop: asyncio.AbstractEventLoop) -> bool:
    try:
        return asyncio.get_running_loop() is loop
    except RuntimeError:
        return False


def _reap(process: subprocess.Popen[bytes]) -> None:
    try:
        process.wait(timeout=CLOSE_WAIT)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


# -- the writer process ---------------------------------------------------------------------


def _answer(append: Any) -> Answer:
    if append.error is None:
        return ("ok", list(append.outcome) if append.outcome is not None else None)
    return ("error", type(append.error).__name__, str(append.error))


def _batches(source: int) -> Iterator[list[list[list[Row]]]]:
    """The batches read from the file descriptor `source`, until it ends: each time, every
    batch already waiting in the pipe (at least one), so that what the server sent while the
    last commit synced is written in one transaction, as group commit does in a thread."""
    pending = bytearray()
    ended = False
    while not ended:
        while not _framed(pending) or select.select([source], [], [], 0)[0]:
            data = os.read(source, READ_SIZE)
            if not data:  # the server closed its end: what it sent whole is still written
                ended = True
                break
            pending += data
        batches: list[list[list[Row]]] = []
        while _framed(pending):
            end = _HEADER.size + _HEADER.unpack_from(pending)[0]
            batches.append(_BATCH.decode(bytes(pending[_HEADER.size : end])))
            del pending[:end]
        if batches:
            yield batches


def _framed(pending: bytearray) -> bool:
    """Whether `pending` starts with a whole frame."""
    return len(pending) >= _HEADER.size and len(pending) >= _HEADER.size + _HEADER.unpack_from(pending)[0]


def _append(rows: list[Row]) -> Append:
    """An append as sent: its stream id stays the text the store keeps (`stream_hex`)."""
    return Append([StoredEvent(s, v, topic, state) for s, v, topic, state in rows], {}, waited=False)


def serve(url: str, source: int, sink: BinaryIO) -> None:
    """Write the batches read from the file descriptor `source` and answer each on `sink`, until
    `source` ends. Batches waiting together are written in one transaction."""
    from store.core import Core
    from store.group_commit import GroupCommitSQLiteRecorder
    from store.stamping import Stamper

    chronicle = Core(url)
    try:
        recorder = chronicle.recorder
        assert isinstance(recorder, GroupCommitSQLiteRecorder)
        recorder.prepare = stamper = Stamper()
        for sent in _batches(source):
            batches = [[_append(rows) for rows in batch] for batch in sent]
            appends = [append for batch in batches for append in batch]
            try:
                if appends:  # none: pings, answered in their turn
                    recorder._write_batch(appends)
            except Exception as error:  # raised before the batch was written (no connection)
                for append in appends:
                    if not append.done:
                        append.fail(error)
            stamper.written(appends)
            sink.write(b"".join(_frame(_ENCODE([_answer(a) for a in batch])) for batch in batches))
            sink.flush()
    finally:
        chronicle.close()


def main() -> None:
    # A stopping server (Ctrl-C reaches the whole process group; a service manager may signal
    # every process) still needs the commits of the requests it finishes: the writer ends when
    # its input does, which the server's end or death closes.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    # Only frames go to the pipe: anything printed goes to the server's standard error.
    sink = os.fdopen(os.dup(sys.stdout.fileno()), "wb")
    os.dup2(sys.stderr.fileno(), sys.stdout.fileno())
    with contextlib.suppress(BrokenPipeError):
        serve(sys.argv[1], sys.stdin.fileno(), sink)


if __name__ == "__main__":
    main()
