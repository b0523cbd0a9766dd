// The teacher's class view: polls the class's data every second and draws the grid; the tools post actions.
(function () {
  "use strict";
  // The secret is in an HttpOnly cookie the server set when the teacher's link was opened; the address stays clean.
  if (location.search) history.replaceState(null, "", location.pathname);
  const base = location.pathname.replace(/\/teacher\/?$/, "/teacher");
  const headers = {"Content-Type": "application/json"};
  const $ = (id) => document.getElementById(id);
  const WORDS = {"not-yet": ["·", "not yet"], "opened": ["○", "opened"], "finished": ["✓ done", "finished"],
                 "right-first": ["✓", "right first time"], "right-after": ["✓", "right after"],
                 "wrong": ["✗", "wrong so far"]};
  let data = null;
  $("csv").href = base + "/results.csv";

  function el(tag, attrs, text) {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {})) node.setAttribute(name, value);
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function cell(column, value) {
    const [mark, words] = WORDS[value.state];
    const td = el("td", {class: value.state});
    let text = mark, title = words;
    if (value.state === "right-after") { text = "✓ " + value.tries; title = "right after " + value.tries + " tries"; }
    if (value.state === "wrong") title = "wrong so far (" + value.tries + (value.tries > 1 ? " tries)" : " try)");
    if (value.choice) title += " · first answer: " + value.choice;
    if (value.no_board) {  // the page loaded, its board has not shown: the lesson may need a reload
      text += " no board"; title += ", but the board has not shown on their screen";
      td.classList.add("no-board");
    }
    td.textContent = text; td.title = title;
    td.appendChild(el("span", {class: "sr-only", style: "position:absolute;left:-9999px"}, " " + title));
    return td;
  }

  function ago(seconds) {
    seconds = Math.max(0, Math.round(seconds));
    if (seconds < 60) return seconds < 10 ? "now" : seconds + " s ago";
    return seconds < 3600 ? Math.floor(seconds / 60) + " min ago" : Math.floor(seconds / 3600) + " h ago";
  }

  function drawGrid() {
    const table = $("grid"), columns = data.columns;
    $("empty").hidden = data.learners.length > 0;
    table.hidden = data.learners.length === 0;
    const head = el("thead"), lessons = el("tr"), quizzes = el("tr");
    lessons.appendChild(el("th", {rowspan: 2, class: "name", scope: "col"}, "Learner"));
    lessons.appendChild(el("th", {rowspan: 2, scope: "col"}, "Last active"));
    columns.forEach(function (column, i) {
      if (column.quiz === null) {
        const span = columns.filter((c) => c.lesson === column.lesson).length;
        lessons.appendChild(el("th", {colspan: span, scope: "colgroup"}, column.title));
        quizzes.appendChild(el("th", {scope: "col"}, "Lesson"));
      } else quizzes.appendChild(el("th", {scope: "col"}, column.label));
    });
    head.append(lessons, quizzes);
    const body = el("tbody");
    data.learners.forEach(function (learner) {
      const row = el("tr");
      row.appendChild(el("th", {scope: "row", class: "name"}, learner.name));
      row.appendChild(el("td", {class: "seen"}, ago(data.now - learner.last_seen)));
      learner.cells.forEach((value, i) => row.appendChild(cell(columns[i], value)));
      body.appendChild(row);
    });
    const foot = el("tfoot"), share = el("tr");
    share.appendChild(el("th", {scope: "row", class: "name"}, "Right first time"));
    share.appendChild(el("td", {}, ""));
    columns.forEach(function (column) {
      if (column.quiz === null) { share.appendChild(el("td", {}, "")); return; }
      const all = data.learners.length, pct = all ? Math.round(100 * column.right_first / all) : 0;
      share.appendChild(el("td", {class: pct < 50 ? "share-low" : "", title: column.right_first + " of " + all +
        " learners right first time (" + column.answered + " answered)"}, pct + "%"));
    });
    foot.appendChild(share);
    table.replaceChildren(el("caption", {}, "Learners by lesson and quiz"), head, body, foot);
  }

  function drawTools() {
    const settings = data["class"];
    $("anonymize").setAttribute("aria-pressed", String(settings.anonymized));
    $("pause").setAttribute("aria-pressed", String(settings.paused));
    $("pause").textContent = settings.paused ? "Resume every screen" : "Pause every screen";
    const list = $("pace-list");
    if (!list.childElementCount) {
      data.lessons.forEach(function (lesson) {
        const label = el("label"), box = el("input", {type: "checkbox", value: lesson.key});
        box.addEventListener("change", sendPace);
        label.append(box, " " + lesson.title + " ", el("small", {}, "(" + lesson.key + ")"));
        list.appendChild(label);
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
      else $("summary").textContent = reply.status === 403 ? "This view needs the link rules-tutor serve " +
        "printed when it started (a new start prints a new link)." : "The server answered " + reply.status + ".";
    } catch (e) { $("summary").textContent = "The server cannot be reached; trying again …"; }
  }

  async function act(body) {
    const reply = await fetch(base + "/action", {method: "POST", headers: headers, body: JSON.stringify(body)});
    if (reply.ok) await refresh();
  }

  function sendPace() {
    const closed = Array.from($("pace-list").querySelectorAll("input")).filter((box) => !box.checked)
      .map((box) => box.value);
    act({action: "pace", closed: closed});
  }

  $("anonymize").addEventListener("click", () => act({action: "anonymize", on: !data["class"].anonymized}));
  $("pause").addEventListener("click", () => act({action: "pause", on: !data["class"].paused}));
  $("pace-toggle").addEventListener("click", function () {
    const open = $("pace").hidden;
    $("pace").hidden = !open; this.setAttribute("aria-expanded", String(open));
  });
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
