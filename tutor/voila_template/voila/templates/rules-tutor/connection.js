/* Connection lost: when the lesson's kernel dies, is culled, or the server is gone, say so and offer a Reload.
 *
 * Runs before Voila's own scripts and watches the kernel websocket(s) they open:
 * - a status message "dead", "restarting" or "autorestarting" on iopub means the kernel process is gone (a
 *   kernel the server restarts is a blank one: the lesson's widgets no longer exist in it);
 * - a closed websocket is checked a moment later at /api/kernels/<id>: 404 means the kernel was shut down
 *   (culled), no answer or JupyterHub's 424 ("server not running") means the server is gone; otherwise Voila
 *   reconnects by itself (a network blip);
 *   the check sends the page's XSRF token, without which a server behind JupyterHub answers 403;
 * - the same check runs when the page becomes visible again (a laptop waking up), and every POLL_MS while it is
 *   visible: a kernel shut down through the server's API (what culling does) leaves its websocket open and silent.
 *   That poll does not count as activity (no_track_activity), so an idle server is still culled.
 * - a page left without beforeunload (Safari on iPads never fires it) sends Voila's shutdown request itself on
 *   pagehide: without it, every lesson a tablet left kept its kernel, and in class mode the device's place, until
 *   culled. A page that comes back from the browser's cache finds its kernel gone and offers a Reload.
 * - a page whose kernel failed before its lesson ran is ended by the server with couldNotStart(): it reloads once,
 *   then says the lesson could not start (a Reload button again).
 * Messages come as JSON text or in the binary "v1.kernel.websocket.jupyter.org" framing; both are read, the
 *   binary frame's header parsed as JSON.
 */
(function () {
  'use strict';
  var _ = window.rulesTutorMessage || function (message) { return message; };  // messages.js: the page's language
  var KERNEL_SOCKET = /\/api\/kernels\/([0-9a-fA-F-]{36})\/channels/;
  var LOST_STATES = { dead: true, restarting: true, autorestarting: true };
  var POLL_MS = 4000;
  var NativeWebSocket = window.WebSocket;
  var decoder = new TextDecoder();
  var kernels = {};   // kernel id -> its REST URL
  var leaving = false;
  var lost = false;

  function executionState(data) {
    try {
      if (typeof data === 'string') {
        var message = JSON.parse(data);
        return message.channel === 'iopub' && message.header && message.header.msg_type === 'status'
          ? message.content.execution_state : null;
      }
      if (!(data instanceof ArrayBuffer) || data.byteLength < 56) return null;
      var layout = new DataView(data);
      var count = Number(layout.getBigUint64(0, true));
      if (count < 6 || count > 64 || data.byteLength < 8 * (count + 1)) return null;
      var offsets = [];
      for (var i = 0; i < count; i++) offsets.push(Number(layout.getBigUint64(8 * (i + 1), true)));
      var part = function (k) { return decoder.decode(new Uint8Array(data, offsets[k], offsets[k + 1] - offsets[k])); };
      if (part(0) !== 'iopub') return null;
      var header = JSON.parse(part(1));  // servers differ in spacing: read the header, do not search its text
      return header && header.msg_type === 'status' ? JSON.parse(part(4)).execution_state : null;
    } catch (error) {
      return null;
    }
  }

  // kind: 'stopped' (the kernel is gone), 'unreachable' (the server is gone), 'not-started' (it never answered)
  function show(kind) {
    if (lost || leaving) return;
    lost = true;
    var banner = document.createElement('div');
    banner.id = 'tutor-connection-lost';
    banner.setAttribute('role', 'alertdialog');
    banner.setAttribute('aria-labelledby', 'tutor-connection-lost-title');
    banner.setAttribute('aria-describedby', 'tutor-connection-lost-text');
    var title = document.createElement('p');
    title.id = 'tutor-connection-lost-title';
    title.className = 'tutor-connection-lost-title';
    var text = document.createElement('p');
    text.id = 'tutor-connection-lost-text';
    if (kind === 'not-started') {
      title.textContent = _('This lesson could not start.');
      text.textContent = _('The server could not get the board ready. Reload the page to try again. ' +
        'If this happens again, tell your teacher.');
    } else if (kind === 'unreachable') {
      title.textContent = _('The lesson server cannot be reached.');
      text.textContent = _('The board cannot answer your clicks any more. Check that the server is still running ' +
        '(ask your teacher), then reload the page to start this lesson again.');
    } else {
      title.textContent = _('This lesson has stopped.');
      text.textContent = _('Its connection to the server was lost, perhaps because the computer slept or the page ' +
        'was left unused for a long time, so the board cannot answer your clicks any more. ' +
        'Reload the page to start this lesson again.');
    }
    var button = document.createElement('button');
    button.type = 'button';
    button.textContent = _('Reload');
    button.addEventListener('click', function () { window.location.reload(); });
    banner.appendChild(title);
    banner.appendChild(text);
    banner.appendChild(button);
    document.body.appendChild(banner);
    document.body.classList.add('tutor-disconnected');
    button.focus();
  }

  function xsrfToken() {
    var token = /(?:^|;\s*)_xsrf=([^;]*)/.exec(document.cookie);
    return token ? token[1] : '';
  }

  function xsrfHeaders() {
    var token = xsrfToken();
    return token ? { 'X-XSRFToken': token } : {};
  }

  // Voila's own beacon, for a browser that never fires beforeunload (Safari on iPads and iPhones).
  function shutDownKernels() {
    Object.keys(kernels).forEach(function (id) {
      var form = new FormData();
      form.append('_xsrf', xsrfToken());
      navigator.sendBeacon(kernels[id].replace(/api\/kernels\/[^/]+$/, 'voila/api/shutdown/' + id), form);
    });
  }

  // polled: a failed poll says nothing (a network blip); a closed websocket says the rest
  function check(kernelId, polled) {
    if (lost || leaving) return;
    var request = { cache: 'no-store', credentials: 'same-origin', headers: xsrfHeaders() };
    fetch(kernels[kernelId] + (polled ? '?no_track_activity=1' : ''), request).then(function (response) {
      if (response.status === 404) return show('stopped');
      if (response.status === 424) return show('unreachable');
      if (!response.ok) return;
      return response.json().then(function (model) {
        if (model && LOST_STATES[model.execution_state]) show('stopped');
      });
    }, function () {
      if (!polled) show('unreachable');
    });
  }

  function watch(socket, url, kernelId) {
    kernels[kernelId] = url.replace(/^ws/, 'http').replace(/\/channels.*$/, '');
    socket.addEventListener('message', function (event) {
      var state = executionState(event.data);
      if (state && LOST_STATES[state]) show('stopped');
    });
    socket.addEventListener('close', function () {
      setTimeout(function () { check(kernelId); }, 1500);
    });
  }

  function WatchedWebSocket(url, protocols) {
    var socket = protocols === undefined ? new NativeWebSocket(url) : new NativeWebSocket(url, protocols);
    var match = KERNEL_SOCKET.exec(String(url));
    if (match) watch(socket, String(url), match[1]);
    return socket;
  }
  WatchedWebSocket.prototype = NativeWebSocket.prototype;
  ['CONNECTING', 'OPEN', 'CLOSING', 'CLOSED'].forEach(function (name) {
    WatchedWebSocket[name] = NativeWebSocket[name];
  });
  window.WebSocket = WatchedWebSocket;

  window.addEventListener('beforeunload', function () { leaving = true; });  // Voila's beacon goes now
  window.addEventListener('pagehide', function () {
    if (!leaving) shutDownKernels();
    leaving = true;
  });
  window.addEventListener('pageshow', function () { leaving = false; });
  document.addEventListener('visibilitychange', function () {
    if (document.visibilityState === 'visible') Object.keys(kernels).forEach(function (id) { check(id); });
  });
  setInterval(function () {
    if (document.visibilityState === 'visible') Object.keys(kernels).forEach(function (id) { check(id, true); });
  }, POLL_MS);
  // The server ends a page with couldNotStart() when its kernel died or did not answer before the lesson ran
  // (voila_adapter.end_lesson_pages_that_fail_to_start): most often a passing fault, so the page reloads itself
  // once; if it fails again within RETRY_WINDOW_MS, the learner is told, with a Reload button.
  var RETRY_KEY = 'rules-tutor-reloaded ' + window.location.pathname;
  var RETRY_WINDOW_MS = 120000;
  var failed = false;

  function storedRetry() {
    try { return Number(window.sessionStorage.getItem(RETRY_KEY)) || 0; } catch (error) { return 0; }
  }

  function couldNotStart() {
    failed = true;
    var now = Date.now();
    if (now - storedRetry() > RETRY_WINDOW_MS) {
      // without storage, no reload: it could loop
      try { window.sessionStorage.setItem(RETRY_KEY, String(now)); } catch (error) { /* kept nowhere */ }
      if (storedRetry() === now) { leaving = true; window.location.reload(); return; }
    }
    var start = function () {
      var loading = document.getElementById('loading');  // Voila's spinner: nothing is getting ready any more
      if (loading) loading.style.display = 'none';
      show('not-started');
    };
    if (document.body) start(); else document.addEventListener('DOMContentLoaded', start);
  }
  window.addEventListener('load', function () {
    if (failed) return;
    try { window.sessionStorage.removeItem(RETRY_KEY); } catch (error) { /* nothing kept */ }
  });

  // For tests and for other scripts of the page.
  window.tutorConnection = {
    kernels: kernels, isLost: function () { return lost; }, check: check, couldNotStart: couldNotStart
  };
})();
