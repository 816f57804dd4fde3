"""Where each province of the default map (five-dynasties-907) is drawn: x, y in a 1000 x 1000
box, y down. Computed once from the map's `pos` (longitude, latitude), scaled to the box and
pushed apart until no two provinces lie closer than 150 units, so a province's circle and name
never cover another's; kept as data so the drawing never moves between releases."""

from __future__ import annotations

LAYOUT: dict[str, tuple[float, float]] = {
    "khitans": (930, 70),
    "uighurs": (258, 246),
    "youzhou": (798, 141),
    "taiyuan": (624, 214),
    "zhenzhou": (756, 285),
    "xiazhou": (493, 286),
    "qingzhou": (907, 319),
    "fengxiang": (390, 404),
    "changan": (522, 474),
    "luoyang": (634, 372),
    "kaifeng": (785, 432),
    "tufan": (70, 471),
    "xiangzhou": (664, 522),
    "yangzhou": (930, 469),
    "chengdu": (380, 560),
    "jiangling": (557, 626),
    "hangzhou": (930, 619),
    "hongzhou": (780, 617),
    "changsha": (672, 722),
    "fuzhou": (894, 765),
    "da_chang_he": (247, 754),
    "guangzhou": (696, 870),
    "annam": (439, 930),
}
