"""The evidence bundle of a dispute, and its check offline (`chronicle verify BUNDLE`).

A bundle (`chronicle-evidence-v1`, one JSON object) holds:

- `dispute`: the claim, its range, who opened it, the rulings;
- `game`: the game id, ruleset id, rules version, mode, status and seed commitment;
- `view`: whose view of the game the bundle holds (`omniscient`, `player:<seat>`, `public`);
- `events`: the game's events up to the version it was exported at, as that viewer may see
  them. For a viewer who sees the stored events whole (everyone once the game has ended; the
  recorder and an administrator while it runs) they are the stored form, each with its digest
  (`form: "stored"`, as `chronicle export` writes them); for anybody else they are the redacted
  events the API serves (`form: "redacted"`), without digests;
- `chain`: the hash chain's algorithm and head over the stored events (stored form only);
- `seed`: the server seed once the game has ended (a digital game), null before;
- `verdict`: the verification transcript recorded when the dispute was opened (per action of
  the range: version, action, verdict, rule; store/verdict.py).

What `verify` checks, with no store and no server (only the installed rulesets):

1. the chain: every event's digest recomputed from the one before, the head, and the digest at
   the version the dispute was opened at against the one the dispute recorded then (`dispute.
   game_head`): a bundle cut short, or rechained after an event was dropped, no longer holds
   that record;
2. the events end as the game did: a finished or abandoned game's bundle ends with the event
   that closed it, and a bundle holding a seed holds the event that revealed it;
3. the seed against the commitment in the game's first event (and the finishing event's);
4. the transcript covers its range: one finding for each action of the range as the events
   show them, in order, up to where the verdict says the walk stopped, and `holds` agrees
   with the findings (so a finding dropped from its end is found in every form of bundle);
5. the verdict: the range re-decided from the bundle's events with the seed, compared finding
   by finding with the transcript.

The first divergence is reported (`Divergence`: where, what) and the check fails.

What it cannot check, and says so instead of failing:

- a redacted bundle (a seat's or the public's, of a running game): the chain is over the
  stored events, hidden facts included, and its digests are withheld from a viewer who may
  not see those facts (store/chain.py: they would let that viewer test guesses), so neither
  the chain nor a re-decision can be run on what the viewer holds, and the bundle carries no
  recorded head. Verify then checks that the bundle is whole (versions without gaps up to
  the version the dispute was opened at, the range within them) and that the findings name,
  one for one, the actions the events show in the range; the verdict itself rests on the
  server.
  The same dispute exported once the game has ended is a full bundle.
- a stored-form bundle of a running digital game (the recorder's): the chain is checked, but
  the seed is still sealed, so the actions cannot be re-decided (the rules draw from it).
- the words: the claim and the rulings are carried as the dispute recorded them; no digest
  binds them (anyone could recompute one), so the bundle proves the game and the verdict, not
  who said what.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import Mapper
from eventsourcing.persistence import StoredEvent as StoredRecord

from domain.events import ActionRecorded, GameAbandoned, GameCreated, GameFinished
from store import chain
from store.verdict import Finding, Verdict, verdict

FORMAT = "chronicle-evidence-v1"


class BundleGame(msgspec.Struct):
    game_id: str
    ruleset: str
    ruleset_version: str
    mode: str
    status: str
    commitment: str


class BundleChain(msgspec.Struct):
    algorithm: str
    head: str


class BundleDispute(msgspec.Struct):
    dispute_id: str
    first: int
    last: int
    claim: str
    opened_by: str
    opened_at: str
    game_version: int
    rulings: list[dict[str, str]]
    game_head: str = ""  # the chain's digest at `game_version` (stored form only)


class Bundle(msgspec.Struct):
    format: str
    dispute: BundleDispute
    game: BundleGame
    view: str
    form: str  # stored | redacted
    events: list[dict[str, Any]]
    chain: BundleChain | None
    seed: str | None
    verdict: Verdict


def build(app: Any, dispute_id: UUID, access: Any) -> Bundle:
    from store import disputes

    shown = disputes.show(app, dispute_id, access)
    game_id = UUID(shown.game_id)
    game = app.game(game_id)
    viewer = app.viewer(game, access)
    created = app.stored_events(game_id, lte=1)[0]
    about = BundleGame(
        str(game_id),
        game.config.ruleset,
        created.ruleset_version,
        game.config.mode,
        game.status,
        game.commitment,
    )
    record = BundleDispute(
        shown.dispute_id,
        shown.first,
        shown.last,
        shown.claim,
        shown.opened_by,
        shown.opened_at,
        shown.game_version,
        [msgspec.to_builtins(r) for r in shown.rulings],
        shown.game_head,
    )
    seed = game.revealed_seed if game.config.mode == "digital" and game.closed else None
    if viewer.kind == "omniscient":
        records = chain.records_of_rows(app.recorder.select_events(game_id))
        found = chain.check(game_id, records)
        events = [msgspec.to_builtins(r) for r in records]
        return Bundle(
            FORMAT,
            record,
            about,
            str(viewer),
            "stored",
            events,
            BundleChain(found.algorithm, found.head),
            seed,
            shown.verdict,
        )
    events = [msgspec.to_builtins(e) for e in app.read_events(game_id, access)]
    return Bundle(FORMAT, record, about, str(viewer), "redacted", events, None, seed, shown.verdict)


class Divergence(msgspec.Struct):
    check: str  # format, chain, seed, verdict, events
    version: int | None
    what: str


class Report(msgspec.Struct):
    verified: list[str]  # what was checked and holds
    unchecked: list[str]  # what could not be checked, and why
    divergence: Divergence | None
    verdict: Verdict | None  # the verdict as recomputed (or as the bundle states, when unchecked)

    @property
    def ok(self) -> bool:
        return self.divergence is None


class _Failed(Exception):
    def __init__(self, check: str, version: int | None, what: str) -> None:
        super().__init__(what)
        self.divergence = Divergence(check, version, what)


def verify(data: bytes) -> Report:
    """Check a bundle offline (see the module's docstring)."""
    report = Report([], [], None, None)
    try:
        bundle = _decode(data)
        report.verdict = bundle.verdict
        if bundle.form == "stored":
            _verify_stored(bundle, report)
        else:
            _verify_redacted(bundle, report)
    except _Failed as failed:
        report.divergence = failed.divergence
    return report


def _decode(data: bytes) -> Bundle:
    try:
        bundle = msgspec.json.decode(data, type=Bundle)
    except (msgspec.DecodeError, msgspec.ValidationError) as error:
        raise _Failed("format", None, f"this is not an evidence bundle: {error}") from None
    if bundle.format != FORMAT:
        raise _Failed("format", None, f"unknown bundle format {bundle.format!r}; expected {FORMAT}")
    if bundle.form not in ("stored", "redacted"):
        raise _Failed("format", None, f"unknown events form {bundle.form!r}")
    return bundle


def _versions(bundle: Bundle) -> list[int]:
    versions = [e.get("version") for e in bundle.events]
    if not versions or versions != list(range(1, len(versions) + 1)):
        gap = next((i + 1 for i, v in enumerate(versions) if v != i + 1), 1)
        raise _Failed("events", gap, "the events do not run from version 1 without a gap")
    dispute = bundle.dispute
    if not 1 <= dispute.first <= dispute.last <= len(versions):
        raise _Failed("events", None, f"the range {dispute.first}-{dispute.last} lies outside the events")
    if len(versions) < dispute.game_version:
        raise _Failed(
            "events",
            len(versions) + 1,
            f"the events end at version {len(versions)}, before version {dispute.game_version}, "
            "where the game stood when the dispute was opened",
        )
    return [v for v in versions if isinstance(v, int)]


def _check_findings(bundle: Bundle, actions: list[int]) -> None:
    """The transcript names, one for one and in order, the actions of its range (versions
    `actions`, as the events show them) up to the version its walk stopped at; and it holds
    exactly when none of them diverged."""
    stated, dispute = bundle.verdict, bundle.dispute
    if (stated.first, stated.last) != (dispute.first, dispute.last):
        raise _Failed("verdict", None, "the transcript is not over the dispute's range")
    stop = stated.stopped.version if stated.stopped is not None else None
    expected = [v for v in actions if stated.first <= v <= stated.last and (stop is None or v <= stop)]
    found = [f.version for f in stated.findings]
    if found != expected:
        missing = next((v for v in expected if v not in found), None)
        if missing is not None:
            what = f"the transcript has no finding for the action at version {missing}"
            raise _Failed("verdict", missing, what)
        wrong = next(f for f, e in zip(found, [*expected, None], strict=False) if f != e)
        what = f"the transcript's finding at version {wrong} is not the next action of its range"
        raise _Failed("verdict", wrong, what)
    holds = stated.stopped is None and all(f.verdict == "legal" for f in stated.findings)
    if stated.holds != holds:
        raise _Failed("verdict", None, f"the verdict says holds {stated.holds!r}; its findings say {holds!r}")


def _verify_stored(bundle: Bundle, report: Report) -> None:
    _versions(bundle)
    game_id = _game_id(bundle)
    try:
        records = [msgspec.convert(e, chain.Record) for e in bundle.events]
    except msgspec.ValidationError as error:
        raise _Failed("format", None, f"an event is not in the stored form: {error}") from None
    found = chain.check(game_id, records)
    if not found.intact:
        raise _Failed("chain", found.broken_at, found.what)
    if found.stored != len(records):
        raise _Failed("chain", None, "some events carry no digest")
    if bundle.chain is None or found.head != bundle.chain.head:
        raise _Failed("chain", len(records), "the chain's head is not the one the bundle states")
    report.verified.append(f"hash chain over {len(records)} events, head {found.head}")
    _check_recorded_head(bundle, game_id, records, report)
    events = _domain_events(game_id, records)
    created = events[0]
    _check_game(bundle, created)
    _check_closing(bundle, events)
    seed = _check_seed(bundle, events, report)
    if created.mode == "digital" and seed is None:
        # not re-decided: the transcript is held to the actions the events show
        _check_findings(bundle, [r.version for r in records if r.topic == ActionRecorded.TOPIC])
        report.unchecked.append(
            "the re-decision: the game was running when the bundle was made and its seed is sealed "
            "until it ends (export the dispute again then)"
        )
        return
    again = verdict(events, seed, bundle.dispute.first, bundle.dispute.last)
    report.verdict = again
    _compare(bundle.verdict, again)
    report.verified.append(
        f"verdict: {len(again.findings)} actions of versions {again.first}-{again.last} re-decided"
        + (", random outcomes recomputed" if again.random_checked else "")
    )


def _check_recorded_head(bundle: Bundle, game_id: UUID, records: list[chain.Record], report: Report) -> None:
    dispute = bundle.dispute
    if not dispute.game_head:
        report.unchecked.append(
            "the head when the dispute was opened: the dispute recorded none; compare the chain's "
            "head with one you kept"
        )
        return
    at = chain.digests(game_id, records[: dispute.game_version])[-1]
    if at != dispute.game_head:
        raise _Failed(
            "chain",
            dispute.game_version,
            f"the digest at version {dispute.game_version} is not {dispute.game_head}, the head the "
            "dispute recorded when it was opened",
        )
    report.verified.append(f"the head at version {dispute.game_version} is the one the dispute recorded")


def _check_closing(bundle: Bundle, events: list[Any]) -> None:
    if bundle.game.status != "running" and not isinstance(events[-1], GameFinished | GameAbandoned):
        raise _Failed(
            "events",
            len(events) + 1,
            f"the bundle says the game is {bundle.game.status}, but its events do not end with "
            "the event that closed it",
        )


def _game_id(bundle: Bundle) -> UUID:
    try:
        return UUID(bundle.game.game_id)
    except ValueError:
        raise _Failed("format", None, f"{bundle.game.game_id!r} is not a game id") from None


def _domain_events(game_id: UUID, records: list[chain.Record]) -> list[Any]:
    mapper: Mapper[UUID] = Mapper(transcoder=chain.TRANSCODER)
    events: list[Any] = []
    for record in records:
        if record.topic not in chain.TOPICS:
            raise _Failed("events", record.version, f"topic {record.topic!r} is no game event's")
        row = StoredRecord(game_id, record.version, record.topic, json.dumps(record.fields).encode())
        try:
            events.append(mapper.to_domain_event(row))
        except Exception as error:
            raise _Failed("events", record.version, f"the event cannot be read: {error}") from None
    if not isinstance(events[0], GameCreated):
        raise _Failed("events", 1, "the events do not start with the game's creation")
    return events


def _check_game(bundle: Bundle, created: Any) -> None:
    stated = bundle.game
    for name, value in (
        ("ruleset", created.ruleset),
        ("ruleset_version", created.ruleset_version),
        ("mode", created.mode),
        ("commitment", created.commitment),
    ):
        if getattr(stated, name) != value:
            raise _Failed(
                "events",
                1,
                f"the bundle states {name} {getattr(stated, name)!r}, the game's first event {value!r}",
            )


def _check_seed(bundle: Bundle, events: list[Any], report: Report) -> bytes | None:
    created = events[0]
    closing = next((e for e in events if isinstance(e, GameFinished | GameAbandoned)), None)
    if bundle.seed is not None and closing is None:
        raise _Failed("seed", None, "the bundle holds a seed but not the event that revealed it")
    if bundle.seed is None:
        if created.mode == "digital" and closing is not None:
            raise _Failed(
                "seed", closing.originator_version, "the game has ended but the bundle holds no seed"
            )
        return None
    try:
        seed = bytes.fromhex(bundle.seed)
    except ValueError:
        raise _Failed("seed", None, "the seed is not hexadecimal") from None
    if hashlib.sha256(seed).hexdigest() != created.commitment:
        raise _Failed("seed", 1, "the seed does not match the commitment published in the game's first event")
    if closing is not None and closing.server_seed != bundle.seed:
        raise _Failed(
            "seed", closing.originator_version, "the seed is not the one the finishing event revealed"
        )
    report.verified.append("seed matches the commitment")
    return seed


def _compare(stated: Verdict, again: Verdict) -> None:
    for index, (said, found) in enumerate(zip(stated.findings, again.findings, strict=False)):
        if said != found:
            field = next(
                (f for f in Finding.__struct_fields__ if getattr(said, f) != getattr(found, f)), "finding"
            )
            raise _Failed(
                "verdict",
                found.version,
                f"finding {index + 1} differs in {field}: the transcript says "
                f"{getattr(said, field)!r}, the rules give {getattr(found, field)!r}",
            )
    if len(stated.findings) != len(again.findings):
        shorter = min(len(stated.findings), len(again.findings))
        raise _Failed(
            "verdict",
            max(stated.findings, again.findings, key=len)[shorter].version,
            f"the transcript has {len(stated.findings)} findings, the rules give {len(again.findings)}",
        )
    for name in ("holds", "first", "last", "random_checked", "stopped", "summary"):
        if getattr(stated, name) != getattr(again, name):
            raise _Failed(
                "verdict",
                None,
                f"the verdict's {name} is {getattr(stated, name)!r}; the rules give {getattr(again, name)!r}",
            )


def _verify_redacted(bundle: Bundle, report: Report) -> None:
    _versions(bundle)
    _check_findings(bundle, [e["version"] for e in bundle.events if e.get("type") == "action"])
    by_version = {e["version"]: e for e in bundle.events}
    for finding in bundle.verdict.findings:
        shown = by_version.get(finding.version)
        if shown is None or shown.get("type") != "action" or shown.get("text") != finding.action:
            raise _Failed(
                "verdict",
                finding.version,
                f"finding #{finding.seq} names an action the events do not show there",
            )
    if bundle.seed is not None:
        raise _Failed("seed", None, "a redacted bundle of a running game cannot hold a seed")
    report.verified.append(
        f"{len(bundle.events)} events without a gap; one finding for each action of the range, "
        "naming the action shown at its version"
    )
    report.unchecked.append(
        "the hash chain: its digests cover hidden facts and are withheld from this view "
        f"({bundle.view}); the chain is checked on the stored events, by the recorder or once the game ends"
    )
    report.unchecked.append(
        "the re-decision: the events are redacted for this view, so the verdict rests on the "
        "server's; export the dispute again once the game ends for a bundle anyone can check"
    )
