"""The engine's verdict over a range of a game: every action of the range re-decided from the
stored facts, every random outcome recomputed, each finding with the rule it rests on.

It is the audit's walk (store/audit.py) over the stored stream, from the configuration on (the
state an action answered is the fold of every fact before it), with a finding kept for each
action whose version lies in the range `first..last`:

- `legal`: the rules accept the action where it was played and derive exactly the stored
  facts (random ones recomputed from the seed); its rule is the game's rules reference;
- `illegal`: the rules refuse it; the rule and code are the rejection's (`chronicle rules`
  prints the rule);
- the audit's code for anything else (`fact_differs`, `fact_missing`, `fact_extra`,
  `fact_order`, `action_unreadable`, `action_number`, ...), with the rule it cites.

The walk stops at the first divergence: after it no state is certain, so the actions of the
range after it get no finding and the verdict says where it stopped. A divergence before the
range is the verdict's (`diverges_before`); one after it does not concern the dispute.

Pure with respect to the store: it reads events and a seed, so `chronicle verify` runs it
offline on an evidence bundle and must reach the same findings.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import msgspec

from domain.events import ActionRecorded
from store.audit import (
    AuditReport,
    Divergence,
    _created,
    _Diverged,
    _installed,
    _rng,
    _versions_in_order,
    _Walk,
)


class Finding(msgspec.Struct, omit_defaults=True):
    """One action of the range: its version and number, who it was for, the action as the
    table saw it (`#seq Name: notation`), the verdict, the rule and the facts it accounts for."""

    version: int
    seq: int
    seat: str | None
    action: str
    verdict: str  # legal, illegal, or the audit's divergence code
    rule: str
    code: str = ""  # the rejection's or the divergence's stable code
    detail: str = ""  # what differed, for a reader who sees every stored fact
    facts: int = 0  # stored facts this action accounts for (rechecked)


class Verdict(msgspec.Struct):
    game_id: str
    first: int
    last: int
    holds: bool  # every action of the range legal, with exactly its stored facts
    random_checked: bool  # random outcomes were recomputed from the seed
    findings: list[Finding]
    stopped: Divergence | None = None  # the divergence the walk stopped at, within or before the range
    summary: str = ""


class _Stop(Exception):
    pass


class _Witness(_Walk):
    """The audit's walk, keeping a finding for each action of the range."""

    def __init__(
        self,
        ruleset: Any,
        stored: list[Any],
        rng: Any,
        state: Any,
        report: AuditReport,
        first: int,
        last: int,
        config: Any,
    ) -> None:
        super().__init__(ruleset, stored, rng, state, report)
        self.first, self.last = first, last
        self.config = config
        self.findings: list[Finding] = []

    def _action(self, event: Any) -> None:
        version = event.originator_version
        if version > self.last:
            raise _Stop
        if version < self.first:
            super()._action(event)
            return
        before = self.report.facts
        try:
            super()._action(event)
        except _Diverged as found:
            divergence = found.divergence
            verdict = "illegal" if divergence.code == "action_illegal" else divergence.code
            code = _rejection_code(divergence.what) if verdict == "illegal" else divergence.code
            self._find(event, verdict, divergence.rule, code, divergence.what)
            raise
        self._find(event, "legal", self.spec, facts=self.report.facts - before)

    def _find(
        self, event: Any, verdict: str, rule: str, code: str = "", detail: str = "", facts: int = 0
    ) -> None:
        line = self._line(event)
        self.findings.append(
            Finding(event.originator_version, event.seq, event.seat, line, verdict, rule, code, detail, facts)
        )

    def _line(self, event: Any) -> str:
        who = self.config.seat_name(event.seat) if event.seat else "the table"
        try:
            shown = self.ruleset.format_action(self.ruleset.codec.decode_action(event.action))
        except (msgspec.ValidationError, TypeError, ValueError):
            shown = repr(event.action)
        return f"#{event.seq} {who}: {shown}"


def _rejection_code(what: str) -> str:
    """The rejection's code, as the audit writes it into its sentence (`...: code: message`)."""
    parts = what.split(": ")
    return parts[1] if len(parts) >= 3 else "action_illegal"


def verdict(events: Sequence[Any], seed: bytes | None, first: int, last: int) -> Verdict:
    """The verdict over `first..last` of one game's stored events, re-deciding with `seed`
    (the revealed one, or the sealed one inside the server; None: the finishing event's)."""
    from domain.ruleset import GameConfig

    stored = list(events)
    game_id = str(stored[0].originator_id) if stored else ""
    result = Verdict(game_id, first, last, True, False, [])
    report = AuditReport(game_id, True, 0, 0, random_checked=True)
    witness: _Witness | None = None
    try:
        created = _created(stored)
        ruleset = _installed(created)
        _versions_in_order(stored)
        config = GameConfig.from_record(game_id, vars(created))
        rng, _late = _rng(stored, created, config, seed, report)
        result.random_checked = created.mode == "digital" and report.random_checked
        witness = _Witness(ruleset, stored, rng, ruleset.initial(config), report, first, last, config)
        witness.run(config)
    except _Stop:
        pass
    except _Diverged as found:
        if found.divergence.version <= last:
            result.stopped = found.divergence
    if witness is not None:
        result.findings = witness.findings
    result.holds = result.stopped is None and all(f.verdict == "legal" for f in result.findings)
    result.summary = _summary(result, stored)
    return result


def _summary(result: Verdict, stored: list[Any]) -> str:
    actions = sum(
        1
        for e in stored
        if isinstance(e, ActionRecorded) and result.first <= e.originator_version <= result.last
    )
    luck = (
        "random outcomes recomputed from the seed"
        if result.random_checked
        else "no random outcome to recompute"
    )
    if result.stopped is not None and result.stopped.version < result.first:
        return (
            f"The record diverges before the range, at version {result.stopped.version} "
            f"({result.stopped.code}); the range cannot be judged from it."
        )
    if result.holds:
        return (
            f"The record holds: all {actions} actions of versions {result.first}-{result.last} "
            f"are legal ({luck})."
        )
    assert result.stopped is not None
    return (
        f"The record does not hold at version {result.stopped.version}: {result.stopped.code} "
        f"(rule {result.stopped.rule}); {len(result.findings)} of {actions} actions of the range judged."
    )
