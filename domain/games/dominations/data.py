"""Catalog data of Dominations + Provinces: province cards (1.4), the six Provinces masteries
(1.5), the conquest and rebellion deck compositions (1.3), land tiles and the starting board
(1.6, 1.7) of `shared/rules/dominations-provinces.md`.

The default catalog (`catalog-v1.json`) holds what the spec gives: Moche and Recuay with the
spec's readings, the invented test provinces FX1-FX5, the six masteries in four copies, the
default compositions, and a placeholder set of land-tile faces (the real faces are not public;
a table with the physical tiles brings its own through the `catalog` option).

`load_catalog(text)` validates a catalog and raises `CatalogError` naming the failed check:
`unique_ids`, `province_age`, `province_numbers`, `reward`, `effect_kind`, `effect_params`,
`tile_face`, `composition`, `mastery`, `initial_board`, `json`.
"""

from __future__ import annotations

from functools import lru_cache
from importlib import resources
from typing import Any

import msgspec

DOMAINS = ("CRA", "TRA", "ART", "SCI", "GOV", "REL")
DEFAULT_FILE = "catalog-v1.json"
MASTERY_EFFECTS = (
    "arcs_de_triomphe",
    "engins_de_siege",
    "conscription",
    "missionaires",
    "espionnage",
    "corsaires",
    "none",
)
EFFECT_KINDS = {"rank_loss": "end_of_age", "all_lose": "end_of_age", "cities_not_activated": "permanent"}
RESOURCES = ("vp", "influence", *(f"knowledge:{d}" for d in DOMAINS))


class CatalogError(ValueError):
    """A catalog failed a load-time check; `check` names it."""

    def __init__(self, check: str, message: str) -> None:
        super().__init__(f"{check}: {message}")
        self.check = check


class Face(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    camp: str | None
    corners: tuple[str | None, str | None, str | None]


class Reward(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    vp: int = 0
    knowledge: int = 0
    knowledge_domain: str = "choice"
    influence: int = 0


class Effect(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    timing: str = "none"
    kind: str = "none"
    params: dict[str, Any] = {}


class Province(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    province_id: str
    name: str
    age: int
    tile_no: int
    base_rebellion: int
    rebellion_draws: int
    knowledge_price: int | None
    reward: Reward
    effect: Effect
    tile_face: Face | None = None


class Mastery(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    card_id: str
    name: str
    domain: str | None
    effect: str
    cost: int | None = None
    rebellion_draw_reduction: int = 0


class LandTile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    tile_id: str
    camp: str | None
    corners: tuple[str | None, str | None, str | None]


class StartTile(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    cell: str
    tile_id: str
    rotation: int = 0


class Catalog(msgspec.Struct, frozen=True, forbid_unknown_fields=True):
    catalog_version: str
    conquest_composition: dict[str, int]
    rebellion_composition: dict[str, int]
    provinces: tuple[Province, ...]
    masteries: tuple[Mastery, ...]
    land_tiles: tuple[LandTile, ...]
    initial_board: tuple[StartTile, ...]
    note: str = ""


class Tables(msgspec.Struct, frozen=True):
    """A validated catalog with its lookups."""

    catalog: Catalog
    provinces: dict[str, Province]
    masteries: dict[str, Mastery]
    faces: dict[str, Face]
    conquest_ids: tuple[str, ...]
    rebellion_ids: tuple[str, ...]
    strength: dict[str, int]


def _fail(check: str, message: str) -> None:
    raise CatalogError(check, message)


def _ids(prefix: str, composition: dict[str, int], top: int) -> tuple[list[str], dict[str, int]]:
    strengths: dict[str, int] = {}
    ids: list[str] = []
    for key in sorted(composition, key=lambda k: int(k) if k.isdigit() else -1):
        if not key.isdigit() or not 0 <= int(key) <= top or composition[key] < 0:
            _fail("composition", f"{prefix} deck: strength {key!r} / count {composition[key]} out of range")
        for _ in range(composition[key]):
            card = f"{prefix}{len(ids) + 1:02d}"
            ids.append(card)
            strengths[card] = int(key)
    if len(ids) != 40:
        _fail("composition", f"the {prefix} deck must hold 40 cards, not {len(ids)}")
    return ids, strengths


def _domain_ok(value: str | None) -> bool:
    return value is None or value in DOMAINS


def validate(catalog: Catalog) -> Tables:
    provinces: dict[str, Province] = {}
    for p in catalog.provinces:
        if p.province_id in provinces:
            _fail("unique_ids", f"province {p.province_id} is listed twice")
        if p.age not in (1, 2, 3):
            _fail("province_age", f"{p.province_id}: age {p.age} is not 1, 2 or 3")
        if p.base_rebellion < 0 or p.rebellion_draws < 0 or (p.knowledge_price or 0) < 0:
            _fail("province_numbers", f"{p.province_id}: negative rebellion value, draws or price")
        r = p.reward
        if min(r.vp, r.knowledge, r.influence) < 0 or not (
            r.knowledge_domain == "choice" or r.knowledge_domain in DOMAINS
        ):
            _fail("reward", f"{p.province_id}: bad reward {msgspec.to_builtins(r)}")
        e = p.effect
        if e.kind == "none":
            if e.timing != "none":
                _fail("effect_kind", f"{p.province_id}: effect kind none needs timing none")
        elif EFFECT_KINDS.get(e.kind) != e.timing:
            _fail("effect_kind", f"{p.province_id}: effect {e.kind!r} with timing {e.timing!r}")
        if e.kind == "rank_loss":
            ok = (
                e.params.get("metric") in RESOURCES
                and e.params.get("resource") in RESOURCES
                and isinstance(e.params.get("top_amount"), int)
                and isinstance(e.params.get("others_amount"), int)
            )
            if not ok:
                _fail("effect_params", f"{p.province_id}: rank_loss needs metric, resource and amounts")
        if e.kind == "all_lose" and not (
            e.params.get("resource") in RESOURCES and isinstance(e.params.get("amount"), int)
        ):
            _fail("effect_params", f"{p.province_id}: all_lose needs resource and amount")
        f = p.tile_face
        if f is not None and not (_domain_ok(f.camp) and all(_domain_ok(c) for c in f.corners)):
            _fail("tile_face", f"{p.province_id}: face uses an unknown domain")
        provinces[p.province_id] = p
    masteries: dict[str, Mastery] = {}
    for m in catalog.masteries:
        if m.card_id in masteries or not _domain_ok(m.domain) or m.effect not in MASTERY_EFFECTS:
            _fail("mastery", f"mastery {m.card_id}: duplicate id, unknown domain or effect")
        if m.rebellion_draw_reduction < 0 or (m.cost is not None and m.cost < 0):
            _fail("mastery", f"mastery {m.card_id}: negative cost or draw reduction")
        masteries[m.card_id] = m
    faces: dict[str, Face] = {}
    for t in catalog.land_tiles:
        if t.tile_id in faces or t.tile_id in provinces:
            _fail("unique_ids", f"tile {t.tile_id} is listed twice")
        if not (_domain_ok(t.camp) and all(_domain_ok(c) for c in t.corners)):
            _fail("tile_face", f"tile {t.tile_id}: face uses an unknown domain")
        faces[t.tile_id] = Face(t.camp, t.corners)
    for p in catalog.provinces:
        if p.tile_face is not None:
            faces[p.province_id] = p.tile_face
    from domain.games.dominations.board import parse_cell  # geometry lives in board.py

    seen: set[str] = set()
    for s in catalog.initial_board:
        cell = parse_cell(s.cell)
        if cell is None or s.tile_id not in faces or s.tile_id in seen or s.rotation not in (0, 1, 2):
            _fail("initial_board", f"start tile {s.tile_id} on {s.cell}: unknown tile, bad cell or rotation")
        seen.add(s.tile_id)
    if len({s.cell for s in catalog.initial_board}) != len(catalog.initial_board):
        _fail("initial_board", "two start tiles share a cell")
    conquest, c_strength = _ids("C", catalog.conquest_composition, 3)
    rebellion, r_strength = _ids("R", catalog.rebellion_composition, 4)
    strength = {**c_strength, **r_strength, **{str(v): v for v in range(5)}}
    return Tables(catalog, provinces, masteries, faces, tuple(conquest), tuple(rebellion), strength)


@lru_cache(maxsize=32)
def load_catalog(text: str) -> Tables:
    """A catalog from JSON text (the `catalog` option), validated."""
    try:
        catalog = msgspec.json.decode(text, type=Catalog)
    except (msgspec.ValidationError, msgspec.DecodeError) as error:
        raise CatalogError("json", str(error)) from None
    return validate(catalog)


DEFAULT_TEXT = resources.files(__package__).joinpath(DEFAULT_FILE).read_text(encoding="utf-8")
DEFAULT = load_catalog(DEFAULT_TEXT)
