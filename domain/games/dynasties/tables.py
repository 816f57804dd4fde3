"""The dice tables of Dynasties & Kingdoms (rules version dk-1): the City Table (1D6,
dynasties-kingdoms.md 3.2) and the Province Table (ordered 2D6, 3.3), as data."""

from __future__ import annotations

# (first, second) -> (name, effect code, amount)
PROVINCE_TABLE: dict[tuple[int, int], tuple[str, str, int]] = {
    (1, 1): ("Barbarian Hordes", "rebels", 3),
    (1, 2): ("Petty Warlord", "rebels", 2),
    (1, 3): ("Horse Tribes", "rebels", 2),
    (1, 4): ("Rebel Monks", "rebels", 1),
    (1, 5): ("Banditry", "rebels", 1),
    (1, 6): ("Piracy", "rebels", 1),
    (2, 1): ("Peasant Uprising", "rebels", 1),
    (2, 2): ("Plague", "death", 0),
    (2, 3): ("Disease", "death", 0),
    (2, 4): ("Famine", "death", 0),
    (2, 5): ("Flood", "blocked", 0),
    (2, 6): ("Storms", "blocked", 0),
    (3, 1): ("Anarchy", "nothing", 0),
    (3, 2): ("Blight", "nothing", 0),
    (3, 3): ("Locusts", "nothing", 0),
    (3, 4): ("Pestilence", "nothing", 0),
    (3, 5): ("Drought", "nothing", 0),
    (3, 6): ("Taxation", "armies", 1),
    (4, 1): ("Good Crops", "armies", 1),
    (4, 2): ("Stability", "armies", 2),
    (4, 3): ("Peace", "vt", 1),
    (4, 4): ("Prosperity", "build", 0),
    (4, 5): ("Loyalty", "armies", 3),
    (4, 6): ("Artisans", "vt", 2),
    (5, 1): ("Calligraphy Master", "vt", 3),
    (5, 2): ("Enlightenment", "vt", 4),
    (5, 3): ("Great General", "armies", 4),
    (5, 4): ("Earthquake", "destruction", 0),
    (5, 5): ("Invention", "vt", 2),
    (5, 6): ("Trade", "build", 0),
    (6, 1): ("Industry", "build", 0),
    (6, 2): ("Allies", "armies", 1),
    (6, 3): ("Raids", "nothing", 0),
    (6, 4): ("Taoism", "vt", 1),
    (6, 5): ("Buddhism", "vt", 2),
    (6, 6): ("Confucianism", "vt", 3),
}


def effect_code(effect: str, amount: int) -> str:
    return f"{effect} {amount}" if amount else effect


def city_result(value: int) -> tuple[str, int]:
    """City Table: 1-3 gain that many VT, 4-6 gain value-3 armies."""
    return ("vt", value) if value <= 3 else ("armies", value - 3)
