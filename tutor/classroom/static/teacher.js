// The teacher's class view: polls the class's data every second and draws the grid; the tools post actions.
(function () {
  "use strict";
  // The secret is in an HttpOnly cookie the server set when the teacher's link was opened; the address stays clean.
  if (location.search) history.replaceState(null, "", location.pathname);
  const base = location.pathname.replace(/\/teacher\/?$/, "/teacher");
  // The page's own token goes with every action (and the CSV): a page of another site cannot read it (CSRF).
  const pageToken = document.querySelector('meta[name="rules-tutor-page"]').content;
  const headers = {"Content-Type": "application/json", "X-Teacher-Page": pageToken};
  const $ = (id) => document.getElementById(id);
  const WORDS = {"not-yet": ["·", "not yet"], "opened": ["○", "opened"], "finished": ["✓ done", "finished"],
                 "right-first": ["✓", "right first time"], "right-after": ["✓", "right after"],
                 "wrong": ["✗", "wrong so far"]};
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
    if (value.state === "right-after") { text = "✓" + value.tries; title = "right after " + value.tries + " tries"; }
    if (value.state === "wrong") title = "wrong so far (" + value.tries + (value.tries > 1 ? " tries)" : " try)");
    if (value.choice) title += " · first answer: " + value.choice;
    if (value.no_board) {  // the page loaded, its board has not shown: the lesson may need a reload
      text += " no board"; title += ", but the board has not shown on their screen";
      td.classList.add("no-board");
    }
    title = (column.quiz === null ? column.title : column.label) + ": " + title;
    td.textContent = text; td.title = title;
    td.appendChild(el("span", {class: "sr-only"}, " " + title));
    return td;
  }

  function ago(seconds) {
    seconds = Math.max(0, Math.round(seconds));
    if (seconds < 60) return seconds < 10 ? "now" : seconds + " s ago";
    return seconds < 3600 ? Math.floor(seconds / 60) + " min ago" : Math.floor(seconds / 3600) + " h ago";
  }

  // Two header rows: each game's lessons under its name, then one narrow column per lesson and per question, its
  // title written upwards (the whole title in its tooltip), so that every lesson of a class fits a laptop's width.
  function drawGrid() {
    const table = $("grid"), columns = data.columns;
    $("empty").hidden = data.learners.length > 0;
    table.hidden = data.learners.length === 0;
    const head = el("thead"), groups = el("tr"), titles = el("tr");
    groups.appendChild(el("th", {rowspan: 2, class: "name", scope: "col"}, "Learner"));
    groups.appendChild(el("th", {rowspan: 2, scope: "col", class: "seen"}, "Last active"));
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
      const shown = learner.name === "Learner " + learner.number ? learner.name : learner.number + " · " + learner.name;
      row.appendChild(el("th", {scope: "row", class: "name", title: shown}, shown));
      row.appendChild(el("td", {class: "seen"}, ago(data.now - learner.last_seen)));
      learner.cells.forEach((value, i) => row.appendChild(cell(columns[i], value)));
      body.appendChild(row);
    });
    const foot = el("tfoot"), share = el("tr");
    share.appendChild(el("th", {scope: "row", class: "name"}, "Right first time, %"));
    share.appendChild(el("td", {class: "seen"}, ""));
    columns.forEach(function (column) {
      if (column.quiz === null) { share.appendChild(el("td", {class: "lesson"}, "")); return; }
      // The share of the learners who answered this question, not of the whole class.
      share.appendChild(el("td", {class: column.share < 50 ? "share share-low" : "share",
        title: column.label + ": " + column.right_first + " of the " + column.answered + " learners who answered " +
          "were right first time"}, String(column.share)));
    });
    foot.appendChild(share);
    table.replaceChildren(el("caption", {}, "Learners by lesson and question"), head, body, foot);
  }

  function drawTools() {
    const settings = data["class"];
    $("anonymize").setAttribute("aria-pressed", String(settings.anonymized));
    $("pause").setAttribute("aria-pressed", String(settings.paused));
    $("pause").textContent = settings.paused ? "Resume every screen" : "Pause every screen";
    // The CSV has what the view shows: with names hidden, numbers; the link and a note say so.
    $("csv").textContent = settings.anonymized ? "Download CSV (numbers, no names)" : "Download CSV";
    $("csv-note").hidden = !settings.anonymized;
    const list = $("pace-list");
    if (!list.childElementCount) {
      data.lessons.forEach(function (lesson) {
        const row = el("div", {class: "pace-row"}), label = el("label");
        const box = el("input", {type: "checkbox", value: lesson.key});
        box.addEventListener("change", sendPace);
        label.append(box, " " + lesson.title + " ", el("small", {}, "(" + lesson.key + ")"));
        const only = el("button", {type: "button", class: "only", "aria-label": "Only " + lesson.title + " open"},
                        "Only this lesson");
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
    $("summary").textContent = data.learners.length + " learner" + (data.learners.length === 1 ? "" : "s") +
      " · class started " + started.toLocaleString() + (settings.paused ? " · screens paused" : "") +
      " · updated " + new Date().toLocaleTimeString();
    drawGrid(); drawTools();
  }

  async function refresh() {
    try {
      const reply = await fetch(base + "/data", {headers: headers, cache: "no-store"});
      if (reply.ok) { data = await reply.json(); draw(); }
      else $("summary").textContent = reply.status === 403 ? "This view needs the teacher's link: open it from " +
        "the link rules-tutor serve printed (each link works once; it prints a new one on request)." : "The server answered " + reply.status + ".";
    } catch (e) { $("summary").textContent = "The server cannot be reached; trying again …"; }
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
    if (confirm("Start a new class? The current class is archived and its learners join again.")) {
      act({action: "new-class"});
    }
  });
  window.rulesTutorTeacher = {refresh: refresh};  // for benchmarks/bench_classroom.py
  refresh();
  setInterval(refresh, 1000);
})();
