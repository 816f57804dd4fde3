"""Maps of Dynasties & Kingdoms (rules version dk-1): the JSON map format and its checks
(dynasties-kingdoms.md section 8), and the default map `five-dynasties-907` (8.4), shipped as
`five-dynasties-907.json` next to this module and validated on import.

A game names its map with the variant option `map`: the value `"default"` is the shipped map;
any other value is the complete map object as JSON text (8.1), stored in the game's creation
event like every option, so a replay never depends on an outside file. `check_map` runs the
checks M1-M12 in order and names the first one that fails; warnings W1-W3 are returned too.

Rulings:
- M9's homeland capacity is computed exactly (a maximum independent set by the recursion of
  M9 over bitmasks); the same routine serves the lookahead of 1.4 (D3).
- Parsed maps are memoised by their text: a map is immutable data.
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Any

import msgspec

DEFAULT_MAP_KEY = "default"
_MAP_ID = re.compile(r"^[a-z0-9][a-z0-9_.-]{0,63}$")
_PROVINCE_ID = re.compile(r"^[a-z][a-z0-9_]{0,31}$")
_TOP_FIELDS = {"format", "version", "id", "name", "description", "max_players", "provinces"}
_TOP_REQUIRED = {"format", "version", "id", "name", "provinces"}
_PROV_FIELDS = {"id", "name", "barbarian", "adjacent", "pos", "note"}
_PROV_REQUIRED = {"id", "name", "barbarian", "adjacent"}


class ProvinceDef(msgspec.Struct, frozen=True):
    id: str
    name: str
    barbarian: bool
    adjacent: tuple[str, ...]


class MapData(msgspec.Struct, frozen=True):
    id: str
    name: str
    provinces: tuple[ProvinceDef, ...]
    max_players: int | None
    capacity: int
    eligible: int  # bitmask of homeland-eligible provinces
    neighbours: tuple[int, ...]  # per province index, bitmask of its neighbours
    index: dict[str, int]
    warnings: tuple[str, ...] = ()

    @property
    def ids(self) -> tuple[str, ...]:
        return tuple(p.id for p in self.provinces)

    def player_limit(self, relaxed: bool) -> int:
        base = bin(self.eligible).count("1") if relaxed else self.capacity
        return base if self.max_players is None else min(base, self.max_players)

    def adjacent(self, a: str, b: str) -> bool:
        return bool(self.neighbours[self.index[a]] >> self.index[b] & 1)


class MapError(msgspec.Struct, frozen=True):
    check: str
    message: str


def independence(mask: int, neighbours: tuple[int, ...], need: int = 64) -> int:
    """The largest set of pairwise non-adjacent provinces within `mask` (M9), stopping early
    once `need` is reached."""
    return _mis(mask, neighbours, need)


@lru_cache(maxsize=200_000)
def _mis(mask: int, neighbours: tuple[int, ...], need: int) -> int:
    if mask == 0 or need <= 0:
        return 0
    best_v, best_deg = -1, -1
    m = mask
    while m:
        low = m & -m
        v = low.bit_length() - 1
        deg = bin(neighbours[v] & mask).count("1")
        if deg > best_deg:
            best_v, best_deg = v, deg
        m ^= low
    if best_deg == 0:
        return min(bin(mask).count("1"), need)
    v = best_v
    take = 1 + _mis(mask & ~(1 << v) & ~neighbours[v], neighbours, need - 1)
    if take >= need:
        return take
    return max(take, _mis(mask & ~(1 << v), neighbours, need))


def _fail(check: str, message: str) -> MapError:
    return MapError(check, f"{check}: {message}")


def check_map(source: str | dict[str, Any], strict: bool = False) -> MapData | MapError:
    """Checks M1-M12 of 8.2 in order; the first failing one is returned."""
    if isinstance(source, str):
        try:
            obj = json.loads(source)
        except ValueError as exc:
            return _fail("M1", f"the map is not valid JSON ({exc.args[0]}).")
    else:
        obj = source
    if not isinstance(obj, dict):
        return _fail("M1", "the map's top level is not an object.")
    if (
        obj.get("format") != "dynasties-kingdoms-map"
        or obj.get("version") != 1
        or type(obj["version"]) is not int
    ):
        return _fail("M2", 'format must be "dynasties-kingdoms-map" and version 1.')
    bad = _shape(obj)
    if bad:
        return _fail("M3", bad)
    provs = obj["provinces"]
    if not 3 <= len(provs) <= 64:
        return _fail("M4", f"a map has 3 to 64 provinces, not {len(provs)}.")
    ids = [p["id"] for p in provs]
    if len(set(ids)) != len(ids):
        return _fail("M5", "province ids are not unique.")
    if len({p["name"].lower() for p in provs}) != len(provs):
        return _fail("M5", "province names are not unique (ignoring case).")
    index = {pid: i for i, pid in enumerate(ids)}
    for p in provs:
        adj = p["adjacent"]
        if len(set(adj)) != len(adj) or p["id"] in adj or any(a not in index for a in adj):
            return _fail("M6", f"the adjacency list of {p['id']} names an unknown id, itself or an id twice.")
    for p in provs:
        for a in p["adjacent"]:
            if p["id"] not in provs[index[a]]["adjacent"]:
                return _fail("M7", f"adjacency is not symmetric: {p['id']} lists {a} but not the reverse.")
    neighbours = tuple(sum(1 << index[a] for a in p["adjacent"]) for p in provs)
    if _component(1, neighbours, (1 << len(provs)) - 1) != (1 << len(provs)) - 1:
        return _fail("M8", "the map is not connected.")
    eligible = sum(1 << i for i, p in enumerate(provs) if not p["barbarian"])
    capacity = independence(eligible, neighbours)
    if bin(eligible).count("1") < 2 or capacity < 2:
        return _fail("M9", f"the homeland capacity is {capacity}; at least 2 is needed.")
    for i, p in enumerate(provs):
        if not p["barbarian"] and not neighbours[i] & eligible:
            return _fail("M10", f"{p['id']} is an isolated homeland-eligible province.")
    max_players = obj.get("max_players")
    if max_players is not None and not 2 <= max_players <= capacity:
        return _fail("M11", f"max_players must lie between 2 and the homeland capacity {capacity}.")
    if strict and len(provs) != 23:
        return _fail("M12", f"strict_province_count needs exactly 23 provinces, not {len(provs)}.")
    warnings = []
    if len(provs) != 23:
        warnings.append(f"W1: the map has {len(provs)} provinces, not 23.")
    if eligible == (1 << len(provs)) - 1:
        warnings.append("W2: the map has no barbarian province.")
    first = eligible & -eligible
    if _component(first, tuple(n & eligible for n in neighbours), eligible) != eligible:
        warnings.append("W3: the homeland-eligible provinces are not connected among themselves.")
    return MapData(
        id=obj["id"],
        name=obj["name"],
        provinces=tuple(ProvinceDef(p["id"], p["name"], p["barbarian"], tuple(p["adjacent"])) for p in provs),
        max_players=max_players,
        capacity=capacity,
        eligible=eligible,
        neighbours=neighbours,
        index=index,
        warnings=tuple(warnings),
    )


def _component(start: int, neighbours: tuple[int, ...], within: int) -> int:
    seen = start
    frontier = start
    while frontier:
        low = frontier & -frontier
        frontier ^= low
        new = neighbours[low.bit_length() - 1] & within & ~seen
        seen |= new
        frontier |= new
    return seen


def _is_str(value: object) -> bool:
    return isinstance(value, str)


def _shape(obj: dict[str, Any]) -> str:
    """The M3 problem of a map object, or ""."""
    if set(obj) - _TOP_FIELDS or _TOP_REQUIRED - set(obj):
        return "unknown or missing top-level fields."
    if not _is_str(obj["id"]) or not _MAP_ID.match(obj["id"]) or not _is_str(obj["name"]):
        return "the map id or name is malformed."
    if "description" in obj and not _is_str(obj["description"]):
        return "description must be a string."
    if "max_players" in obj and type(obj["max_players"]) is not int:
        return "max_players must be an integer."
    if not isinstance(obj["provinces"], list):
        return "provinces must be a list."
    for p in obj["provinces"]:
        if not isinstance(p, dict) or set(p) - _PROV_FIELDS or _PROV_REQUIRED - set(p):
            return "a province has unknown or missing fields."
        if not _is_str(p["id"]) or not _PROVINCE_ID.match(p["id"]):
            return f"province id {p.get('id')!r} is malformed."
        if not _is_str(p["name"]) or not 1 <= len(p["name"]) <= 64 or type(p["barbarian"]) is not bool:
            return f"province {p['id']} has a malformed name or barbarian flag."
        if not isinstance(p["adjacent"], list) or not all(_is_str(a) for a in p["adjacent"]):
            return f"province {p['id']} has a malformed adjacency list."
        pos = p.get("pos", [0, 0])
        if not isinstance(pos, list) or len(pos) != 2 or not all(type(x) in (int, float) for x in pos):
            return f"province {p['id']} has a malformed pos."
        if "note" in p and not _is_str(p["note"]):
            return f"province {p['id']} has a malformed note."
    return ""


DEFAULT_MAP_TEXT = (Path(__file__).parent / "five-dynasties-907.json").read_text(encoding="utf-8")
_DEFAULT = check_map(DEFAULT_MAP_TEXT, strict=True)
if isinstance(_DEFAULT, MapError):  # pragma: no cover - the shipped data is checked on import
    raise ValueError(f"the default map is invalid: {_DEFAULT.message}")
DEFAULT_MAP: MapData = _DEFAULT


@lru_cache(maxsize=64)
def load_map(key: str, strict: bool = False) -> MapData | MapError:
    """The map an option value names: "default" or a map object as JSON text."""
    if key == DEFAULT_MAP_KEY:
        return DEFAULT_MAP
    return check_map(key, strict)


def get_map(key: str) -> MapData:
    """The map of a game whose configuration was accepted (the default map otherwise)."""
    found = load_map(key)
    return found if isinstance(found, MapData) else DEFAULT_MAP
