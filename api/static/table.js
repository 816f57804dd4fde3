// Chronicle's table page: the phones around a table record a game by touch. Plain script, no
// build step. Everything it shows is read with the token this phone holds, so the API's one
// redaction decides what it may see; the token never travels in a URL path or query.
"use strict";

const Table = (() => {
  const WHOLE = 6;  // this many completions left or fewer: offer each whole
  const RETRY_MS = 3000;
  const RANGE = /(-?\d+)\.\.(-?\d+)/;
  const $ = (id) => document.getElementById(id);

  const state = {
    gameId: "", token: "", role: "watching", seat: null, detail: null, prompts: [], legal: null,
    recordSeat: null, path: [], picked: null, version: 0, status: "running", events: [], requests: [],
    refreshing: null, again: false, stale: false, stream: null, online: navigator.onLine, over: false,
  };
  const keys = {};

  const {el} = Dom;

  // ---- the token: from the fragment into this device's storage --------------------------------

  function takeToken(gameId) {
    keys.token = `chronicle-table:${gameId}`;
    keys.role = `chronicle-table-role:${gameId}`;
    keys.queue = `chronicle-table-queue:${gameId}`;
    const fragment = new URLSearchParams(location.hash.slice(1));
    const given = fragment.get("token");
    if (given) {
      if (given !== localStorage.getItem(keys.token)) localStorage.removeItem(keys.role);
      localStorage.setItem(keys.token, given);
    }
    // out of the address bar, so the token is in no history entry, log or Referer
    if (location.hash) history.replaceState(null, "", location.pathname + location.search);
    state.token = localStorage.getItem(keys.token) || "";
    const role = JSON.parse(localStorage.getItem(keys.role) || "null");
    if (role) { state.role = role.role; state.seat = role.seat; }
  }

  function headers(extra = {}) {
    const out = {accept: "application/json", ...extra};
    if (state.token) out.authorization = `Bearer ${state.token}`;
    return out;
  }

  async function api(path, options = {}) {
    const response = await fetch(path, {...options, headers: headers(options.headers || {})});
    let body = null;
    try { body = await response.json(); } catch (_error) { body = null; }
    return {status: response.status, ok: response.ok, body: body || {}};
  }

  async function read(path) {
    const answer = await api(path);
    if (!answer.ok) throw new Error(answer.body.detail || `${path}: ${answer.status}`);
    return answer.body;
  }

  function post(path, body) {
    return api(path, {method: "POST", body: JSON.stringify(body), headers: {"content-type": "application/json"}});
  }

  // ---- who this phone is -------------------------------------------------------------------

  // The picture's `view` says what the token grants while the game runs ("player:p1",
  // "omniscient" for the recorder); once the game is over everyone sees everything, so the
  // role learnt while it ran is kept on the device.
  function learnRole(view) {
    if (!state.token) { state.role = "watching"; state.seat = null; return; }
    if (state.over && localStorage.getItem(keys.role)) return;
    if (view.startsWith("player:")) { state.role = "seat"; state.seat = view.slice(7); }
    else if (view === "omniscient") { state.role = "recorder"; state.seat = null; }
    else { state.role = "watching"; state.seat = null; }
    if (!state.over) localStorage.setItem(keys.role, JSON.stringify({role: state.role, seat: state.seat}));
  }

  function seatName(seat) {
    if (seat === null || seat === undefined) return "the table";
    return (state.detail && state.detail.seats[seat]) || seat;
  }

  function drawWho() {
    const who = $("who");
    if (state.role === "seat") who.textContent = `${seatName(state.seat)} (${state.seat})`;
    else if (state.role === "recorder") who.textContent = "recorder";
    else who.textContent = state.token ? "watching (this token has no seat here)" : "watching";
    document.body.dataset.role = state.role;
    $("leave").hidden = !state.token;
  }

  // ---- reading the game --------------------------------------------------------------------

  function refresh() {
    if (state.refreshing) { state.again = true; return state.refreshing; }
    state.refreshing = (async () => {
      try {
        do {
          state.again = false;
          await load();
        } while (state.again);
      } catch (error) {
        say(`Could not read the game: ${error.message}`, "read");
      } finally {
        state.refreshing = null;
      }
    })();
    return state.refreshing;
  }

  async function load() {
    const id = state.gameId;
    state.stale = false;  // what is read from here on follows every action sent so far
    const [detail, shown, prompts, requests] = await Promise.all([
      read(`/games/${id}`), read(`/games/${id}/picture`), read(`/games/${id}/prompts`), read(`/games/${id}/retractions`)]);
    state.detail = detail;
    state.status = detail.status;
    state.over = detail.status !== "running";
    learnRole(shown.view);
    state.prompts = prompts.prompts;
    state.requests = requests.pending;
    const seats = promptedSeats();
    if (!seats.includes(state.recordSeat)) state.recordSeat = seats.length ? seats[0] : null;
    state.legal = await legalActions();
    const changed = shown.version !== state.version;
    state.version = shown.version;
    if (changed) { state.path = []; state.picked = null; }
    $("title").textContent = `${detail.ruleset} · ${detail.mode} · ${id.slice(0, 8)}`;
    Chronicle.drawPicture($("picture"), shown);
    drawWho();
    drawTurn();
    drawRecorder();
    drawRequests();
    drawControls();
    drawQueue();
    document.body.dataset.version = String(shown.version);
    document.body.dataset.status = detail.status;
    if ($("refusal").dataset.kind === "read") hideRefusal();
    document.body.classList.add("ready");
  }

  async function legalActions() {
    if (!state.token || state.over || state.role === "watching") return null;
    if (state.role === "seat" && !state.prompts.some((p) => p.seat === state.seat)) return null;
    if (state.role === "recorder" && !state.prompts.length) return null;
    const query = state.role === "recorder" && state.recordSeat ? `?seat=${encodeURIComponent(state.recordSeat)}` : "";
    return read(`/games/${state.gameId}/legal-actions${query}`);
  }

  // The seats the recorder may record for now: each one a prompt names (null: the table's own
  // step, such as a draw or a die the table reads).
  function promptedSeats() {
    if (state.role !== "recorder") return [];
    const seen = [];
    for (const prompt of state.prompts) if (!seen.includes(prompt.seat)) seen.push(prompt.seat);
    return seen;
  }

  function drawTurn() {
    const list = $("prompts");
    list.replaceChildren(...state.prompts.map((p) => el("li", {"data-seat": p.seat || "", "data-kind": p.kind},
      el("strong", {text: `${seatName(p.seat)}: `}), p.text)));
    const names = [...new Set(state.prompts.map((p) => seatName(p.seat)))];
    const mine = state.role === "seat" && state.prompts.some((p) => p.seat === state.seat);
    let text = "";
    if (state.over) text = state.status === "abandoned" ? "The game was abandoned." : "The game is over.";
    else if (mine) text = "Your turn.";
    else if (state.role === "recorder" && names.length) text = `Record for ${names.join(" and ")}.`;
    else if (names.length) text = `Waiting for ${names.join(" and ")}.`;
    $("whose").textContent = text;
    const outcome = $("outcome");
    const result = state.detail && state.detail.outcome;
    outcome.hidden = !result;
    if (result) {
      const ranks = Object.entries(result.ranks || {}).sort((a, b) => a[1] - b[1]);
      outcome.textContent = ranks.length ? `Final order: ${ranks.map(([s, r]) => `${r}. ${seatName(s)}`).join(", ")}` : "";
    }
  }

  // ---- recording by touch ------------------------------------------------------------------

  // A legal action as its words; a template's word may hold ranges (`chengdu:1..5`).
  function candidates() {
    const legal = state.legal;
    if (!legal) return [];
    const out = legal.notation.map((text) => ({text, words: text.split(/\s+/), template: false}));
    for (const text of legal.templates || []) out.push({text, words: text.split(/\s+/), template: true});
    // Physical Dominion: a card the table did not see is `?` where the step allows it
    // (domain/games/dominion/notation.py), which the legal list cannot name.
    const prompt = state.prompts.find((p) => p.seat === state.recordSeat && p.bounds && p.bounds.unseen_allowed);
    if (prompt && state.role === "recorder") {
      const verbs = new Set(legal.notation.map((t) => t.split(/\s+/)[0]));
      for (const verb of verbs) {
        out.push({text: `${verb} ?`, words: [verb, "?"], template: false});
        // "observe 3 ?": that many unseen cards at once, up to what the step takes
        for (let n = 2; n <= (prompt.bounds.max || 1); n++) {
          out.push({text: `${verb} ${n} ?`, words: [verb, String(n), "?"], template: false});
        }
      }
    }
    return out;
  }

  function wordMatches(pattern, word) {
    if (!RANGE.test(pattern)) return pattern === word;
    const parts = pattern.split(/-?\d+\.\.-?\d+/);
    const spans = [...pattern.matchAll(/(-?\d+)\.\.(-?\d+)/g)].map((m) => [Number(m[1]), Number(m[2])]);
    const regex = new RegExp(`^${parts.map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")).join("(-?\\d+)")}$`);
    const found = regex.exec(word);
    return !!found && spans.every(([low, high], i) => Number(found[i + 1]) >= low && Number(found[i + 1]) <= high);
  }

  // Every word a pattern stands for: a range becomes one choice per number in it.
  function expand(pattern) {
    const found = RANGE.exec(pattern);
    if (!found) return [pattern];
    const out = [];
    const [low, high] = [Number(found[1]), Number(found[2])];
    for (let n = low; n <= high; n++) {
      out.push(...expand(pattern.slice(0, found.index) + String(n) + pattern.slice(found.index + found[0].length)));
    }
    return out;
  }

  function matching(all, prefix) {
    return all.filter((c) => c.words.length >= prefix.length && prefix.every((w, i) => wordMatches(c.words[i], w)));
  }

  // The next choices after `prefix`: each next word, extended while every action it leads to
  // goes on with the same word (a card named in two words is one choice: "Throne Room").
  function nextChoices(found, depth) {
    const groups = new Map();
    for (const c of found) {
      if (c.words.length <= depth) continue;
      for (const word of expand(c.words[depth])) {
        if (!groups.has(word)) groups.set(word, []);
        groups.get(word).push(c);
      }
    }
    const out = [];
    for (const [word, group] of groups) {
      const label = [word];
      for (let j = depth + 1; ; j++) {
        const next = group[0].words[j];
        if (next === undefined || RANGE.test(next)) break;
        if (!group.every((c) => c.words.length > j && c.words[j] === next && c.words.length > depth + label.length)) break;
        label.push(next);
      }
      out.push({words: label, count: group.length});
    }
    return out;
  }

  // A tap on the board picks what it names (a card in hand, a pile, a space, a province, a
  // tile): the choices narrow to the legal actions that name it, so "play Village" is two taps
  // on the card, not a walk through the words. What no legal action names is said, not offered.
  function names(candidate, picked) {
    const word = picked.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    return new RegExp(`(^|[\\s,:])${word}($|[\\s,:])`, "i").test(candidate.text);
  }

  function onBoard(event) {
    const target = event.target.closest("[data-name], [data-key]");
    if (!target || !state.legal || $("record").hidden) return;
    const picked = target.dataset.name || target.dataset.key;
    if (!candidates().some((c) => names(c, picked))) {
      say(`Nothing legal names ${picked} now.`);
      return;
    }
    hideRefusal();
    state.picked = picked;
    state.path = [];
    drawRecorder();
    $("record").scrollIntoView({block: "nearest"});
  }

  function drawRecorder() {
    const section = $("record");
    const all = candidates().filter((c) => state.picked === null || names(c, state.picked));
    section.hidden = !all.length && !(state.role === "recorder" && promptedSeats().length > 1);
    drawSeatChoice();
    const box = $("choices");
    const prefix = state.path.flat();
    const found = matching(all, prefix);
    const concrete = found.every((c) => !c.template);
    box.dataset.prefix = prefix.join(" ");
    $("building").textContent = prefix.length ? `${prefix.join(" ")} …` : (all.length ? "Choose an action:" : "");
    if (state.picked !== null && !prefix.length) $("building").textContent = `With ${state.picked}:`;
    const buttons = [];
    if (state.picked !== null) {
      buttons.push(el("button", {type: "button", class: "back", "data-unpick": "1", text: `× all actions`}));
    }
    if (prefix.length) {
      buttons.push(el("button", {type: "button", class: "back", "data-back": "1", text: "← Back"}));
    }
    if (found.length && found.length <= WHOLE && concrete) {
      for (const c of found) {
        buttons.push(el("button", {type: "button", class: "whole", "data-notation": c.text, text: c.text}));
      }
    } else {
      const exact = found.filter((c) => c.words.length === prefix.length);
      if (exact.length && prefix.length) {
        const text = prefix.join(" ");
        buttons.push(el("button", {type: "button", class: "whole", "data-notation": text, text: `Record “${text}”`}));
      }
      for (const choice of nextChoices(found, prefix.length)) {
        // a card list's commas belong to the notation, not to the button's name
        buttons.push(el("button", {type: "button", class: "word", "data-words": choice.words.join(" "),
          text: choice.words.join(" ").replace(/,$/, "")}));
      }
    }
    // While an action waits to be sent, the choices after it are not known yet: only the
    // notation box takes more (a recorder who knows the table's next moves may queue them).
    const waiting = queue().length > 0 || state.stale;
    for (const button of buttons) button.disabled = waiting;
    if (waiting) $("building").textContent = "Sending… the next choices follow once it is recorded.";
    box.replaceChildren(...buttons);
    const list = $("legal-notation");
    list.replaceChildren(...all.filter((c) => !c.template).slice(0, 500).map((c) => el("option", {value: c.text})));
    $("notation").placeholder = all.some((c) => c.template) ? `e.g. ${all.find((c) => c.template).text}` : "type an action";
  }

  function drawSeatChoice() {
    const box = $("seat-choice");
    const seats = promptedSeats();
    box.hidden = seats.length < 2;
    box.replaceChildren(...seats.map((seat) => el("button", {
      type: "button", "data-seat": seat === null ? "" : seat, "aria-pressed": String(seat === state.recordSeat),
      text: seat === null ? "Table" : seatName(seat)})));
  }

  function onChoice(event) {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.dataset.back) { state.path = state.path.slice(0, -1); drawRecorder(); return; }
    if (button.dataset.unpick) { state.picked = null; state.path = []; drawRecorder(); return; }
    if (button.dataset.notation !== undefined) { record(button.dataset.notation); return; }
    if (button.dataset.words !== undefined) {
      state.path = [...state.path, button.dataset.words.split(" ")];
      drawRecorder();
    }
  }

  async function onSeatChoice(event) {
    const button = event.target.closest("button");
    if (!button) return;
    state.recordSeat = button.dataset.seat || null;
    state.path = [];
    state.legal = await legalActions();
    drawRecorder();
  }

  // ---- sending actions: through a queue kept on the device ----------------------------------

  function newId() {
    if (crypto.randomUUID) return crypto.randomUUID();
    // Over plain http on a table's local network the page is no secure context, and
    // randomUUID is missing there; getRandomValues is not.
    const b = crypto.getRandomValues(new Uint8Array(16));
    b[6] = (b[6] & 0x0f) | 0x40; b[8] = (b[8] & 0x3f) | 0x80;
    const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
    return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
  }

  function queue() { return JSON.parse(localStorage.getItem(keys.queue) || "[]"); }
  function saveQueue(items) {
    if (items.length) localStorage.setItem(keys.queue, JSON.stringify(items));
    else localStorage.removeItem(keys.queue);
  }

  function record(text) {
    text = text.trim();
    if (!text) return;
    const item = {action_id: newId(), action: text, seat: state.role === "recorder" ? state.recordSeat : null};
    saveQueue([...queue(), item]);
    state.path = [];
    $("notation").value = "";
    hideRefusal();
    drawQueue();
    drawRecorder();
    flush();
  }

  let flushing = null;
  let retryTimer = null;

  // Sends the queued actions in order, each once: a retry carries the same action_id, and the
  // server answers 200 with the first answer for an action_id it already stored.
  function flush() {
    if (flushing) return flushing;
    drawQueue();
    flushing = sendQueued().finally(() => { flushing = null; drawQueue(); drawRecorder(); });
    return flushing;
  }

  async function sendQueued() {
    let items = queue();
    while (items.length) {
      const item = items[0];
      let answer;
      try {
        const body = {action: item.action, action_id: item.action_id};
        if (item.seat) body.seat = item.seat;
        answer = await post(`/games/${state.gameId}/actions`, body);
      } catch (_error) {
        scheduleRetry();  // no connection: the action waits on the device
        return;
      }
      if (answer.status >= 500 || answer.status === 429) { scheduleRetry(); return; }
      // 201 recorded, 200 recorded before (the answer to an earlier try was lost), 4xx refused:
      // either way this action is done with
      items = queue().filter((i) => i.action_id !== item.action_id);
      saveQueue(items);
      if (!answer.ok) showRefusal(answer.body, item.action);
      else { state.stale = true; refresh(); }  // the choices after it: read them before offering
    }
  }

  function scheduleRetry() {
    if (retryTimer) return;
    retryTimer = setTimeout(() => { retryTimer = null; flush(); }, RETRY_MS);
  }

  function drawQueue() {
    const items = queue();
    $("queue").hidden = !items.length;
    $("pending").replaceChildren(...items.map((i) => el("li", {"data-action-id": i.action_id},
      el("span", {class: "pill", text: "pending"}), ` ${i.seat ? `${seatName(i.seat)}: ` : ""}${i.action}`)));
    document.body.dataset.pending = String(items.length);
  }

  // ---- refusals ----------------------------------------------------------------------------

  // A rule reads "province 3.2" (a reference and a section): it links to the rulebook page.
  function ruleLink(rule) {
    const [reference, ...rest] = rule.trim().split(/\s+/);
    const section = rest.join(" ");
    const href = `/rulebook/${encodeURIComponent(reference)}${section ? `#${encodeURIComponent(section)}` : ""}`;
    return el("a", {href, class: "rule", text: rule});
  }

  function showRefusal(problem, action) {
    const box = $("refusal");
    const parts = [el("strong", {text: action ? `“${action}” refused: ` : "Refused: "}),
      problem.detail || problem.title || "the server refused it"];
    if (problem.rule) parts.push(" (", ruleLink(problem.rule), ")");
    box.replaceChildren(...parts);
    box.dataset.code = problem.code || "";
    box.dataset.kind = "refusal";
    box.hidden = false;
  }

  function hideRefusal() { $("refusal").hidden = true; }

  // A word to this phone in the refusal's place: "info" (an undo waiting for approval) or
  // "read" (the game could not be read: gone as soon as a read succeeds again).
  function say(text, kind = "info") {
    const box = $("refusal");
    box.replaceChildren(text);
    box.dataset.code = "";
    box.dataset.kind = kind;
    box.hidden = false;
  }

  // ---- undo, resign, abandon ---------------------------------------------------------------

  function drawControls() {
    const playing = !state.over && state.role !== "watching";
    $("controls").hidden = !playing;
    $("abandon").hidden = state.role !== "recorder";
  }

  function ask(text, seats) {
    const dialog = $("confirm");
    $("confirm-text").textContent = text;
    const select = $("confirm-seat");
    $("confirm-seat-label").hidden = !seats;
    select.replaceChildren(...(seats || []).map(([id, name]) => el("option", {value: id, text: name})));
    return new Promise((resolve) => {
      dialog.addEventListener("close", () => resolve(dialog.returnValue === "yes" ? (select.value || true) : null), {once: true});
      dialog.returnValue = "";
      dialog.showModal();
    });
  }

  async function undo() {
    if (!(await ask("Undo the last action?"))) return;
    // A seat asks the others when the undo crosses their actions, a draw or a reveal
    // (domain/corrections.py); the recorder speaks for the whole table.
    const answer = await post(`/games/${state.gameId}/retractions`, {count: 1, ask_approval: state.role === "seat"});
    if (!answer.ok) { showRefusal(answer.body, "undo"); return; }
    hideRefusal();
    if (answer.status === 202) say(`Undo asked: waiting for ${answer.body.waiting_for.map(seatName).join(", ")}.`);
    refresh();
  }

  async function resign() {
    const seats = state.role === "recorder"
      ? Object.entries(state.detail.seats).map(([id, name]) => [id, `${name} (${id})`]) : null;
    const chosen = await ask(state.role === "recorder" ? "Which seat resigns? The game ends at once." : "Resign? The game ends at once.", seats);
    if (!chosen) return;
    const body = state.role === "recorder" ? {seat: chosen} : {};
    const answer = await post(`/games/${state.gameId}/resign`, body);
    if (!answer.ok) showRefusal(answer.body, "resign");
    refresh();
  }

  async function abandon() {
    if (!(await ask("Abandon the game? It ends with no result."))) return;
    const answer = await post(`/games/${state.gameId}/abandon`, {});
    if (!answer.ok) showRefusal(answer.body, "abandon");
    refresh();
  }

  async function leave() {
    if (!(await ask("Leave this seat? This phone forgets its token; you need the link again to come back."))) return;
    for (const key of Object.values(keys)) localStorage.removeItem(key);
    state.token = "";
    state.role = "watching";
    state.seat = null;
    state.events = [];  // what the seat saw is not the public's: the log is read again
    drawLog();
    restartStream();
    refresh();
  }

  // ---- undo requests waiting for approval ---------------------------------------------------

  function drawRequests() {
    const open = state.over ? [] : state.requests;
    $("requests").hidden = !open.length;
    $("retractions").replaceChildren(...open.map((r) => {
      const item = el("li", {"data-request": r.request_id},
        `${seatName(r.seat)} asks to undo ${r.seqs.length} action${r.seqs.length === 1 ? "" : "s"}` +
        `${r.reason ? ` (${r.reason})` : ""}; waiting for ${r.waiting_for.map(seatName).join(", ")}. `);
      if (state.role === "seat" && r.waiting_for.includes(state.seat)) {
        item.append(
          el("button", {type: "button", "data-answer": "approve", "aria-label": "approve the undo", text: "Approve"}),
          el("button", {type: "button", "data-answer": "decline", "aria-label": "decline the undo", text: "Decline"}));
      }
      return item;
    }));
  }

  async function onRequest(event) {
    const button = event.target.closest("button");
    if (!button) return;
    const id = button.closest("li").dataset.request;
    const answer = await post(`/games/${state.gameId}/retractions/${encodeURIComponent(id)}/${button.dataset.answer}`, {});
    if (!answer.ok) showRefusal(answer.body, button.dataset.answer);
    refresh();
  }

  // ---- live: the game's events as they are recorded -----------------------------------------

  // EventSource sends no Authorization header, so the stream is read with fetch, resuming after
  // the last version seen (a broken connection is picked up again after a second).
  function restartStream() {
    if (state.stream) state.stream.abort();
    state.stream = null;
    follow();
  }

  async function follow() {
    if (state.stream) return;
    const control = new AbortController();
    state.stream = control;
    let last = state.events.length ? state.events[state.events.length - 1].version : 0;
    let ended = false;
    try {
      const response = await fetch(`/games/${state.gameId}/live?after=${last}`, {
        headers: headers({accept: "text/event-stream"}), signal: control.signal, cache: "no-store"});
      if (!response.ok) throw new Error(`live: ${response.status}`);
      connection(true);
      const reader = response.body.getReader();
      const decoder = new TextDecoder();
      let buffer = "";
      for (;;) {
        const {value, done} = await reader.read();
        if (done) break;
        buffer += decoder.decode(value, {stream: true});
        let cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          const event = parseBlock(block);
          if (event) { last = event.version; received(event); }
        }
      }
      ended = true;
    } catch (_error) {
      if (control.signal.aborted) return;
      connection(false);
    } finally {
      if (state.stream === control) state.stream = null;
    }
    if (control.signal.aborted) return;
    // The stream ends after the finishing event; otherwise it was cut: pick it up again.
    if (ended) {
      await refresh();
      if (state.over) { connection(true, "ended"); return; }
    }
    setTimeout(follow, ended ? 200 : 1000);
  }

  function parseBlock(block) {
    let id = null, data = "";
    for (const line of block.split("\n")) {
      if (line.startsWith("id:")) id = line.slice(3).trim();
      else if (line.startsWith("data:")) data += line.slice(5).trim();
    }
    if (id === null || !data) return null;
    try { return JSON.parse(data); } catch (_error) { return null; }
  }

  let refreshSoon = null;

  function received(event) {
    state.events.push(event);
    if (state.events.length > 400) state.events.splice(0, state.events.length - 400);
    if (event.type === "finished" || event.type === "abandoned" || event.type === "resigned") state.over = true;
    drawLog();
    if (event.type === "retraction") reloadLog(event.version);
    if (event.version <= state.version) return;  // shown already (read after its action was sent)
    clearTimeout(refreshSoon);
    refreshSoon = setTimeout(refresh, 30);  // one refresh for a burst of facts
  }

  // A retraction marks earlier events as retracted: the log reads them again.
  async function reloadLog(version) {
    try {
      const from = Math.max(1, version - 60);
      const fresh = (await read(`/games/${state.gameId}/events?from=${from}&to=${version}`)).events;
      state.events = [...state.events.filter((e) => e.version < from), ...fresh,
        ...state.events.filter((e) => e.version > version)];
      drawLog();
    } catch (_error) {
      // the log stays as it was; the next event redraws it
    }
  }

  function drawLog() {
    const shown = state.events.filter((e) => e.text && e.type !== "created").slice(-12).reverse();
    $("log").replaceChildren(...shown.map((e) => el("li", {
      "data-version": String(e.version), class: `${e.type}${e.retracted ? " retracted" : ""}`, text: e.text})));
  }

  function connection(up, word = up ? "live" : "offline") {
    state.online = up;
    const box = $("connection");
    box.textContent = word;
    box.classList.toggle("down", !up);
    document.body.dataset.connection = up ? "live" : "offline";
  }

  // ---- start -------------------------------------------------------------------------------

  async function start(gameId) {
    state.gameId = gameId;
    takeToken(gameId);
    drawWho();
    drawQueue();
    $("choices").addEventListener("click", onChoice);
    $("picture").addEventListener("click", onBoard);
    $("seat-choice").addEventListener("click", onSeatChoice);
    $("retractions").addEventListener("click", onRequest);
    $("notation-form").addEventListener("submit", (event) => { event.preventDefault(); record($("notation").value); });
    $("undo").addEventListener("click", undo);
    $("resign").addEventListener("click", resign);
    $("abandon").addEventListener("click", abandon);
    $("leave").addEventListener("click", leave);
    window.addEventListener("online", () => { flush(); restartStream(); refresh(); });
    window.addEventListener("offline", () => connection(false));
    await refresh();
    follow();
    flush();
  }

  return {start, state, events: () => state.events.slice()};
})();
