"""What the operator sets by environment for the HTTP edge: who may create games, and how many
writes a token and a client address may make.

- `CHRONICLE_CREATE`: `open` (default: anyone may create a game) or `token` (`POST /games`
  needs the administrator token or one of `CHRONICLE_CREATE_TOKENS`, a comma-separated list).
- `CHRONICLE_WRITE_LIMIT_TOKEN`, `CHRONICLE_WRITE_LIMIT_ADDRESS`: writes (every POST and
  DELETE) per bearer token and per client address, as `COUNT/UNIT` (unit `second`, `minute`,
  `hour` or `day`) or `off`; defaults `6000/minute` and `60000/minute`, far above a table's
  pace and the benchmarks', so that only a flood meets them.
- `CHRONICLE_REDIS`: a `redis://` URL; the counters then live in Redis and every server process
  shares them. Without it each process counts alone, in memory.
- `CHRONICLE_TRUSTED_PROXIES`: the proxies whose `X-Forwarded-For` and `X-Forwarded-Proto` name
  the client (`chronicle serve` hands them to uvicorn), as addresses or networks separated by
  commas, or `*` for any. None by default: a client could otherwise name any address it likes
  (the write limit per address counts it), even from the server's own machine.
- `CHRONICLE_ACCESS_LOG`: where the access log's JSON lines go (api/access_log.py): `stderr`,
  `off`, or a file path. `off` by default here; `chronicle serve` sets `stderr` unless told
  otherwise (`--access-log`), in place of uvicorn's own access log, which would print query
  strings whole.
"""

from __future__ import annotations

import hmac
import ipaddress
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal, NamedTuple, get_args

from store.errors import Forbidden, Unauthorized
from store.limits import MAX_TOKEN

Unit = Literal["second", "minute", "hour", "day"]
CreatePolicy = Literal["open", "token"]


class SettingsError(ValueError):
    """An environment variable the server cannot start with."""


class Rate(NamedTuple):
    limit: int
    unit: Unit

    def __str__(self) -> str:
        return f"{self.limit}/{self.unit}"


def parse_rate(name: str, text: str) -> Rate | None:
    """`COUNT/UNIT` (`600/minute`) or `off` (None)."""
    if text.strip().lower() == "off":
        return None
    count, _, unit = text.strip().partition("/")
    if not count.isdigit() or int(count) < 1 or unit not in get_args(Unit):
        raise SettingsError(
            f"{name} takes COUNT/UNIT with a unit of second, minute, hour or day (like 600/minute), "
            f"or off; not {text!r}"
        )
    return Rate(int(count), unit)  # type: ignore[arg-type]


def parse_proxies(name: str, text: str) -> tuple[str, ...]:
    """Addresses and networks separated by commas (`10.0.0.7,10.1.0.0/16`), or `*`."""
    proxies = tuple(p.strip() for p in text.split(",") if p.strip())
    for proxy in proxies:
        if proxy == "*":
            continue
        try:
            ipaddress.ip_network(proxy, strict=False)
        except ValueError:
            raise SettingsError(
                f"{name} takes IP addresses or networks separated by commas (like 10.0.0.7,10.1.0.0/16), "
                f"or *; not {proxy!r}"
            ) from None
    return proxies


TOKEN_RATE = Rate(6000, "minute")
ADDRESS_RATE = Rate(60000, "minute")


@dataclass(frozen=True)
class EdgeSettings:
    create: CreatePolicy = "open"
    create_tokens: tuple[str, ...] = ()
    token_rate: Rate | None = TOKEN_RATE
    address_rate: Rate | None = ADDRESS_RATE
    redis_url: str | None = None
    redis_namespace: str = "chronicle"
    access_log: str = "off"
    trusted_proxies: tuple[str, ...] = ()

    @classmethod
    def from_env(cls, env: Mapping[str, str] | None = None) -> EdgeSettings:
        env = os.environ if env is None else env
        create = env.get("CHRONICLE_CREATE", "open").strip().lower() or "open"
        if create not in get_args(CreatePolicy):
            raise SettingsError(f"CHRONICLE_CREATE takes open or token, not {create!r}")
        tokens = tuple(t.strip() for t in env.get("CHRONICLE_CREATE_TOKENS", "").split(",") if t.strip())
        if any(len(t) > MAX_TOKEN or " " in t for t in tokens):
            raise SettingsError(f"a creation token is one word of at most {MAX_TOKEN} characters")
        if create == "token" and not tokens and not env.get("CHRONICLE_ADMIN_TOKEN"):
            raise SettingsError(
                "CHRONICLE_CREATE=token needs CHRONICLE_CREATE_TOKENS or CHRONICLE_ADMIN_TOKEN: "
                "else nobody could create a game"
            )
        redis_url = env.get("CHRONICLE_REDIS") or None
        if redis_url is not None and not redis_url.startswith(("redis://", "rediss://", "unix://")):
            raise SettingsError(f"CHRONICLE_REDIS takes a redis:// URL, not {redis_url!r}")
        access_log = env.get("CHRONICLE_ACCESS_LOG", "").strip() or "off"
        if access_log.lower() in ("off", "stderr"):
            access_log = access_log.lower()
        elif not Path(access_log).parent.is_dir():
            raise SettingsError(
                "CHRONICLE_ACCESS_LOG takes stderr, off or a file in an existing directory, "
                f"not {access_log!r}"
            )
        return cls(
            access_log=access_log,
            create=create,  # type: ignore[arg-type]
            create_tokens=tokens,
            token_rate=_rate(env, "CHRONICLE_WRITE_LIMIT_TOKEN", TOKEN_RATE),
            address_rate=_rate(env, "CHRONICLE_WRITE_LIMIT_ADDRESS", ADDRESS_RATE),
            redis_url=redis_url,
            trusted_proxies=parse_proxies(
                "CHRONICLE_TRUSTED_PROXIES", env.get("CHRONICLE_TRUSTED_PROXIES", "")
            ),
        )

    def check_create(self, token: str | None, admin: bool) -> None:
        """Whether `token` may create a game under the creation policy."""
        if self.create == "open" or admin:
            return
        if token is None:
            raise Unauthorized("Creating a game on this server needs a creation token.")
        given = token.encode()
        if not any(hmac.compare_digest(given, allowed.encode()) for allowed in self.create_tokens):
            raise Forbidden(
                "This token may not create games; ask the server's operator for a creation token.",
                code="creation_not_allowed",
            )


def _rate(env: Mapping[str, str], name: str, default: Rate | None) -> Rate | None:
    text = env.get(name)
    return default if text is None or not text.strip() else parse_rate(name, text)
