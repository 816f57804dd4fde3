"""`chronicle replay` on a terminal: a full-screen Textual app.

The game's picture (domain/picture.py, drawn from the view the one redaction gives) fills the
left, with what the step changed on yellow; the move list fills the right (turn headers, the
current event highlighted, retracted actions struck); the current event's text is below. The
picture and the list scroll; everything fits 80x24 and uses more room when there is more.

Keys: right/n/space and left/b step one action with everything it caused (`steps.py`: the
facts and bookkeeping between two actions go by at once); e steps by event instead (every
version, as `--events` starts), e again by action; ] and [ step to the next and previous action;
t and T to the next and previous turn; . to the next move of the player who made the current
one; g then a number: that version; / then text: the next event whose line holds it (case
ignored; / and Enter alone searches again); v: view as the next seat, the public, everyone
(local store only: over a server the token decides); p: autoplay, + and - its speed; m: mark
a bookmark, ' to go to the next one; Home and End; click or Enter on the move list; q quits.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from rich.text import Text
from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.timer import Timer
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from domain.picture import Picture, changes, picture_of
from replay_cli.picture_text import render
from replay_cli.reading import Timeline
from replay_cli.steps import Steps, steps_of

SPEEDS = (4.0, 2.0, 1.0, 0.5, 0.25)  # seconds a step while autoplaying


@dataclass
class Replay:
    """Where the reader is, apart from drawing (the pilot tests read it)."""

    timeline: Timeline
    version: int
    bookmarks: list[int] = field(default_factory=list)
    search: str = ""
    pictures: dict[int, Picture] = field(default_factory=dict)
    by_event: bool = False  # step by event, not by action with what it caused
    steps: Steps = field(init=False)

    def __post_init__(self) -> None:
        self.steps = steps_of(self.timeline)

    def next_step(self, direction: int) -> int | None:
        """Where → (1) or ← (-1) goes: the next version by event, else the next step's end."""
        if self.by_event:
            version = self.version + direction
            return version if 1 <= version <= self.timeline.last else None
        return self.steps.next(self.version, direction)

    def land(self, version: int) -> int:
        """By action a version found by turn or by player is shown where its step ends."""
        return version if self.by_event else self.steps.stop(version)

    def whole_step(self) -> bool:
        """Whether the reader stands at a step's end by action (the action's line stands for it)."""
        return not self.by_event and self.steps.stop(self.version) == self.version

    def picture(self, version: int) -> Picture:
        found = self.pictures.get(version)
        if found is None:
            snapshot = self.timeline.snapshot(version)
            info = self.timeline.info
            found = picture_of(info.ruleset, snapshot.state, info.seats)
            self.pictures[version] = found
        return found

    def changed(self, version: int, since: int | None = None) -> set[str]:
        """What differs at `version` from `since` (default the version before)."""
        earlier = version - 1 if since is None else since
        return changes(self.picture(earlier), self.picture(version)) if earlier >= 1 else set()

    def find(self, text: str) -> int | None:
        needle = text.casefold()
        last = self.timeline.last
        for step in range(1, last + 1):
            version = (self.version - 1 + step) % last + 1
            if needle in self.timeline.event(version).text.casefold():
                return version
        return None

    def next_action(self, direction: int) -> int | None:
        version = self.version + direction
        while 1 <= version <= self.timeline.last:
            if self.timeline.event(version).type == "action":
                return version
            version += direction
        return None

    def next_turn(self, direction: int) -> int | None:
        here = self.timeline.turn(self.version)
        if here is None:
            return None
        version = self.version + direction
        while 1 <= version <= self.timeline.last:
            turn = self.timeline.turn(version)
            if turn is not None and turn[0] != here[0]:
                if direction > 0:
                    return self.land(version)
                # back: the first version of that earlier turn
                while version > 1 and (self.timeline.turn(version - 1) or (None,))[0] == turn[0]:
                    version -= 1
                return self.land(version)
            version += direction
        return None

    def next_move_of_same_player(self) -> int | None:
        here = self.timeline.event(self.steps.head(self.version) if self.whole_step() else self.version)
        who = _mover(here.text)
        if who is None:
            return None
        for version in range(self.version + 1, self.timeline.last + 1):
            event = self.timeline.event(version)
            if event.type == "action" and _mover(event.text) == who and self.land(version) > self.version:
                return self.land(version)
        return None


def _mover(text: str) -> str | None:
    """Who made an action: its line reads `#12 Ann: buy Gold`."""
    if not text.startswith("#") or ": " not in text:
        return None
    return text.split(": ", 1)[0].split(" ", 1)[-1]


class ReplayApp(App[None]):
    CSS = """
    Screen { layout: vertical; }
    #title { height: 1; background: $primary; color: $text; padding: 0 1; }
    #main { height: 1fr; }
    #picture { width: 1fr; padding: 0 1; }
    #moves { width: 34%; min-width: 26; max-width: 60; border: none; border-left: solid $primary; }
    #event { height: 2; padding: 0 1; background: $boost; }
    #ask { display: none; }
    #ask.open { display: block; }
    """
    BINDINGS = [
        Binding("right", "step(1)", "next", key_display="→", priority=True),
        Binding("n,space", "step(1)", "next", show=False),
        Binding("left", "step(-1)", "back", key_display="←", priority=True),
        Binding("b", "step(-1)", "back", show=False),
        Binding("e", "by_event", "by event", priority=True),  # before the → typed after it
        Binding("right_square_bracket", "action(1)", "action", key_display="]"),
        Binding("left_square_bracket", "action(-1)", "action back", show=False),
        Binding("t", "turn(1)", "turn"),
        Binding("T", "turn(-1)", "turn back", show=False),
        Binding("full_stop", "same_player", "player", key_display="."),
        Binding("g", "ask('go')", "go to"),
        Binding("slash", "ask('search')", "search", key_display="/"),
        Binding("v", "view_as", "view as"),
        Binding("p", "autoplay", "play"),
        Binding("plus", "speed(1)", "faster", show=False),
        Binding("minus", "speed(-1)", "slower", show=False),
        Binding("m", "bookmark", "mark"),
        Binding("apostrophe", "to_bookmark", "to mark", show=False),
        Binding("home", "go(1)", "first", show=False, priority=True),
        Binding("end", "go_last", "last", show=False, priority=True),
        Binding("q", "quit", "quit"),
    ]

    def __init__(
        self,
        timeline: Timeline,
        version: int = 1,
        viewers: list[str] | None = None,
        reopen: Callable[[str], Timeline] | None = None,
        by_event: bool = False,
    ) -> None:
        super().__init__()
        self.replay = Replay(timeline, version, by_event=by_event)
        self.viewers = viewers or []
        self.reopen = reopen
        self.viewer = timeline.snapshot(version).viewer
        self.viewer_at = 0  # the first of `viewers` is the one the replay starts with
        self.asking = ""
        self.message = ""
        self.speed = 2
        self.player: Timer | None = None
        self._rows: list[int | None] = []  # option index -> version (None: a turn header)

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        with Horizontal(id="main"):
            with VerticalScroll(id="picture"):
                yield Static(id="drawing")
            yield OptionList(id="moves")
        yield Static(id="event")
        yield Input(id="ask")
        yield Footer()

    def on_mount(self) -> None:
        self._fill_moves()
        self._show()
        self.query_one("#picture").focus()

    # --- drawing -------------------------------------------------------------------------

    def _fill_moves(self) -> None:
        timeline = self.replay.timeline
        options: list[Option] = []
        self._rows = []
        turn_seen: int | None = None
        for version in range(1, timeline.last + 1):
            turn = timeline.turn(version)
            if turn is not None and turn[0] != turn_seen:
                turn_seen = turn[0]
                who = timeline.info.seat_label(turn[1]) if turn[1] else ""
                options.append(
                    Option(Text(f"Turn {turn[0]} {who}".rstrip(), style="bold reverse"), disabled=True)
                )
                self._rows.append(None)
            event = timeline.event(version)
            style = "" if event.type == "action" else "dim"
            if event.retracted:
                style += " strike"
            text = Text(f"{version:>4} ", style="dim") + Text(event.text, style=style.strip())
            if event.notes:
                text.append(
                    f"  [{len(event.notes)} note{'s' if len(event.notes) > 1 else ''}]", style="italic"
                )
            options.append(Option(text, id=f"v{version}"))
            self._rows.append(version)
        moves = self.query_one("#moves", OptionList)
        moves.clear_options()
        moves.add_options(options)

    def _show(self) -> None:
        replay = self.replay
        version, timeline = replay.version, replay.timeline
        info = timeline.info
        picture = replay.picture(version)
        first = replay.steps.head(version) if replay.whole_step() else version
        # by action, all the step changed is marked: against the position before its action
        changed = replay.changed(version, max(first - 1, 1) if first < version else None)
        pane = self.query_one("#picture")
        width = max(pane.size.width - 2, 20) if pane.size.width else 60
        self.query_one("#drawing", Static).update(render(picture, changed, width))
        marks = f"  marks {','.join(map(str, replay.bookmarks))}" if replay.bookmarks else ""
        playing = f"  playing x{SPEEDS[self.speed]:g}s" if self.player is not None else ""
        stepping = "by event" if replay.by_event else "by action"
        self.query_one("#title", Static).update(
            f"{info.ruleset} {info.game_id[:8]}  v{version}/{timeline.last}  as {self.viewer}"
            f"  {stepping}{marks}{playing}"
        )
        event = timeline.event(first)
        line = Text(event.text, style="strike" if event.retracted else "")
        if event.retracted:
            line.append("  [retracted later]", style="italic")
        if first < version:  # by action: the action's line stands for what it caused
            caused = version - first
            line.append(f"  +{caused} event{'s' if caused > 1 else ''} it caused (e: by event)", style="dim")
        for shown in range(first, version + 1):
            for note in timeline.event(shown).notes:
                line.append(f"\n{note}", style="italic")
        tail = self.message or (f"{len(changed)} changes highlighted" if changed else "")
        if tail:
            line.append(f"\n{tail}", style="dim")
        self.query_one("#event", Static).update(line)
        moves = self.query_one("#moves", OptionList)
        index = self._rows.index(first) if first in self._rows else None
        if index is not None and moves.highlighted != index:
            moves.highlighted = index
            moves.scroll_to_highlight()

    def _go(self, version: int | None, missing: str = "") -> None:
        self.message = ""
        if version is None or not 1 <= version <= self.replay.timeline.last:
            self.message = missing or "no such version"
        else:
            self.replay.version = version
        self._show()

    # --- actions -------------------------------------------------------------------------

    def action_step(self, delta: int) -> None:
        target = self.replay.next_step(delta)
        edge = "this is the last version" if delta > 0 else "this is the first version"
        self._go(target, edge)
        if self.player is not None and target is None:
            self.action_autoplay()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        # `e` is bound first (priority), so that `e` then → steps by event in the order typed;
        # while a version or a search is typed, it is a letter
        return not (action == "by_event" and self.asking)

    def action_by_event(self) -> None:
        self.replay.by_event = not self.replay.by_event
        self._go(self.replay.version)

    def action_action(self, direction: int) -> None:
        self._go(self.replay.next_action(direction), "no further action")

    def action_turn(self, direction: int) -> None:
        self._go(self.replay.next_turn(direction), "no further turn")

    def action_same_player(self) -> None:
        self._go(self.replay.next_move_of_same_player(), "that player moves no more")

    def action_go(self, version: int) -> None:
        self._go(version)

    def action_go_last(self) -> None:
        self._go(self.replay.timeline.last)

    def action_bookmark(self) -> None:
        marks = self.replay.bookmarks
        if self.replay.version in marks:
            marks.remove(self.replay.version)
        else:
            marks.append(self.replay.version)
            marks.sort()
        self._show()

    def action_to_bookmark(self) -> None:
        marks = self.replay.bookmarks
        later = [m for m in marks if m > self.replay.version]
        self._go((later or marks)[0] if marks else None, "no bookmarks: m marks this version")

    def action_autoplay(self) -> None:
        if self.player is not None:
            self.player.stop()
            self.player = None
        else:
            self.player = self.set_interval(SPEEDS[self.speed], lambda: self.action_step(1))
        self._show()

    def action_speed(self, delta: int) -> None:
        self.speed = min(max(self.speed + delta, 0), len(SPEEDS) - 1)
        if self.player is not None:
            self.player.stop()
            self.player = self.set_interval(SPEEDS[self.speed], lambda: self.action_step(1))
        self._show()

    def action_view_as(self) -> None:
        if self.reopen is None or not self.viewers:
            self.message = "over a server the token decides what you see"
            self._show()
            return
        self.viewer_at = (self.viewer_at + 1) % len(self.viewers)
        spec = self.viewers[self.viewer_at]
        version = self.replay.version
        timeline = self.reopen(spec)
        self.replay = Replay(
            timeline, version, self.replay.bookmarks, self.replay.search, by_event=self.replay.by_event
        )
        self.viewer = timeline.snapshot(version).viewer
        self._fill_moves()
        self._go(version)

    def action_ask(self, what: str) -> None:
        self.asking = what
        ask = self.query_one("#ask", Input)
        ask.placeholder = "version number, Enter" if what == "go" else "text to find, Enter (Escape cancels)"
        ask.value = ""
        ask.add_class("open")
        ask.focus()

    @on(Input.Submitted, "#ask")
    def _answered(self, event: Input.Submitted) -> None:
        ask = self.query_one("#ask", Input)
        ask.remove_class("open")
        self.query_one("#picture").focus()
        text = event.value.strip()
        if self.asking == "go":
            self._go(int(text) if text.isdigit() else None, f"no version {text!r}")
        else:
            self.replay.search = text or self.replay.search
            if self.replay.search:
                self._go(self.replay.find(self.replay.search), f"nothing matches {self.replay.search!r}")
        self.asking = ""

    def on_key(self, event: object) -> None:
        key = getattr(event, "key", "")
        if key == "escape" and self.asking:
            self.asking = ""
            self.query_one("#ask", Input).remove_class("open")
            self.query_one("#picture").focus()

    @on(OptionList.OptionSelected, "#moves")
    def _picked(self, event: OptionList.OptionSelected) -> None:
        version = self._rows[event.option_index]
        self.query_one("#picture").focus()
        if version is not None:
            self._go(version)


def run_app(
    timeline: Timeline,
    version: int,
    viewers: list[str] | None = None,
    reopen: Callable[[str], Timeline] | None = None,
    by_event: bool = False,
) -> None:
    ReplayApp(timeline, version, viewers, reopen, by_event).run()
