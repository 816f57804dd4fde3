// Disputes in the browser: on the replay page a panel lists the game's disputes and opens a new
// one over a range chosen in the move list; a dispute's own page (/dispute/{id}) shows its
// claim, the engine's verdict with each finding's rule linked to the rulebook, the rulings
// (with a box to rule, for whoever may) and the evidence bundle as a file to download.
// Everything is read through the API with the token the "View as" box holds (the replay page
// keeps it in sessionStorage, never in a URL), so each reader sees the dispute redacted for it.
"use strict";

const Disputes = (() => {
  const TOKEN_KEY = "chronicle-token";  // the replay page's "View as" token (viewer.js)
  const {el} = Dom;
  const $ = (id) => document.getElementById(id);

  function token() { return sessionStorage.getItem(TOKEN_KEY) || ""; }

  async function call(method, path, body) {
    const headers = {accept: "application/json"};
    const held = token();
    if (held) headers.authorization = `Bearer ${held}`;
    if (body !== undefined) headers["content-type"] = "application/json";
    const response = await fetch(path, {method, headers, body: body === undefined ? undefined : JSON.stringify(body)});
    const answer = await response.json().catch(() => ({}));
    if (!response.ok) throw new Error(answer.detail || answer.title || response.statusText);
    return answer;
  }

  // A rule reads "province 3.2" (a reference and a section): it links to that section of the
  // rulebook page; a rule without a section links to the reference's page.
  function ruleLink(rule) {
    const [reference, ...rest] = rule.trim().split(/\s+/);
    const section = rest.join(" ");
    const href = `/rulebook/${encodeURIComponent(reference)}${section ? `#${encodeURIComponent(section)}` : ""}`;
    return el("a", {href, class: "rule", text: rule});
  }

  function when(iso) { return iso ? new Date(iso).toLocaleString() : ""; }

  function range(d) { return d.first === d.last ? `version ${d.first}` : `versions ${d.first}–${d.last}`; }

  // ---- the replay page's panel --------------------------------------------------------------

  // The panel goes under the move list. Choosing a range: "Select range" then a tap on the
  // first and one on the last move (in either order); the two boxes show it and take typing.
  function replayPanel(gameId) {
    const moves = $("moves");
    const panel = el("section", {id: "disputes", class: "disputes", "aria-label": "disputes"},
      el("h2", {text: "Disputes"}),
      el("ol", {id: "dispute-list", class: "dispute-list"}),
      el("p", {id: "dispute-none", class: "muted", text: "No dispute about this game yet."}),
      el("details", {id: "dispute-new", class: "dispute-new"},
        el("summary", {text: "Dispute a range of moves"}),
        el("form", {id: "dispute-form", "aria-label": "open a dispute"},
          el("p", {class: "muted", text: "Tap “Select range”, then the first and the last move in the list, or type the versions. Opening one needs a seat's or the recorder's token in “View as”."}),
          el("div", {class: "dispute-range"},
            el("button", {id: "dispute-pick", type: "button", "aria-pressed": "false", text: "Select range"}),
            el("label", {}, "from ", el("input", {id: "dispute-from", type: "number", min: "1", inputmode: "numeric", required: ""})),
            el("label", {}, "to ", el("input", {id: "dispute-to", type: "number", min: "1", inputmode: "numeric", required: ""}))),
          el("label", {class: "dispute-claim"}, el("span", {text: "Claim"}),
            el("textarea", {id: "dispute-claim", rows: "3", maxlength: "2000", required: "", placeholder: "what you say went wrong"})),
          el("button", {id: "dispute-open", type: "submit", text: "Open dispute"}),
          el("p", {id: "dispute-problem", class: "error", role: "alert", hidden: ""}))));
    moves.after(panel);

    let picking = false, anchor = null;
    function setPicking(on) {
      picking = on;
      anchor = null;
      $("dispute-pick").setAttribute("aria-pressed", String(on));
      $("dispute-pick").textContent = on ? "Tap the first move…" : "Select range";
      moves.classList.toggle("picking", on);
    }
    // the range the boxes hold, marked in the move list
    function markRange() {
      const from = parseInt($("dispute-from").value, 10), to = parseInt($("dispute-to").value, 10);
      for (const item of moves.querySelectorAll("li[data-version]")) {
        const v = parseInt(item.dataset.version, 10);
        item.classList.toggle("in-range", from > 0 && to >= from && v >= from && v <= to);
      }
    }
    $("dispute-pick").onclick = () => setPicking(!picking);
    // on the list itself, so it holds after the list is drawn again (a new token); the tap
    // also shows that move, as any tap on the list does
    moves.addEventListener("click", (event) => {
      const item = event.target.closest("li[data-version]");
      if (!picking || !item) return;
      const v = parseInt(item.dataset.version, 10);
      if (anchor === null) {
        anchor = v;
        $("dispute-from").value = $("dispute-to").value = String(v);
        $("dispute-pick").textContent = "Tap the last move…";
      } else {
        $("dispute-from").value = String(Math.min(anchor, v));
        $("dispute-to").value = String(Math.max(anchor, v));
        setPicking(false);
      }
      markRange();
    });
    $("dispute-from").oninput = markRange;
    $("dispute-to").oninput = markRange;
    $("dispute-form").onsubmit = async (event) => {
      event.preventDefault();
      const problem = $("dispute-problem");
      problem.hidden = true;
      try {
        const opened = await call("POST", `/games/${gameId}/disputes`, {
          from: parseInt($("dispute-from").value, 10), to: parseInt($("dispute-to").value, 10), claim: $("dispute-claim").value});
        location.assign(`/dispute/${opened.dispute_id}`);
      } catch (error) {
        problem.textContent = error.message;
        problem.hidden = false;
      }
    };

    async function load() {
      let listed = [];
      try {
        listed = await call("GET", `/games/${gameId}/disputes`);
      } catch (error) {
        listed = [];
      }
      $("dispute-list").replaceChildren(...listed.map((d) => el("li", {"data-dispute": d.dispute_id},
        el("a", {href: `/dispute/${d.dispute_id}`, text: `${range(d)}: ${d.claim}`}), " ",
        el("span", {class: `pill ${d.verdict.holds ? "holds" : "fails"}`, text: d.verdict.holds ? "holds" : "does not hold"}),
        d.rulings.length ? el("span", {class: "muted", text: ` · ruled: ${d.rulings[d.rulings.length - 1].text}`}) : "")));
      $("dispute-none").hidden = listed.length > 0;
      document.body.dataset.disputes = String(listed.length);
    }
    // a new token in "View as" may read the game differently: read its disputes again
    $("as").addEventListener("submit", () => { $("dispute-problem").hidden = true; setTimeout(load, 0); });
    load();
  }

  // ---- a dispute's own page -----------------------------------------------------------------

  function findingItem(f) {
    const cls = f.verdict === "legal" ? "legal" : "illegal";
    return el("li", {class: `finding ${cls}`, "data-version": String(f.version)},
      el("div", {class: "finding-head"},
        el("span", {class: "v", text: `v${f.version}`}), " ",
        el("span", {class: `pill ${cls}`, text: f.verdict}), " ",
        f.rule ? ruleLink(f.rule) : ""),
      el("div", {class: "finding-action", text: f.action}),
      f.code && f.verdict !== "legal" ? el("div", {class: "muted", text: `code: ${f.code}`}) : "",
      f.detail ? el("div", {class: "muted", text: f.detail}) : "");
  }

  function drawDispute(d, onRule, onBundle) {
    const v = d.verdict;
    const parts = [
      el("p", {class: "claim-of"}, `${d.opened_by} disputes ${range(d)} of `,
        el("a", {href: `/view/${d.game_id}?at=${d.first}`, text: `game ${d.game_id.slice(0, 8)}`}),
        el("span", {class: "muted", text: ` (opened ${when(d.opened_at)}, at version ${d.game_version})`})),
      el("blockquote", {id: "claim", class: "claim", text: d.claim}),
      el("h2", {text: "Verdict"}),
      el("p", {id: "verdict", class: `verdict ${v.holds ? "holds" : "fails"}`, "data-holds": String(v.holds)},
        el("strong", {text: v.holds ? "Holds. " : "Does not hold. "}), v.summary || ""),
    ];
    if (v.stopped) {
      const s = v.stopped;
      parts.push(el("p", {class: "stopped"}, `Stopped at version ${s.version}: ${s.code}${s.what ? ` (${s.what})` : ""}; rule `,
        s.rule ? ruleLink(s.rule) : "–"));
    }
    parts.push(el("ol", {id: "findings", class: "findings", "aria-label": "findings, action by action"}, ...v.findings.map(findingItem)));
    if (!v.findings.length) parts.push(el("p", {class: "muted", text: "No action in the range."}));

    parts.push(el("h2", {text: "Rulings"}));
    const rulings = d.rulings.map((r, i) => el("li", {class: i === d.rulings.length - 1 ? "ruling standing" : "ruling"},
      el("div", {class: "ruling-text", text: r.text}),
      el("div", {class: "muted", text: `${r.by}, ${when(r.at)}${r.store ? `, in ${r.store}` : ""}${r.imported_at ? `, imported ${when(r.imported_at)}` : ""}${i === d.rulings.length - 1 && d.rulings.length > 1 ? " · stands" : ""}`})));
    parts.push(rulings.length ? el("ol", {id: "rulings", class: "rulings"}, ...rulings)
      : el("p", {id: "rulings-none", class: "muted", text: "No ruling yet."}));
    const form = el("form", {id: "rule-form", class: "rule-form", "aria-label": "record a ruling"},
      el("label", {}, el("span", {text: "Ruling (the recorder's or an administrator's)"}),
        el("textarea", {id: "ruling", rows: "2", maxlength: "2000", required: ""})),
      el("button", {id: "rule", type: "submit", text: "Record ruling"}),
      el("p", {id: "rule-problem", class: "error", role: "alert", hidden: ""}));
    form.onsubmit = (event) => { event.preventDefault(); onRule($("ruling").value); };
    parts.push(form);

    parts.push(el("h2", {text: "Evidence"}),
      el("p", {class: "muted"}, "The bundle holds the game's events as you may see them, the hash chain and the verdict; ",
        el("code", {text: "chronicle verify FILE"}), " checks it offline."),
      el("button", {id: "bundle", type: "button", text: "Download evidence bundle"}),
      el("p", {id: "bundle-problem", class: "error", role: "alert", hidden: ""}));
    $("dispute").replaceChildren(...parts);
    $("bundle").onclick = onBundle;
  }

  async function disputePage(disputeId) {
    $("token").value = token();
    const fileName = `dispute-${disputeId.slice(0, 8)}-bundle.json`;

    function problem(id, error) {
      $(id).textContent = error ? error.message : "";
      $(id).hidden = !error;
    }

    async function load() {
      try {
        const d = await call("GET", `/disputes/${disputeId}`);
        problem("problem", null);
        $("viewer").textContent = `seen as ${d.view}`;
        $("title").textContent = `Dispute ${disputeId.slice(0, 8)}`;
        document.title = `Chronicle: dispute ${disputeId.slice(0, 8)}`;
        drawDispute(d, rule, download);
        document.body.dataset.rulings = String(d.rulings.length);
      } catch (error) {
        problem("problem", error);
      }
    }

    async function rule(text) {
      try {
        await call("POST", `/disputes/${disputeId}/rulings`, {text});
        await load();
      } catch (error) {
        problem("rule-problem", error);
      }
    }

    // The bundle is read with the token in a header (never in a link), then handed to the
    // browser as a file with a name: a link to a blob, clicked once and let go.
    async function download() {
      try {
        const headers = {};
        if (token()) headers.authorization = `Bearer ${token()}`;
        const response = await fetch(`/disputes/${disputeId}/bundle`, {headers});
        if (!response.ok) {
          const answer = await response.json().catch(() => ({}));
          throw new Error(answer.detail || answer.title || response.statusText);
        }
        const url = URL.createObjectURL(await response.blob());
        const link = el("a", {href: url, download: fileName, hidden: ""});
        document.body.append(link);
        link.click();
        link.remove();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
        problem("bundle-problem", null);
      } catch (error) {
        problem("bundle-problem", error);
      }
    }

    $("as").onsubmit = async (event) => {
      event.preventDefault();
      sessionStorage.setItem(TOKEN_KEY, $("token").value.trim());
      await load();
    };
    await load();
    document.body.classList.add("ready");
  }

  return {replayPanel, disputePage, ruleLink};
})();
