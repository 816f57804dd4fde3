"""A ruleset's metadata as plain data: what `GET /rulesets` lists and `chronicle rulesets`
prints (the same fields either way, so the command's `--json` is what a server would serve)."""

from __future__ import annotations

from typing import Any

import msgspec

from domain.ruleset import Ruleset, VariantOption


class OptionInfo(msgspec.Struct):
    """One variant option of a ruleset: `choices` for an enumeration, `min`/`max` for a number."""

    name: str
    default: str | int | bool
    choices: list[str | int | bool] | None
    min: int | None
    max: int | None
    description: str

    @classmethod
    def of(cls, option: VariantOption) -> OptionInfo:
        choices = list(option.choices) if option.choices is not None else None
        return cls(option.name, option.default, choices, option.minimum, option.maximum, option.description)


class RulesetInfo(msgspec.Struct):
    """A ruleset's metadata as listed by `GET /rulesets`."""

    id: str
    version: str
    title: str
    seat_ids: list[str]
    min_players: int
    max_players: int
    hidden_information: bool
    chance: bool
    spec: str
    options: list[OptionInfo]

    @classmethod
    def fields_of(cls, ruleset: Ruleset[Any, Any, Any]) -> dict[str, Any]:
        meta = ruleset.meta
        return {
            "id": meta.id,
            "version": meta.version,
            "title": meta.title,
            "seat_ids": list(meta.seat_ids),
            "min_players": meta.min_players,
            "max_players": meta.max_players,
            "hidden_information": meta.hidden_information,
            "chance": meta.chance,
            "spec": meta.spec,
            "options": [OptionInfo.of(o) for o in meta.options],
        }

    @classmethod
    def of(cls, ruleset: Ruleset[Any, Any, Any]) -> RulesetInfo:
        return cls(**cls.fields_of(ruleset))
