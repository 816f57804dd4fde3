"""Who may do what on a game: the access a bearer token grants (the administrator's, the
recorder's, a seat's, or the public's), and the game's secrets that tell its tokens apart
(store/secrets.py), kept in memory once read.

Two rules that belong to capabilities of their own are asked here and answered by the
application that plugs them in (store/app.py): whether a game is withheld while another table
plays its deal (`withhold`, store/deals.py), and whether a token is one of a game's review
tokens (`is_reviewer`, store/notes.py). On their own, the core withholds nothing and knows no
reviewer.
"""

from __future__ import annotations

import threading
from uuid import UUID

from eventsourcing.application import AggregateNotFoundError

from store.commits import SavePath
from store.errors import GameNotFound, Unauthorized
from store.requests import ADMIN, ANONYMOUS, Access, access_of
from store.secrets import GameSecrets, hmac_equal, secrets_id


class Guarded(SavePath):
    """The application's access rules. Its attributes are set by the application's
    `__init__` (store/core.py)."""

    admin_token: str | None
    _secrets: dict[UUID, GameSecrets]
    _secrets_lock: threading.Lock

    def access(self, game_id: UUID, token: str | None) -> Access:
        """The role a bearer token grants on `game_id` (anonymous without one)."""
        self.withhold(game_id, token)
        if not token:
            return ANONYMOUS
        if self.admin_token and hmac_equal(token, self.admin_token):
            return ADMIN
        role = self.secrets(game_id).role_of(token)
        if role is None:
            if self.is_reviewer(game_id, token):  # a review token reads as the public
                return ANONYMOUS
            raise Unauthorized("This token is not valid for this game.", code="invalid_token")
        return access_of(role)

    def withhold(self, subject_id: UUID, token: str | None) -> None:
        """Refuse `token` on a game, or on what derives from it (a variation, its
        annotations, its variations' list), while the game is withheld (store/deals.py):
        403 `same_deal_in_play`. The core withholds nothing: store/app.py plugs the rule in."""

    def is_reviewer(self, game_id: UUID, token: str) -> bool:
        """Whether `token` is one of the game's review tokens (store/notes.py). The core
        knows none: store/app.py plugs them in."""
        return False

    def access_in_memory(self, game_id: UUID, token: str | None) -> Access | None:
        """`access(game_id, token)` when this process can tell it without reading the store:
        the administrator's token, or one of the game's own tokens once its secrets are
        loaded; None otherwise (then ask `access`, which may read)."""
        if not token:
            return None
        if self.admin_token and hmac_equal(token, self.admin_token):
            return ADMIN
        with self._secrets_lock:
            sealed = self._secrets.get(game_id)
        role = sealed.role_of(token) if sealed is not None else None
        return access_of(role) if role is not None else None

    def is_admin(self, token: str | None) -> bool:
        return bool(token and self.admin_token and hmac_equal(token, self.admin_token))

    def secrets(self, game_id: UUID) -> GameSecrets:
        with self._secrets_lock:
            found = self._secrets.get(game_id)
        if found is None:
            try:
                found = self.repository.get(secrets_id(game_id))
            except AggregateNotFoundError:
                raise GameNotFound(f"There is no game {game_id}.") from None
            assert isinstance(found, GameSecrets)
            with self._secrets_lock:
                self._secrets[game_id] = found
        return found
