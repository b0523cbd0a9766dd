// The teacher's class view: polls the class's data every second and draws the grid; the tools post actions.
(function () {
  "use strict";
  // The secret is in an HttpOnly cookie the server set when the teacher's link was opened; the address stays clean.
  // The page's words in the teacher's language (?lang=, else the browser's): the server put them in the page.
  const WORDS_IN = window.RULES_TUTOR_TEACHER_WORDS || {};
  const lang = document.documentElement.lang;
  function _(message, values) {
    const text = WORDS_IN[message] || message;
    return text.replace(/[{](\w+)[}]/g, (whole, name) => (values && name in values ? String(values[name]) : whole));
  }
  // The language the teacher chose on a lesson page or here (language.js keeps it in the browser) wins over the
  // browser's own; each language has its link at the top.
  const LANGUAGES = window.RULES_TUTOR_TEACHER_LANGUAGES || {}, CHOICE = "rules-tutor-language";
  const asked = new URLSearchParams(location.search).get("lang");
  let stored = null;
  try { stored = localStorage.getItem(CHOICE); } catch (e) { /* storage refused: the browser's language */ }
  if (!asked && stored && stored !== lang && Object.prototype.hasOwnProperty.call(LANGUAGES, stored)) {
    location.replace(location.pathname + "?lang=" + encodeURIComponent(stored));
    return;
  }
  if (location.search) history.replaceState(null, "", location.pathname + (asked ? "?lang=" + lang : ""));
  Object.keys(LANGUAGES).forEach(function (code, k) {
    const nav = document.getElementById("languages");
    if (k) nav.append(" · ");
    const item = document.createElement(code === lang ? "span" : "a");
    item.textContent = LANGUAGES[code];
    item.lang = code;
    if (code === lang) item.setAttribute("aria-current", "page");
    else {
      item.href = location.pathname + "?lang=" + encodeURIComponent(code);
      item.hreflang = code;
      item.addEventListener("click", function () { try { localStorage.setItem(CHOICE, code); } catch (e) { /* */ } });
    }
    nav.appendChild(item);
  });
  const base = location.pathname.replace(/\/teacher\/?$/, "/teacher");
  // The page's own token goes with every action (and the CSV): a page of another site cannot read it (CSRF).
  const pageToken = document.querySelector('meta[name="rules-tutor-page"]').content;
  const headers = {"Content-Type": "application/json", "X-Teacher-Page": pageToken};
  const $ = (id) => document.getElementById(id);
  const WORDS = {"not-yet": ["·", _("not yet")], "opened": ["○", _("opened")], "finished": ["✓", _("finished")],
                 "right-first": ["✓", _("right first time")], "right-after": ["✓", ""],
                 "wrong": ["✗", ""]};
  let data = null;
  $("csv").href = base + "/results.csv?page=" + encodeURIComponent(pageToken);

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function cell(column, value) {
    const [mark, words] = WORDS[value.state];
    const td = el("td", {class: value.state + (column.quiz === null ? " lesson" : "")});
    let text = column.quiz === null && value.state === "finished" ? "✓" : mark, title = words;
    if (value.state === "right-after") { text = "✓" + value.tries; title = _("right after {tries} tries", value); }
    if (value.state === "wrong") title = _("wrong so far (tries: {tries})", value);
    if (value.choice) title = _("{verdict} · first answer: {choice}", {verdict: title, choice: value.choice});
    if (value.no_board) {  // the page loaded, its board has not shown: the lesson may need a reload
      text += " " + _("no board");
      title = _("{verdict}, but the board has not shown on their screen", {verdict: title});
      td.classList.add("no-board");
    }
    title = _("{column}: {verdict}", {column: column.quiz === null ? column.title : column.label, verdict: title});
    td.textContent = text; td.title = title;
    td.appendChild(el("span", {class: "sr-only"}, " " + title));
    return td;
  }

  function ago(seconds) {
    seconds = Math.max(0, Math.round(seconds));
    if (seconds < 60) return seconds < 10 ? _("now") : _("{n} s ago", {n: seconds});
    return seconds < 3600 ? _("{n} min ago", {n: Math.floor(seconds / 60)}) : _("{n} h ago", {n: Math.floor(seconds / 3600)});
  }

  // Two header rows: each game's lessons under its name, then one narrow column per lesson and per question, its
  // title written upwards (the whole title in its tooltip), so that every lesson of a class fits a laptop's width.
  function drawGrid() {
    const table = $("grid"), columns = data.columns;
    $("empty").hidden = data.learners.length > 0;
    table.hidden = data.learners.length === 0;
    const head = el("thead"), groups = el("tr"), titles = el("tr");
    groups.appendChild(el("th", {rowspan: 2, class: "name", scope: "col"}, _("Learner")));
    groups.appendChild(el("th", {rowspan: 2, scope: "col", class: "seen"}, _("Last active")));
    columns.forEach(function (column, i) {
      if (i === 0 || columns[i - 1].group !== column.group) {
        const span = columns.filter((c) => c.group === column.group).length;
        groups.appendChild(el("th", {colspan: span, scope: "colgroup", class: "group"}, column.group || ""));
      }
      const lesson = column.quiz === null, text = lesson ? column.title : column.label;
      const th = el("th", {scope: "col", class: lesson ? "up lesson" : "up", title: text});
      th.appendChild(el("span", {}, text));
      titles.appendChild(th);
    });
    head.append(groups, titles);
    const body = el("tbody");
    data.learners.forEach(function (learner) {
      const row = el("tr");
      // Each learner's number beside the name: a typed name cannot pass for an unnamed learner or a classmate.
      const unnamed = learner.name === "Learner " + learner.number;  // the server's name for one who typed none
      const shown = unnamed ? _("Learner {number}", learner) : learner.number + " · " + learner.name;
      row.appendChild(el("th", {scope: "row", class: "name", title: shown}, shown));
      row.appendChild(el("td", {class: "seen"}, ago(data.now - learner.last_seen)));
      learner.cells.forEach((value, i) => row.appendChild(cell(columns[i], value)));
      body.appendChild(row);
    });
    const foot = el("tfoot"), share = el("tr");
    share.appendChild(el("th", {scope: "row", class: "name"}, _("Right first time, %")));
    share.appendChild(el("td", {class: "seen"}, ""));
    columns.forEach(function (column) {
      if (column.quiz === null) { share.appendChild(el("td", {class: "lesson"}, "")); return; }
      // The share of the learners who answered this question, not of the whole class.
      share.appendChild(el("td", {class: column.share < 50 ? "share share-low" : "share",
        title: _("{question}: {right} of the {answered} learners who answered were right first time",
                 {question: column.label, right: column.right_first, answered: column.answered})},
        String(column.share)));
    });
    foot.appendChild(share);
    table.replaceChildren(el("caption", {}, _("Learners by lesson and question")), head, body, foot);
  }

  function drawTools() {
    const settings = data["class"];
    $("anonymize").setAttribute("aria-pressed", String(settings.anonymized));
    $("pause").setAttribute("aria-pressed", String(settings.paused));
    $("pause").textContent = settings.paused ? _("Resume every screen") : _("Pause every screen");
    // The CSV has what the view shows: with names hidden, numbers; the link and a note say so.
    $("csv").textContent = settings.anonymized ? _("Download CSV (numbers, no names)") : _("Download CSV");
    $("csv-note").hidden = !settings.anonymized;
    const list = $("pace-list");
    if (!list.childElementCount) {
      data.lessons.forEach(function (lesson) {
        const row = el("div", {class: "pace-row"}), label = el("label");
        const box = el("input", {type: "checkbox", value: lesson.key});
        box.addEventListener("change", sendPace);
        label.append(box, " " + lesson.title + " ", el("small", {}, "(" + lesson.key + ")"));
        const only = el("button", {type: "button", class: "only",
                                   "aria-label": _("Only {lesson} open", {lesson: lesson.title})}, _("Only this lesson"));
        only.addEventListener("click", () => pace(data.lessons.map((l) => l.key).filter((key) => key !== lesson.key)));
        row.append(label, only);
        list.appendChild(row);
      });
    }
    list.querySelectorAll("input").forEach(function (box) {
      if (document.activeElement !== box) box.checked = !settings.closed.includes(box.value);
    });
  }

  function draw() {
    const settings = data["class"], started = new Date(settings.started * 1000);
    const parts = [_("Learners: {count}", {count: data.learners.length}),
                   _("class started {time}", {time: started.toLocaleString(lang)})];
    if (settings.paused) parts.push(_("screens paused"));
    parts.push(_("updated {time}", {time: new Date().toLocaleTimeString(lang)}));
    $("summary").textContent = parts.join(" · ");
    drawGrid(); drawTools();
  }

  async function refresh() {
    try {
      const reply = await fetch(base + "/data?lang=" + encodeURIComponent(lang), {headers: headers, cache: "no-store"});
      if (reply.ok) { data = await reply.json(); draw(); }
      else $("summary").textContent = reply.status === 403 ? _("This view needs the teacher's link: open it from " +
        "the link rules-tutor serve printed (each link works once; it prints a new one on request).")
        : _("The server answered {status}.", {status: reply.status});
    } catch (e) { $("summary").textContent = _("The server cannot be reached; trying again …"); }
  }

  async function act(body) {
    const reply = await fetch(base + "/action", {method: "POST", headers: headers, body: JSON.stringify(body)});
    if (reply.ok) await refresh();
  }

  function pace(closed) {
    $("pace-list").querySelectorAll("input").forEach(function (box) { box.checked = !closed.includes(box.value); });
    act({action: "pace", closed: closed});
  }

  function sendPace() {
    pace(Array.from($("pace-list").querySelectorAll("input")).filter((box) => !box.checked).map((box) => box.value));
  }

  $("anonymize").addEventListener("click", () => act({action: "anonymize", on: !data["class"].anonymized}));
  $("pause").addEventListener("click", () => act({action: "pause", on: !data["class"].paused}));
  $("pace-toggle").addEventListener("click", function () {
    const open = $("pace").hidden;
    $("pace").hidden = !open; this.setAttribute("aria-expanded", String(open));
  });
  $("open-all").addEventListener("click", () => pace([]));
  $("close-all").addEventListener("click", () => pace(data.lessons.map((lesson) => lesson.key)));
  $("print").addEventListener("click", () => window.print());
  $("new-class").addEventListener("click", function () {
    if (confirm(_("Start a new class? The current class is archived and its learners join again."))) {
      act({action: "new-class"});
    }
  });
  window.rulesTutorTeacher = {refresh: refresh};  // for benchmarks/bench_classroom.py
  refresh();
  setInterval(refresh, 1000);
})();
