"""A Chronicle server as a game source, over its HTTP API (README.md, design.md 6).

The server redacts for the bearer token, so `--as` cannot widen what a token sees: over a
server it accepts only `public` (the request is then sent without the token).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from uuid import UUID

import httpx
import msgspec

from domain.ruleset import GameConfig, get_ruleset
from replay_cli.errors import CliError, UsageError, rejection_line
from replay_cli.reading import EventLine, Filters, GameInfo, GameRow, KeptTimeline, Snapshot, with_notes
from store.audit import AuditReport

PAGE = 100
PREFIX_MIN = 4


class RemoteClient:
    def __init__(self, base_url: str, token: str | None, timeout: float = 30.0) -> None:
        if not base_url.startswith(("http://", "https://")):
            raise UsageError(f"--server takes an http:// or https:// URL, not {base_url!r}")
        self.base_url = base_url.rstrip("/")
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.http = httpx.Client(base_url=self.base_url, headers=headers, timeout=timeout)

    def get(self, path: str, **params: object) -> Any:
        query = {k: v for k, v in params.items() if v is not None}
        return self._send("GET", path, params=query)

    def post(self, path: str, body: dict[str, Any]) -> Any:
        """A write: the server's answer, or its problem as a CliError (a rejection on one
        line with its code and rule)."""
        return self._send("POST", path, json=body)

    def get_bytes(self, path: str, **params: object) -> bytes:
        """A read whose answer is kept as the server sent it (an export)."""
        query = {k: v for k, v in params.items() if v is not None}
        return self._request("GET", path, params=query).content

    def send(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        """Any other write (`PATCH`, `DELETE`): the answer, None for an empty one."""
        return self._send(method, path, **({"json": body} if body is not None else {}))

    def _send(self, method: str, path: str, **request: Any) -> Any:
        response = self._request(method, path, **request)
        if response.status_code == 204:
            return None
        try:
            return response.json()
        except ValueError:
            raise CliError(
                f"the server at {self.base_url} answered {path} with something that is not JSON"
            ) from None

    def _request(self, method: str, path: str, **request: Any) -> httpx.Response:
        try:
            response = self.http.request(method, path, **request)
        except httpx.InvalidURL as error:
            raise UsageError(f"bad server URL {self.base_url!r}: {error}") from None
        except httpx.HTTPError as error:
            raise CliError(
                f"cannot reach the server at {self.base_url}: {error or type(error).__name__}"
            ) from None
        if response.status_code >= 400:
            raise _problem(response)
        return response

    def close(self) -> None:
        self.http.close()


def _problem(response: httpx.Response) -> CliError:
    """An RFC 9457 problem (or whatever the server sent) as one line."""
    try:
        body = response.json()
    except ValueError:
        body = None
    status = response.status_code
    if not isinstance(body, dict):
        return CliError(f"the server answered HTTP {status} {response.reason_phrase}", http=status)
    code = str(body.get("code") or "")
    detail = str(body.get("detail") or body.get("title") or response.reason_phrase)
    if status == 422 and code:
        line = rejection_line(code, detail, body.get("rule"), body.get("spec_code"))
        return CliError(line, code=code, http=status, detail=detail)
    suffix = f" ({code})" if code else f" (HTTP {status})"
    return CliError(detail.rstrip(".") + suffix, code=code or None, http=status, detail=detail)


def remote_seat(spec: str, seats: dict[str, str]) -> str:
    """A seat of a served game from its id or its player's name (case-insensitive), as the
    local store takes them (`replay_cli.local.resolve_seat`)."""
    wanted = spec.removeprefix("player:").casefold()
    for seat, name in seats.items():
        if wanted in (seat.casefold(), name.casefold()):
            return seat
    listed = ", ".join(f"{seat} ({name})" for seat, name in seats.items())
    raise UsageError(f"{spec!r} is not a seat of this game: {listed}")


def _seats(value: Any) -> dict[str, str]:
    """Seats as {id: name}, whether the server sends a mapping or a list of {id, name}."""
    if isinstance(value, dict):
        return {str(k): str(v) for k, v in value.items()}
    if isinstance(value, list):
        return {str(s["id"]): str(s.get("name", s["id"])) for s in value if isinstance(s, dict)}
    return {}


class RemoteReader:
    def __init__(self, client: RemoteClient, viewer: str | None) -> None:
        if viewer not in (None, "public"):
            raise UsageError("over a server the token decides what you see; --as takes only 'public' there")
        if viewer == "public":
            client.http.headers.pop("Authorization", None)
        self.client = client
        self._paths: dict[str, str] = {}

    def resolve(self, game: str, *, variations: bool = True) -> str:
        """A full game (or variation) id, or a unique prefix of at least 4 characters, looked
        up among the games the server lists and, when none matches, their variations (the
        rule of the local store: replay_cli/local.py `resolve_id`)."""
        found = self._find(game, "game", lambda: [row.game_id for row in self.games(Filters())])
        if found is None and variations:
            found = self._find(game, "variation", lambda: self._listed("variations", "variation_id"))
        if found is None:
            nor = ", nor any variation" if variations else ""
            raise CliError(f"no game on the server starts with {game!r}{nor}")
        return found

    def resolve_dispute(self, text: str) -> str:
        """A dispute by its full id or a unique prefix, among the disputes over the games the
        server lists."""
        found = self._find(text, "dispute", lambda: self._listed("disputes", "dispute_id"))
        if found is None:
            raise CliError(f"no dispute on the server starts with {text!r}")
        return found

    def _find(self, text: str, kind: str, ids: Callable[[], list[str]]) -> str | None:
        try:
            return str(UUID(text.strip()))
        except ValueError:
            pass
        prefix = text.strip().lower()
        if len(prefix) < PREFIX_MIN or any(c not in "0123456789abcdef-" for c in prefix):
            raise UsageError(
                f"a {kind} is its id or a unique prefix of at least {PREFIX_MIN} hex digits, not {text!r}"
            )
        found = [i for i in ids() if i.startswith(prefix) or i.replace("-", "").startswith(prefix)]
        if len(found) > 1:
            raise CliError(f"{text!r} is the start of {len(found)} {kind}s: give more of the id")
        return found[0] if found else None

    def _listed(self, what: str, field: str) -> list[str]:
        """The ids of every game's variations or disputes (`what`), as the server lists them."""
        ids: list[str] = []
        for game_id in self.game_ids():
            try:
                answer = self.client.get(f"/games/{game_id}/{what}")
            except CliError as error:
                if error.http in (401, 403, 404):  # a game withheld from this token
                    continue
                raise
            items = answer.get(what, []) if isinstance(answer, dict) else answer
            ids += [str(item[field]) for item in items if isinstance(item, dict) and field in item]
        return ids

    def _path(self, game_id: str) -> str:
        """`/games/ID`, or `/variations/ID` for a variation (read like a game)."""
        found = self._paths.get(game_id)
        if found is None:
            try:
                self.client.get(f"/games/{game_id}")
                found = f"/games/{game_id}"
            except CliError as error:
                if error.code != "game_not_found":
                    raise
                self.client.get(f"/variations/{game_id}")  # neither: this one's 404 is the answer
                found = f"/variations/{game_id}"
            self._paths[game_id] = found
        return found

    def _game(self, game_id: str) -> dict[str, Any]:
        path = self._path(game_id)
        found = self.client.get(path)
        assert isinstance(found, dict)
        if path.startswith("/variations/"):  # its summary, with the prompts its state shows
            found |= {"game_id": game_id, "prompts": self.client.get(f"{path}/state").get("prompts")}
        return found

    def raw_events(self, game_id: str) -> list[dict[str, Any]]:
        events = self.client.get(f"{self._path(game_id)}/events")["events"]
        assert isinstance(events, list)
        return events

    def events(self, game_id: str) -> list[EventLine]:
        return with_notes([_line(e) for e in self.raw_events(game_id)], self.annotations(game_id))

    def annotations(self, game_id: str) -> list[dict[str, Any]]:
        """The annotations the token may read (none from a server that keeps none)."""
        try:
            found = self.client.get(f"/games/{game_id}/annotations")["annotations"]
        except CliError as error:
            if error.code in ("not_found", "route_not_found"):
                return []
            raise
        assert isinstance(found, list)
        return found

    def snapshot(self, game_id: str, at: int | None) -> Snapshot:
        game = self._game(game_id)
        info = _info(game)
        if at is not None and not 1 <= at <= info.version:
            raise UsageError(f"--at {at} is outside this game's versions 1..{info.version}")
        return self.state_at(game_id, info, at, game.get("prompts"))

    def state_at(
        self, game_id: str, info: GameInfo, at: int | None, prompts: list[dict[str, Any]] | None = None
    ) -> Snapshot:
        found = self.client.get(f"{self._path(game_id)}/state", at=at)
        version = int(found["version"])
        return Snapshot(
            info=info,
            version=version,
            viewer=str(found.get("view", "")),
            status=str(found.get("status", "")),
            state=found.get("state") or {},
            # The server serves only the current prompts.
            prompts=prompts if version == info.version else None,
            outcome=found.get("outcome"),
        )

    def audit(self, game_id: str) -> AuditReport:
        return msgspec.convert(self.client.get(f"{self._path(game_id)}/audit"), AuditReport)

    def game_ids(self) -> list[str]:
        return [row.game_id for row in self.games(Filters())]

    def games(self, filters: Filters) -> list[GameRow]:
        rows: list[GameRow] = []
        while True:
            page = self.client.get(
                "/games",
                ruleset=filters.ruleset,
                player=filters.player,
                status=filters.status,
                tag=filters.tag,
                offset=len(rows),
                limit=PAGE,
            )
            games = page.get("games", [])
            rows += [
                GameRow(
                    g["game_id"],
                    g.get("ruleset", "?"),
                    g.get("mode", "?"),
                    list(g.get("players", [])),
                    g.get("status", "?"),
                    list(g.get("winners", [])),
                    list(g.get("tags", [])),
                    str(g.get("title", "")),
                )
                for g in games
            ]
            if not games or len(rows) >= int(page.get("total", len(rows))):
                return rows

    def timeline(self, game_id: str) -> FetchedTimeline:
        game = self._game(game_id)
        timeline = FetchedTimeline(self, _info(game), self.raw_events(game_id), game.get("prompts"))
        timeline.attach(self.annotations(game_id))
        return timeline

    def close(self) -> None:
        self.client.close()


def _line(event: dict[str, Any]) -> EventLine:
    """One served event; `retracted` marks an action (or its fact) undone by a later
    retraction (a server from before corrections sends no such field)."""
    return EventLine(event["version"], event["type"], event["text"], bool(event.get("retracted", False)))


def _info(game: dict[str, Any]) -> GameInfo:
    return GameInfo(
        game_id=str(game["game_id"]),
        ruleset=str(game.get("ruleset", "?")),
        mode=str(game.get("mode", "?")),
        seats=_seats(game.get("seats")),
        version=int(game["version"]),
        status=str(game.get("status", "?")),
    )


class FetchedTimeline(KeptTimeline):
    """Every version of a game on a server: the event lines at once, each state when it is
    first shown (and kept). Turn numbers come from folding the served facts with the local
    ruleset; when that is impossible (not installed, or facts redacted beyond what `evolve`
    takes) the replay simply offers no turn jumps."""

    def __init__(
        self,
        reader: RemoteReader,
        info: GameInfo,
        events: list[dict[str, Any]],
        prompts: list[dict[str, Any]] | None,
    ) -> None:
        super().__init__(info, [_line(e) for e in events], _fold_turns(info, events))
        self._reader = reader
        self._prompts = prompts

    def attach(self, annotations: list[dict[str, Any]]) -> None:
        self._lines = with_notes(self._lines, annotations)

    def _make_snapshot(self, version: int) -> Snapshot:
        return self._reader.state_at(self.info.game_id, self.info, version, self._prompts)


def _fold_turns(info: GameInfo, events: list[dict[str, Any]]) -> list[tuple[int, str | None]] | None:
    ruleset = get_ruleset(info.ruleset)
    if ruleset is None or not events or events[0].get("type") != "created":
        return None
    created = events[0]["data"]
    try:
        config = GameConfig.from_record(info.game_id, {"ruleset": info.ruleset, **created})
        state = ruleset.initial(config)
        turns = []
        before: dict[int, Any] = {}  # the state before each action, for a retraction to restore
        for event in events:
            if event["type"] == "fact":
                state = ruleset.evolve(state, ruleset.codec.decode_fact(event["data"]))
            elif event["type"] == "action":
                before[int(event["data"]["seq"])] = state
            elif event["type"] == "retraction":
                state = before[min(int(s) for s in event["data"]["seqs"])]
            turns.append(ruleset.progress(state))
    # A redacted fact may not decode or fold; turn jumps are a convenience, so do without.
    except Exception:
        return None
    return turns
