"""Checks every page of the app must pass in a real browser, at phone and desktop width: it fits
its viewport (no sideways scrolling), its controls are big enough to touch, and axe-core finds
nothing serious in it. Each check fails naming what broke it, so the message is the fix list.

axe-core is vendored for the tests only (`tests/e2e/vendor/`, see its README) and injected into
the page under test; the app never serves it.
"""

from __future__ import annotations

import itertools
from pathlib import Path
from typing import Any

AXE = Path(__file__).resolve().parent / "vendor" / "axe.min.js"
TOUCH = 44  # px: the least height of a control a finger must hit (WCAG 2.5.5, Apple's HIG)

# What a finger aims at. Links inside running text are exempt (WCAG 2.5.8 exempts inline
# targets, and a paragraph of 44 px lines reads badly); links in a nav, styled as a button or
# in a table's first column stand alone and count. A checkbox or radio counts by the label that
# wraps it, as a tap on the label ticks it.
TARGETS = (
    "button, select, textarea, summary, [role=button], a.button, nav a, "
    "input:not([type=hidden]):not([type=checkbox]):not([type=radio]), "
    "label:has(> input[type=checkbox]), label:has(> input[type=radio])"
)

_SMALL_TARGETS = """([selector, least]) => {
  const name = (node) => {
    let text = node.tagName.toLowerCase();
    if (node.id) text += `#${node.id}`;
    if (node.getAttribute("name")) text += `[name=${node.getAttribute("name")}]`;
    const words = (node.getAttribute("aria-label") || node.textContent || "").trim().slice(0, 30);
    return words ? `${text} "${words}"` : text;
  };
  const small = [];
  for (const node of document.querySelectorAll(selector)) {
    const box = node.getBoundingClientRect();
    const style = getComputedStyle(node);
    if (box.width === 0 || box.height === 0 || style.visibility === "hidden") continue;  // not shown
    if (box.height < least - 0.5) small.push(`${name(node)}: ${box.height.toFixed(1)} px high`);
  }
  return small;
}"""

_WIDE = """() => {
  const width = document.documentElement.clientWidth;
  const label = (node) => node.tagName.toLowerCase() + (node.id ? `#${node.id}` : "") +
    (typeof node.className === "string" && node.className ? `.${node.className.split(" ").join(".")}` : "");
  const wide = [];
  for (const node of document.body.querySelectorAll("*")) {
    const box = node.getBoundingClientRect();
    // name only the outermost culprit: its children stick out because it does
    const inside = node.parentElement.getBoundingClientRect().right <= width + 0.5;
    if (box.width > 0 && box.right > width + 0.5 && inside) {
      wide.push(`${label(node)} reaches ${Math.round(box.right)} px`);
    }
  }
  return {scroll: document.documentElement.scrollWidth, width, wide: wide.slice(0, 8)};
}"""

_AXE_RUN = """async () => {
  const result = await axe.run(document, {resultTypes: ["violations"]});
  return result.violations.map((v) => ({
    id: v.id, impact: v.impact, help: v.help,
    nodes: v.nodes.slice(0, 4).map((n) => n.target.join(" ")),
  }));
}"""


def assert_fits(page: Any) -> None:
    """The page scrolls only up and down: nothing makes it wider than its viewport."""
    found = page.evaluate(_WIDE)
    assert found["scroll"] <= found["width"], (
        f"{page.url} is {found['scroll']} px wide at a {found['width']} px viewport; "
        f"sticking out: {', '.join(found['wide']) or 'nothing visible'}"
    )


def assert_touch_targets(page: Any, least: int = TOUCH) -> None:
    """Every visible button, select, input, summary and nav link is at least `least` px high."""
    small: list[str] = page.evaluate(_SMALL_TARGETS, [TARGETS, least])
    assert not small, f"{page.url}: controls under {least} px high: " + "; ".join(small)


_HEADINGS = """() => [...document.querySelectorAll("h1, h2, h3, h4, h5, h6")]
  .filter((h) => h.getClientRects().length > 0)
  .map((h) => [Number(h.tagName[1]), h.textContent.trim().slice(0, 40)])"""


def assert_headings_in_order(page: Any) -> None:
    """One h1 first, and no heading deeper than one level below the one before it (a screen
    reader's outline of the page has no holes)."""
    shown: list[list[Any]] = page.evaluate(_HEADINGS)
    assert shown and shown[0][0] == 1, f"{page.url}: the first heading is not an h1: {shown[:1]}"
    assert sum(1 for level, _ in shown if level == 1) == 1, f"{page.url}: more than one h1"
    pairs = itertools.pairwise(shown)
    skips = [f"h{b[0]} {b[1]!r} after h{a[0]} {a[1]!r}" for a, b in pairs if b[0] > a[0] + 1]
    assert not skips, f"{page.url}: headings skip a level: " + "; ".join(skips)


def assert_focus_visible(page: Any) -> None:
    """The first control the Tab key reaches draws a focus outline."""
    page.keyboard.press("Tab")
    outline = page.evaluate(
        "() => { const s = getComputedStyle(document.activeElement);"
        " return [document.activeElement.tagName, s.outlineStyle, parseFloat(s.outlineWidth)]; }"
    )
    assert outline[0] != "BODY", f"{page.url}: Tab reaches no control"
    assert outline[1] != "none" and outline[2] >= 2, f"{page.url}: {outline[0]} shows no focus: {outline}"


def assert_accessible(page: Any) -> None:
    """axe-core finds no violation of impact serious or critical in the page as it is now."""
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.add_script_tag(path=str(AXE))
    violations: list[dict[str, Any]] = page.evaluate(_AXE_RUN)
    bad = [v for v in violations if v["impact"] in ("serious", "critical")]
    assert not bad, f"{page.url}: accessibility violations: " + "; ".join(
        f"{v['id']} ({v['impact']}: {v['help']}) at {', '.join(v['nodes'])}" for v in bad
    )
