// Chronicle's web viewer: the games list and a game's replay. Plain script, no build step:
// it reads the same redacted API every client reads (/games, /games/{id}/events, /picture).
"use strict";

const Chronicle = (() => {
  const TOKEN_KEY = "chronicle-token";
  const DOMAIN_COLOURS = {CRA: "#d9534f", TRA: "#f0ad4e", ART: "#b05fc4", SCI: "#3bb3c3", GOV: "#3f6fd1", REL: "#e8e2d0"};
  const SEAT_COLOURS = ["#2e7d32", "#c62828", "#1565c0", "#ef6c00", "#6a1b9a", "#00838f"];

  function el(tag, attrs = {}, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs)) {
      if (key === "class") node.className = value;
      else if (key === "text") node.textContent = value;
      else node.setAttribute(key, value);
    }
    for (const child of children) node.append(child);
    return node;
  }

  function svg(tag, attrs = {}) {
    const node = document.createElementNS("http://www.w3.org/2000/svg", tag);
    for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, value);
    return node;
  }

  async function api(path, token) {
    const headers = {accept: "application/json"};
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetch(path, {headers});
    const body = await response.json();
    if (!response.ok) throw new Error(body.detail || body.title || response.statusText);
    return body;
  }

  // ---- the games list ---------------------------------------------------------------------

  async function gamesPage() {
    const form = document.getElementById("filters");
    const body = document.querySelector("#games tbody");
    async function load() {
      const query = new URLSearchParams();
      for (const [key, value] of new FormData(form)) if (value) query.set(key, value);
      query.set("limit", "100");
      const list = await api(`/games?${query}`);
      body.replaceChildren();
      for (const game of list.games) {
        const link = el("a", {href: `/view/${game.game_id}`, text: `${game.ruleset} ${game.game_id.slice(0, 8)}`});
        body.append(el("tr", {"data-game": game.game_id},
          el("td", {}, link, el("span", {class: "muted", text: ` ${game.mode}`})),
          el("td", {text: game.players.join(", ")}),
          el("td", {text: game.status}),
          el("td", {text: (game.winners || []).join(", ") || "-"}),
          el("td", {text: (game.created_at || "").slice(0, 16).replace("T", " ")})));
      }
      document.getElementById("empty").hidden = list.games.length > 0;
    }
    form.addEventListener("submit", (event) => { event.preventDefault(); load(); });
    await load();
  }

  // ---- a game's replay --------------------------------------------------------------------

  function drawTable(section, changed) {
    const table = el("table", {class: "grid", "data-section": section.id});
    table.append(el("caption", {text: section.title}));
    table.append(el("thead", {}, el("tr", {}, ...section.columns.map((c) => el("th", {text: c})))));
    const body = el("tbody");
    for (const row of section.rows) {
      const tr = el("tr", {"data-key": row.key, class: row.marks.join(" ")});
      const fresh = changed.has(`${section.id}/${row.key}`);
      row.cells.forEach((cell, i) => {
        const td = el("td", {text: cell});
        if (fresh || changed.has(`${section.id}/${row.key}/${i}`)) td.classList.add("changed");
        tr.append(td);
      });
      body.append(tr);
    }
    table.append(body);
    return table;
  }

  function drawBoard(section, seats, changed) {
    const box = el("figure", {class: "tiles", "data-section": section.id});
    box.append(el("figcaption", {text: section.title}));
    if (!section.tiles.length) { box.append(el("p", {class: "muted", text: "no tiles yet"})); return box; }
    const w = 26, h = 45;  // half a side, a row's height
    const cols = section.tiles.map((t) => t.col), rows = section.tiles.map((t) => t.row);
    const left = Math.min(...cols) - 1, top = Math.min(...rows);
    const width = (Math.max(...cols) - left + 1) * w, height = (Math.max(...rows) - top + 1) * h;
    const drawing = svg("svg", {viewBox: `0 0 ${width} ${height}`, width: String(width), height: String(height)});
    const seatList = Object.keys(seats);
    for (const tile of section.tiles) {
      const x = (tile.col - left) * w, y = (tile.row - top) * h;
      // the cell's vertices v0, v1, v2 (dominations-provinces.md 1.6)
      const points = tile.shape === "up"
        ? [[x - w, y + h], [x, y], [x + w, y + h]]
        : [[x - w, y], [x + w, y], [x, y + h]];
      const cx = x, cy = tile.shape === "up" ? y + h * 2 / 3 : y + h / 3;
      const group = svg("g", {"data-key": tile.key});
      group.append(svg("polygon", {
        points: points.map((p) => p.join(",")).join(" "),
        fill: DOMAIN_COLOURS[tile.centre] || "#ccc", "fill-opacity": "0.45",
        stroke: changed.has(`${section.id}/${tile.key}`) ? "#ffd400" : "#333",
        "stroke-width": changed.has(`${section.id}/${tile.key}`) ? "4" : "1"}));
      (tile.corners || []).forEach((colour, k) => {
        if (!colour) return;
        const [px, py] = points[k];
        group.append(svg("circle", {cx: String(px + (cx - px) * 0.3), cy: String(py + (cy - py) * 0.3), r: "5",
          fill: DOMAIN_COLOURS[colour] || "#999", stroke: "#222"}));
      });
      if (tile.owner) {
        const colour = SEAT_COLOURS[seatList.indexOf(tile.owner) % SEAT_COLOURS.length] || "#000";
        group.append(svg("rect", {x: String(cx - 8), y: String(cy - 8), width: "16", height: "16", fill: colour, stroke: "#fff"}));
        const level = svg("text", {x: String(cx), y: String(cy + 4), "text-anchor": "middle", fill: "#fff", "font-size": "11"});
        level.textContent = String(tile.level);
        group.append(level);
      } else {
        const label = svg("text", {x: String(cx), y: String(cy + 3), "text-anchor": "middle", "font-size": "8", fill: "#222"});
        label.textContent = tile.label;
        group.append(label);
      }
      const title = svg("title");
      title.textContent = `${tile.key} ${tile.label}${tile.owner ? ` city of ${seats[tile.owner]} (level ${tile.level})` : ""}`;
      group.append(title);
      drawing.append(group);
    }
    box.append(drawing);
    const legend = el("p", {class: "muted legend"});
    for (const [name, colour] of Object.entries(DOMAIN_COLOURS)) {
      legend.append(el("span", {class: "swatch", style: `background:${colour}`}), ` ${name} `);
    }
    seatList.forEach((seat, i) => legend.append(el("span", {class: "swatch", style: `background:${SEAT_COLOURS[i]}`}), ` ${seats[seat]} `));
    box.append(legend);
    return box;
  }

  function drawPicture(target, shown) {
    const picture = shown.picture;
    const changed = new Set(picture.changed);
    const facts = el("dl", {class: "facts"});
    for (const [name, value] of picture.facts) {
      const dd = el("dd", {text: value});
      if (changed.has(`fact:${name}`)) dd.classList.add("changed");
      facts.append(el("dt", {text: name}), dd);
    }
    const parts = [el("h2", {id: "headline", text: picture.headline}), facts];
    for (const section of picture.sections) {
      parts.push(section.type === "board" ? drawBoard(section, picture.seats, changed) : drawTable(section, changed));
    }
    target.replaceChildren(...parts);
  }

  async function gamePage(gameId) {
    const state = {version: 1, last: 1, events: [], notes: {}, token: sessionStorage.getItem(TOKEN_KEY) || "", timer: null, find: ""};
    const $ = (id) => document.getElementById(id);
    $("token").value = state.token;

    async function loadEvents() {
      const list = await api(`/games/${gameId}/events`, state.token);
      state.events = list.events;
      state.last = state.events.length;
      state.notes = await loadNotes();
      const moves = $("moves");
      moves.replaceChildren();
      for (const event of state.events) {
        const item = el("li", {"data-version": String(event.version), class: `${event.type}${event.retracted ? " retracted" : ""}`});
        item.append(el("span", {class: "v", text: String(event.version)}), " ", event.text);
        for (const note of state.notes[event.version] || []) item.append(el("div", {class: "note", text: note}));
        item.addEventListener("click", () => go(event.version));
        moves.append(item);
      }
      $("of").textContent = `of ${state.last}`;
    }

    // The annotations the token may read (its own side's while the game runs), by version.
    async function loadNotes() {
      const byVersion = {};
      let listed = [];
      try {
        listed = (await api(`/games/${gameId}/annotations`, state.token)).annotations;
      } catch (error) {
        return byVersion;
      }
      for (const n of listed) {
        const words = [n.glyph, n.coordinate ? `[${n.coordinate}]` : null, n.highlight ? `(${n.highlight})` : null, n.text]
          .filter(Boolean).join(" ");
        (byVersion[n.version] = byVersion[n.version] || []).push(`${words} (${n.author})`);
      }
      return byVersion;
    }

    async function go(version) {
      version = Math.max(1, Math.min(state.last, version));
      state.version = version;
      const shown = await api(`/games/${gameId}/picture?at=${version}`, state.token);
      drawPicture($("picture"), shown);
      $("viewer").textContent = `seen as ${shown.view}`;
      $("title").textContent = `${shown.picture.ruleset} ${gameId.slice(0, 8)}`;
      $("version").value = String(version);
      const event = state.events[version - 1];
      $("event").replaceChildren(event ? event.text : "", ...(state.notes[version] || []).map((note) => el("div", {class: "note", text: note})));
      for (const item of document.querySelectorAll("#moves li.current")) item.classList.remove("current");
      const item = document.querySelector(`#moves li[data-version="${version}"]`);
      if (item) { item.classList.add("current"); item.scrollIntoView({block: "nearest"}); }
      document.body.dataset.version = String(version);
    }

    function nextAction(direction) {
      for (let v = state.version + direction; v >= 1 && v <= state.last; v += direction) {
        if (state.events[v - 1].type === "action") return go(v);
      }
      return null;
    }

    function search(text) {
      const needle = (text || state.find).toLowerCase();
      state.find = needle;
      if (!needle) return null;
      for (let step = 1; step <= state.last; step++) {
        const v = ((state.version - 1 + step) % state.last) + 1;
        if (state.events[v - 1].text.toLowerCase().includes(needle)) return go(v);
      }
      $("event").textContent = `nothing matches "${needle}"`;
      return null;
    }

    function autoplay() {
      if (state.timer) { clearInterval(state.timer); state.timer = null; $("play").textContent = "play"; return; }
      state.timer = setInterval(() => { if (state.version >= state.last) autoplay(); else go(state.version + 1); }, 1000);
      $("play").textContent = "pause";
    }

    $("first").onclick = () => go(1);
    $("back").onclick = () => go(state.version - 1);
    $("next").onclick = () => go(state.version + 1);
    $("last").onclick = () => go(state.last);
    $("prevAction").onclick = () => nextAction(-1);
    $("nextAction").onclick = () => nextAction(1);
    $("play").onclick = autoplay;
    $("jump").onsubmit = (event) => { event.preventDefault(); go(parseInt($("version").value, 10) || 1); };
    $("search").onsubmit = (event) => { event.preventDefault(); search($("find").value); $("find").blur(); };
    $("as").onsubmit = async (event) => {
      event.preventDefault();
      state.token = $("token").value.trim();
      sessionStorage.setItem(TOKEN_KEY, state.token);
      await loadEvents();
      await go(state.version);
    };
    document.addEventListener("keydown", (event) => {
      if (event.target instanceof HTMLInputElement) return;
      const keys = {ArrowRight: () => go(state.version + 1), n: () => go(state.version + 1),
        ArrowLeft: () => go(state.version - 1), b: () => go(state.version - 1),
        Home: () => go(1), End: () => go(state.last), "]": () => nextAction(1), "[": () => nextAction(-1),
        p: autoplay, "/": () => $("find").focus()};
      const action = keys[event.key];
      if (action) { event.preventDefault(); action(); }
    });
    await loadEvents();
    await go(1);
    document.body.classList.add("ready");
  }

  return {gamesPage, gamePage};
})();
