/* Accessibility of the widgets, which ipywidgets and ipycanvas cannot say from Python (tutor.ui.screen):
 * - an element of class tutor-live is a polite ARIA live region (the element stays while ipywidgets swaps its
 *   content), labelled for what it is by its class tutor-live-<kind> (LIVE_LABELS);
 * - a disclosure button (class tutor-disclosure, an ipywidgets ToggleButton) carries aria-expanded, a toggle
 *   button of a group (Speed: Slow, Normal, Fast) aria-pressed, both following the widget's state;
 * - a card button (class tutor-card-button) shows only its value ("5"): while it holds a card it is named by its
 *   tooltip ("Play 5 for red-S");
 * - focus given by the kernel (widget.focus()) to a group of controls (toggle buttons, a checkbox) goes to its
 *   first control: the group's own element cannot hold the focus;
 * - with prefers-reduced-motion, every "No animation" checkbox (class tutor-motion) is ticked once, so the
 *   kernel learns it and draws each animation's final frame at once (the learner may untick it);
 * - a canvas is an image (role="img") named for what it shows, described by the board in words beside it (the
 *   nearest one: no game's widget classes are named here);
 * - the lesson (#rendered_cells) is the page's main landmark;
 * - Tab never stays on a canvas: ipycanvas makes each canvas focusable and swallows every key pressed on it
 *   (a keyboard trap); no board here reads keys, so canvases leave the Tab order, and a Tab pressed on a canvas
 *   moves on as anywhere else;
 * - a board's frame (tutor-board-frame) tells the kernel its column's width, so a board can lay itself out for it;
 * - a wheel or a finger over a canvas scrolls the page (ipycanvas cancels them; no board reads them), and a tap
 *   on it is a click;
 * - a press on a canvas takes no focus, so the page never scrolls under the pointer (a board taller than the
 *   window, focused, was scrolled into view), nor when the kernel moves the focus after a pointer's press.
 * - while the lesson gets ready, Voila's loading text ("Running ...", then "Executing 2 of 5") says so in the
 *   page's language and in a learner's words: Voila's page sets window.voila_process once, in the body, and calls
 *   it for each cell; that one assignment is refused, and the text written as it happens.
 * Widgets render after the page loads and again when a lesson changes them, so elements are marked as they
 * appear and as their classes change.
 */
(function () {
  'use strict';
  var _ = window.rulesTutorMessage || function (message) { return message; };  // messages.js: the page's language
  var BOARD_LABEL = _('Game board (a picture). The board in words is beside it: choose "Board in words" to ' +
    'read it; what each step changes is read out with the messages.');
  var LIVE_LABELS = { 'tutor-live-status': _('Messages'), 'tutor-live-board': _('The board in words') };
  var GROUPS = '.widget-toggle-buttons, .widget-checkbox, .widget-radio-box';
  var reducedMotion = window.matchMedia ? window.matchMedia('(prefers-reduced-motion: reduce)') : null;
  var serial = 0;

  function liveLabel(el) {
    for (var cls in LIVE_LABELS) if (el.classList.contains(cls)) return LIVE_LABELS[cls];
    return 'Messages';
  }

  function setIfChanged(el, name, value) {
    if (el.getAttribute(name) !== value) el.setAttribute(name, value);
  }

  function mark(root) {
    var lesson = document.getElementById('rendered_cells');
    if (lesson && !lesson.hasAttribute('role')) lesson.setAttribute('role', 'main');
    root.querySelectorAll('.tutor-live:not([aria-live])').forEach(function (el) {
      el.setAttribute('role', 'status');
      el.setAttribute('aria-live', 'polite');
      el.setAttribute('aria-label', liveLabel(el));
      if (!el.id) el.id = 'tutor-live-' + (++serial);
    });
    root.querySelectorAll('.tutor-board-words:not([id])').forEach(function (el) {
      el.id = 'tutor-words-' + (++serial);
    });
    root.querySelectorAll('button.tutor-disclosure').forEach(function (button) {
      setIfChanged(button, 'aria-expanded', String(button.classList.contains('mod-active')));
      if (button.hasAttribute('aria-pressed')) button.removeAttribute('aria-pressed');
    });
    root.querySelectorAll('button.tutor-card-button').forEach(function (button) {
      // An empty place (disabled) keeps its text: its tooltip, why it is empty, is only its description.
      if (button.disabled || !button.title) button.removeAttribute('aria-label');
      else setIfChanged(button, 'aria-label', button.title);
    });
    root.querySelectorAll('.widget-toggle-buttons button').forEach(function (button) {
      setIfChanged(button, 'aria-pressed', String(button.classList.contains('mod-active')));
    });
    root.querySelectorAll(GROUPS).forEach(function (group) {
      if (group.hasAttribute('data-tutor-focus')) return;
      group.setAttribute('data-tutor-focus', '');
      group.setAttribute('tabindex', '-1');
      group.addEventListener('focus', function () {
        var first = group.querySelector('button:not(:disabled), input:not(:disabled), select:not(:disabled)');
        if (first) first.focus();
      });
    });
    if (reducedMotion && reducedMotion.matches) {
      root.querySelectorAll('.tutor-motion input[type=checkbox]:not([data-tutor-motion])').forEach(function (box) {
        box.setAttribute('data-tutor-motion', 'reduced');
        if (!box.checked) box.click();
      });
    }
    root.querySelectorAll('canvas:not([role])').forEach(function (canvas) {
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('tabindex', '-1');
      canvas.setAttribute('aria-label', BOARD_LABEL);
    });
    root.querySelectorAll('.tutor-board-frame:not([data-tutor-column])').forEach(watchColumn);
    // The words may come after the canvas: described as soon as they are there.
    // The words are the board in words (else the live region) of the nearest widget around the canvas that has
    // them, whatever the game, within the canvas's own cell output.
    root.querySelectorAll('canvas[role="img"]:not([aria-describedby])').forEach(function (canvas) {
      var words = null;
      for (var node = canvas.parentElement; node && !words; node = node.parentElement) {
        words = node.querySelector('.tutor-board-words') || node.querySelector('.tutor-live');
        if (node.classList.contains('jp-OutputArea-output')) break;
      }
      if (words) {
        if (!words.id) words.id = 'tutor-words-' + (++serial);
        canvas.setAttribute('aria-describedby', words.id);
      }
    });
  }

  // A board's frame tells the kernel its column's width (tutor.ui.screen.board_frame: a hidden text box the
  // frame holds), once it is laid out and whenever it changes, so a board can lay itself out for a phone. The
  // frame's own width is the column: it fills its column (up to the board's full width), and beside a panel it
  // takes what the panel leaves (its width never follows the canvas's, which is 100% of it).
  var columns = window.ResizeObserver ? new ResizeObserver(function (entries) {
    entries.forEach(function (entry) {
      var frame = entry.target, width = Math.floor(frame.clientWidth);
      frame.querySelectorAll(':scope > .tutor-column-width input').forEach(function (box) {
        if (width <= 0 || box.value === String(width)) return;
        box.value = String(width);
        box.dispatchEvent(new Event('input', { bubbles: true }));
      });
    });
  }) : null;

  function watchColumn(frame) {
    frame.setAttribute('data-tutor-column', '');
    if (columns) columns.observe(frame);
  }

  function start() {
    window.addEventListener('keydown', function (event) {
      if (event.key === 'Tab' && event.target instanceof HTMLCanvasElement) event.stopPropagation();
    }, true);
    // The page scrolls over a board: ipycanvas cancels every wheel and touch on its canvas (for boards that read
    // them), so a wheel or a finger over a board, which may cover a tablet's whole width, never moved the page.
    // No board here reads a wheel or a drag: these events stop before they reach the canvas, the browser
    // scrolls, and a tap becomes a click as anywhere else (ipycanvas hears its mousedown). A board that needs
    // the gesture is put inside an element of class tutor-board-gestures.
    ['wheel', 'touchstart', 'touchmove', 'touchend', 'touchcancel'].forEach(function (type) {
      window.addEventListener(type, function (event) {
        if (event.target instanceof HTMLCanvasElement && !event.target.closest('.tutor-board-gestures')) {
          event.stopPropagation();
        }
      }, { capture: true, passive: true });
    });
    // A press on a board takes no focus: focusing a board taller than the window scrolled the page under the
    // pointer (about 200 px), and the click landed elsewhere. ipycanvas still hears the press.
    window.addEventListener('mousedown', function (event) {
      if (event.target instanceof HTMLCanvasElement) event.preventDefault();
    }, true);
    // Focus that follows play (the kernel's widget.focus()) scrolls the page to the control only for a learner
    // on the keyboard: under a mouse or a finger the page stays where it is.
    var pointing = false;
    window.addEventListener('pointerdown', function () { pointing = true; }, true);
    window.addEventListener('keydown', function () { pointing = false; }, true);
    var focus = HTMLElement.prototype.focus;
    HTMLElement.prototype.focus = function (options) {
      return focus.call(this, pointing ? Object.assign({}, options, { preventScroll: true }) : options);
    };
    mark(document);
    // ipywidgets may set an element's classes (and a button its tooltip) after inserting it: those changes
    // count too (one pass a frame).
    var pending = false;
    new MutationObserver(function () {
      if (pending) return;
      pending = true;
      window.requestAnimationFrame(function () { pending = false; mark(document); });
    }).observe(document.body, { childList: true, subtree: true, attributes: true,
                                attributeFilter: ['class', 'title', 'disabled'] });
  }

  // Voila calls it once a cell has run: while the next one runs, that one is the step in hand
  function loadingText(done, count) {
    var text = document.getElementById('loading_text');
    if (!text) return;
    var step = Math.min(done + 1, count);
    text.textContent = count ? _('Getting the lesson ready: step {index} of {count}…', { index: step, count: count })
      : _('Getting the lesson ready…');
  }
  Object.defineProperty(window, 'voila_process', {
    configurable: true,
    get: function () { return loadingText; },
    set: function () {  // Voila's setup, just after its spinner and "Running ..." text
      var spinner = document.querySelector('#loading svg');  // a picture titled "spin": nothing to read out
      if (spinner) spinner.setAttribute('aria-hidden', 'true');
      loadingText();
    }
  });

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
