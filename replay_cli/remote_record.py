"""`chronicle record --server`: the same recording, through a server's HTTP API.

The token decides who records (the recorder's for any seat, a seat's for its own), the server
decides what is legal; the lines printed are the events the server appended, as the token
sees them.
"""

from __future__ import annotations

from typing import Any

from replay_cli.commands.record import Situation, Undone
from replay_cli.errors import UsageError
from replay_cli.reading import EventLine
from replay_cli.remote import RemoteClient, RemoteReader, _info, _line, remote_seat


class RemoteRecorder:
    def __init__(self, client: RemoteClient, game_id: str, seat: str | None) -> None:
        self.client = client
        self.game_id = game_id
        self.seat = seat

    @classmethod
    def open(cls, url: str, token: str | None, game: str, seat: str | None) -> RemoteRecorder:
        if token is None:
            raise UsageError("recording on a server needs the recorder's or a seat's token (--token)")
        client = RemoteClient(url, token)
        try:
            game_id = RemoteReader(client, None).resolve(game, variations=False)
            if seat is not None:
                seat = remote_seat(seat, _info(client.get(f"/games/{game_id}")).seats)
        except BaseException:
            client.close()
            raise
        return cls(client, game_id, seat)

    def _events(self, first: int, last: int) -> list[dict[str, Any]]:
        found = self.client.get(f"/games/{self.game_id}/events", **{"from": first, "to": last})["events"]
        assert isinstance(found, list)
        return found

    def record(self, action: str | dict[str, Any]) -> list[EventLine]:
        body: dict[str, Any] = {"action": action}
        if self.seat is not None:
            body["seat"] = self.seat
        answer = self.client.post(f"/games/{self.game_id}/actions", body)
        # `version` is the action's last fact (a game's end follows it, as the local store's
        # recorder does not show either); the action stands just before its facts.
        version = int(answer["version"])
        first = version - len(answer["facts"])
        return [_line(e) for e in self._events(first, version)]

    def undo(self, count: int, reason: str) -> Undone:
        body: dict[str, Any] = {"count": count, "reason": reason}
        if self.seat is not None:
            body["seat"] = self.seat
        answer = self.client.post(f"/games/{self.game_id}/retractions", body)
        version = int(answer["version"])
        retracted = list(answer.get("retracted") or [])
        actions: list[tuple[int, str]] = []
        if retracted:
            undone = set(retracted)
            for event in self._events(1, version):
                seq = event.get("data", {}).get("seq")
                if event["type"] == "action" and seq in undone:
                    # the action's line reads `#3 the table: move green top`
                    actions.append((int(seq), str(event["text"]).split(": ", 1)[-1]))
        return Undone(
            lines=[_line(e) for e in self._events(version, version)],
            actions=actions,
            version=version,
            waiting_for=list(answer.get("waiting_for") or []),
        )

    def legal_notation(self) -> list[str]:
        found = self.client.get(f"/games/{self.game_id}/legal-actions", seat=self.seat)["notation"]
        assert isinstance(found, list)
        return [str(n) for n in found]

    def legal_templates(self) -> list[str]:
        found = self.client.get(f"/games/{self.game_id}/legal-actions", seat=self.seat).get("templates") or []
        return [str(t) for t in found]

    def legal_explained(self) -> list[tuple[str, str]]:
        """Each legal action's notation with what it means."""
        found = self.client.get(f"/games/{self.game_id}/legal-actions", seat=self.seat)
        return [(str(n), str(e)) for n, e in zip(found["notation"], found["explanations"], strict=True)]

    def situation(self) -> Situation:
        game = self.client.get(f"/games/{self.game_id}")
        return Situation(
            _info(game), int(game["version"]), game.get("outcome"), list(game.get("prompts") or [])
        )

    def close(self) -> None:
        self.client.close()
