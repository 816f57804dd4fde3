// Studies on the replay page: a what-if line branched from a position of a finished game
// (POST /games/{id}/variations), played by the same legal actions word by word as the table
// page offers them (or typed in notation), shown in the move list as a side line under its
// branch point, and drawn on the board when one of its moves is chosen.
//
// viewer.js tells this file when it has rebuilt the move list ("chronicle:moves") and which
// version it shows ("chronicle:shown"); the board is drawn with its exported drawPicture.
// `/view/{id}?variation={study id}` opens that study at its latest move.
//
// A study's recorder token is answered once, when it is branched: this device keeps it in
// localStorage under `chronicle-study:{study id}` (never in the address) and may play on in the
// studies it branched; everyone may read every study (a study of a finished game hides nothing).
"use strict";

const ChronicleStudy = (() => {
  const {el} = Dom;
  const KEY = (id) => `chronicle-study:${id}`;
  const WHOLE = 6;  // this many actions or fewer are offered whole, not word by word

  const state = {
    gameId: document.body.dataset.game,
    shown: null,       // {version, stop, last} of the main line, as viewer.js last told
    studies: [],       // the game's studies (GET /games/{id}/variations), oldest first
    lines: {},         // study id -> its own events (after the branch point)
    open: null,        // the study being played or stepped through
    at: null,          // the study version drawn on the board, or null: the main line is
    legal: null,       // the open study's legal actions (with its token)
    seat: null,        // the seat they are for: one the study's position prompts
    seats: [],         // every seat the position prompts
    path: [],          // the words chosen so far
    picked: null,      // what a tap on the board named: the choices narrow to the actions naming it
    busy: false,
  };
  const $ = (id) => document.getElementById(id);

  function tokenOf(id) {
    try { return localStorage.getItem(KEY(id)); } catch (_error) { return null; }
  }

  async function api(path, token, options = {}) {
    const headers = {accept: "application/json"};
    if (token) headers.authorization = `Bearer ${token}`;
    if (options.body) headers["content-type"] = "application/json";
    const response = await fetch(path, {...options, headers});
    const body = await response.json().catch(() => ({}));
    if (!response.ok) {
      const error = new Error(body.detail || body.title || response.statusText);
      error.problem = body;
      throw error;
    }
    return body;
  }

  function say(text, kind = "info") {
    const line = $("study-say");
    line.textContent = text;
    line.dataset.kind = kind;
  }

  // ---- the panel under the board --------------------------------------------------------

  function panel() {
    const section = el("section", {id: "study", class: "study", "aria-label": "studies"},
      el("h2", {text: "Studies"}),
      el("p", {class: "muted study-help", text: "Branch a what-if line from the position shown and play it here; the main line stays as it was."}),
      el("div", {class: "study-row"},
        el("button", {id: "study-branch", type: "button", text: "Branch a study here"}),
        el("button", {id: "study-close", type: "button", hidden: "", text: "Back to the game"})),
      el("ul", {id: "study-list", class: "study-list", "aria-label": "this game's studies"}),
      el("div", {id: "study-open", class: "study-open", hidden: ""},
        el("p", {id: "study-title", class: "study-title"}),
        el("div", {class: "study-row", role: "group", "aria-label": "step through the study"},
          el("button", {id: "study-back", type: "button", "aria-label": "back one study move", text: "◀ study"}),
          el("button", {id: "study-next", type: "button", "aria-label": "next study move", text: "study ▶"})),
        el("div", {id: "study-play", class: "study-play"},
          el("div", {id: "study-seats", class: "study-row", role: "group", "aria-label": "the seat to play for", hidden: ""}),
          el("p", {id: "study-building", class: "muted"}),
          el("div", {id: "study-choices", class: "study-choices", role: "group", "aria-label": "legal actions, word by word"}),
          el("form", {id: "study-notation", class: "study-row", "aria-label": "play an action by its notation"},
            el("label", {for: "study-text", class: "visually-hidden", text: "action"}),
            el("input", {id: "study-text", type: "text", autocomplete: "off", list: "study-legal", placeholder: "type an action", "aria-label": "action in notation"}),
            el("datalist", {id: "study-legal"}),
            el("button", {type: "submit", text: "Play"})))),
      el("p", {id: "study-say", class: "study-say", role: "status", "aria-live": "polite"}));
    $("picture").after(section);
    $("study-branch").onclick = branch;
    $("study-close").onclick = close;
    $("study-back").onclick = () => stepStudy(-1);
    $("study-next").onclick = () => stepStudy(1);
    $("study-choices").onclick = onChoice;
    $("picture").addEventListener("click", onBoard);
    $("study-notation").onsubmit = (event) => {
      event.preventDefault();
      const text = $("study-text").value.trim();
      if (text) play(text);
    };
  }

  function drawBranchButton() {
    const button = $("study-branch");
    const shown = state.shown;
    // the position after the move shown and all it caused: a study starts between actions
    const at = shown ? shown.stop : null;
    button.dataset.at = at === null ? "" : String(at);
    button.disabled = !shown || at >= shown.last;
    button.textContent = at === null ? "Branch a study here" : `Branch a study at v${at}`;
    button.title = button.disabled ? "the game is over here: step back to branch" : "";
    // a study's position on the board is not the game's: branch from the game's own moves
    button.hidden = state.at !== null;
  }

  function drawList() {
    const list = $("study-list");
    list.replaceChildren(...state.studies.map((study) => {
      const moves = (state.lines[study.variation_id] || []).filter((e) => e.type === "action").length;
      const mine = tokenOf(study.variation_id) ? "" : " (read only)";
      const button = el("button", {type: "button", "data-variation": study.variation_id,
        "aria-pressed": String(state.open === study.variation_id),
        text: `from v${study.at}: ${moves} move${moves === 1 ? "" : "s"}${mine}`});
      button.onclick = () => openStudy(study.variation_id);
      return el("li", {}, button);
    }));
  }

  // ---- the side lines in the move list ---------------------------------------------------

  // Each study's moves as the replay's steps: an action and the facts it caused are one move,
  // and choosing it shows the position after all of them.
  function stepsOf(events) {
    const moves = [];
    for (const event of events) {
      const head = event.type !== "fact" && event.type !== "finished";
      if (head || !moves.length) moves.push({head: event, stop: event.version});
      else moves[moves.length - 1].stop = event.version;
    }
    return moves;
  }

  function drawSideLines() {
    for (const old of document.querySelectorAll("#moves li.study-line")) old.remove();
    for (const study of state.studies) {
      const events = state.lines[study.variation_id] || [];
      const branchPoint = document.querySelector(`#moves li[data-version="${study.at}"]`);
      if (!branchPoint) continue;
      const moves = el("ol", {class: "study-moves"});
      for (const move of stepsOf(events)) {
        const item = el("li", {class: "study-move", "data-variation": study.variation_id,
          "data-line-version": String(move.stop), tabindex: "0"},
          el("span", {class: "v", text: String(move.head.version)}), " ", move.head.text);
        moves.append(item);
      }
      const line = el("li", {class: "study-line", "data-variation": study.variation_id, "data-at": String(study.at)},
        el("div", {class: "study-head", text: `study from v${study.at}${events.length ? "" : ": no moves yet"}`}), moves);
      branchPoint.after(line);
    }
    markCurrent();
  }

  function markCurrent() {
    for (const item of document.querySelectorAll("#moves li.study-current")) item.classList.remove("study-current");
    if (state.open === null || state.at === null) return;
    const item = document.querySelector(`#moves li.study-move[data-variation="${state.open}"][data-line-version="${state.at}"]`);
    if (item) item.classList.add("study-current");
  }

  function onMoves(event) {
    const item = event.target.closest("li.study-move");
    if (!item) return;
    // a key other than Enter or space on a study move is the replay's (← → step the game)
    if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
    event.stopPropagation();
    event.preventDefault();
    show(item.dataset.variation, parseInt(item.dataset.lineVersion, 10));
  }

  // ---- reading ---------------------------------------------------------------------------

  async function loadStudies() {
    const listed = await api(`/games/${state.gameId}/variations`);
    // only the game's own studies: a study of a study branches inside its base's side line
    state.studies = listed.variations.filter((v) => v.purpose === "study" && v.base_id === state.gameId);
    await Promise.all(state.studies.map(loadLine));
    drawList();
    drawSideLines();
  }

  async function loadLine(study) {
    const answer = await api(`/variations/${study.variation_id}/events`);
    state.lines[study.variation_id] = answer.events.filter((e) => e.version > study.at);
  }

  function studyOf(id) { return state.studies.find((s) => s.variation_id === id) || null; }

  function lastOf(id) {
    const study = studyOf(id);
    const events = state.lines[id] || [];
    return events.length ? events[events.length - 1].version : study.at;
  }

  // The study's position at `version` on the board (its branch point when it has no moves).
  async function show(id, version) {
    const study = studyOf(id);
    if (!study) return;
    const moves = stepsOf(state.lines[id] || []);
    const index = moves.findIndex((m) => m.stop === version);
    const since = index > 0 ? moves[index - 1].stop : study.at;
    const shown = await api(`/variations/${id}/picture?at=${version}${version > since ? `&since=${since}` : ""}`, tokenOf(id));
    state.open = id;
    state.at = version;
    Chronicle.drawPicture($("picture"), shown);
    document.body.dataset.study = id;
    document.body.dataset.studyVersion = String(version);
    drawBranchButton();
    const move = index >= 0 ? moves[index].head.text : `the branch point, v${study.at} of the game`;
    $("event").replaceChildren(el("div", {class: "line study-event", text: `Study: ${move}`}));
    for (const item of document.querySelectorAll("#moves li.current")) item.classList.remove("current");
    markCurrent();
    const item = document.querySelector("#moves li.study-current");
    if (item) item.scrollIntoView({block: "nearest"});
    const address = new URL(location.href);
    address.searchParams.set("variation", id);
    history.replaceState(null, "", `${address.pathname}${address.search}${address.hash}`);
    await drawOpen();
  }

  async function openStudy(id) { return show(id, lastOf(id)); }

  function close() {
    state.open = null; state.at = null; state.legal = null; state.path = [];
    delete document.body.dataset.study;
    delete document.body.dataset.studyVersion;
    const address = new URL(location.href);
    address.searchParams.delete("variation");
    history.replaceState(null, "", `${address.pathname}${address.search}${address.hash}`);
    markCurrent();
    drawList();
    $("study-open").hidden = true;
    $("study-close").hidden = true;
    // the main line's position again (the next step button redraws it from where it was)
    const version = state.shown ? state.shown.version : 1;
    $("version").value = String(version);
    $("jump").requestSubmit();
  }

  function stepStudy(direction) {
    if (state.open === null) return;
    const study = studyOf(state.open);
    const stops = [study.at, ...stepsOf(state.lines[state.open] || []).map((m) => m.stop)];
    const here = stops.indexOf(state.at);
    const next = stops[here + direction];
    if (next === undefined) { say(direction > 0 ? "this is the study's last move" : "this is where the study branches"); return; }
    show(state.open, next);
  }

  // ---- playing: the legal actions word by word, or typed ----------------------------------

  async function drawOpen() {
    const id = state.open;
    const study = studyOf(id);
    const token = tokenOf(id);
    $("study-open").hidden = false;
    $("study-close").hidden = false;
    drawList();
    const moves = (state.lines[id] || []).filter((e) => e.type === "action").length;
    $("study-title").textContent = `Study from v${study.at} of the game, ${moves} move${moves === 1 ? "" : "s"}; shown: v${state.at}.`;
    const play = $("study-play");
    const atEnd = state.at === lastOf(id);
    play.hidden = !token || !atEnd;
    if (!token) { say("This device did not branch this study: it may be read, not played."); return; }
    if (!atEnd) { say("Step to the study's last move to play on."); return; }
    try {
      // the prompted seat's choices, recorded as that seat's (the table's when no seat is asked)
      const now = await api(`/variations/${id}/state`, token);
      state.seats = [...new Set(now.prompts.map((p) => p.seat))];
      // several seats asked at once (a simultaneous choice): the one chosen, else the first
      if (!state.seats.includes(state.seat)) state.seat = state.seats.length ? state.seats[0] : null;
      const query = state.seat === null ? "" : `?seat=${encodeURIComponent(state.seat)}`;
      state.legal = await api(`/variations/${id}/legal-actions${query}`, token);
    } catch (error) {
      state.legal = null;
      say(error.message, "error");
    }
    state.path = [];
    state.picked = null;
    drawChoices();
  }

  function candidates() {
    if (!state.legal) return [];
    return state.legal.notation.map((text) => ({text, words: text.split(/\s+/)}));
  }

  function matching(all, prefix) {
    return all.filter((c) => c.words.length >= prefix.length && prefix.every((w, i) => c.words[i] === w));
  }

  // The next words after `prefix`, a word extended while every action it leads to goes on the
  // same way (a card named in two words is one choice: "Throne Room").
  function nextChoices(found, depth) {
    const groups = new Map();
    for (const c of found) {
      if (c.words.length <= depth) continue;
      const word = c.words[depth];
      if (!groups.has(word)) groups.set(word, []);
      groups.get(word).push(c);
    }
    const out = [];
    for (const [word, group] of groups) {
      const label = [word];
      for (let j = depth + 1; ; j++) {
        const next = group[0].words[j];
        if (next === undefined) break;
        if (!group.every((c) => c.words.length > j + 1 && c.words[j] === next)) break;
        label.push(next);
      }
      out.push(label);
    }
    return out;
  }

  // A tap on the board picks what it names (a card, a pile, a space...), as at the table: the
  // choices narrow to the legal actions that name it. What none names is said, not offered.
  function names(candidate, picked) {
    const word = picked.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`(^|[\\s,:])${word}($|[\\s,:])`, "i").test(candidate.text);
  }

  function onBoard(event) {
    if (state.at === null || $("study-play").hidden || !state.legal || state.busy) return;
    const target = event.target.closest("[data-name], [data-key]");
    if (!target) return;
    const picked = target.dataset.name || target.dataset.key;
    if (!candidates().some((c) => names(c, picked))) { say(`Nothing legal names ${picked} now.`); return; }
    state.picked = picked;
    state.path = [];
    drawChoices();
    $("study-play").scrollIntoView({block: "nearest"});
  }

  function drawChoices() {
    const all = candidates().filter((c) => state.picked === null || names(c, state.picked));
    const prefix = state.path.flat();
    const found = matching(all, prefix);
    const buttons = [];
    if (state.picked !== null) buttons.push(el("button", {type: "button", class: "back", "data-unpick": "1", text: "× all actions"}));
    if (prefix.length) buttons.push(el("button", {type: "button", class: "back", "data-back": "1", text: "← Back"}));
    if (found.length && found.length <= WHOLE) {
      for (const c of found) buttons.push(el("button", {type: "button", class: "whole", "data-notation": c.text, text: c.text}));
    } else {
      if (prefix.length && found.some((c) => c.words.length === prefix.length)) {
        const text = prefix.join(" ");
        buttons.push(el("button", {type: "button", class: "whole", "data-notation": text, text: `Play “${text}”`}));
      }
      for (const words of nextChoices(found, prefix.length)) {
        buttons.push(el("button", {type: "button", class: "word", "data-words": words.join(" "), text: words.join(" ").replace(/,$/, "")}));
      }
    }
    $("study-building").textContent = !all.length ? "No legal action: the study's game is over."
      : prefix.length ? `${prefix.join(" ")} …` : state.picked !== null ? `With ${state.picked}:` : "Choose an action:";
    for (const button of buttons) button.disabled = state.busy;
    $("study-choices").replaceChildren(...buttons);
    const seats = $("study-seats");
    const seatNames = (studyOf(state.open) || {seats: {}}).seats;
    seats.hidden = state.seats.length < 2;
    seats.replaceChildren(...(seats.hidden ? [] : state.seats.map((seat) => {
      const button = el("button", {type: "button", "aria-pressed": String(seat === state.seat),
        text: seat === null ? "the table" : seatNames[seat] || seat});
      button.onclick = () => { state.seat = seat; drawOpen(); };
      return button;
    })));
    $("study-legal").replaceChildren(...all.slice(0, 500).map((c) => el("option", {value: c.text})));
  }

  function onChoice(event) {
    const button = event.target.closest("button");
    if (!button || state.busy) return;
    if (button.dataset.back) { state.path = state.path.slice(0, -1); drawChoices(); return; }
    if (button.dataset.unpick) { state.picked = null; state.path = []; drawChoices(); return; }
    if (button.dataset.notation !== undefined) { play(button.dataset.notation); return; }
    if (button.dataset.words !== undefined) { state.path = [...state.path, button.dataset.words.split(" ")]; drawChoices(); }
  }

  async function play(text) {
    const id = state.open;
    if (id === null || state.busy) return;
    state.busy = true;
    drawChoices();
    try {
      await api(`/variations/${id}/actions`, tokenOf(id), {method: "POST", body: JSON.stringify(state.seat === null ? {action: text} : {action: text, seat: state.seat})});
      $("study-text").value = "";
      say(`played ${text}`);
      await loadLine(studyOf(id));
      drawSideLines();
      state.busy = false;
      await show(id, lastOf(id));
    } catch (error) {
      const rule = error.problem && error.problem.rule ? ` (${error.problem.rule})` : "";
      say(`${text}: ${error.message}${rule}`, "error");
    } finally {
      state.busy = false;
      drawChoices();
    }
  }

  async function branch() {
    const at = parseInt($("study-branch").dataset.at, 10);
    if (!Number.isInteger(at)) return;
    try {
      const made = await api(`/games/${state.gameId}/variations`, null,
        {method: "POST", body: JSON.stringify({at, purpose: "study"})});
      localStorage.setItem(KEY(made.variation_id), made.recorder_token);
      say(`Study branched at v${at}: play its moves below.`);
      await loadStudies();
      await openStudy(made.variation_id);
    } catch (error) {
      say(`No study at v${at}: ${error.message}`, "error");
    }
  }

  // ---- wiring ----------------------------------------------------------------------------

  document.addEventListener("chronicle:moves", () => {
    if (!$("study")) return;
    drawSideLines();
  });
  document.addEventListener("chronicle:shown", (event) => {
    state.shown = event.detail;
    if (!$("study")) return;
    drawBranchButton();
    // the main line took the board back: no study move is the one shown
    if (state.at !== null) {
      state.at = null;
      delete document.body.dataset.studyVersion;
      markCurrent();
      drawBranchButton();
      const address = new URL(location.href);
      address.searchParams.delete("variation");
      history.replaceState(null, "", `${address.pathname}${address.search}${address.hash}`);
      if (state.open !== null) {
        $("study-play").hidden = true;
        $("study-title").textContent = "The game's own move is shown: choose a study move (or the study in the list) to step in.";
      }
    }
  });

  async function start() {
    if (!state.gameId || !$("moves")) return;
    panel();
    drawBranchButton();
    $("moves").addEventListener("click", onMoves, true);
    $("moves").addEventListener("keydown", onMoves, true);
    // the replay loads first: the side lines hang under its moves, and `?variation=` then
    // replaces the board it drew
    while (!document.body.classList.contains("ready")) await new Promise((done) => setTimeout(done, 50));
    try {
      await loadStudies();
    } catch (error) {
      say(`Studies unavailable: ${error.message}`, "error");
      return;
    }
    const asked = new URLSearchParams(location.search).get("variation");
    if (asked && studyOf(asked)) await openStudy(asked);
    else if (asked) say(`There is no study ${asked} of this game.`, "error");
    document.body.classList.add("study-ready");
  }

  start();
  return {open: openStudy, show, close};
})();
