// A player's page (/player/{name}): the record per ruleset (or one across rulesets), the rating
// after each game as a line chart, and the games, each linking to its replay. Plain script, no
// build step; it reads GET /players/{name}, which counts games as the statistics do.
"use strict";

const PlayerPage = (() => {
  const COLOURS = ["#2e7d32", "#c62828", "#1565c0", "#ef6c00", "#6a1b9a", "#00838f"];
  const $ = (id) => document.getElementById(id);

  const {el} = Dom;

  function playerHref(name) { return `/player/${encodeURIComponent(name)}`; }

  function day(iso) { return (iso || "").slice(0, 16).replace("T", " "); }

  function ordinalSuffix(n) {
    const tens = n % 100;
    if (tens >= 11 && tens <= 13) return `${n}th`;
    return `${n}${{1: "st", 2: "nd", 3: "rd"}[n % 10] || "th"}`;
  }

  function percent(part, whole) { return whole ? `${Math.round((100 * part) / whole)}%` : "–"; }

  // One card per record: the counts, the placings, the streaks and the rating now.
  function card(record) {
    const last = record.ratings[record.ratings.length - 1];
    const placings = Object.entries(record.placings).map(([place, n]) => `${ordinalSuffix(Number(place))} ×${n}`).join(", ");
    const facts = [
      ["played", String(record.played)],
      ["won", `${record.won} of ${record.finished} finished (${percent(record.won, record.finished)})`],
      ["placings", placings || "–"],
      ["win streak", `${record.current_streak} now, ${record.longest_streak} at best`],
      ["abandoned", String(record.abandoned)],
      ["running", String(record.running)],
      ["rating", last ? `${last.ordinal.toFixed(2)} (μ ${last.mu.toFixed(2)}, σ ${last.sigma.toFixed(2)}, ${last.games} rated)` : "not rated yet"],
    ];
    const list = el("dl", {class: "facts"});
    for (const [term, value] of facts) list.append(el("dt", {text: term}), el("dd", {"data-fact": term, text: value}));
    const title = record.ruleset === "*" ? "every game" : record.ruleset;
    const spelled = record.player.toLowerCase() === document.body.dataset.player.toLowerCase() ? "" : ` (as ${record.player})`;
    return el("article", {class: "record", "data-key": record.key}, el("h3", {text: `${title}${spelled}`}), list);
  }

  function ratingChart(records) {
    const canvas = $("rating-chart");
    const old = typeof Chart !== "undefined" && Chart.getChart(canvas);
    if (old) old.destroy();
    const rated = records.filter((r) => r.ratings.length);
    const note = $("rating").querySelector(".note");
    document.body.dataset.rated = String(rated.length);
    if (typeof Chart === "undefined" || !rated.length) {
      canvas.parentElement.hidden = true;
      note.textContent = rated.length ? "The chart library did not load." : "No rated game yet: a rating needs a finished game against others.";
      return;
    }
    canvas.parentElement.hidden = false;
    Chart.defaults.animation = false;
    Chart.defaults.maintainAspectRatio = false;
    Chart.defaults.font.family = getComputedStyle(document.body).fontFamily;
    Chart.defaults.color = "#1d232a";
    const datasets = [];
    rated.forEach((record, i) => {
      const colour = COLOURS[i % COLOURS.length];
      const label = record.ruleset === "*" ? record.player : record.key;
      const points = record.ratings.map((r, n) => ({x: n + 1, y: r.ordinal, rating: r}));
      datasets.push({label: `${label} μ − 3σ`, data: points, borderColor: colour, backgroundColor: colour,
        pointRadius: points.length > 40 ? 0 : 3, borderWidth: 2, tension: 0});
      datasets.push({label: `${label} μ`, data: record.ratings.map((r, n) => ({x: n + 1, y: r.mu, rating: r})),
        borderColor: colour, backgroundColor: colour, borderDash: [5, 4], pointRadius: points.length > 40 ? 0 : 2, borderWidth: 1.5, tension: 0});
    });
    const most = Math.max(...rated.map((r) => r.ratings.length));
    new Chart(canvas, {
      type: "line",
      data: {datasets},
      options: {
        parsing: false,
        interaction: {mode: "nearest", axis: "x", intersect: false},
        scales: {
          // a game's width of room at each end, so the first and last points stand clear
          x: {type: "linear", min: 0, max: most + 1, title: {display: true, text: "rated games"},
            ticks: {precision: 0, callback: (v) => (v >= 1 && v <= most ? v : "")}},
          y: {title: {display: true, text: "rating"}},
        },
        plugins: {
          legend: {position: "bottom", labels: {boxWidth: 12}},
          tooltip: {filter: (item) => item.dataset.label.endsWith("μ − 3σ"), callbacks: {label: (c) => {
            const r = c.raw.rating;
            return `${c.dataset.label.replace(" μ − 3σ", "")}: ${r.ordinal.toFixed(2)} (μ ${r.mu.toFixed(2)}, σ ${r.sigma.toFixed(2)}) after ${day(r.date)}`;
          }}},
        },
      },
    });
    note.textContent = "openskill (Plackett-Luce), as the statistics rate: after each rated game, the solid line is " +
      "the rating the tables rank by (μ − 3σ), the dashed one the skill estimate μ; they close in as σ shrinks.";
  }

  function gameRow(game, me) {
    const players = el("td", {"data-label": "players"});
    game.players.forEach((name, i) => {
      if (i) players.append(", ");
      players.append(name.toLowerCase() === me ? el("strong", {text: name}) : el("a", {href: playerHref(name), class: "player-link", text: name}));
    });
    return el("tr", {"data-game": game.game_id, class: game.result},
      el("td", {}, el("a", {href: `/view/${game.game_id}`, text: `${game.title || game.ruleset} ${game.game_id.slice(0, 8)}`})),
      el("td", {"data-label": "result", text: game.result}),
      el("td", {"data-label": "place", text: game.place ? ordinalSuffix(game.place) : "–"}),
      players,
      el("td", {"data-label": "date", text: day(game.date)}));
  }

  async function load(name) {
    const form = $("options");
    const query = new URLSearchParams();
    for (const [key, value] of new FormData(form)) if (value) query.set(key, value);
    history.replaceState(null, "", query.toString() ? `?${query}` : location.pathname);
    document.body.classList.remove("ready");
    const summary = $("summary");
    try {
      const response = await fetch(`/players/${encodeURIComponent(name)}?${query}`, {headers: {accept: "application/json"}});
      const body = await response.json();
      if (!response.ok) throw new Error(body.detail || body.title || response.statusText);
      const records = body.records;
      const played = records.reduce((n, r) => n + r.played, 0);
      summary.textContent = `${played} game${played === 1 ? "" : "s"}` +
        `${body.caught_up ? "" : " (the statistics are still counting the latest)"}.`;
      summary.classList.remove("error");
      $("records").replaceChildren(...records.map(card));
      ratingChart(records);
      const me = name.toLowerCase();
      const games = records.flatMap((r) => r.games).sort((a, b) => (a.date < b.date ? 1 : a.date > b.date ? -1 : 0));
      document.querySelector("#player-games tbody").replaceChildren(...games.map((g) => gameRow(g, me)));
    } catch (error) {
      summary.textContent = error.message;
      summary.classList.add("error");
      $("records").replaceChildren();
      document.querySelector("#player-games tbody").replaceChildren();
      ratingChart([]);
    }
    document.body.classList.add("ready");
  }

  function start(name) {
    const form = $("options");
    const params = new URLSearchParams(location.search);
    for (const [key, value] of params) {
      const field = form.elements[key];
      if (field && field.type === "checkbox") field.checked = value === field.value;
      else if (field) field.value = value;
    }
    form.addEventListener("submit", (event) => { event.preventDefault(); load(name); });
    return load(name);
  }

  return {start};
})();
