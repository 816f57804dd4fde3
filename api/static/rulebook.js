// Chronicle's rules references as pages: the list at /rulebook, one reference at
// /rulebook/{reference}, read from GET /rules/{reference} and drawn from its markdown.
//
// The markdown is the small dialect the references are written in (store/references.py):
// headings, paragraphs, lists, tables, fenced code, quotes, `code`, **strong**, *emphasis* and
// [links](...). Every piece of the text becomes a text node: nothing of a reference is ever
// parsed as HTML, so a reference cannot put markup or script into the page.
"use strict";

const Rulebook = (() => {
  const HEADING = /^(#{1,4}) (.*)$/;
  const SECTION = /^(\S+) (.+)$/;  // a section heading's first word is its id ("3.2 Labour phase")
  const TABLE_RULE = /^\|?\s*:?-{2,}:?\s*(\|\s*:?-{2,}:?\s*)*\|?\s*$/;
  const BULLET = /^(\s*)([-*+]|\d+[.)]) +(.*)$/;

  const {el} = Dom;

  // A link may go to a page of this site, a fragment, or an http(s) address; anything else
  // (javascript:, data:) is shown as its text only.
  function safeHref(href) {
    if (/^(#|\/(?!\/))/.test(href)) return href;
    try {
      const url = new URL(href, location.href);
      return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
    } catch (error) {
      return null;
    }
  }

  // Inline marks, outermost first: `code` keeps its text as is, the others nest.
  const INLINE = [
    {re: /`([^`]+)`/, make: (m) => el("code", {text: m[1]})},
    {re: /\[([^\]]+)\]\(([^)\s]+)\)/, make: (m) => {
      const href = safeHref(m[2]);
      return href ? el("a", {href}, ...inline(m[1])) : document.createTextNode(m[1]);
    }},
    {re: /\*\*([^*]+)\*\*|__([^_]+)__/, make: (m) => el("strong", {}, ...inline(m[1] || m[2]))},
    {re: /\*([^*\s][^*]*)\*|(?<![\w])_([^_\s][^_]*)_(?![\w])/, make: (m) => el("em", {}, ...inline(m[1] || m[2]))},
  ];

  function inline(text) {
    let best = null;
    for (const rule of INLINE) {
      const match = rule.re.exec(text);
      if (match && (best === null || match.index < best.match.index)) best = {rule, match};
    }
    if (best === null) return text ? [document.createTextNode(text)] : [];
    const {rule, match} = best;
    return [
      ...(match.index ? [document.createTextNode(text.slice(0, match.index))] : []),
      rule.make(match),
      ...inline(text.slice(match.index + match[0].length)),
    ];
  }

  function cells(line) {
    return line.trim().replace(/^\|/, "").replace(/\|$/, "").split("|").map((cell) => cell.trim());
  }

  function table(lines) {
    const head = cells(lines[0]);
    const body = lines.slice(2).map(cells);
    const grid = el("table", {class: "grid"},
      el("thead", {}, el("tr", {}, ...head.map((c) => el("th", {scope: "col"}, ...inline(c))))),
      el("tbody", {}, ...body.map((row) => el("tr", {}, ...head.map((_, i) => el("td", {}, ...inline(row[i] || "")))))));
    // a wide table scrolls inside its own box (with a shadow at the edge that has more)
    return el("div", {class: "scroll", tabindex: "0", role: "region", "aria-label": `table: ${head.join(", ")}`}, grid);
  }

  // A list, nested by indentation: items indented deeper than the first belong to the item
  // before them.
  function list(lines) {
    const first = BULLET.exec(lines[0]);
    const ordered = /\d/.test(first[2]);
    const root = el(ordered ? "ol" : "ul");
    const indent = first[1].length;
    let item = null, inner = [];
    const flush = () => { if (item && inner.length) item.append(list(inner)); inner = []; };
    for (const line of lines) {
      const match = BULLET.exec(line);
      if (match && match[1].length <= indent) {
        flush();
        item = el("li", {}, ...inline(match[3]));
        root.append(item);
      } else if (match) {
        inner.push(line);
      } else if (inner.length) {
        inner[inner.length - 1] += ` ${line.trim()}`;
      } else if (item) {
        item.append(" ", ...inline(line.trim()));
      }
    }
    flush();
    return root;
  }

  // The reference's blocks, with each section heading opening a <section id="..."> that holds
  // its text and its subsections, as the API's sections do.
  function render(text, target) {
    const lines = text.split("\n");
    const stack = [{level: 1, node: target}];
    const contents = [];
    let title = null;
    const here = () => stack[stack.length - 1].node;
    let i = 0;
    while (i < lines.length) {
      const line = lines[i];
      if (!line.trim()) { i += 1; continue; }
      const heading = HEADING.exec(line);
      if (heading) {
        const level = heading[1].length;
        const words = heading[2].trim();
        i += 1;
        if (level === 1) { title = words; continue; }  // the page's own <h1>
        while (stack.length > 1 && stack[stack.length - 1].level >= level) stack.pop();
        const section = SECTION.exec(words);
        const node = el(`h${level}`, {}, ...inline(words));
        if (section) {
          const box = el("section", {id: section[1], class: `rule level${level}`});
          node.append(" ", el("a", {class: "anchor", href: `#${section[1]}`, "aria-label": `link to section ${section[1]}`, text: "§"}));
          box.append(node);
          here().append(box);
          stack.push({level, node: box});
          contents.push({id: section[1], title: words, level});
        } else {
          here().append(node);
        }
        continue;
      }
      if (line.startsWith("```")) {
        const code = [];
        for (i += 1; i < lines.length && !lines[i].startsWith("```"); i += 1) code.push(lines[i]);
        i += 1;
        here().append(el("pre", {class: "code"}, el("code", {text: code.join("\n")})));
        continue;
      }
      const block = [];
      const kind = line.trimStart().startsWith("|") && i + 1 < lines.length && TABLE_RULE.test(lines[i + 1]) ? "table"
        : BULLET.test(line) ? "list" : line.startsWith(">") ? "quote" : "paragraph";
      while (i < lines.length && lines[i].trim() && !HEADING.test(lines[i]) && !lines[i].startsWith("```")) {
        const next = lines[i];
        if (kind === "table" && !next.trimStart().startsWith("|")) break;
        if (kind === "paragraph" && (BULLET.test(next) || next.startsWith(">"))) break;
        if (kind === "quote" && !next.startsWith(">")) break;
        block.push(next);
        i += 1;
      }
      if (kind === "table") here().append(table(block));
      else if (kind === "list") here().append(list(block));
      else if (kind === "quote") here().append(el("blockquote", {}, el("p", {}, ...inline(block.map((l) => l.replace(/^> ?/, "")).join(" ")))));
      else here().append(el("p", {}, ...inline(block.join(" "))));
    }
    return {title, contents};
  }

  function contentsList(contents) {
    const nav = el("nav", {class: "contents", "aria-label": "contents"});
    const root = el("ol");
    const stack = [{level: 1, list: root}];
    for (const entry of contents) {
      while (stack.length > 1 && stack[stack.length - 1].level >= entry.level) stack.pop();
      const item = el("li", {}, el("a", {href: `#${entry.id}`, text: entry.title}));
      stack[stack.length - 1].list.append(item);
      const sub = el("ol");
      item.append(sub);
      stack.push({level: entry.level, list: sub});
    }
    for (const empty of root.querySelectorAll("ol:empty")) empty.remove();
    nav.append(root);
    const box = el("details", {class: "contents-box"}, el("summary", {text: `Contents (${contents.length} sections)`}), nav);
    // open beside the text on a wide screen; one tap away on a phone
    if (window.matchMedia("(min-width: 900px)").matches) box.open = true;
    return box;
  }

  function listPage(main, references) {
    main.replaceChildren(
      el("h1", {text: "Rules references"}),
      el("p", {class: "muted", text: "Every refusal names a section of one of these: \"province 3.2\" is section 3.2 of Province's."}),
      el("ul", {class: "references"}, ...references.map(([id, title]) =>
        el("li", {}, el("a", {class: "button", href: `/rulebook/${encodeURIComponent(id)}`, text: title}))))
    );
    document.title = "Chronicle: rules";
  }

  function missingPage(main, referenceId, references) {
    main.replaceChildren(
      el("h1", {text: "No such rules reference"}),
      el("p", {text: `There is no rules reference "${referenceId}". The references are: ${references.map(([id]) => id).join(", ")}.`}),
      el("p", {}, el("a", {class: "button", href: "/rulebook", text: "All rules references"})));
    document.title = "Chronicle: no such rules";
  }

  // After drawing, go to the section the address names: the browser looked for it before it
  // existed.
  function showSection() {
    const id = decodeURIComponent(location.hash.slice(1));
    const target = id && document.getElementById(id);
    if (target) target.scrollIntoView({block: "start"});
  }

  async function page(data) {
    const main = document.getElementById("rulebook");
    const references = JSON.parse(data.references || "[]");
    const referenceId = data.reference;
    if (!referenceId) listPage(main, references);
    else if (data.missing) missingPage(main, referenceId, references);
    else {
      try {
        const response = await fetch(`/rules/${encodeURIComponent(referenceId)}`, {headers: {accept: "application/json"}});
        const body = await response.json();
        if (!response.ok) throw new Error(body.detail || body.title || response.statusText);
        const article = el("article", {class: "rules"});
        const {title, contents} = render(body.text, article);
        const heading = el("h1", {text: title || body.title});
        main.replaceChildren(heading, contentsList(contents), article);
        main.classList.add("has-contents");
        document.title = `Chronicle: ${title || body.title}`;
        showSection();
      } catch (error) {
        main.replaceChildren(el("h1", {text: "The rules could not be read"}), el("p", {class: "error", text: error.message}));
      }
    }
    document.body.classList.add("ready");
  }

  return {page, render, inline};
})();
