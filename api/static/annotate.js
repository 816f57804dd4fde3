// Annotating on the replay page: with the token of the "View as" box (a seat's, the recorder's or
// a reviewer's), a tap on a drawn card, pile, space, tile or province picks the annotation's
// coordinate, a tap on another draws an arrow to it; a comment, a glyph and a highlight go with
// it. Annotations are drawn on the board at their version (a highlight outlines its element, an
// arrow runs from one element to the other, a glyph is a badge) and listed under their move;
// their author edits or deletes them. What is shown is what GET /games/{id}/annotations answers
// the token: its own side's while the game runs, everyone's once it has ended.
"use strict";

const ChronicleAnnotate = (() => {
  const {el} = Dom;
  const SVG = "http://www.w3.org/2000/svg";
  const GLYPHS = ["!", "?", "!!", "??", "!?", "?!"];
  const COLOURS = {red: "#c62828", green: "#2e7d32", yellow: "#f9a825", blue: "#1565c0"};
  const ARROW = "#6a1b9a";  // an arrow without a highlight colour
  // what a tap on the board names, most specific first (a card drawn inside a zone is the card)
  const PICKABLE = [["card", "g.card[data-name]", "name"], ["space", "g.space[data-key]", "key"],
    ["province", "g.province[data-key]", "key"], ["tile", "g.tile[data-key]", "key"], ["pile", "g.zone[data-key]", "key"]];
  const FINDS = {card: ["g.card"], pile: ["g.card", "g.zone"], space: ["g.space"], province: ["g.province"], tile: ["g.tile"]};

  const state = {gameId: null, token: "", reader: null, notes: [], seats: {}, version: 1, head: 1,
    from: null, to: null, editing: null};
  const $ = (id) => document.getElementById(id);

  async function call(method, path, body) {
    const headers = {accept: "application/json"};
    if (state.token) headers.authorization = `Bearer ${state.token}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
    const answer = response.status === 204 ? {} : await response.json();
    if (!response.ok) throw new Error(answer.detail || answer.title || response.statusText);
    return answer;
  }

  // ---- the board ----------------------------------------------------------------------------

  function coordinateOf(node) {
    for (const [kind, selector, field] of PICKABLE) {
      const found = node.closest(`#picture ${selector}`);
      if (found) return `${kind}:${found.dataset[field]}`;
    }
    return null;
  }

  function visible(node) {
    const box = node.getBoundingClientRect();
    return box.width > 0 && box.height > 0;
  }

  // The drawn element a coordinate names (names compare as the API compares them: by case).
  function elementOf(coordinate) {
    const at = coordinate.indexOf(":");
    const kind = coordinate.slice(0, at), name = coordinate.slice(at + 1).trim().toLowerCase();
    for (const selector of FINDS[kind] || []) {
      for (const node of document.querySelectorAll(`#picture ${selector}`)) {
        const names = [node.dataset.name, node.dataset.key].filter(Boolean).map((n) => n.toLowerCase());
        if (names.includes(name) && visible(node)) return node;
      }
    }
    return null;
  }

  function svg(name, attrs) {
    const made = document.createElementNS(SVG, name);
    for (const [key, value] of Object.entries(attrs)) made.setAttribute(key, String(value));
    return made;
  }

  function shownNow() {
    return state.notes.filter((n) => n.version >= state.head && n.version <= state.version);
  }

  // Where a line from `from`'s centre meets the edge of `box` on its way to `box`'s centre.
  function edgePoint(box, from) {
    const cx = box.x + box.width / 2, cy = box.y + box.height / 2;
    const dx = from.x - cx, dy = from.y - cy;
    if (!dx && !dy) return {x: cx, y: cy};
    const scale = Math.min(Math.abs((box.width / 2 + 3) / (dx || 1e-9)), Math.abs((box.height / 2 + 3) / (dy || 1e-9)), 1);
    return {x: cx + dx * scale, y: cy + dy * scale};
  }

  function drawLayer() {
    const picture = $("picture");
    if (!picture) return;
    for (const old of picture.querySelectorAll("svg.annotation-layer")) old.remove();
    const base = picture.getBoundingClientRect();
    const width = picture.clientWidth, height = picture.scrollHeight;
    const layer = svg("svg", {class: "annotation-layer", width, height, viewBox: `0 0 ${width} ${height}`, "aria-hidden": "true"});
    const defs = svg("defs", {});
    for (const [name, colour] of [...Object.entries(COLOURS), ["arrow", ARROW]]) {
      const marker = svg("marker", {id: `annotation-head-${name}`, viewBox: "0 0 10 10", refX: 9, refY: 5,
        markerWidth: 5, markerHeight: 5, orient: "auto-start-reverse"});
      marker.append(svg("path", {d: "M0,0 L10,5 L0,10 z", fill: colour}));
      defs.append(marker);
    }
    layer.append(defs);
    const boxOf = (node) => {
      const r = node.getBoundingClientRect();
      return {x: r.left - base.left, y: r.top - base.top, width: r.width, height: r.height};
    };
    const outline = (box, attrs) => layer.append(svg("rect", {x: box.x - 3, y: box.y - 3, width: box.width + 6,
      height: box.height + 6, rx: 6, fill: "none", ...attrs}));
    for (const note of shownNow()) {
      const from = note.coordinate ? elementOf(note.coordinate) : null;
      if (!from) continue;
      const fromBox = boxOf(from);
      const colour = COLOURS[note.highlight] || ARROW;
      if (note.highlight) outline(fromBox, {stroke: colour, "stroke-width": 4, class: "highlight", "data-annotation": note.annotation_id});
      const head = note.to ? elementOf(note.to) : null;
      if (head) {
        const toBox = boxOf(head);
        const start = {x: fromBox.x + fromBox.width / 2, y: fromBox.y + fromBox.height / 2};
        const end = edgePoint(toBox, start);
        layer.append(svg("line", {x1: start.x, y1: start.y, x2: end.x, y2: end.y, stroke: colour, "stroke-width": 4,
          "stroke-linecap": "round", "marker-end": `url(#annotation-head-${note.highlight || "arrow"})`,
          class: "arrow", "data-annotation": note.annotation_id, "data-from": note.coordinate, "data-to": note.to}));
      }
      if (note.glyph) {
        const g = svg("g", {class: "badge", "data-annotation": note.annotation_id});
        const x = Math.min(fromBox.x + fromBox.width - 4, width - 14), y = Math.max(fromBox.y + 4, 14);
        g.append(svg("circle", {cx: x, cy: y, r: 13, fill: "#fff", stroke: colour, "stroke-width": 2}));
        const text = svg("text", {x, y: y + 5, "text-anchor": "middle", "font-size": 14, "font-weight": 700, fill: "#111"});
        text.textContent = note.glyph;
        g.append(text);
        layer.append(g);
      }
    }
    // what this device picked for the annotation it writes, dashed
    for (const [coordinate, kind] of [[state.from, "from"], [state.to, "to"]]) {
      const node = coordinate ? elementOf(coordinate) : null;
      if (node) outline(boxOf(node), {stroke: "#111", "stroke-width": 2, "stroke-dasharray": "5 4", class: `pick ${kind}`});
    }
    picture.append(layer);
  }

  function onBoard(event) {
    if (!writer()) return;
    const coordinate = coordinateOf(event.target);
    if (!coordinate) return;
    if (state.from === null || state.to !== null || coordinate === state.from) {
      state.from = coordinate === state.from && state.to === null ? null : coordinate;  // a second tap unpicks
      state.to = null;
    } else {
      state.to = coordinate;
    }
    drawForm();
    drawLayer();
  }

  // ---- the list ---------------------------------------------------------------------------

  // An author by name: a seat's player, the recorder, a reviewer.
  function who(author) {
    if (author.startsWith("seat:")) return state.seats[author.slice(5)] || author;
    if (author.startsWith("reviewer:")) return `${author.slice(9)}, reviewer`;
    return author;
  }

  function words(note) {
    const where = note.coordinate ? `[${note.coordinate}${note.to ? ` → ${note.to}` : ""}]` : null;
    const said = [note.glyph, where, note.highlight ? `(${note.highlight})` : null, note.text].filter(Boolean).join(" ");
    return `${said} (${who(note.author)}${note.edited_at ? ", edited" : ""})`;
  }

  function mine(note) { return state.reader !== null && (state.reader === "admin" || state.reader === note.author); }

  function noteItem(note) {
    const item = el("div", {class: "note annotation", "data-annotation": note.annotation_id, "data-author": note.author},
      el("span", {class: "words", text: words(note)}));
    if (mine(note)) {
      const edit = el("button", {type: "button", class: "edit", text: "edit", "aria-label": `edit annotation: ${note.text || note.glyph || ""}`});
      const remove = el("button", {type: "button", class: "delete", text: "delete", "aria-label": `delete annotation: ${note.text || note.glyph || ""}`});
      edit.addEventListener("click", (event) => { event.stopPropagation(); startEdit(note); });
      remove.addEventListener("click", (event) => { event.stopPropagation(); removeNote(note); });
      item.append(" ", edit, " ", remove);
    }
    return item;
  }

  // Each annotation under its move: the action whose step holds its version.
  function drawList() {
    for (const old of document.querySelectorAll("#moves .note")) old.remove();
    for (const note of state.notes) {
      const own = document.querySelector(`#moves li[data-version="${note.version}"]`);
      if (!own) continue;
      const move = document.querySelector(`#moves li[data-version="${own.dataset.step}"]`) || own;
      move.append(noteItem(note));
    }
    const box = $("event");
    if (box) {
      for (const old of box.querySelectorAll(":scope > .note")) old.remove();
      const line = box.querySelector(".line");
      const items = shownNow().map(noteItem);
      if (line) line.after(...items);
    }
  }

  // ---- the form ---------------------------------------------------------------------------

  function writer() { return Boolean(state.token) && state.reader !== null; }

  function buildForm() {
    const glyph = el("select", {id: "annotate-glyph", "aria-label": "glyph"},
      el("option", {value: "", text: "no glyph"}), ...GLYPHS.map((g) => el("option", {value: g, text: g})));
    const highlight = el("select", {id: "annotate-highlight", "aria-label": "highlight colour"},
      el("option", {value: "", text: "no highlight"}), ...Object.keys(COLOURS).map((c) => el("option", {value: c, text: c})));
    const text = el("textarea", {id: "annotate-text", rows: "2", maxlength: "2000", "aria-label": "comment",
      placeholder: "comment"});
    // the replay's keys are for the replay, not for a comment being written
    text.addEventListener("keydown", (event) => event.stopPropagation());
    const form = el("form", {id: "annotate", class: "annotate", "aria-label": "annotate this version", hidden: ""},
      el("h2", {id: "annotate-title", text: "Annotate"}),
      el("p", {id: "annotate-hint", class: "muted"}),
      el("p", {class: "picked"}, el("span", {id: "annotate-on"}),
        el("button", {type: "button", id: "annotate-clear", text: "clear", "aria-label": "clear what is picked"})),
      text,
      el("div", {class: "choices"}, glyph, highlight),
      el("div", {class: "buttons"},
        el("button", {type: "submit", id: "annotate-save", text: "Add"}),
        el("button", {type: "button", id: "annotate-cancel", text: "Cancel edit", hidden: ""})),
      el("p", {id: "annotate-problem", class: "error", role: "alert"}));
    form.addEventListener("submit", (event) => { event.preventDefault(); save(); });
    form.querySelector("#annotate-clear").addEventListener("click", () => { state.from = null; state.to = null; drawForm(); drawLayer(); });
    form.querySelector("#annotate-cancel").addEventListener("click", () => reset());
    $("event").after(form);
  }

  function drawForm() {
    const form = $("annotate");
    if (!form) return;
    form.hidden = !writer();
    document.body.classList.toggle("annotating", writer());
    $("annotate-title").textContent = state.editing ? "Edit the annotation" : `Annotate version ${state.version}`;
    $("annotate-hint").textContent = state.from === null
      ? "Tap a card, pile, space, tile or province on the board to point at it; a second one draws an arrow."
      : state.to === null ? "Tap another to draw an arrow to it." : "";
    $("annotate-on").textContent = state.from === null ? "" : `on ${state.from}${state.to ? ` → ${state.to}` : ""}`;
    $("annotate-clear").hidden = state.from === null;
    $("annotate-save").textContent = state.editing ? "Save" : "Add";
    $("annotate-cancel").hidden = !state.editing;
  }

  function reset() {
    state.editing = null; state.from = null; state.to = null;
    $("annotate-text").value = ""; $("annotate-glyph").value = ""; $("annotate-highlight").value = "";
    $("annotate-problem").textContent = "";
    drawForm();
    drawLayer();
  }

  function startEdit(note) {
    state.editing = note.annotation_id;
    state.from = note.coordinate; state.to = note.to || null;
    $("annotate-text").value = note.text; $("annotate-glyph").value = note.glyph || "";
    $("annotate-highlight").value = note.highlight || "";
    drawForm();
    drawLayer();
    $("annotate").scrollIntoView({block: "nearest"});
    $("annotate-text").focus();
  }

  async function save() {
    const content = {text: $("annotate-text").value, glyph: $("annotate-glyph").value || null,
      highlight: $("annotate-highlight").value || null, coordinate: state.from, to: state.to};
    try {
      if (state.editing) await call("PATCH", `/games/${state.gameId}/annotations/${state.editing}`, content);
      else await call("POST", `/games/${state.gameId}/annotations`, {at: state.version, ...content});
    } catch (error) {
      $("annotate-problem").textContent = error.message;
      return;
    }
    await load();
    reset();
    drawList();
  }

  async function removeNote(note) {
    try {
      await call("DELETE", `/games/${state.gameId}/annotations/${note.annotation_id}`);
    } catch (error) {
      $("annotate-problem").textContent = error.message;
      return;
    }
    if (state.editing === note.annotation_id) reset();
    await load();
    drawList();
    drawLayer();
  }

  async function load() {
    if (!Object.keys(state.seats).length) {
      try { state.seats = (await call("GET", `/games/${state.gameId}`)).seats || {}; } catch (_error) { state.seats = {}; }
    }
    try {
      const answer = await call("GET", `/games/${state.gameId}/annotations`);
      state.notes = answer.annotations;
      state.reader = answer.reader === undefined ? null : answer.reader;
    } catch (_error) {
      state.notes = []; state.reader = null;
    }
    document.body.dataset.annotations = String(state.notes.length);
  }

  // "loaded" reads the annotations while the replay goes on to draw a version: the "shown" that
  // follows waits for them
  let loading = Promise.resolve();

  async function onReplay(what, detail) {
    if (!$("annotate")) {
      buildForm();
      $("picture").addEventListener("click", onBoard);
      // the picture is drawn afresh without a step too ("table view"): the layer goes with it
      new MutationObserver(() => {
        if (!$("picture").querySelector("svg.annotation-layer")) drawLayer();
      }).observe($("picture"), {childList: true});
      window.addEventListener("resize", () => drawLayer());
    }
    state.gameId = detail.gameId;
    if (what === "loaded") {
      if (detail.token !== state.token) { state.token = detail.token; state.editing = null; state.from = null; state.to = null; }
      loading = load();
      await loading;
      drawList();
      drawForm();
      return;
    }
    state.version = detail.version;
    state.head = detail.head;
    await loading;
    if (state.version !== detail.version) return;  // a later step is being drawn
    drawList();
    drawForm();
    drawLayer();
    document.body.dataset.annotated = String(state.version);
  }

  if (typeof Chronicle !== "undefined" && Chronicle.onReplay) Chronicle.onReplay(onReplay);
  return {coordinateOf, elementOf};
})();
