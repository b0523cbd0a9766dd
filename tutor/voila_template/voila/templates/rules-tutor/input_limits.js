/* Input limits: a file or a pasted text too large to be a scenario is refused here, before ipywidgets sends it
 * to the kernel (a message over the server's size limit silently drops the page's connection).
 *
 * A widget states its limit with a class (tutor.core.schema sets the numbers): "tutor-max-bytes-N" on a
 * FileUpload, "tutor-max-chars-N" on a text box. The refusal is shown beside the widget and nothing is sent.
 * ipywidgets' FileUpload reads its files from an <input type=file> that is never put in the page, so the
 * 'change' listeners of file inputs are wrapped (this script runs before the widgets' scripts).
 */
(function () {
  'use strict';
  var _ = window.rulesTutorMessage || function (message) { return message; };  // messages.js: the page's language
  var lastUpload = null;  // the upload button last clicked: its file input is outside the page

  function limitOf(element, prefix) {
    for (var node = element; node && node.classList; node = node.parentElement) {
      for (var i = 0; i < node.classList.length; i++) {
        var name = node.classList[i];
        if (name.indexOf(prefix) === 0) return { widget: node, limit: Number(name.slice(prefix.length)) };
      }
    }
    return null;
  }

  function size(bytes) {
    return bytes >= 1048576 ? (bytes / 1048576).toFixed(1) + ' MB' : Math.ceil(bytes / 1024) + ' KB';
  }

  function say(widget, text) {
    var note = widget.nextElementSibling;
    if (!note || !note.classList.contains('tutor-input-refused')) {
      if (!text) return;
      note = document.createElement('div');
      note.className = 'tutor-input-refused';
      note.setAttribute('role', 'alert');
      widget.insertAdjacentElement('afterend', note);
    }
    note.textContent = text;
    note.hidden = !text;
  }

  function refusesFiles(input) {
    var found = lastUpload && limitOf(lastUpload, 'tutor-max-bytes-');
    if (!found || !input.files) return false;
    for (var i = 0; i < input.files.length; i++) {
      var file = input.files[i];
      if (file.size > found.limit) {
        input.value = '';
        say(found.widget, _('This file is too big to be a scenario ({size}; a scenario file is at most {limit}). ' +
            'Nothing was loaded.', {size: size(file.size), limit: size(found.limit)}));
        return true;
      }
    }
    say(found.widget, '');
    return false;
  }

  document.addEventListener('click', function (event) {
    var upload = event.target && event.target.closest && event.target.closest('.widget-upload');
    if (upload) lastUpload = upload;
  }, true);

  var nativeAdd = HTMLInputElement.prototype.addEventListener;
  HTMLInputElement.prototype.addEventListener = function (type, listener, options) {
    if (type === 'change' && typeof listener === 'function') {
      var input = this;
      var inner = listener;
      listener = function () {
        if (input.type === 'file' && refusesFiles(input)) return undefined;
        return inner.apply(this, arguments);
      };
    }
    return nativeAdd.call(this, type, listener, options);
  };

  document.addEventListener('paste', function (event) {
    var found = limitOf(event.target, 'tutor-max-chars-');
    if (!found || !event.clipboardData) return;
    var text = event.clipboardData.getData('text');
    if (text.length > found.limit) {
      event.preventDefault();
      event.stopImmediatePropagation();
      say(found.widget, _('This text is far too long to be a position code ({count} characters; a code has at ' +
          'most {limit}). Nothing was pasted.', {count: text.length.toLocaleString(document.documentElement.lang || 'en'),
          limit: found.limit.toLocaleString(document.documentElement.lang || 'en')}));
    } else {
      say(found.widget, '');
    }
  }, true);
})();
