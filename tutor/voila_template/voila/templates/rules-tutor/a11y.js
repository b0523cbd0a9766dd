/* Accessibility of the widgets, which ipywidgets and ipycanvas cannot say from Python:
 * - an element of class tutor-live (the board in words, tutor.ui.text_view) is a polite ARIA live region: a
 *   screen reader reads its new text after each step (the element stays while ipywidgets swaps its content);
 * - a canvas is an image (role="img") named for what it shows, described by the board in words beside it;
 * - the lesson (#rendered_cells) is the page's main landmark;
 * - Tab never stays on a canvas: ipycanvas makes each canvas focusable and swallows every key pressed on it
 *   (a keyboard trap); no board here reads keys, so canvases leave the Tab order, and a Tab pressed on a canvas
 *   clicked with the mouse moves on as anywhere else.
 * Widgets render after the page loads and again when a lesson changes them, so new elements are marked as they
 * appear.
 */
(function () {
  'use strict';
  var BOARD_LABEL = 'Game board (a picture). The board in words is beside it: use the button "Show the board in ' +
    'words", or let your screen reader read it after each step.';
  var serial = 0;

  function mark(root) {
    var lesson = document.getElementById('rendered_cells');
    if (lesson && !lesson.hasAttribute('role')) lesson.setAttribute('role', 'main');
    root.querySelectorAll('.tutor-live:not([aria-live])').forEach(function (el) {
      el.setAttribute('role', 'status');
      el.setAttribute('aria-live', 'polite');
      el.setAttribute('aria-label', 'The board in words');
      if (!el.id) el.id = 'tutor-live-' + (++serial);
    });
    root.querySelectorAll('canvas:not([role])').forEach(function (canvas) {
      canvas.setAttribute('role', 'img');
      canvas.setAttribute('tabindex', '-1');
      canvas.setAttribute('aria-label', BOARD_LABEL);
      var widget = canvas.closest('.tutor-race, .tutor-quiz, .tutor-flanders, .widget-vbox');
      var words = widget && widget.querySelector('.tutor-live');
      if (words) canvas.setAttribute('aria-describedby', words.id || '');
    });
  }

  function start() {
    window.addEventListener('keydown', function (event) {
      if (event.key === 'Tab' && event.target instanceof HTMLCanvasElement) event.stopPropagation();
    }, true);
    mark(document);
    // ipywidgets may set an element's classes after inserting it: class changes count too (one pass a frame).
    var pending = false;
    new MutationObserver(function () {
      if (pending) return;
      pending = true;
      window.requestAnimationFrame(function () { pending = false; mark(document); });
    }).observe(document.body, { childList: true, subtree: true, attributes: true, attributeFilter: ['class'] });
  }

  if (document.readyState === 'loading') {
    document.addEventListener('DOMContentLoaded', start);
  } else {
    start();
  }
})();
