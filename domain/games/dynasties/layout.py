"""Where each province of the default map (five-dynasties-907) is drawn: x, y in a 1000 x 1000
box, y down. Computed once from the map's `pos` (longitude, latitude), scaled to the box and
pushed apart until no two provinces lie closer than 150 units and no border passes within 60
units of a province it does not touch, so circles, names and borders stay readable; kept as
data so the drawing never moves between releases."""

from __future__ import annotations

LAYOUT: dict[str, tuple[float, float]] = {
    "khitans": (930, 70),
    "uighurs": (254, 230),
    "youzhou": (841, 191),
    "taiyuan": (624, 248),
    "zhenzhou": (758, 316),
    "xiazhou": (473, 240),
    "qingzhou": (917, 321),
    "fengxiang": (392, 405),
    "changan": (515, 491),
    "luoyang": (632, 398),
    "kaifeng": (780, 464),
    "tufan": (70, 471),
    "xiangzhou": (655, 546),
    "yangzhou": (930, 470),
    "chengdu": (380, 560),
    "jiangling": (538, 641),
    "hangzhou": (930, 620),
    "hongzhou": (780, 629),
    "changsha": (665, 724),
    "fuzhou": (893, 765),
    "da_chang_he": (247, 754),
    "guangzhou": (697, 871),
    "annam": (439, 930),
}
