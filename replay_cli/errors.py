"""How the `chronicle` command fails: one line on stderr and an exit status, never a traceback.

Exit statuses: 2 for usage (what the command line itself got wrong: a malformed option, an
unknown viewer, a bad seed), 1 for what the store or the server refused (an illegal action, a
game that does not exist, an unclean audit, an unreachable server).
"""

from __future__ import annotations

from domain.ruleset import Rejection

USAGE = 2
REFUSED = 1


class CliError(Exception):
    """A failure the command reports as `chronicle: error: <message>`; `code` is the stable
    code of a server's problem, when a server refused, `http` its HTTP status and `detail`
    its own sentence."""

    def __init__(
        self,
        message: str,
        status: int = REFUSED,
        code: str | None = None,
        http: int | None = None,
        detail: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.http = http
        self.detail = detail


class UsageError(CliError):
    def __init__(self, message: str) -> None:
        super().__init__(message, USAGE)


def rejection_line(code: str, message: str, rule: str | None, spec_code: str | None = None) -> str:
    """The one line an illegal action earns: its stable code (and the spec's name of it where
    that differs), the sentence, the rule."""
    where = f" [{rule}]" if rule else ""
    named = f"{code}, {spec_code} in the rules" if spec_code else code
    return f"rejected ({named}): {message}{where}"


def rejection_of(rejection: Rejection) -> str:
    return rejection_line(rejection.stable_code, rejection.message, rejection.rule, rejection.spec_code)


def rejected(rejection: Rejection) -> CliError:
    return CliError(rejection_of(rejection))
