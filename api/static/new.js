/* The New game page (/new): a form for every installed ruleset, Dominion's kingdom picker, the
   title and definition picker of a game Chronicle has no engine for (`any`: none, a shipped
   example with its summary, or the table's own JSON, which the server checks), and once the
   game is created the table's links with their QR codes.

   Tokens: POST /games answers one token per seat and the recorder's. They are shown once, here,
   inside links of the form /table/{id}#token=TOKEN: the fragment never leaves the browser, so
   no request line, access log or Referer holds a token. The recorder's token is sent only in an
   Authorization header (the chosen kingdom's action). */
"use strict";

(function () {
  const $ = (id) => document.getElementById(id);
  const form = $("new-game");
  let rulesets = [];
  let current = null;       // the chosen ruleset's metadata (GET /rulesets)
  let sections = new Set(); // the ids of its rules reference's sections
  let setup = null;         // GET /rulesets/{id}/setup's choices for the options now chosen
  let setupAsked = 0;       // the latest setup request, so an older answer never wins

  // Dominion's kingdom picker shows these options itself: the sets and the edition decide the
  // presets and the piles offered, and `kingdom` is what the picker chooses.
  const PICKER_OPTIONS = new Set(["expansions", "base_edition", "kingdom"]);
  // A game Chronicle has no engine for (`any`) names its title and BoardGameGeek id first, and
  // the definition picker below chooses its `definition`.
  const ABOUT_OPTIONS = new Set(["title", "bgg_id"]);

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attrs || {})) {
      if (value === null || value === undefined || value === false) continue;
      if (key === "text") node.textContent = value;
      else if (key === "dataset") Object.assign(node.dataset, value);
      else node.setAttribute(key, value === true ? "" : value);
    }
    for (const child of children) if (child !== null && child !== undefined) node.append(child);
    return node;
  }

  async function json(url, init) {
    const answer = await fetch(url, init);
    let body = null;
    try { body = await answer.json(); } catch (e) { body = null; }
    return { ok: answer.ok, status: answer.status, body };
  }

  /* A problem (RFC 9457) in words: its title, what it says, and the rule it rests on. */
  function problemText(answer) {
    const p = answer.body || {};
    if (!p.detail && !p.title) return `The server answered ${answer.status}.`;
    return p.title && p.detail ? `${p.title}: ${p.detail}` : (p.detail || p.title);
  }

  function showError(target, answer, prefix) {
    target.replaceChildren();
    target.append((prefix || "") + problemText(answer));
    const rule = (answer.body || {}).rule;
    if (rule) {
      const [ref, section] = rule.split(" ");
      target.append(" (", el("a", { href: `/rulebook/${ref}${section ? "#" + section : ""}`, text: `rule ${rule}` }), ")");
    }
    target.hidden = false;
  }

  // ---- the description of an option, with its rule sections linked -----------------------

  const SECTION = /\b(D\d+|\d+\.\d+(?:\.\d+)*)\b/g;

  function describe(text) {
    const out = document.createDocumentFragment();
    let last = 0;
    for (const match of text.matchAll(SECTION)) {
      if (!sections.has(match[1])) continue;
      out.append(text.slice(last, match.index));
      out.append(el("a", { href: `/rulebook/${current.spec}#${match[1]}`, text: match[1],
                           "aria-label": `rule ${match[1]} of the ${current.spec} rules` }));
      last = match.index + match[0].length;
    }
    out.append(text.slice(last));
    return out;
  }

  // ---- the variant options -------------------------------------------------------------

  function isFlag(option) {
    return typeof option.default === "boolean";
  }

  function control(option) {
    const id = `opt-${option.name}`;
    const data = { dataset: { option: option.name }, id, name: option.name };
    if (isFlag(option)) {
      return el("input", { ...data, type: "checkbox", checked: option.default === true });
    }
    if (option.choices) {
      const select = el("select", data);
      for (const choice of option.choices) {
        select.append(el("option", { value: String(choice), text: String(choice), selected: choice === option.default }));
      }
      return select;
    }
    if (typeof option.default === "number") {
      return el("input", { ...data, type: "number", inputmode: "numeric", step: "1", value: String(option.default),
                           min: option.min === null ? null : String(option.min),
                           max: option.max === null ? null : String(option.max) });
    }
    return el("input", { ...data, type: "text", value: String(option.default), autocomplete: "off" });
  }

  function optionRow(option) {
    const input = control(option);
    const label = el("label", { for: input.id, class: "option-name", text: option.name.replaceAll("_", " ") });
    const help = el("p", { class: "help", id: `${input.id}-help` }, describe(option.description));
    input.setAttribute("aria-describedby", help.id);
    const row = el("div", { class: isFlag(option) ? "option flag" : "option", dataset: { row: option.name } });
    if (isFlag(option)) row.append(el("div", { class: "flag-line" }, input, label), help);
    else row.append(label, input, help);
    return row;
  }

  /* The value an option's control holds, typed as the option is declared. */
  function valueOf(option) {
    const input = form.querySelector(`[data-option="${CSS.escape(option.name)}"]`);
    if (!input) return option.default;
    if (isFlag(option)) return input.checked;
    if (typeof option.default === "number") {
      const text = input.value.trim();
      return /^[+-]?\d+$/.test(text) ? Number(text) : text;  // not a number: the server says why
    }
    return input.value;
  }

  /* The options that differ from their defaults, as POST /games takes them. */
  function chosenOptions() {
    const options = {};
    for (const option of current.options) {
      if (PICKER_OPTIONS.has(option.name) && setup && setup.kingdom) continue;
      if (option.name === "definition" && hasDefinitions()) continue;
      const value = valueOf(option);
      if (value !== option.default) options[option.name] = value;
    }
    if (setup && setup.kingdom) Object.assign(options, kingdomOptions());
    if (hasDefinitions()) {
      const text = definitionText();
      if (text) options.definition = text;
    }
    return options;
  }

  // ---- players ---------------------------------------------------------------------------

  function playerCount() { return $("player-list").children.length; }

  function addPlayer(value) {
    const n = playerCount() + 1;
    const input = el("input", { type: "text", name: "player", autocomplete: "off", maxlength: "64",
                                "aria-label": `Player ${n}'s name`, placeholder: `Player ${n}`,
                                value: value || "" });
    $("player-list").append(el("li", {}, input));
    playersChanged();
  }

  function playersChanged() {
    const n = playerCount();
    $("add-player").disabled = n >= current.max_players;
    $("remove-player").disabled = n <= current.min_players;
  }

  function playerNames() {
    return [...$("player-list").querySelectorAll("input")].map((input) => input.value.trim());
  }

  // ---- Dominion's kingdom ----------------------------------------------------------------

  // where a pile comes from, said briefly (a pile of both base editions says nothing)
  const SET_LABELS = { "base 1st edition": "1st ed.", "base 2nd edition": "2nd ed.", empires: "Empires" };

  function costText(pile) {
    if (pile.cost === null) return "";
    const parts = [];
    if (pile.cost || !pile.debt) parts.push(`$${pile.cost}`);
    if (pile.debt) parts.push(`${pile.debt}D`);
    return parts.join(" ");
  }

  function cardItem(pile, input) {
    const types = pile.types ? pile.types.join(" · ") : pile.kind;
    const body = el("span", { class: "card-body" },
      el("span", { class: "card-name", text: pile.name }),
      el("span", { class: "card-meta" },
        el("span", { class: "cost", text: costText(pile) }), " ",
        el("span", { class: "types", text: types }),
        SET_LABELS[pile.set] ? el("span", { class: "set", text: ` · ${SET_LABELS[pile.set]}` }) : null));
    if (!input) return el("li", { dataset: { card: pile.name } }, body);
    return el("li", { dataset: { card: pile.name } }, el("label", { class: "card" }, input, body));
  }

  function kingdomHow() {
    return form.querySelector('input[name="kingdom-how"]:checked').value;
  }

  function chosenPiles() {
    return [...$("pile-list").querySelectorAll("input:checked")].map((input) => input.value);
  }

  function chosenLandscapes() {
    return [...$("landscape-list").querySelectorAll("input:checked")].map((input) => input.value);
  }

  function kingdomOptions() {
    const options = {};
    for (const name of ["expansions", "base_edition"]) {
      const option = current.options.find((o) => o.name === name);
      const value = valueOf(option);
      if (value !== option.default) options[name] = value;
    }
    const how = kingdomHow();
    if (how === "preset") options.kingdom = $("preset").value;
    if (how === "chosen") options.kingdom = "manual";
    return options;
  }

  function drawPresetCards() {
    const list = $("preset-cards");
    list.replaceChildren();
    const preset = ((setup && setup.kingdom.presets) || []).find((p) => p.name === $("preset").value);
    if (!preset) return;
    const byName = new Map(setup.kingdom.piles.map((p) => [p.name, p]));
    const scapes = new Map(setup.kingdom.landscapes.map((l) => [l.name, l]));
    for (const name of preset.piles) list.append(cardItem(byName.get(name) || { name, cost: null }));
    for (const name of preset.landscapes) list.append(cardItem(scapes.get(name) || { name, cost: null }));
  }

  function countChosen() {
    const n = chosenPiles().length;
    const size = setup ? setup.kingdom.size : 10;
    $("chosen-count").textContent = `${n} of ${size} kingdom piles chosen`;
    $("chosen-count").classList.toggle("done", n === size);
    for (const input of $("pile-list").querySelectorAll("input")) input.disabled = !input.checked && n >= size;
  }

  function drawKingdom() {
    const kingdom = setup && setup.kingdom;
    $("kingdom").hidden = !kingdom;
    if (!kingdom) return;
    const how = kingdomHow();
    $("kingdom-preset").hidden = how !== "preset";
    $("kingdom-chosen").hidden = how !== "chosen";
    // the presets of these sets and this edition
    const select = $("preset");
    const before = select.value;
    select.replaceChildren(...kingdom.presets.map((p) => el("option", { value: p.name, text: p.name.replaceAll("_", " ") })));
    if (kingdom.presets.some((p) => p.name === before)) select.value = before;
    select.hidden = !kingdom.presets.length;
    $("no-presets").hidden = kingdom.presets.length > 0;
    drawPresetCards();
    // every pile the table may name, cheapest first, keeping what was ticked
    const ticked = new Set(chosenPiles());
    const tickedScapes = new Set(chosenLandscapes());
    $("pile-list").replaceChildren(...kingdom.piles.map((pile) => cardItem(pile,
      el("input", { type: "checkbox", name: "pile", value: pile.name, checked: ticked.has(pile.name),
                    "aria-label": `${pile.name}, ${costText(pile)}, ${pile.types.join(" ")}` }))));
    $("landscape-box").hidden = !kingdom.landscapes.length;
    $("landscape-list").replaceChildren(...kingdom.landscapes.map((scape) => cardItem(scape,
      el("input", { type: "checkbox", name: "landscape", value: scape.name, checked: tickedScapes.has(scape.name),
                    "aria-label": `${scape.name}, ${scape.kind}` }))));
    countChosen();
  }

  async function loadSetup() {
    const asked = ++setupAsked;
    const query = new URLSearchParams();
    for (const option of current.options) {
      if (option.name === "expansions" || option.name === "base_edition") {
        const value = valueOf(option);
        if (value !== option.default) query.set(option.name, String(value));
      }
    }
    const answer = await json(`/rulesets/${encodeURIComponent(current.id)}/setup?${query}`);
    if (asked !== setupAsked) return;
    setup = answer.ok ? answer.body.choices : null;
    drawKingdom();
    drawDefinitions();
  }

  // ---- a game's definition (any): none, a shipped example, or the table's own JSON ---------

  function hasDefinitions() {
    return Boolean(current && current.options.some((o) => o.name === "definition") && setup && setup.definitions);
  }

  function plural(n, word) { return `${n} ${word}${n === 1 ? "" : "s"}`; }

  /* A definition in a few words: its dice, decks, tracks and ending. */
  function summary(d) {
    const parts = [];
    for (const dice of d.dice || []) {
      const named = Array.isArray(dice.faces) ? dice.faces : (dice.labels || []);
      const faces = named.length ? named.join("/") : `d${dice.faces}`;
      parts.push(`${dice.name}: ${dice.count} × ${faces}`);
    }
    for (const deck of d.decks || []) {
      const cards = Array.isArray(deck.cards) ? deck.cards.length
        : Object.values(deck.cards || {}).reduce((a, b) => a + b, 0);
      parts.push(`deck ${deck.name}: ${plural(cards, "card")}`);
    }
    for (const track of d.tracks || []) {
      const low = track.min !== undefined && track.min !== null;
      const high = track.max !== undefined && track.max !== null;
      const bounds = low && high ? ` ${track.min}–${track.max}` : low ? ` from ${track.min}` : high ? ` up to ${track.max}` : "";
      parts.push(`track ${track.name} (${track.per === "table" ? "the table's" : "each player's"}${bounds})`);
    }
    const ending = d.ending || {};
    const kind = ending.kind || "highest";
    const ends = { highest: "highest score wins", lowest: "lowest score wins", ranks: "ranks entered at the end",
                   cooperative: "everyone wins or loses together" }[kind] || kind;
    parts.push(ending.track ? `${ends} (${ending.track})` : ends);
    return parts.join("; ");
  }

  function definitionHow() {
    const checked = form.querySelector('input[name="definition-how"]:checked');
    return checked ? checked.value : "none";
  }

  /* The option's text for the choice made: "" for none. */
  function definitionText() {
    const how = definitionHow();
    if (how === "own") return $("definition-text").value.trim();
    if (how.startsWith("example:")) return JSON.stringify(setup.definitions[how.slice(8)]);
    return "";
  }

  function drawDefinitions() {
    const shown = hasDefinitions();
    $("definition").hidden = !shown;
    if (!shown) return;
    const before = definitionHow();
    const choice = (value, name, text) => el("label", { class: "choice definition-choice" },
      el("input", { type: "radio", name: "definition-how", value, checked: value === before }),
      el("span", {}, el("strong", { text: name }), el("span", { class: "help", text })));
    $("definition-choices").replaceChildren(
      choice("none", "None", "free dice (any NdM), one score each, highest wins"),
      ...Object.entries(setup.definitions).map(([name, d]) => choice(`example:${name}`, name, summary(d))),
      choice("own", "Your own", "paste a definition as JSON: the server checks it when the game is created"));
    if (!form.querySelector('input[name="definition-how"]:checked')) {
      form.querySelector('input[name="definition-how"][value="none"]').checked = true;
    }
    $("definition-own").hidden = definitionHow() !== "own";
  }

  // ---- choosing a ruleset ----------------------------------------------------------------

  async function chooseRuleset(id) {
    current = rulesets.find((r) => r.id === id);
    setup = null;
    $("form-error").hidden = true;
    const span = current.min_players === current.max_players
      ? `${current.min_players}` : `${current.min_players} to ${current.max_players}`;
    const traits = [current.hidden_information ? "hidden information" : "open information",
                    current.chance ? "chance" : "no chance"];
    $("ruleset-note").textContent = `${span} players; ${traits.join(", ")}.`;
    const names = playerNames().filter(Boolean);
    $("player-list").replaceChildren();
    const n = Math.min(current.max_players, Math.max(current.min_players, names.length));
    for (let i = 0; i < n; i += 1) addPlayer(names[i]);
    playersChanged();
    const rules = await json(`/rulesets/${encodeURIComponent(current.spec)}/rules`);
    sections = new Set(rules.ok ? rules.body.sections.map((s) => s.id) : []);
    if (current.id !== id) return;
    const list = $("option-list");
    list.replaceChildren();
    const sets = $("kingdom-sets");
    sets.replaceChildren();
    const about = $("about-options");
    about.replaceChildren();
    const titled = current.options.some((o) => o.name === "definition");
    for (const option of current.options) {
      if (option.name === "kingdom") continue;  // the picker below chooses it
      if (option.name === "definition" && titled) continue;  // so does the definition picker
      const row = optionRow(option);
      if (PICKER_OPTIONS.has(option.name) && current.id === "dominion") sets.append(row);
      else if (ABOUT_OPTIONS.has(option.name) && titled) about.append(row);
      else list.append(row);
    }
    $("about").hidden = !about.children.length;
    $("options").hidden = !list.children.length;
    await loadSetup();  // Dominion's kingdom choices; an empty answer for a ruleset without any
    document.body.dataset.ruleset = current.id;
  }

  // ---- creating the game and showing its links --------------------------------------------

  function tableLink(gameId, token) {
    return `${location.origin}/table/${gameId}#token=${token}`;
  }

  function qrSvg(text) {
    const code = qrcode(0, "M");  // the smallest version that holds the link
    code.addData(text);
    code.make();
    return code.createSvgTag({ cellSize: 4, margin: 8, scalable: true, alt: "QR code of the link", title: "QR code" });
  }

  function linkItem(gameId, who, role, token, seat) {
    const url = tableLink(gameId, token);
    const figure = el("div", { class: "qr" });
    figure.innerHTML = qrSvg(url);  // the library's own SVG markup (it escapes its text)
    const copy = el("button", { type: "button", class: "copy", text: "Copy link", "aria-label": `Copy ${who}'s link` });
    copy.addEventListener("click", async () => {
      try {
        await navigator.clipboard.writeText(url);
        copy.textContent = "Copied";
      } catch (e) {
        const range = document.createRange();  // no clipboard (plain http): select it instead
        range.selectNodeContents(link);
        getSelection().removeAllRanges();
        getSelection().addRange(range);
        copy.textContent = "Selected: copy it";
      }
    });
    const link = el("a", { class: "table-link", href: url, text: url });
    return el("li", { class: "link-item", dataset: seat ? { role, seat } : { role } },
      el("h3", { text: role === "seat" ? `${who} (${seat})` : "Recorder (the whole table)" }),
      figure,
      el("div", { class: "link-text" }, link),
      copy,
      el("p", { class: "muted key-note", text: role === "seat"
        ? `This link is ${who}'s key: only ${who} should open it.`
        : "This link is the recorder's key: it records for every seat." }));
  }

  function showCreated(created) {
    const list = $("link-list");
    list.replaceChildren();
    for (const [seat, token] of Object.entries(created.seat_tokens)) {
      list.append(linkItem(created.game_id, created.seats[seat], "seat", token, seat));
    }
    list.append(linkItem(created.game_id, "recorder", "recorder", created.recorder_token));
    $("replay-link").href = `/view/${created.game_id}`;
    $("replay-link").textContent = `/view/${created.game_id}`;
    document.body.dataset.gameId = created.game_id;
    form.hidden = true;
    $("created").hidden = false;
    $("created").scrollIntoView();
  }

  function checkForm() {
    const names = playerNames();
    if (names.some((name) => !name)) return "Give every player a name (or remove the empty seats).";
    if (new Set(names).size !== names.length) return "Two players have the same name: tell them apart.";
    if (setup && setup.kingdom && kingdomHow() === "chosen") {
      const n = chosenPiles().length;
      if (n !== setup.kingdom.size) return `Choose exactly ${setup.kingdom.size} kingdom piles (${n} chosen).`;
    }
    if (setup && setup.kingdom && kingdomHow() === "preset" && !$("preset").value) {
      return "These sets have no recommended kingdom: choose Random or Chosen cards.";
    }
    const title = form.querySelector('#about [data-option="title"]');
    if (title && !title.value.trim()) return "Give the game's title (Azul, Catan, ...).";
    if (hasDefinitions() && definitionHow() === "own") {
      const text = $("definition-text").value.trim();
      if (!text) return "Paste your definition, or choose None or an example.";
      try { JSON.parse(text); } catch (e) { return `Your definition is not JSON: ${e.message}`; }
    }
    return null;
  }

  async function create(event) {
    event.preventDefault();
    const error = $("form-error");
    error.hidden = true;
    const wrong = checkForm();
    if (wrong) {
      error.textContent = wrong;
      error.hidden = false;
      return;
    }
    const body = {
      ruleset: current.id,
      players: playerNames(),
      mode: form.querySelector('input[name="mode"]:checked').value,
      options: chosenOptions(),
    };
    $("create").disabled = true;
    try {
      const answer = await json("/games", {
        method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body),
      });
      if (!answer.ok) {
        showError(error, answer, "The game was not created. ");
        return;
      }
      const created = answer.body;
      if (body.options.kingdom === "manual") await recordKingdom(created);
      showCreated(created);
    } catch (e) {
      error.textContent = `The server could not be reached: ${e.message}`;
      error.hidden = false;
    } finally {
      $("create").disabled = false;
    }
  }

  /* A chosen kingdom reaches the game as the engine takes one under kingdom=manual: the
     recorder's first action names the piles (and any Events and Landmarks). */
  async function recordKingdom(created) {
    const action = { kind: "choose_kingdom", piles: chosenPiles() };
    const scapes = chosenLandscapes();
    if (scapes.length) action.landscapes = scapes;
    const answer = await json(`/games/${created.game_id}/actions`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${created.recorder_token}` },
      body: JSON.stringify({ action }),
    });
    if (!answer.ok) {
      showError($("created-note"), answer,
        "The game was created, but its kingdom was refused; the recorder can enter it at the table. ");
    }
  }

  async function start() {
    const answer = await json("/rulesets");
    if (!answer.ok) {
      showError($("form-error"), answer, "The games could not be listed. ");
      return;
    }
    rulesets = answer.body.rulesets;
    const select = $("ruleset");
    select.replaceChildren(...rulesets.map((r) => el("option", { value: r.id, text: r.title })));
    const wanted = new URLSearchParams(location.search).get("ruleset");
    const first = rulesets.some((r) => r.id === wanted) ? wanted : (rulesets.some((r) => r.id === "dominion") ? "dominion" : rulesets[0].id);
    select.value = first;
    select.addEventListener("change", () => chooseRuleset(select.value));
    $("add-player").addEventListener("click", () => { if (playerCount() < current.max_players) addPlayer(""); });
    $("remove-player").addEventListener("click", () => {
      if (playerCount() > current.min_players) $("player-list").lastChild.remove();
      playersChanged();
    });
    form.addEventListener("change", (event) => {
      const name = event.target.name;
      if (name === "expansions" || name === "base_edition") loadSetup();
      else if (name === "kingdom-how") drawKingdom();
      else if (event.target.id === "preset") drawPresetCards();
      else if (name === "pile") countChosen();
      else if (name === "definition-how") {
        $("definition-own").hidden = definitionHow() !== "own";
        $("form-error").hidden = true;  // what it said was of the choice before
      }
    });
    form.addEventListener("submit", create);
    $("another").addEventListener("click", () => {
      $("created").hidden = true;
      $("link-list").replaceChildren();  // the tokens leave the page
      $("created-note").hidden = true;
      form.hidden = false;
    });
    await chooseRuleset(first);
    document.body.dataset.ready = "1";
  }

  start();
})();
