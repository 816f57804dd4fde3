"""What every game's ruleset object repeats: the protocol's methods (domain/ruleset.py) taken
from the game's own modules by name, so that a game's package says only what differs.

A game declares its ruleset as

    class ProvinceRuleset(RulesetBase[State, Action, Fact], modules=(rules, fold, legal, view)):
        meta = META
        codec = Codec(Action, Fact)

        def boundary(self, fact: Fact) -> Boundary | None: ...

and every hook of `HOOKS` the class does not define itself is the function its module holds
under that name (`evolve` is `fold.evolve`, `view` is `view.view`), when the game hands in
that module and the module has the function (`decide` is the facts of the rules'
`decide_state` where the rules have no `decide`). The function is bound as a staticmethod,
with no method call in between: a rebuild of the statistics calls `evolve`, `progress`,
`metrics` and `dice` for every fact or turn of every game. An optional hook (`check_config`, `metrics`,
`rounds`...) a game's modules lack stays absent, so `getattr(ruleset, hook, None)` still tells
whether the game has it; a required one missing is an error when the class is made.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any, Generic, TypeVar

from domain.rng import Rng
from domain.ruleset import (
    Codec,
    Command,
    Die,
    GameConfig,
    Outcome,
    Prompt,
    Rejection,
    RulesetMeta,
    Viewer,
)

S = TypeVar("S")
A = TypeVar("A")
F = TypeVar("F")

HOOKS: dict[str, tuple[str, str]] = {
    "initial": ("rules", "initial"),
    "setup": ("rules", "setup"),
    "check_config": ("rules", "check_config"),
    "decide": ("rules", "decide"),
    "decide_state": ("rules", "decide_state"),
    "outcome": ("rules", "outcome"),
    "resign_outcome": ("rules", "resign_outcome"),
    "progress": ("rules", "progress"),
    "rounds": ("rules", "rounds"),
    "evolve": ("fold", "evolve"),
    "pending": ("legal", "pending"),
    "legal_actions": ("legal", "legal_actions"),
    "probe_actions": ("legal", "probe_actions"),
    "legal_templates": ("legal", "legal_templates"),
    "view": ("view", "view"),
    "redact": ("view", "redact"),
    "redact_action": ("view", "redact_action"),
    "redact_prompt": ("view", "redact_prompt"),
    "describe": ("describe", "describe"),
    "notation_words": ("notation", "notation_words"),
    "parse_notation": ("notation", "parse_notation"),
    "format_action": ("notation", "format_action"),
    "explain_action": ("explain", "explain_action"),
    "bot_choose": ("bot", "choose"),
    "metrics": ("stats", "metrics"),
    "dice": ("stats", "dice"),
}
"""Each hook and the (module, function) it is taken from."""

REQUIRED = (
    "initial",
    "setup",
    "decide",
    "evolve",
    "pending",
    "legal_actions",
    "probe_actions",
    "view",
    "redact",
    "redact_action",
    "redact_prompt",
    "outcome",
    "describe",
    "parse_notation",
    "format_action",
    "progress",
    "boundary",
    "bot_choose",
)
"""The members of the Ruleset protocol, which every game has."""


def _facts_only(decide_state: Callable[[Any, Command, Rng], Any]) -> Callable[[Any, Command, Rng], Any]:
    """`decide` from the rules' `decide_state`: its facts without the state they lead to."""

    def decide(state: Any, command: Command, rng: Rng) -> Any:
        decided = decide_state(state, command, rng)
        return decided if isinstance(decided, Rejection) else decided[0]

    return decide


def _text_only(parse: Callable[[str], Any]) -> Callable[[str, Any], Any]:
    """A notation parser that reads the text alone, called as the protocol calls it."""

    def parse_notation(text: str, state: Any) -> Any:
        return parse(text)

    return parse_notation


class RulesetBase(Generic[S, A, F]):
    """A game's ruleset object over its state S, actions A and facts F, its hooks filled
    from the modules given to the class."""

    meta: RulesetMeta
    codec: Codec[A, F]

    # The hooks filled from the modules (see HOOKS), typed over the game's state S, actions A
    # and facts F. The optional ones exist only where the game's modules have them.
    initial: Callable[[GameConfig], S]
    setup: Callable[[GameConfig, S, Rng], Sequence[F]]
    check_config: Callable[[GameConfig], Rejection | None]
    decide: Callable[[S, Command, Rng], Sequence[F] | Rejection]
    decide_state: Callable[[S, Command, Rng], tuple[Sequence[F], S] | Rejection]
    outcome: Callable[[S], Outcome | None]
    resign_outcome: Callable[[S, str], Outcome]
    progress: Callable[[S], tuple[int, str | None]]
    rounds: Callable[[S], int]
    evolve: Callable[[S, F], S]
    pending: Callable[[S], tuple[Prompt, ...]]
    legal_actions: Callable[[S, str | None], tuple[A, ...]]
    probe_actions: Callable[[S], tuple[A, ...]]
    legal_templates: Callable[[S, str | None], tuple[str, ...]]
    view: Callable[[S, Viewer], dict[str, Any]]
    redact: Callable[[F, Viewer], F]
    redact_action: Callable[[A, str | None, S, Viewer], A]
    redact_prompt: Callable[[Prompt, S, Viewer], Prompt]
    describe: Callable[[F, GameConfig], str]
    notation_words: Callable[[S], tuple[str, ...]]
    parse_notation: Callable[[str, S], A | Rejection]
    format_action: Callable[[A], str]
    explain_action: Callable[[S, A], str]
    bot_choose: Callable[[S, str | None, tuple[A, ...], Callable[[int], int]], A]
    metrics: Callable[[S], dict[str, dict[str, float]]]
    dice: Callable[[F], tuple[Die, ...]]

    def __init_subclass__(cls, *, modules: Sequence[ModuleType] = (), **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        by_name = {module.__name__.rpartition(".")[2]: module for module in modules}
        for hook, (module_name, function_name) in HOOKS.items():
            module = by_name.get(module_name)
            function = getattr(module, function_name, None)
            if hasattr(cls, hook) or function is None:
                continue
            if hook == "parse_notation" and len(inspect.signature(function).parameters) == 1:
                function = _text_only(function)
            setattr(cls, hook, staticmethod(function))
        if not hasattr(cls, "decide") and hasattr(cls, "decide_state"):
            cls.decide = staticmethod(_facts_only(cls.decide_state))
        missing = [hook for hook in REQUIRED if not hasattr(cls, hook)]
        if missing:
            raise TypeError(f"{cls.__name__} lacks {', '.join(missing)} (domain/ruleset_base.py)")
