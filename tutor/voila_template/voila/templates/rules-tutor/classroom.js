// Class mode (rules-tutor serve --class-size): join with a name, send lesson and quiz events, and follow the
// teacher's pause and pace. RULES_TUTOR_CLASS.base is the server's base URL; the page key comes with the page (cookie).
// Events wait in sessionStorage (this tab, reloads included) until the server acknowledges them: a server that
// restarts or a busy one (429) gets them again, with a growing delay; each carries an id so it is recorded once.
(function () {
  "use strict";
  const base = window.RULES_TUTOR_CLASS.base + "rules-tutor/class/";
  const _ = window.rulesTutorMessage || function (message) { return message; };  // messages.js
  const esc = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/'/g, "&#39;");
  const cookie = (name) => {
    const found = document.cookie.match(new RegExp("(?:^|;\\s*)" + name + "=([^;]+)"));
    return found ? decodeURIComponent(found[1]) : "";
  };
  // The learner's secret: a session cookie, so every tab of this browser is the same learner until it closes.
  const remember = (secret) => {
    document.cookie = "rules_tutor_learner=" + encodeURIComponent(secret) + "; path=/; SameSite=Strict" +
      (secret ? "" : "; max-age=0");
  };
  const page = cookie("rules_tutor_page");
  // The lesson's one name in every language (language.js): ca/flamme_rouge/02_... is flamme_rouge/02_...
  const lesson = window.RULES_TUTOR_LANGUAGE ? window.RULES_TUTOR_LANGUAGE.lesson
    : decodeURIComponent((location.pathname.split("/voila/render/")[1] || "").replace(/\/+$/, ""));
  let me = null, state = {paused: false, closed: []}, before = null, quizzes = -1;
  const UNSENT = "rules-tutor-class-unsent";
  const loadUnsent = () => { try { return JSON.parse(sessionStorage.getItem(UNSENT) || "[]"); } catch (e) { return []; } };
  const saveUnsent = () => { try { sessionStorage.setItem(UNSENT, JSON.stringify(unsent.slice(-200))); } catch (e) {} };
  let unsent = loadUnsent(), sending = false, retry = null, delay = 1000;
  const newId = () => Array.from(crypto.getRandomValues(new Uint8Array(12)), (b) => b.toString(16).padStart(2, "0")).join("");
  if (cookie("rules_tutor_learner")) me = {learner: cookie("rules_tutor_learner")};

  async function post(path, body) {
    body.page = page;
    if (me) body.learner = me.learner;
    try {
      const reply = await fetch(base + path, {method: "POST", body: JSON.stringify(body), keepalive: true,
                                              headers: {"Content-Type": "application/json"}});
      if (reply.status === 200) return await reply.json();
      const refused = reply.status === 400 ? await reply.json().catch(() => ({})) : {};
      return {status: reply.status, name: refused.name === true};
    } catch (e) { return {status: 0}; }
  }
  function send(event) {
    if (!lesson || lesson === "index.ipynb") return;  // the contents page is no lesson
    event.lesson = lesson;
    event.id = newId();
    unsent.push(event);
    saveUnsent();
    flush();
  }
  // Send the unsent events in order; each is done once acknowledged (2xx) or refused for good (4xx: a closed
  // lesson, a paused class, a class started anew); no answer, 429 or 5xx: the same event again later.
  async function flush() {
    if (sending || !me || retry) return;
    sending = true;
    while (unsent.length && me) {
      const reply = await post("event", Object.assign({}, unsent[0]));
      const status = reply.status === undefined ? 200 : reply.status;
      if (status === 0 || status === 429 || status >= 500) {
        retry = setTimeout(function () { retry = null; flush(); }, delay);
        delay = Math.min(2 * delay, 30000);
        break;
      }
      delay = 1000;
      unsent.shift();
      saveUnsent();
    }
    sending = false;
  }

  function overlay(id, html) {
    let box = document.getElementById(id);
    if (!box) {
      box = document.createElement("div");
      box.id = id; box.className = "tutor-class-overlay";
      box.setAttribute("role", "dialog"); box.setAttribute("aria-modal", "true");
      box.innerHTML = html;
      box.setAttribute("aria-labelledby", box.querySelector("h2").id = id + "-title");
      before = document.activeElement;
      document.body.appendChild(box);
      setInert(true);
      (box.querySelector("input") || box.querySelector("h2")).focus();
    }
    return box;
  }
  function removeOverlay(id) {
    const box = document.getElementById(id);
    if (!box) return;
    box.remove();
    if (!document.querySelector(".tutor-class-overlay")) {
      setInert(false);
      if (before && document.contains(before)) before.focus();
    }
  }
  let inert = [];  // what an overlay made inert (Voila may move it out of the body meanwhile)
  function setInert(on) {
    inert.forEach((node) => { node.inert = false; });
    inert = on ? Array.from(document.body.children).filter((node) => !node.classList.contains("tutor-class-overlay"))
               : [];
    inert.forEach((node) => { node.inert = true; });
  }

  function askName() {
    const box = overlay("tutor-class-join",
      "<form><h2 tabindex='-1'>" + esc(_("Welcome to the class")) + "</h2>" +
      "<label for='tutor-class-name'>" + esc(_("Your first name or a nickname (you may leave it empty)")) +
      "</label><input id='tutor-class-name' maxlength='40' autocomplete='off'><button type='submit'>" +
      esc(_("Join")) + "</button>" +
      "<p role='status'></p></form>");
    box.querySelector("form").addEventListener("submit", async function (event) {
      event.preventDefault();
      const reply = await post("join", {name: box.querySelector("input").value});
      if (!reply.learner) {
        box.querySelector("[role=status]").textContent = reply.name ?
          _("This name looks like a classmate's, or like a number: add a letter or an initial.") :
          reply.status === 429 ?
          _("The class is full or busy: try again in a minute.") : _("The server did not answer: try again.");
        return;
      }
      me = reply;
      remember(me.learner);
      removeOverlay("tutor-class-join");
      flush();
      poll();
    });
  }

  function follow() {
    if (state.paused) {
      overlay("tutor-class-pause", "<h2 tabindex='-1'>" + esc(_("Eyes on your teacher")) + "</h2>" +
        "<p>" + esc(_("Your lesson waits here just as you left it.")) + "</p>");
    } else removeOverlay("tutor-class-pause");
    if (lesson && state.closed.includes(lesson)) {
      overlay("tutor-class-closed", "<h2 tabindex='-1'>" + esc(_("Not open yet")) + "</h2><p>" +
        esc(_("Your teacher opens this lesson later.")) + "</p><p><a href='" + window.RULES_TUTOR_CLASS.base +
        "voila/render/" + (document.documentElement.lang === "ca" ? "ca/" : "") + "index.ipynb'>" +
        esc(_("All lessons")) + "</a></p>");
    } else removeOverlay("tutor-class-closed");
    document.querySelectorAll("[data-lesson]").forEach(function (badge) {
      const closed = state.closed.includes(badge.dataset.lesson), item = badge.parentElement;
      const note = item.querySelector(".tutor-class-not-open"), link = item.querySelector("a");
      if (closed && !note) {
        badge.insertAdjacentHTML("afterend", "<span class='tutor-progress tutor-class-not-open'>" +
          esc(_("Not open yet")) + "</span>");
        if (link) link.setAttribute("aria-disabled", "true");
      } else if (!closed && note) {
        note.remove();
        if (link) link.removeAttribute("aria-disabled");
      }
    });
  }
  document.addEventListener("click", function (event) {
    const link = event.target.closest && event.target.closest("a[aria-disabled='true']");
    if (link) event.preventDefault();
  }, true);

  async function poll() {
    const reply = await post("state", {});
    if (reply.status === 403) {  // a page of an earlier class (the teacher started a new one) or a day old
      overlay("tutor-class-reload", "<h2 tabindex='-1'>" + esc(_("Reload this page")) + "</h2><p>" +
        esc(_("Your teacher started a new class. Reload this page to join it.")) +
        "</p><button type='button' onclick='location.reload()'>" + esc(_("Reload")) + "</button>");
    }
    if (reply.status === undefined) {
      state = reply;
      if (!reply.joined && me) { me = null; remember(""); askName(); }
      follow();
      if (retry) { clearTimeout(retry); retry = null; delay = 1000; }
      flush();  // the server answers again: what waits goes now
    }
  }

  const answered = new WeakSet();
  // The lesson's board: a widget other than a quiz has shown (the template says whether the lesson has one). The
  // teacher's grid marks a page that loaded and still shows no board ("no board"): it may need a reload.
  const expectsBoard = window.RULES_TUTOR_CLASS.board === true;
  let boardShown = false;
  const boardOnScreen = () => Array.from(document.querySelectorAll(".jupyter-widgets"))
    .some((view) => !view.closest(".tutor-quiz"));
  function watch() {
    const count = document.querySelectorAll(".tutor-quiz").length;
    if (count > quizzes) {
      if (quizzes < 0) {
        send({kind: "opened"});
        if (expectsBoard) send({kind: "board", shown: false});
      }
      quizzes = count;
    }
    if (expectsBoard && !boardShown && boardOnScreen()) {
      boardShown = true;
      send({kind: "board", shown: true});
    }
    document.querySelectorAll(".tutor-quiz-result").forEach(function (mark) {
      if (answered.has(mark)) return;
      answered.add(mark);
      send({kind: "answered", quiz: mark.dataset.quiz, right: mark.dataset.right === "1",
            choice: (mark.dataset.choice || "").slice(0, 80)});
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    if (!page) return;
    if (!me) askName();
    poll();
    setInterval(poll, 2000);
    watch();
    let pending = null;
    new MutationObserver(function () { clearTimeout(pending); pending = setTimeout(watch, 150); })
      .observe(document.body, {childList: true, subtree: true});
  });
})();
