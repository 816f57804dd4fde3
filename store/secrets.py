"""What a game keeps out of its own stream: the server seed and the hashed access tokens.

They live in a separate aggregate, so reading a game's events can never reveal them. Tokens
are random, shown once at creation, stored as SHA-256 hashes and compared in constant time.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from uuid import UUID, uuid5

from eventsourcing.domain import Aggregate

_NAMESPACE = UUID("7d4c4e51-6f0c-4f43-9b53-5d1f3f6b0c2a")


def secrets_id(game_id: UUID) -> UUID:
    return uuid5(_NAMESPACE, f"secrets:{game_id}")


def new_token() -> str:
    """32 URL-safe characters that never begin with a dash: a command line reads
    `--token -x...` as an option, not as the token."""
    while True:
        token = secrets.token_urlsafe(24)
        if not token.startswith("-"):
            return token


def hmac_equal(a: str, b: str) -> bool:
    return hmac.compare_digest(a.encode(), b.encode())


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class GameSecrets(Aggregate):
    TOPIC = "chronicle:GameSecrets"

    class Created(Aggregate.Created):
        TOPIC = "chronicle:GameSecrets.Created"
        game_id: str
        server_seed: str
        token_hashes: dict[str, str]

    def __init__(self, game_id: str, server_seed: str, token_hashes: dict[str, str]) -> None:
        self.game_id = game_id
        self.server_seed = server_seed
        self.token_hashes = token_hashes

    @classmethod
    def seal(cls, game_id: UUID, server_seed: bytes | None, tokens: dict[str, str]) -> GameSecrets:
        return cls._create(
            cls.Created,
            id=secrets_id(game_id),
            game_id=str(game_id),
            server_seed=server_seed.hex() if server_seed is not None else "",
            token_hashes={role: hash_token(token) for role, token in tokens.items()},
        )

    def role_of(self, token: str) -> str | None:
        """The role (`recorder` or `seat:<id>`) a token grants, compared in constant time."""
        digest = hash_token(token)
        found = None
        for role, stored in self.token_hashes.items():
            if hmac.compare_digest(digest, stored):
                found = role
        return found
