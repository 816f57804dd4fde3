"""Verifiable randomness: the `hmac-sha256-v1` algorithm (design.md section 4).

Every random operation is a pure function of (server seed, game id, client seed, stream, n).
The seed is drawn once per game from a CSPRNG (outside `domain/`), published only as its
SHA-256 commitment, and revealed when the game ends, so anyone can recompute every outcome.

Draws hash their words in one batch: block k of a draw's word stream is SHA-256 of its sub-seed
and k, so a draw that knows how many words it takes hashes those blocks at once, and any further
block (after a rejected word) is hashed as it is asked for; the words are the same.

Mutants `bench/mutation.py` lets through that no behaviour can tell from this code: dropping
`"big"` from `to_bytes` (big-endian is its default since Python 3.11); any change
to the message of the AssertionError after the endless word stream (unreachable); the default
`count` of `NoRng.roll` (it raises before using it); the number of blocks `roll` and `shuffle`
hash at once, while it stays a count (`_words`: the words are the same whatever the batch);
`>` for `>=` in `_permute`'s first test (a word equal to `sure` is below every limit too);
the digest named `"SHA256"` rather than `"sha256"` (hashlib takes either).
"""

from __future__ import annotations

import hashlib
import hmac
import struct
from collections.abc import Callable, Iterator, Mapping, Sequence
from itertools import chain
from typing import Protocol, TypeVar

ALGORITHM = "hmac-sha256-v1"

T = TypeVar("T")

_TWO_64 = 2**64


def commitment(server_seed: bytes) -> str:
    """The public commitment to a seed: lowercase hex SHA-256."""
    return hashlib.sha256(server_seed).hexdigest()


def _key(server_seed: bytes, game_id: str, client_seed: str, stream: str, n: int) -> bytes:
    """The sub-seed of one draw: HMAC-SHA256 of `game_id|client_seed|stream|n` under the seed."""
    return hmac.digest(server_seed, f"{game_id}|{client_seed}|{stream}|{n}".encode(), "sha256")


def _blocks(sub: bytes, first: int, count: int) -> tuple[int, ...]:
    """The words of blocks `first` to `first + count - 1`: block k is SHA-256 of the sub-seed
    and k as 8 big-endian bytes, read as four big-endian 64-bit words."""
    sha256 = hashlib.sha256
    digests = [sha256(sub + k.to_bytes(8, "big")).digest() for k in range(first, first + count)]
    return struct.unpack(f">{4 * count}Q", b"".join(digests))


def _after(sub: bytes, k: int) -> Iterator[int]:
    """The words from block k on, a block at a time."""
    while True:
        yield from _blocks(sub, k, 1)
        k += 1


def _words(sub: bytes, batch: int) -> Iterator[int]:
    """The endless word stream of a sub-seed: the first `batch` blocks hashed at once (as many
    as a draw needs unless a word is rejected), the rest one at a time as they are asked for.
    The words are the same whatever the batch."""
    return chain(_blocks(sub, 0, batch), _after(sub, batch))


def _uniform(words: Iterator[int], m: int) -> int:
    if m < 1:
        raise ValueError("uniform() needs at least one outcome")
    limit = _TWO_64 - (_TWO_64 % m)
    for u in words:
        if u < limit:
            return u % m
    raise AssertionError("unreachable: the word stream is endless")


def _permute(items: Sequence[T], word: Callable[[], int]) -> tuple[T, ...]:
    """Fisher-Yates from the last item down, each index drawn as `_uniform` draws it. A word
    below 2**64 minus the number of items is below every limit, so only a word above that
    (about one in 2**60) needs its limit computed to know whether it is rejected."""
    out = list(items)
    sure = _TWO_64 - len(out)
    for i in range(len(out) - 1, 0, -1):
        m = i + 1
        u = word()
        if u >= sure:
            limit = _TWO_64 - (_TWO_64 % m)
            while u >= limit:
                u = word()
        j = u % m
        out[i], out[j] = out[j], out[i]
    return tuple(out)


class Rng(Protocol):
    """What a ruleset may ask of randomness. Callers pass the stream counter `n` from state,
    so the same (stream, n) always gives the same outcome and a replay never re-rolls."""

    def roll(self, stream: str, n: int, faces: int, count: int = 1) -> tuple[int, ...]: ...

    def shuffle(self, stream: str, n: int, items: Sequence[T]) -> tuple[T, ...]: ...


class SeededRng:
    """`hmac-sha256-v1` over one game's seeds."""

    algorithm = ALGORITHM

    def __init__(self, server_seed: bytes, game_id: str, client_seed: str = "") -> None:
        self._seed = server_seed
        self._game_id = game_id
        self._client_seed = client_seed

    def roll(self, stream: str, n: int, faces: int, count: int = 1) -> tuple[int, ...]:
        sub = _key(self._seed, self._game_id, self._client_seed, stream, n)
        words = _words(sub, (count + 3) // 4)
        return tuple(1 + _uniform(words, faces) for _ in range(count))

    def shuffle(self, stream: str, n: int, items: Sequence[T]) -> tuple[T, ...]:
        """Fisher-Yates (`_permute`): one word per item but the first, hashed in one batch."""
        sub = _key(self._seed, self._game_id, self._client_seed, stream, n)
        return _permute(items, _words(sub, (len(items) + 2) // 4).__next__)


class NoRng:
    """The randomness of a physical game: the table rolls, so the engine never may."""

    def roll(self, stream: str, n: int, faces: int, count: int = 1) -> tuple[int, ...]:
        raise RuntimeError(f"a physical game cannot draw from stream {stream!r}")

    def shuffle(self, stream: str, n: int, items: Sequence[T]) -> tuple[T, ...]:
        raise RuntimeError(f"a physical game cannot shuffle stream {stream!r}")


class ScriptedRng:
    """Outcomes fixed in advance, for worked examples that name a seed (design.md section 4).

    Each outcome names the stream and counter it answers: `rolls[(stream, n)]` is the tuple of
    faces, `shuffles[(stream, n)]` the resulting order. Like the seeded source, the same
    (stream, n) always gives the same outcome (a refused action that is entered again draws
    again with the same counter). Asking for a (stream, n) that was not scripted, dice or items
    that do not fit, or ending with a scripted outcome never asked for (`assert_all_drawn`), is
    an error in the test: a ruleset that reuses or skips a counter is caught.
    """

    def __init__(
        self,
        rolls: Mapping[tuple[str, int], tuple[int, ...]] | None = None,
        shuffles: Mapping[tuple[str, int], Sequence[object]] | None = None,
    ) -> None:
        self._rolls = {key: tuple(outcome) for key, outcome in (rolls or {}).items()}
        self._shuffles = {key: list(order) for key, order in (shuffles or {}).items()}
        self._drawn: set[tuple[str, str, int]] = set()

    def roll(self, stream: str, n: int, faces: int, count: int = 1) -> tuple[int, ...]:
        outcome = self._rolls.get((stream, n))
        if outcome is None:
            raise AssertionError(
                f"no roll is scripted for stream {stream!r} n {n} (scripted: {self.scripted()})"
            )
        if len(outcome) != count or not all(1 <= f <= faces for f in outcome):
            raise AssertionError(f"scripted roll {outcome} for {stream!r} n {n} does not fit {count}d{faces}")
        self._drawn.add(("roll", stream, n))
        return outcome

    def shuffle(self, stream: str, n: int, items: Sequence[T]) -> tuple[T, ...]:
        order = self._shuffles.get((stream, n))
        if order is None:
            raise AssertionError(
                f"no shuffle is scripted for stream {stream!r} n {n} (scripted: {self.scripted()})"
            )
        if sorted(map(repr, order)) != sorted(map(repr, items)):
            raise AssertionError(f"scripted shuffle {order} is not a permutation of {list(items)}")
        self._drawn.add(("shuffle", stream, n))
        by_repr = {repr(item): item for item in items}
        return tuple(by_repr[repr(o)] for o in order)

    def scripted(self) -> list[tuple[str, str, int]]:
        return sorted([("roll", *k) for k in self._rolls] + [("shuffle", *k) for k in self._shuffles])

    def assert_all_drawn(self) -> None:
        left = [key for key in self.scripted() if key not in self._drawn]
        if left:
            raise AssertionError(f"scripted outcomes never drawn: {left}")
