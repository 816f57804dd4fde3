// Chronicle's web viewer: the games list and a game's replay. Plain script, no build step:
// it reads the same redacted API every client reads (/games, /games/{id}/events, /picture).
"use strict";

const Chronicle = (() => {
  const TOKEN_KEY = "chronicle-token";
  const SEAT_COLOURS = ["#2e7d32", "#c62828", "#1565c0", "#ef6c00", "#6a1b9a", "#00838f"];

  const {el} = Dom;

  // Other scripts of the replay page follow it (annotate.js): `onReplay(fn)` calls
  // fn("loaded", {gameId, token}) once the moves are listed, fn("shown", {..., version, head}) once
  // a version is drawn.
  const replayHooks = [];
  function onReplay(fn) { replayHooks.push(fn); }

  // A wide table scrolls sideways in its own box (viewer.css draws a shadow on the side that
  // has more), so the page itself never does; the box takes the keyboard focus to scroll.
  function scrolling(table, name) {
    return el("div", {class: "scroll", tabindex: "0", role: "region", "aria-label": name || "table"}, table);
  }

  // A player's name links to the player's page (/player/{name}); names joined with commas.
  function playerLink(name) {
    return el("a", {href: `/player/${encodeURIComponent(name)}`, class: "player-link", text: name});
  }

  function playerLinks(names) {
    const links = [];
    names.forEach((name, i) => { if (i) links.push(", "); links.push(playerLink(name)); });
    return links;
  }

  async function api(path, token) {
    const headers = {accept: "application/json"};
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await fetch(path, {headers});
    const body = await response.json();
    if (!response.ok) throw new Error(body.detail || body.title || response.statusText);
    return body;
  }

  // ---- charts (Chart.js, served from /static/vendor) ------------------------------------------

  const METRIC_NAMES = {vp: "score (VP)"};

  function seatColour(i) { return SEAT_COLOURS[i % SEAT_COLOURS.length]; }

  // A vertical line at the turn the replay shows (`options.plugins.marker.turn()`).
  const turnMarker = {
    id: "marker",
    afterDatasetsDraw(chart, _args, options) {
      const turn = options && options.turn ? options.turn() : null;
      const x = chart.scales.x;
      if (turn === null || turn === undefined || !x || turn < x.min || turn > x.max) return;
      const {ctx, chartArea} = chart;
      const px = x.getPixelForValue(turn);
      ctx.save();
      ctx.strokeStyle = "#1f5fa8";
      ctx.setLineDash([4, 3]);
      ctx.lineWidth = 1.5;
      ctx.beginPath();
      ctx.moveTo(px, chartArea.top);
      ctx.lineTo(px, chartArea.bottom);
      ctx.stroke();
      ctx.restore();
    },
  };

  function chartDefaults() {
    if (typeof Chart === "undefined") return false;
    Chart.defaults.animation = false;  // drawn at once: a step redraws, and tests look at pixels
    Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
    Chart.defaults.color = "#1d232a";
    Chart.defaults.maintainAspectRatio = false;
    return true;
  }

  // The progression of one game (GET /games/{id}/stats) as one line per seat.
  function progressionChart(canvas, statistics, metric, turnNow) {
    const seats = Object.keys(statistics.seats);
    const datasets = seats.map((seat, i) => ({
      label: statistics.seats[seat],
      data: statistics.progression
        .filter((s) => s.metrics[metric] && s.metrics[metric][seat] !== undefined)
        .map((s) => ({x: s.turn, y: s.metrics[metric][seat]})),
      borderColor: seatColour(i), backgroundColor: seatColour(i),
      pointRadius: 0, borderWidth: 2, tension: 0,
    }));
    const last = Math.max(0, ...statistics.progression.map((s) => s.turn));
    return new Chart(canvas, {
      type: "line",
      data: {datasets},
      options: {
        parsing: false,
        interaction: {mode: "nearest", axis: "x", intersect: false},
        scales: {
          x: {type: "linear", min: 0, max: last, title: {display: true, text: "turn"}, ticks: {precision: 0}},
          y: {title: {display: true, text: METRIC_NAMES[metric] || metric}, beginAtZero: true},
        },
        plugins: {legend: {position: "bottom", labels: {boxWidth: 12}}, marker: {turn: turnNow}},
      },
      plugins: [turnMarker],
    });
  }

  // ---- the games list ---------------------------------------------------------------------

  // A running game opens at its table too: watching, or as the seat or recorder whose link
  // this device opened (the table page keeps that token in localStorage, never in a URL).
  function tableLink(game) {
    if (game.status !== "running") return [];
    let mine = null;
    try { mine = localStorage.getItem(`chronicle-table:${game.game_id}`); } catch (_error) { mine = null; }
    const words = mine ? "your table" : "watch the table";
    return [" · ", el("a", {href: `/table/${game.game_id}`, class: "table-link", text: words})];
  }

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
        const link = el("a", {href: `/view/${game.game_id}`, text: `${game.title || game.ruleset} ${game.game_id.slice(0, 8)}`});
        body.append(el("tr", {"data-game": game.game_id},
          el("td", {}, link, el("span", {class: "muted", text: ` ${game.mode}`})),
          el("td", {"data-label": "players"}, ...playerLinks(game.players)),
          el("td", {"data-label": "status"}, game.status, ...tableLink(game)),
          el("td", {"data-label": "winners"}, ...((game.winners || []).length ? playerLinks(game.winners) : ["-"])),
          el("td", {"data-label": "started", text: (game.created_at || "").slice(0, 16).replace("T", " ")})));
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

  // The boards (boards.js) replace the tables that say the same thing; "table view" shows the
  // tables instead (kept for screen readers, and for whoever reads a table better).
  const TABLE_VIEW_KEY = "chronicle-table-view";

  function drawPicture(target, shown) {
    const picture = shown.picture;
    const changed = new Set(picture.changed);
    const facts = el("dl", {class: "facts"});
    for (const [name, value] of picture.facts) {
      const dd = el("dd", {text: value});
      if (changed.has(`fact:${name}`)) dd.classList.add("changed");
      facts.append(el("dt", {text: name}), dd);
    }
    const tableView = localStorage.getItem(TABLE_VIEW_KEY) === "1";
    const toggle = el("button", {type: "button", class: "table-view", "aria-pressed": String(tableView),
      text: "table view"});  // pressed: the tables show instead of the boards
    toggle.addEventListener("click", () => {
      localStorage.setItem(TABLE_VIEW_KEY, tableView ? "0" : "1");
      drawPicture(target, shown);
    });
    const parts = [el("h2", {id: "headline", text: picture.headline}), facts];
    const replaced = new Set();
    const drawn = typeof ChronicleBoards === "undefined" ? [] : picture.sections.filter((s) => s.type !== "table");
    for (const section of drawn) for (const id of section.replaces || []) replaced.add(id);
    if (replaced.size) parts.push(toggle);
    const width = target.clientWidth || document.documentElement.clientWidth;
    for (const section of picture.sections) {
      if (section.type === "table") {
        const table = scrolling(drawTable(section, changed), section.title);
        if (replaced.has(section.id) && !tableView) table.hidden = true;
        parts.push(table);
        continue;
      }
      const board = typeof ChronicleBoards === "undefined" ? null : ChronicleBoards.draw(section, picture, changed, width);
      if (!board) continue;
      if (tableView && (section.replaces || []).length) board.hidden = true;
      parts.push(board);
    }
    target.replaceChildren(...parts);
  }

  // What an action caused is shown with it: a step is an event that is not a fact (an action, the
  // game's creation with its setup, a retraction, a resignation...) and the facts after it; the
  // game's end is the last action's doing. Each version's step head, and each step's last
  // version: the position after the action and everything it caused, where the replay stops.
  const CAUSED = new Set(["fact", "finished"]);

  function stepsOf(events) {
    const head = [], stop = [];
    let current = 1;
    for (const event of events) {
      if (!CAUSED.has(event.type) || event.version === 1) current = event.version;
      head[event.version - 1] = current;
    }
    let end = events.length;
    for (let v = events.length; v >= 1; v--) {
      stop[v - 1] = end;
      if (head[v - 1] === v) end = v - 1;
    }
    return {head, stop, stops: [...new Set(stop)]};
  }

  async function gamePage(gameId) {
    const MARKS_KEY = `chronicle-marks-${gameId}`;
    const state = {version: 1, last: 1, events: [], turns: [], notes: {}, token: sessionStorage.getItem(TOKEN_KEY) || "",
      timer: null, find: "", byEvent: false, steps: stepsOf([]), marks: JSON.parse(sessionStorage.getItem(MARKS_KEY) || "[]"), chart: null};
    const $ = (id) => document.getElementById(id);
    $("token").value = state.token;

    function say(text) { $("event").textContent = text; }

    async function loadEvents() {
      const [list, turns] = await Promise.all([
        api(`/games/${gameId}/events`, state.token), api(`/games/${gameId}/turns`, state.token)]);
      state.events = list.events;
      state.last = state.events.length;
      state.turns = turns.turns;
      state.steps = stepsOf(state.events);
      state.notes = await loadNotes();
      drawTimeline();
      const moves = $("moves");
      moves.replaceChildren();
      let turn = null;
      for (const event of state.events) {
        const here = state.turns[event.version - 1];
        if (here && here[0] !== turn && here[0] > 0) {  // a header where a turn begins
          turn = here[0];
          moves.append(el("li", {class: "turn", "data-turn": String(turn), text: `Turn ${turn}`}));
        }
        const head = state.steps.head[event.version - 1];
        const caused = head !== event.version ? " caused" : "";
        const item = el("li", {"data-version": String(event.version), "data-step": String(head),
          class: `${event.type}${caused}${event.retracted ? " retracted" : ""}`});
        item.append(el("span", {class: "v", text: String(event.version)}), " ", event.text);
        for (const note of state.notes[event.version] || []) item.append(el("div", {class: "note", text: note}));
        item.addEventListener("click", () => go(event.version));
        moves.append(item);
      }
      $("of").textContent = `of ${state.last}`;
      drawMarks();
      for (const hook of replayHooks) hook("loaded", {gameId, token: state.token});
      document.dispatchEvent(new CustomEvent("chronicle:moves", {detail: {last: state.last}}));  // study.js
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
      // by action, what the whole step changed is marked: against the position before its action
      const head = state.steps.head[version - 1] || version;
      const whole = !state.byEvent && version === state.steps.stop[version - 1] && head < version;
      const since = whole ? `&since=${Math.max(1, head - 1)}` : "";
      const shown = await api(`/games/${gameId}/picture?at=${version}${since}`, state.token);
      if (state.version !== version) return;  // a later step (a held key, a dragged timeline) is on its way
      drawPicture($("picture"), shown);
      $("viewer").textContent = `seen as ${shown.view}`;
      $("title").textContent = `${shown.picture.ruleset} ${gameId.slice(0, 8)}`;
      $("version").value = String(version);
      drawEvent(version);
      for (const item of document.querySelectorAll("#moves li.current, #moves li.unfolded")) item.classList.remove("current", "unfolded");
      // by action the list shows the current step's facts unfolded under its action
      for (const item of document.querySelectorAll(`#moves li[data-step="${head}"]`)) item.classList.add("unfolded");
      const own = document.querySelector(`#moves li[data-version="${version}"]`);
      const item = state.byEvent || version !== state.steps.stop[version - 1] ? own : document.querySelector(`#moves li[data-version="${head}"]`);
      if (item) { item.classList.add("current"); showMove(item); }
      document.body.dataset.version = String(version);
      const turn = currentTurn();
      if (turn !== null) { $("turn-range").value = String(turn); sayTurn(turn); }
      // the address names the version shown (a link opens there); the fragment is kept for tokens
      const address = new URL(location.href);
      address.searchParams.set("at", String(version));
      history.replaceState(null, "", `${address.pathname}${address.search}${address.hash}`);
      if (state.chart) state.chart.update("none");  // moves the marker of the current turn
      for (const hook of replayHooks) hook("shown", {gameId, token: state.token, version, head: whole ? head : version});
      document.dispatchEvent(new CustomEvent("chronicle:shown", {detail: {version, stop: state.steps.stop[version - 1], last: state.last}}));
    }

    // At the end of a step (by action): the action's line and, folded under it, the facts it
    // caused; anywhere else (by event, or landed mid-step by a search or a link): that event.
    function drawEvent(version) {
      const steps = state.steps;
      const head = steps.head[version - 1] || version;
      const whole = !state.byEvent && version === steps.stop[version - 1] && head < version;
      const shown = whole ? head : version;
      const event = state.events[shown - 1];
      const notes = [];
      for (let v = shown; v <= (whole ? version : shown); v++) notes.push(...(state.notes[v] || []));
      const parts = [el("div", {class: "line", text: event ? event.text : ""}), ...notes.map((note) => el("div", {class: "note", text: note}))];
      if (whole) {
        const facts = el("ol", {class: "caused"});
        for (let v = head + 1; v <= version; v++) facts.append(el("li", {"data-version": String(v), text: state.events[v - 1].text}));
        const count = version - head;
        parts.push(el("details", {class: "caused"}, el("summary", {text: `and ${count === 1 ? "the event" : `${count} events`} it caused (v${head + 1}${count === 1 ? "" : `–${version}`})`}), facts));
      }
      $("event").replaceChildren(...parts);
    }

    // The next (or previous) step's end; by event, the next (previous) version. Back from the
    // first step's end is the game's creation, version 1.
    function step(direction) {
      if (state.byEvent) {
        const target = state.version + direction;
        if (target < 1 || target > state.last) { say(direction > 0 ? "this is the last version" : "this is the first version"); return null; }
        return go(target);
      }
      const stops = direction > 0 ? state.steps.stops.filter((v) => v > state.version)
        : [1, ...state.steps.stops].filter((v) => v < state.version).reverse();
      if (!stops.length) { say(direction > 0 ? "this is the last move" : "this is the first version"); return null; }
      return go(stops[0]);
    }

    // By action a turn starts where the step that starts it ends: the picture as the turn's
    // first player finds it.
    function land(version) { return state.byEvent ? version : state.steps.stop[version - 1]; }

    function setByEvent(on) {
      state.byEvent = on;
      $("every-event").checked = on;
      $("moves").classList.toggle("by-event", on);
      $("back").setAttribute("aria-label", on ? "back one event" : "back one step");
      $("next").setAttribute("aria-label", on ? "next event" : "next step");
      return go(state.version);
    }

    // The turn timeline: a range over the game's turns; moving it shows that turn's start.
    function drawTimeline() {
      const range = $("turn-range");
      const numbers = state.turns.map((t) => t[0]);
      const box = range.parentElement;
      if (!numbers.length) { range.hidden = true; $("turn-label").hidden = true; return; }
      range.hidden = false; $("turn-label").hidden = false;
      range.min = String(Math.min(...numbers));
      range.max = String(Math.max(...numbers));
      box.dataset.turns = range.max;
    }

    function sayTurn(turn) {
      const range = $("turn-range");
      $("turn-label").textContent = `Turn ${turn} of ${range.max}`;
      range.setAttribute("aria-valuetext", `turn ${turn}`);
    }

    function toTurn(turn) {
      const first = state.turns.findIndex((t) => t[0] >= turn);
      if (first < 0) return null;
      return go(land(first + 1));
    }

    // Bring the current move into view inside the list only: scrollIntoView would scroll the
    // page too, and on a phone, where the list is below the board, push the board away.
    function showMove(item) {
      const list = $("moves");
      const top = item.offsetTop - list.offsetTop, bottom = top + item.offsetHeight;
      if (top < list.scrollTop) list.scrollTop = top;
      else if (bottom > list.scrollTop + list.clientHeight) list.scrollTop = bottom - list.clientHeight;
    }

    function currentTurn() {
      const here = state.turns[state.version - 1];
      return here ? here[0] : null;
    }

    // The next turn's first version; back: the first version of the turn before this one
    // (as `chronicle replay` steps: replay_cli/tui.py).
    function nextTurn(direction) {
      const here = currentTurn();
      if (here === null) { say("this game tells no turns"); return null; }
      for (let v = state.version + direction; v >= 1 && v <= state.last; v += direction) {
        const turn = state.turns[v - 1][0];
        if (turn === here) continue;
        if (direction < 0) while (v > 1 && state.turns[v - 2][0] === turn) v -= 1;
        if (!state.byEvent && direction > 0 && land(v) === state.version) continue;
        return go(land(v));
      }
      say("no further turn");
      return null;
    }

    // Who made an action: its line reads `#12 Ann: buy Gold`.
    function mover(text) {
      if (!text.startsWith("#") || !text.includes(": ")) return null;
      const head = text.split(": ", 1)[0];
      return head.slice(head.indexOf(" ") + 1);
    }

    function samePlayer() {
      // by action the move shown is the step's action, wherever in its facts the replay stands
      const shown = state.byEvent ? state.version : state.steps.head[state.version - 1];
      const who = mover(state.events[shown - 1].text);
      if (who === null) { say("this is no player's move: step to one first (])"); return null; }
      for (let v = state.version + 1; v <= state.last; v++) {
        const event = state.events[v - 1];
        if (event.type === "action" && mover(event.text) === who && land(v) > state.version) return go(land(v));
      }
      say(`${who} moves no more`);
      return null;
    }

    function drawMarks() {
      for (const item of document.querySelectorAll("#moves li.marked")) item.classList.remove("marked");
      for (const mark of state.marks) {
        const item = document.querySelector(`#moves li[data-version="${mark}"]`);
        if (item) item.classList.add("marked");
      }
      $("marks").textContent = state.marks.length ? `marks: ${state.marks.join(", ")}` : "";
    }

    function toggleMark() {
      const at = state.marks.indexOf(state.version);
      if (at >= 0) state.marks.splice(at, 1);
      else { state.marks.push(state.version); state.marks.sort((a, b) => a - b); }
      sessionStorage.setItem(MARKS_KEY, JSON.stringify(state.marks));
      drawMarks();
    }

    function toMark() {
      if (!state.marks.length) { say("no bookmarks: m marks this version"); return null; }
      const later = state.marks.filter((m) => m > state.version);
      return go((later.length ? later : state.marks)[0]);
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

    // The game's figures turn by turn, as the caller may see them: a running game's need a
    // seat or recorder token (the API says so, and the note shows its words).
    async function loadChart() {
      if (state.chart) { state.chart.destroy(); state.chart = null; }
      const box = $("game-chart"), note = $("chart-note"), select = $("metric");
      let answer;
      try {
        answer = await api(`/games/${gameId}/stats`, state.token);
      } catch (error) {
        box.hidden = true; select.hidden = true;
        note.textContent = `No chart: ${error.message}`;
        return;
      }
      const statistics = answer.statistics;
      const names = [];
      for (const sample of statistics.progression) {
        for (const name of Object.keys(sample.metrics)) if (!names.includes(name)) names.push(name);
      }
      if (!names.length || !chartDefaults()) {
        box.hidden = true; select.hidden = true;
        note.textContent = "No figures to chart for this game.";
        return;
      }
      const chosen = names.includes(select.value) ? select.value : (names.includes("vp") ? "vp" : names[0]);
      select.replaceChildren(...names.map((name) => el("option", {value: name, text: METRIC_NAMES[name] || name})));
      select.value = chosen;
      select.hidden = false; box.hidden = false;
      note.textContent = `${chosen === "vp" ? "Score" : chosen} by turn, ${statistics.turns} turn${statistics.turns === 1 ? "" : "s"}` +
        `${statistics.status === "finished" ? "" : " so far"}; the dashed line is the turn shown.`;
      state.chart = progressionChart($("game-canvas"), statistics, chosen, currentTurn);
    }

    function autoplay() {
      if (state.timer) { clearInterval(state.timer); state.timer = null; $("play").textContent = "play"; return; }
      state.timer = setInterval(() => { if (state.version >= state.last) autoplay(); else step(1); }, 1000);
      $("play").textContent = "pause";
    }

    $("more-toggle").onclick = () => {
      const open = $("more").classList.toggle("open");
      $("more-toggle").setAttribute("aria-expanded", String(open));
    };
    $("first").onclick = () => go(1);
    $("back").onclick = () => step(-1);
    $("next").onclick = () => step(1);
    $("every-event").onchange = () => setByEvent($("every-event").checked);
    $("turn-range").oninput = () => { sayTurn(parseInt($("turn-range").value, 10)); toTurn(parseInt($("turn-range").value, 10)); };
    $("copy-link").onclick = async () => {
      const link = new URL(location.href);
      link.hash = "";
      link.searchParams.set("at", String(state.version));
      try {
        await navigator.clipboard.writeText(link.href);
        say(`link copied: ${link.href}`);
      } catch (error) {  // no clipboard (an insecure origin, a refusal): show it to copy by hand
        say(`link to this version: ${link.href}`);
      }
    };
    // `g` then a number replaces the number shown: the box is selected when it takes the focus
    $("version").addEventListener("focus", () => $("version").select());
    $("version").addEventListener("mouseup", (event) => event.preventDefault());
    $("last").onclick = () => go(state.last);
    $("prevAction").onclick = () => nextAction(-1);
    $("nextAction").onclick = () => nextAction(1);
    $("prevTurn").onclick = () => nextTurn(-1);
    $("nextTurn").onclick = () => nextTurn(1);
    $("samePlayer").onclick = samePlayer;
    $("mark").onclick = toggleMark;
    $("toMark").onclick = toMark;
    $("play").onclick = autoplay;
    $("jump").onsubmit = (event) => { event.preventDefault(); go(parseInt($("version").value, 10) || 1); $("version").blur(); };
    $("search").onsubmit = (event) => { event.preventDefault(); search($("find").value); $("find").blur(); };
    $("as").onsubmit = async (event) => {
      event.preventDefault();
      state.token = $("token").value.trim();
      sessionStorage.setItem(TOKEN_KEY, state.token);
      await loadEvents();
      await go(state.version);
      await loadChart();
    };
    $("metric").onchange = () => { $("metric").blur(); loadChart(); };
    document.addEventListener("keydown", (event) => {
      // a field keeps its keys (the turn range its arrows); a ticked box leaves them to the replay
      const field = event.target instanceof HTMLInputElement && event.target.type !== "checkbox";
      if (field || event.target instanceof HTMLSelectElement) return;
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const keys = {ArrowRight: () => step(1), n: () => step(1),
        ArrowLeft: () => step(-1), b: () => step(-1),
        " ": () => step(1), e: () => setByEvent(!state.byEvent),
        Home: () => go(1), End: () => go(state.last), "]": () => nextAction(1), "[": () => nextAction(-1),
        t: () => nextTurn(1), T: () => nextTurn(-1), ".": samePlayer, m: toggleMark, "'": toMark,
        g: () => $("version").focus(), p: autoplay, "/": () => $("find").focus()};
      const action = keys[event.key];
      if (action) { event.preventDefault(); action(); }
    });
    api(`/games/${gameId}`, state.token).then((detail) => {
      $("seats").replaceChildren("Players: ", ...playerLinks(Object.values(detail.seats)));
    }, () => {});
    await loadEvents();
    const asked = parseInt(new URLSearchParams(location.search).get("at") || "", 10);
    await go(Number.isInteger(asked) && asked >= 1 ? asked : 1);
    await loadChart();
    document.body.classList.add("ready");
  }

  // ---- the statistics page ----------------------------------------------------------------

  const SCORE_GAMES = 8;  // the latest finished games whose progression the score chart averages

  function formatCell(value, kind) {
    if (value === null || value === undefined) return "–";
    if (typeof value === "boolean") return value ? "yes" : "no";
    if (typeof value !== "number") return String(value);
    if (kind === "ratio") return `${(value * 100).toFixed(1)}%`;
    if (kind === "count") return String(value);
    return Number.isInteger(value) ? String(value) : value.toFixed(2);
  }

  const PLAYER_COLUMNS = new Set(["player", "opponent"]);  // the columns that name one player

  function drawStatsTable(table, target) {
    target = target || el("table", {class: "grid"});
    target.replaceChildren();
    target.setAttribute("data-table", table.id);
    target.append(el("caption", {text: `${table.title}${table.total > table.rows.length ? ` (first ${table.rows.length} of ${table.total})` : ""}`}));
    target.append(el("thead", {}, el("tr", {}, ...table.columns.map((c) => el("th", {text: c.label})))));
    const body = el("tbody");
    for (const row of table.rows) {
      body.append(el("tr", {"data-key": String(row[table.key])}, ...table.columns.map((c) =>
        PLAYER_COLUMNS.has(c.id) && row[c.id]
          ? el("td", {}, playerLink(String(row[c.id])))
          : el("td", {text: formatCell(row[c.id], c.kind), class: c.kind === "text" ? "" : "num"}))));
    }
    target.append(body);
    return target;
  }

  async function statsPage() {
    const form = document.getElementById("filters");
    const charts = [];
    const params = new URLSearchParams(location.search);
    for (const [key, value] of params) {
      const field = form.elements[key];
      if (field && field.type === "checkbox") field.checked = value === field.value;
      else if (field) field.value = value;
    }
    chartDefaults();

    // A figure of the page; its note is back to the page's own words until a chart says more.
    function figure(id) {
      const box = document.getElementById(id);
      const note = box.querySelector(".note");
      if (note) {
        if (note.dataset.text === undefined) note.dataset.text = note.textContent;
        note.textContent = note.dataset.text;
      }
      delete box.dataset.empty;
      return {box, canvas: box.querySelector("canvas"), note};
    }

    function chart(canvas, config) {
      canvas.parentElement.hidden = false;
      const drawn = new Chart(canvas, config);
      charts.push(drawn);
      return drawn;
    }

    function nothing(part, text) {
      part.canvas.parentElement.hidden = true;
      part.box.dataset.empty = "true";
      if (part.note) part.note.textContent = text;
    }

    function winRateChart(table) {
      const part = figure("win-rate");
      if (!table || !table.rows.length) return nothing(part, "No finished games match the filters.");
      const labels = table.rows.map((r) => `${r.ruleset} ${r.players}p ${r.seat}`);
      chart(part.canvas, {
        type: "bar",
        data: {labels, datasets: [
          {label: "win rate", data: table.rows.map((r) => r.win_rate), backgroundColor: "rgba(31, 95, 168, 0.55)", maxBarThickness: 90, grouped: false},
          {label: "95% interval", data: table.rows.map((r) => [r.ci_low, r.ci_high]), backgroundColor: "#1d232a",
            maxBarThickness: 6, grouped: false},
        ]},
        options: {
          scales: {y: {min: 0, max: 1, ticks: {callback: (v) => `${Math.round(v * 100)}%`}}},
          plugins: {legend: {position: "bottom", labels: {boxWidth: 12}},
            tooltip: {callbacks: {label: (c) => {
              const r = table.rows[c.dataIndex];
              return c.datasetIndex === 0
                ? `won ${r.wins} of ${r.games} (${formatCell(r.win_rate, "ratio")}), ${r.draws} drawn`
                : `95%: ${formatCell(r.ci_low, "ratio")} to ${formatCell(r.ci_high, "ratio")}`;
            }}}},
        },
      });
    }

    function ratingsChart(table) {
      const part = figure("ratings");
      if (!table || !table.rows.length) return nothing(part, "No rated players match the filters.");
      const rows = [...table.rows].sort((a, b) => b.ordinal - a.ordinal).slice(0, 20);
      part.canvas.parentElement.style.height = `${Math.max(160, 80 + rows.length * 28)}px`;
      const labels = rows.map((r) => r.player_id);
      chart(part.canvas, {
        type: "bar",
        data: {labels, datasets: [
          {label: "μ ± 3σ", data: rows.map((r) => [r.mu - 3 * r.sigma, r.mu + 3 * r.sigma]),
            backgroundColor: "rgba(46, 125, 50, 0.35)", borderColor: "#2e7d32", borderWidth: 1, grouped: false},
          {type: "line", label: "μ", data: rows.map((r) => r.mu), showLine: false, pointRadius: 5,
            pointBackgroundColor: "#1d232a", borderColor: "#1d232a"},
        ]},
        options: {
          indexAxis: "y",
          scales: {x: {title: {display: true, text: "skill (openskill μ)"}}, y: {ticks: {autoSkip: false}}},
          plugins: {legend: {position: "bottom", labels: {boxWidth: 12}},
            tooltip: {callbacks: {label: (c) => {
              const r = rows[c.dataIndex];
              return `μ ${r.mu.toFixed(2)}, σ ${r.sigma.toFixed(2)}, μ − 3σ ${r.ordinal.toFixed(2)}, ${r.games} games`;
            }}}},
        },
      });
    }

    function diceCharts(table) {
      const box = document.getElementById("dice");
      const holder = box.querySelector(".dice");
      holder.replaceChildren();
      if (!table || !table.rows.length) {
        box.dataset.empty = "true";
        box.querySelector(".note").textContent = "No dice were rolled in the games that match.";
        return;
      }
      delete box.dataset.empty;
      box.querySelector(".note").textContent =
        "Each face's count against what fair dice give (the line); p is the chi-square test's (fair at 1% when p ≥ 0.01).";
      // the dice that decide most first: many faces, many rolls
      const rows = [...table.rows].sort((a, b) => (b.faces - a.faces) || (b.rolls - a.rolls)).slice(0, 6);
      for (const row of rows) {
        const counts = row.counts.split(" ").map(Number);
        const expected = row.rolls / row.faces;
        const canvas = el("canvas", {role: "img", "aria-label": `dice ${row.stream}`});
        const item = el("div", {class: "die", "data-stream": row.stream},
          el("div", {class: "die-title", text: `${row.ruleset} ${row.name} d${row.faces}`}),
          el("div", {class: "die-title muted", text: `${row.rolls} rolls, p = ${row.p_value === null ? "–" : row.p_value.toFixed(3)}${row.fair ? "" : " (unfair at 1%)"}`}),
          el("div", {class: "chart mini"}, canvas));
        holder.append(item);
        chart(canvas, {
          type: "bar",
          data: {labels: counts.map((_, i) => String(i + 1)), datasets: [
            {label: "rolled", data: counts, backgroundColor: row.fair ? "rgba(31, 95, 168, 0.6)" : "rgba(198, 40, 40, 0.6)", order: 2},
            {type: "line", label: "fair", data: counts.map(() => expected), borderColor: "#1d232a",
              borderDash: [5, 3], pointRadius: 0, borderWidth: 1.5, order: 1},
          ]},
          options: {scales: {y: {beginAtZero: true, ticks: {precision: 0}}, x: {title: {display: true, text: "face"}}},
            plugins: {legend: {display: false}}},
        });
      }
    }

    function cardsChart(table) {
      const section = document.getElementById("cards");
      if (!table || !table.rows.length) { section.hidden = true; return; }
      section.hidden = false;
      const rows = [...table.rows].sort((a, b) => (b.win_rate_gained ?? -1) - (a.win_rate_gained ?? -1));
      const canvas = section.querySelector("canvas");
      canvas.parentElement.style.height = `${Math.max(200, 80 + rows.length * 24)}px`;
      chart(canvas, {
        type: "bar",
        data: {labels: rows.map((r) => r.card), datasets: [
          {label: "win rate of seats that gained it", data: rows.map((r) => r.win_rate_gained), backgroundColor: "#2e7d32"},
          {label: "win rate of seats that did not", data: rows.map((r) => r.win_rate_not_gained), backgroundColor: "#bdbdbd"},
        ]},
        options: {
          indexAxis: "y",
          scales: {x: {min: 0, max: 1, ticks: {callback: (v) => `${Math.round(v * 100)}%`}}, y: {ticks: {autoSkip: false}}},
          plugins: {legend: {position: "bottom", labels: {boxWidth: 12}},
            tooltip: {callbacks: {label: (c) => `${c.dataset.label}: ${formatCell(c.raw, "ratio")}`}}},
        },
      });
      drawStatsTable(table, document.getElementById("card-table"));
    }

    // The mean score by turn per seat over the latest finished games that match: the games'
    // own progressions (GET /games/{id}/stats), as the statistics view does not keep them.
    async function scoreChart(filters, rulesetsPlayed) {
      const part = figure("score");
      const ruleset = filters.get("ruleset") || rulesetsPlayed[0];
      part.box.querySelector("figcaption").textContent = ruleset ? `Score over time: ${ruleset}` : "Score over time";
      if (!ruleset) return nothing(part, "No finished games match the filters.");
      const query = new URLSearchParams({status: "finished", ruleset, limit: "200"});
      if (filters.get("player")) query.set("player", filters.get("player"));
      const list = await api(`/games?${query}`);
      const since = filters.get("since"), until = filters.get("until"), mode = filters.get("mode");
      const games = list.games.filter((g) => (!mode || g.mode === mode)
        && (!since || (g.finished_at || "").slice(0, 10) >= since)
        && (!until || (g.finished_at || "").slice(0, 10) <= until))
        .sort((a, b) => (b.finished_at || "").localeCompare(a.finished_at || "")).slice(0, SCORE_GAMES);
      if (!games.length) return nothing(part, `No finished ${ruleset} games match the filters.`);
      const answers = await Promise.all(games.map((g) => api(`/games/${g.game_id}/stats`)));
      const sums = new Map();  // seat -> turn -> [sum, n]
      const names = new Map();
      for (const {statistics} of answers) {
        for (const [seat, name] of Object.entries(statistics.seats)) if (!names.has(seat)) names.set(seat, name);
        for (const sample of statistics.progression) {
          for (const [seat, value] of Object.entries(sample.metrics.vp || {})) {
            if (!sums.has(seat)) sums.set(seat, new Map());
            const cell = sums.get(seat).get(sample.turn) || [0, 0];
            sums.get(seat).set(sample.turn, [cell[0] + value, cell[1] + 1]);
          }
        }
      }
      const seats = [...sums.keys()].sort();
      const label = (seat) => (answers.length === 1 ? names.get(seat) : `seat ${seat}`);
      chart(part.canvas, {
        type: "line",
        data: {datasets: seats.map((seat, i) => ({
          label: label(seat),
          data: [...sums.get(seat)].sort((a, b) => a[0] - b[0]).map(([turn, [sum, n]]) => ({x: turn, y: sum / n})),
          borderColor: seatColour(i), backgroundColor: seatColour(i), pointRadius: 0, borderWidth: 2,
        }))},
        options: {
          parsing: false,
          interaction: {mode: "nearest", axis: "x", intersect: false},
          scales: {x: {type: "linear", title: {display: true, text: "turn"}, ticks: {precision: 0}},
            y: {beginAtZero: true, title: {display: true, text: "score (VP)"}}},
          plugins: {legend: {position: "bottom", labels: {boxWidth: 12}}},
        },
      });
      part.note.textContent = answers.length === 1
        ? `The latest finished ${ruleset} game.`
        : `Mean score at the end of each turn, per seat, over the latest ${answers.length} finished ${ruleset} games` +
          " (each turn averages the games that lasted that long).";
    }

    async function load() {
      while (charts.length) charts.pop().destroy();
      const filters = new FormData(form);
      const query = new URLSearchParams();
      for (const [key, value] of filters) if (value) query.set(key, value);
      history.replaceState(null, "", query.toString() ? `?${query}` : location.pathname);
      const summary = document.getElementById("summary");
      document.body.classList.remove("ready");
      try {
        query.set("limit", "1000");
        const answer = await api(`/stats?${query}`);
        const byId = Object.fromEntries(answer.tables.map((t) => [t.id, t]));
        summary.textContent = `${answer.games} finished game${answer.games === 1 ? "" : "s"} match` +
          `${answer.caught_up ? "" : " (the statistics are still catching up)"}.`;
        summary.classList.remove("error");
        winRateChart(byId.win_rate_by_seat);
        ratingsChart(byId.rating);
        diceCharts(byId.dice_chi_square);
        cardsChart(byId.dominion_cards);
        const played = (byId.games_played ? byId.games_played.rows : []).slice().sort((a, b) => b.games - a.games);
        await scoreChart(filters, played.map((r) => r.ruleset));
        const all = document.querySelector("#all-tables .tables");
        all.replaceChildren(...answer.tables.map((t) => scrolling(drawStatsTable(t), t.title)));
      } catch (error) {
        summary.textContent = error.message;
        summary.classList.add("error");
      }
      document.body.classList.add("ready");
    }

    form.addEventListener("submit", (event) => { event.preventDefault(); load(); });
    await load();
  }

  return {gamesPage, gamePage, statsPage, drawPicture, onReplay};
})();
