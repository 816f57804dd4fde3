// Chronicle's game boards: a picture's drawn sections (domain/picture.py) as SVG. Plain script,
// no build step; viewer.js's drawPicture calls `ChronicleBoards.draw` for every section that is
// not a table, so every page that draws a picture (the replay, the table page) draws the same.
// Each drawing is an <svg role="img"> with an aria-label summing it up; the tables a drawing
// replaces stay in the page for the "table view" toggle (and for screen readers).
"use strict";

const ChronicleBoards = (() => {
  const NS = "http://www.w3.org/2000/svg";
  const SEAT_COLOURS = ["#2e7d32", "#c62828", "#1565c0", "#ef6c00", "#6a1b9a", "#00838f"];
  const DOMAIN_COLOURS = {CRA: "#d9534f", TRA: "#f0ad4e", ART: "#b05fc4", SCI: "#3bb3c3", GOV: "#3f6fd1", REL: "#e8e2d0"};
  // Dominion's card types as colour bands (Castle and Gathering are drawn as their base type).
  const TYPE_COLOURS = {
    Action: "#e6e6e6", Treasure: "#f2c94c", Victory: "#6fbf73", Curse: "#9b59b6", Attack: "#d64541",
    Reaction: "#4a90d9", Duration: "#f0932b", Castle: "#6fbf73", Gathering: "#e6e6e6", Night: "#4a4a4a",
    Reserve: "#b08d57", Event: "#cfc6b0", Landmark: "#8fb5a8", Building: "#d9c7a3",
  };
  const CHANGED = "#ffd400";
  const CARD_W = 62, CARD_H = 88, GAP = 6, LABEL_H = 16;

  function node(tag, attrs = {}, text) {
    const made = document.createElementNS(NS, tag);
    for (const [key, value] of Object.entries(attrs)) made.setAttribute(key, String(value));
    if (text !== undefined) made.textContent = text;
    return made;
  }

  function seatColour(seats, seat) {
    const i = Object.keys(seats || {}).indexOf(seat);
    return i < 0 ? "#555" : SEAT_COLOURS[i % SEAT_COLOURS.length];
  }

  // Text that never runs past `width`: squeezed to fit when the estimate says it would.
  function fitted(attrs, text, width, size) {
    const made = node("text", {...attrs, "font-size": size}, text);
    if (text.length * size * 0.56 > width) {
      made.setAttribute("textLength", String(width));
      made.setAttribute("lengthAdjust", "spacingAndGlyphs");
    }
    return made;
  }

  // `width`: the drawing's width, or a whole viewBox ("x y w h") when `height` is null.
  function svgBox(width, height, label, section) {
    return node("svg", {viewBox: height === null ? width : `0 0 ${width} ${height}`, role: "img", "aria-label": label,
      class: "board-svg", "data-section": section.id, preserveAspectRatio: "xMidYMin meet"});
  }

  // `legend`: [colour, words, shape] rows drawn under the drawing (HTML, so it wraps on a phone).
  function figure(section, drawing, legend = []) {
    const box = document.createElement("figure");
    box.className = "drawn";
    box.dataset.section = section.id;
    box.dataset.kind = section.type;
    const caption = document.createElement("figcaption");
    caption.textContent = section.title;
    box.append(caption, drawing);
    if (legend.length) {
      const words = document.createElement("p");
      words.className = "muted legend";
      for (const [colour, text, shape] of legend) {
        const swatch = document.createElement("span");
        swatch.className = `swatch${shape === "round" ? " round" : ""}`;
        swatch.style.background = colour;
        words.append(swatch, ` ${text} `);
      }
      box.append(words);
    }
    return box;
  }

  function seatLegend(seats, only) {
    return Object.keys(seats || {}).filter((s) => !only || only.has(s))
      .map((seat) => [seatColour(seats, seat), seats[seat], "round"]);
  }

  // ---- cards --------------------------------------------------------------------------------

  function drawCard(card, x, y, seats) {
    const g = node("g", {class: "card", "data-key": card.key, "data-name": card.name, transform: `translate(${x},${y})`});
    const types = card.types.length ? card.types : ["Action"];
    const base = types.find((t) => ["Treasure", "Victory", "Curse", "Night", "Event", "Landmark", "Building"].includes(t)) || "Action";
    g.append(node("rect", {width: CARD_W, height: CARD_H, rx: 5, fill: "#fffdf7", stroke: "#333",
      "stroke-width": card.marks.includes("empty") ? 0.5 : 1, opacity: card.marks.includes("empty") ? 0.45 : 1}));
    g.append(node("rect", {x: 3, y: 3, width: CARD_W - 6, height: 30, rx: 3, fill: TYPE_COLOURS[base] || "#ddd"}));
    // the name, on up to two lines
    const words = card.name.split(" ");
    const lines = [];
    for (const word of words) {
      if (lines.length && (lines[lines.length - 1] + " " + word).length <= 10) lines[lines.length - 1] += " " + word;
      else lines.push(word);
    }
    const shown = lines.length > 2 ? [lines[0], lines.slice(1).join(" ")] : lines;
    shown.forEach((line, i) => g.append(fitted({x: CARD_W / 2, y: shown.length === 1 ? 22 : 15 + i * 11,
      "text-anchor": "middle", fill: base === "Night" ? "#fff" : "#111", "font-weight": "600"}, line, CARD_W - 10, 10)));
    // one colour band per type
    const bandH = Math.min(8, 24 / types.length);
    types.forEach((type, i) => g.append(node("rect", {x: 3, y: 38 + i * (bandH + 1), width: CARD_W - 6, height: bandH,
      fill: TYPE_COLOURS[type] || "#bbb", stroke: "#888", "stroke-width": 0.5, class: "band", "data-type": type})));
    if (/^\$\d+$/.test(card.cost)) {  // a coin cost in a coin
      g.append(node("circle", {cx: 13, cy: CARD_H - 13, r: 10, fill: "#f2c94c", stroke: "#8a6d00"}));
      g.append(node("text", {x: 13, y: CARD_H - 9.5, "text-anchor": "middle", fill: "#111", "font-size": 11, class: "cost"}, card.cost.slice(1)));
    } else if (card.cost) {  // a debt cost, a building's labour and coins: as written
      g.append(fitted({x: CARD_W / 2, y: 74, "text-anchor": "middle", fill: "#111", "font-weight": "600", class: "cost"}, card.cost, CARD_W - 10, 10));
    }
    if (card.count !== null && card.count !== undefined) {
      g.append(node("rect", {x: CARD_W - 24, y: CARD_H - 22, width: 20, height: 17, rx: 8, fill: "#1d232a"}));
      g.append(node("text", {x: CARD_W - 14, y: CARD_H - 9.5, "text-anchor": "middle", fill: "#fff", "font-size": 11, class: "count"}, String(card.count)));
    }
    if (card.tokens) g.append(fitted({x: CARD_W / 2, y: 62, "text-anchor": "middle", fill: "#7a1f1f", "font-weight": "600"}, card.tokens, CARD_W - 8, 10));
    card.owners.forEach((seat, i) => g.append(node("circle", {cx: 10 + i * 13, cy: CARD_H - 6, r: 4.5,
      fill: seatColour(seats, seat), stroke: i === 0 ? "#000" : "#fff", "stroke-width": i === 0 ? 1.5 : 1, class: "owner"})));
    g.append(node("title", {}, [card.name, card.cost, card.types.join(" "), card.count !== null ? `${card.count} left` : "",
      card.tokens, card.owners.map((s) => (seats || {})[s] || s).join(", ")].filter(Boolean).join(" · ")));
    return g;
  }

  function drawBack(x, y, label) {
    const g = node("g", {class: "back", transform: `translate(${x},${y})`});
    g.append(node("rect", {width: CARD_W, height: CARD_H, rx: 5, fill: "#6b4f2a", stroke: "#2b1d0c"}));
    g.append(node("rect", {x: 6, y: 6, width: CARD_W - 12, height: CARD_H - 12, rx: 3, fill: "none", stroke: "#d9b77a"}));
    if (label !== undefined) g.append(node("text", {x: CARD_W / 2, y: CARD_H / 2 + 6, "text-anchor": "middle", fill: "#fff", "font-size": 16, "font-weight": "700"}, label));
    return g;
  }

  // A zone's width when laid out alone: its cards side by side, backs overlapping, a pile one card,
  // and never narrower than its caption (11px bold: about 6.5px a character), which would run
  // into the next zone's.
  function zoneWidth(zone) {
    const faces = zone.cards.length + (zone.pile && !zone.cards.length ? 1 : 0);
    const backs = zone.backs ? CARD_W + (zone.backs - 1) * 16 : 0;
    const caption = (zone.label.length + (zone.pile ? 3 + String(zone.size ?? "?").length : 0)) * 6.5;
    return Math.max(70, caption, faces * (CARD_W + GAP) - (faces ? GAP : 0) + (faces && backs ? GAP : 0) + backs);
  }

  function drawCards(section, picture, changed, width) {
    const seats = picture.seats;
    const inner = Math.max(CARD_W + 8, width);
    const placed = [];  // [zone, x, y, rows of cards]
    let x = 0, y = section.note ? 16 : 0, rowH = 0;
    for (const zone of section.zones) {
      const perRow = Math.max(1, Math.floor((inner + GAP) / (CARD_W + GAP)));
      let w = zoneWidth(zone), rows = 1;
      if (w > inner) { rows = Math.ceil(zone.cards.length / perRow); w = inner; }
      const h = LABEL_H + rows * (CARD_H + GAP);
      if (x > 0 && x + w > inner) { x = 0; y += rowH + 4; rowH = 0; }
      placed.push({zone, x, y, perRow: rows > 1 ? perRow : zone.cards.length || 1});
      x += w + 14;
      rowH = Math.max(rowH, h);
    }
    const height = y + rowH + 2;
    const counts = section.zones.map((z) => `${z.label}: ${z.cards.length ? z.cards.map((c) => c.name).join(", ") : ""}` +
      `${z.backs ? `${z.cards.length ? ", " : ""}${z.backs} face down` : ""}${z.pile ? ` (${z.size === null ? "?" : z.size} in the pile)` : ""}`);
    const drawing = svgBox(`-4 -4 ${inner + 8} ${height + 8}`, null, `${section.title}. ${counts.join(". ")}`, section);
    if (section.note) drawing.append(node("text", {x: 0, y: 11, "font-size": 11, fill: "#555"}, section.note));
    for (const {zone, x: zx, y: zy, perRow} of placed) {
      const g = node("g", {class: `zone${changed.has(`${section.id}/${zone.key}`) ? " changed" : ""}`, "data-key": zone.key});
      const w = Math.min(zoneWidth(zone), inner);
      const cardMarked = zone.cards.some((c) => changed.has(`${section.id}/${zone.key}/${c.key}`));
      if (changed.has(`${section.id}/${zone.key}`) && !cardMarked) {
        g.append(node("rect", {x: zx - 2, y: zy - 1, width: w + 4, height: LABEL_H + Math.ceil(Math.max(1, zone.cards.length) / perRow) * (CARD_H + GAP) + 2,
          rx: 6, fill: CHANGED, "fill-opacity": 0.35, stroke: CHANGED, "stroke-width": 2, class: "changed-mark"}));
      }
      const sizeText = zone.pile ? ` · ${zone.size === null ? "?" : zone.size}` : "";
      if (zone.label !== section.title || sizeText) {  // the caption says it already
        g.append(node("text", {x: zx, y: zy + 11, "font-size": 11, "font-weight": "600", fill: "#333"}, zone.label + sizeText));
      }
      zone.cards.forEach((card, i) => {
        const drawn = drawCard(card, zx + (i % perRow) * (CARD_W + GAP), zy + LABEL_H + Math.floor(i / perRow) * (CARD_H + GAP), seats);
        if (changed.has(`${section.id}/${zone.key}/${card.key}`)) {  // this card changed: ringed
          drawn.classList.add("changed");
          drawn.insertBefore(node("rect", {x: -2, y: -2, width: CARD_W + 4, height: CARD_H + 4, rx: 7, fill: CHANGED,
            "fill-opacity": 0.5, stroke: CHANGED, "stroke-width": 3, class: "changed-mark"}), drawn.firstChild);
        }
        g.append(drawn);
      });
      let bx = zx + (zone.cards.length ? Math.min(zone.cards.length, perRow) * (CARD_W + GAP) : 0);
      for (let i = 0; i < zone.backs; i += 1) g.append(drawBack(bx + i * 16, zy + LABEL_H));
      if (!zone.pile && !zone.cards.length && !zone.backs) {
        g.append(node("rect", {x: zx, y: zy + LABEL_H, width: CARD_W, height: CARD_H, rx: 5, fill: "none", stroke: "#bbb", "stroke-dasharray": "4 3", class: "empty-zone"}));
        g.append(node("text", {x: zx + CARD_W / 2, y: zy + LABEL_H + CARD_H / 2 + 4, "text-anchor": "middle", "font-size": 11, fill: "#888"}, "none"));
      }
      if (zone.pile && !zone.cards.length) {
        if (zone.size) g.append(drawBack(zx, zy + LABEL_H, String(zone.size)));
        else g.append(node("rect", {x: zx, y: zy + LABEL_H, width: CARD_W, height: CARD_H, rx: 5, fill: "none", stroke: "#999", "stroke-dasharray": "4 3", class: "empty-pile"}));
        if (zone.size === null) g.append(node("text", {x: zx + CARD_W / 2, y: zy + LABEL_H + CARD_H / 2 + 5, "text-anchor": "middle", "font-size": 16, fill: "#777"}, "?"));
      }
      drawing.append(g);
    }
    const owners = new Set(section.zones.flatMap((z) => z.cards.flatMap((c) => c.owners)));
    if (owners.size) return figure(section, drawing, [...seatLegend(picture.seats, owners), ["#fff", "outlined: built first", "round"]]);
    const types = [...new Set(section.zones.flatMap((z) => z.cards.flatMap((c) => c.types)))].filter((t) => TYPE_COLOURS[t]);
    return figure(section, drawing, section.seat ? [] : types.map((t) => [TYPE_COLOURS[t], t]));
  }

  // ---- a cycle of spaces (Province's work cycle) ---------------------------------------------

  function drawCycle(section, picture, changed, width) {
    const seats = picture.seats;
    const n = section.spaces.length;
    const size = 320, r = n > 1 ? 105 : 0, cx = size / 2, cy = size / 2 + 4;
    const summary = section.spaces.map((s) => `${s.label} (${s.gives}): ${s.pieces.map((p) => `${p.count} ${p.kind}${p.seat ? ` of ${seats[p.seat] || p.seat}` : ""}`).join(", ") || "empty"}`);
    const at = section.spaces.map((_, i) => {
      const a = -Math.PI / 2 + (2 * Math.PI * i) / n;
      return [cx + r * Math.cos(a), cy + r * Math.sin(a)];
    });
    const R = 58;
    // the box: every space's circle and its changed ring, and no more
    const ys = at.map(([, y]) => y);
    const top = Math.min(...ys) - R - 6, bottom = Math.max(...ys) + R + 6;
    const drawing = svgBox(`0 ${top} ${size} ${bottom - top}`, null, `${section.title}, in order: ${summary.join("; then ")}`, section);
    drawing.append(node("defs", {}));
    drawing.firstChild.append(Object.assign(node("marker", {id: `arrow-${section.id}`, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 7, markerHeight: 7, orient: "auto-start-reverse"})));
    drawing.firstChild.firstChild.append(node("path", {d: "M 0 0 L 10 5 L 0 10 z", fill: "#555"}));
    at.forEach(([x1, y1], i) => {  // the arrows, space to next space
      if (n < 2) return;
      const [x2, y2] = at[(i + 1) % n];
      const d = Math.hypot(x2 - x1, y2 - y1);
      const ux = (x2 - x1) / d, uy = (y2 - y1) / d;
      drawing.append(node("line", {x1: x1 + ux * (R + 2), y1: y1 + uy * (R + 2), x2: x2 - ux * (R + 4), y2: y2 - uy * (R + 4),
        stroke: "#555", "stroke-width": 2, "marker-end": `url(#arrow-${section.id})`}));
    });
    section.spaces.forEach((space, i) => {
      const [x, y] = at[i];
      const fresh = changed.has(`${section.id}/${space.key}`);
      const g = node("g", {class: `space${fresh ? " changed" : ""}`, "data-key": space.key});
      g.append(node("circle", {cx: x, cy: y, r: R, fill: "#f4efe2", stroke: fresh ? CHANGED : "#555", "stroke-width": fresh ? 5 : 1.5}));
      g.append(fitted({x, y: y - 30, "text-anchor": "middle", "font-weight": "700", fill: "#222"}, space.label, 2 * R - 24, 13));
      g.append(node("text", {x, y: y - 16, "text-anchor": "middle", "font-size": 10, fill: "#666"}, space.gives));
      const tokens = [];
      for (const piece of space.pieces) {
        for (let k = 0; k < piece.count; k += 1) tokens.push(piece);
      }
      tokens.forEach((piece, k) => {
        const col = k % 5, row = Math.floor(k / 5);
        const tx = x - 40 + col * 20, ty = y + 2 + row * 20;
        const colour = piece.kind === "green" ? "#2e7d32" : piece.seat ? seatColour(seats, piece.seat) : piece.kind === "camp" ? "#8d6e63" : "#455a64";
        const shape = piece.kind === "green" || piece.kind === "sailor"
          ? node("circle", {cx: tx + 7, cy: ty + 7, r: 7, fill: colour, stroke: "#111", class: "piece", "data-kind": piece.kind})
          : node("rect", {x: tx, y: ty, width: 16, height: 14, fill: colour, stroke: "#111", class: "piece", "data-kind": piece.kind});
        shape.append(node("title", {}, `${piece.kind}${piece.seat ? ` of ${seats[piece.seat] || piece.seat}` : ""}`));
        g.append(shape);
      });
      drawing.append(g);
    });
    const sailors = new Set(section.spaces.flatMap((s) => s.pieces.filter((p) => p.seat).map((p) => p.seat)));
    return figure(section, drawing, [["#2e7d32", "green worker", "round"], ["#8d6e63", "Camp"], ["#455a64", "Village"],
      ...seatLegend(picture.seats, sailors).map(([c, name]) => [c, `${name}'s sailor`, "round"])]);
  }

  // ---- a map of regions (Dynasties & Kingdoms) ------------------------------------------------

  function drawMap(section, picture, changed) {
    const seats = picture.seats;
    const byKey = Object.fromEntries(section.nodes.map((n) => [n.key, n]));
    const held = section.nodes.filter((n) => n.owner).map((n) => `${n.label} ${seats[n.owner] || n.owner} ${n.armies}`);
    const battle = section.nodes.find((n) => n.marks.includes("battle"));
    const drawing = svgBox("-40 -40 1080 1090", null, `${section.title}: ${section.nodes.length} provinces. Held: ${held.join(", ") || "none"}.` +
      `${battle ? ` Battle for ${battle.label}.` : ""}`, section);
    for (const [a, b] of section.edges) {
      if (!byKey[a] || !byKey[b]) continue;
      drawing.append(node("line", {x1: byKey[a].x, y1: byKey[a].y, x2: byKey[b].x, y2: byKey[b].y, stroke: "#9aa3ad", "stroke-width": 3, class: "border"}));
    }
    for (const n of section.nodes) {
      const fresh = changed.has(`${section.id}/${n.key}`);
      const g = node("g", {class: `province${fresh ? " changed" : ""}${n.marks.includes("battle") ? " battle" : ""}`, "data-key": n.key});
      if (n.marks.includes("battle")) g.append(node("circle", {cx: n.x, cy: n.y, r: 62, fill: "none", stroke: "#d32f2f", "stroke-width": 8, "stroke-dasharray": "14 8"}));
      if (fresh) g.append(node("circle", {cx: n.x, cy: n.y, r: 54, fill: CHANGED, "fill-opacity": 0.5, stroke: CHANGED, "stroke-width": 4, class: "changed-mark"}));
      const fill = n.owner ? seatColour(seats, n.owner) : n.marks.includes("barbarian") ? "#bcaaa4" : "#eceff1";
      g.append(node("circle", {cx: n.x, cy: n.y, r: 40, fill, stroke: n.marks.includes("homeland") ? "#000" : "#555", "stroke-width": n.marks.includes("homeland") ? 6 : 2}));
      if (n.marks.includes("city")) g.append(node("rect", {x: n.x - 13, y: n.y - 62, width: 26, height: 20, fill: "#ffca28", stroke: "#5d4037", "stroke-width": 2, class: "city"}));
      const words = [n.owner ? String(n.armies) : "", n.rebels ? `R${n.rebels}` : ""].filter(Boolean).join(" ");
      if (words) g.append(node("text", {x: n.x, y: n.y + 11, "text-anchor": "middle", "font-size": 32, "font-weight": "700", fill: n.owner ? "#fff" : "#6d1b1b"}, words));
      if (n.marks.includes("blocked")) g.append(node("line", {x1: n.x - 28, y1: n.y - 28, x2: n.x + 28, y2: n.y + 28, stroke: "#000", "stroke-width": 5}));
      const label = fitted({x: n.x, y: n.y + 70, "text-anchor": "middle", fill: "#1d232a", "font-weight": "600", stroke: "#fff", "stroke-width": 6, "paint-order": "stroke"}, n.label, 124, 26);
      g.append(label);
      g.append(node("title", {}, `${n.label}: ${n.owner ? `${seats[n.owner] || n.owner}, ${n.armies} armies` : "nobody's"}` +
        `${n.rebels ? `, ${n.rebels} rebels` : ""}${n.marks.length ? ` (${n.marks.join(", ")})` : ""}`));
      drawing.append(g);
    }
    return figure(section, drawing, [...seatLegend(seats), ["#bcaaa4", "barbarians", "round"], ["#ffca28", "city"],
      ["#fff", "thick ring: a homeland", "round"], ["#d32f2f", "red dashes: the battle", "round"]]);
  }

  // ---- a board of triangular tiles (Dominations) ---------------------------------------------

  function drawTiles(section, picture, changed) {
    const seats = picture.seats;
    const box = document.createElement("figure");
    box.className = "tiles";
    box.dataset.section = section.id;
    const caption = document.createElement("figcaption");
    caption.textContent = section.title;
    box.append(caption);
    if (!section.tiles.length) {
      const none = document.createElement("p");
      none.className = "muted";
      none.textContent = "no tiles yet";
      box.append(none);
      return box;
    }
    const w = 26, h = 45, pad = 6;  // half a side, a row's height; pad: the marked stroke's room
    const cols = section.tiles.map((t) => t.col), rows = section.tiles.map((t) => t.row);
    // A tile spans its col ± 1 half width and its row's full height: the box holds them all.
    const left = Math.min(...cols) - 1, right = Math.max(...cols) + 1;
    const top = Math.min(...rows), bottom = Math.max(...rows) + 1;
    const width = (right - left) * w + 2 * pad, height = (bottom - top) * h + 2 * pad;
    const drawing = node("svg", {viewBox: `${-pad} ${-pad} ${width} ${height}`, role: "img", class: "board-svg",
      "aria-label": `${section.title}: ${section.tiles.length} tiles placed, ${section.tiles.filter((t) => t.owner).length} with a city`,
      style: `max-width:${Math.round(width * 1.6)}px`});
    const seatList = Object.keys(seats);
    for (const tile of section.tiles) {
      const x = (tile.col - left) * w, y = (tile.row - top) * h;
      // the cell's vertices v0, v1, v2 (dominations-provinces.md 1.6)
      const points = tile.shape === "up"
        ? [[x - w, y + h], [x, y], [x + w, y + h]]
        : [[x - w, y], [x + w, y], [x, y + h]];
      const cx = x, cy = tile.shape === "up" ? y + h * 2 / 3 : y + h / 3;
      const fresh = changed.has(`${section.id}/${tile.key}`);
      const group = node("g", {"data-key": tile.key, class: `tile${fresh ? " changed" : ""}`});
      group.append(node("polygon", {
        points: points.map((p) => p.join(",")).join(" "),
        fill: DOMAIN_COLOURS[tile.centre] || "#ccc", "fill-opacity": "0.45",
        stroke: fresh ? CHANGED : "#333", "stroke-width": fresh ? "4" : "1", "stroke-linejoin": "round"}));
      (tile.corners || []).forEach((colour, k) => {
        if (!colour) return;
        const [px, py] = points[k];
        group.append(node("circle", {cx: px + (cx - px) * 0.3, cy: py + (cy - py) * 0.3, r: 5,
          fill: DOMAIN_COLOURS[colour] || "#999", stroke: "#222"}));
      });
      if (tile.owner) {
        const colour = SEAT_COLOURS[seatList.indexOf(tile.owner) % SEAT_COLOURS.length] || "#000";
        group.append(node("rect", {x: cx - 8, y: cy - 8, width: 16, height: 16, fill: colour, stroke: "#fff"}));
        group.append(node("text", {x: cx, y: cy + 4, "text-anchor": "middle", fill: "#fff", "font-size": 11}, String(tile.level)));
      } else {
        group.append(node("text", {x: cx, y: cy + 3, "text-anchor": "middle", "font-size": 8, fill: "#222"}, tile.label));
      }
      group.append(node("title", {}, `${tile.key} ${tile.label}${tile.owner ? ` city of ${seats[tile.owner]} (level ${tile.level})` : ""}`));
      drawing.append(group);
    }
    box.append(drawing);
    const legend = document.createElement("p");
    legend.className = "muted legend";
    const swatch = (colour, name) => {
      const s = document.createElement("span");
      s.className = "swatch";
      s.style.background = colour;
      legend.append(s, ` ${name} `);
    };
    for (const [name, colour] of Object.entries(DOMAIN_COLOURS)) swatch(colour, name);
    seatList.forEach((seat, i) => swatch(SEAT_COLOURS[i % SEAT_COLOURS.length], seats[seat]));
    box.append(legend);
    return box;
  }

  // The drawing of one section that is not a table, or null for a kind this script does not know.
  // `width`: the room the page gives it, in CSS pixels (card rows wrap to it).
  function draw(section, picture, changed, width) {
    const room = Math.max(300, Math.floor(width || 360));
    if (section.type === "cards") return drawCards(section, picture, changed, room);
    if (section.type === "cycle") return drawCycle(section, picture, changed, room);
    if (section.type === "map") return drawMap(section, picture, changed);
    if (section.type === "board") return drawTiles(section, picture, changed);
    return null;
  }

  return {draw, SEAT_COLOURS, DOMAIN_COLOURS, TYPE_COLOURS};
})();
