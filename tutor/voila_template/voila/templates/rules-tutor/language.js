/* The lessons' languages (tutor/i18n/lesson_languages.py): the English lessons are served at /voila/render/<path>, the
 * same lessons in another language at /voila/render/<language>/<path> (under /user/<name>/ behind JupyterHub).
 * - Every page links to the same page in the other languages ("English · Català"), at the top of the lesson.
 * - A click on one of those links remembers the choice in the browser (localStorage): the landing page
 *   (index.ipynb) opened in another language then goes to the chosen language's landing page, and back.
 * - window.RULES_TUTOR_LANGUAGE says the page's language and its lesson's one name in every language
 *   (``lesson``: "flamme_rouge/02_energy_phase.ipynb" for /voila/render/ca/flamme_rouge/02_energy_phase.ipynb),
 *   which class mode (classroom.js) sends.
 * The languages (code: own name) come from the catalogs (tutor.i18n.languages(), written to messages/languages.json
 * by `rules-tutor languages`; the template puts them in window.RULES_TUTOR_LANGUAGES).
 */
(function () {
  'use strict';
  var _ = window.rulesTutorMessage || function (message) { return message; };  // messages.js: the page's language
  var LANGUAGES = window.RULES_TUTOR_LANGUAGES || {en: 'English'};
  var ENGLISH = 'en';
  var CHOICE = 'rules-tutor-language';
  var MARK = '/voila/render/';

  var at = location.pathname.indexOf(MARK);
  var prefix = at < 0 ? '' : location.pathname.slice(0, at + MARK.length);
  var path = at < 0 ? '' : decodeURIComponent(location.pathname.slice(at + MARK.length)).replace(/\/+$/, '');
  var parts = path.split('/');
  var language = ENGLISH, lesson = path;
  if (parts.length > 1 && parts[0] !== ENGLISH && LANGUAGES.hasOwnProperty(parts[0])) {
    language = parts[0];
    lesson = parts.slice(1).join('/');
  }
  window.RULES_TUTOR_LANGUAGE = {language: language, lesson: lesson};
  if (!path) return;  // not a lesson page (the file tree, an error page)

  function urlFor(code) {
    var encoded = lesson.split('/').map(encodeURIComponent).join('/');
    return prefix + (code === ENGLISH ? '' : code + '/') + encoded + location.search;
  }
  function chosen() { try { return localStorage.getItem(CHOICE); } catch (e) { return null; } }
  function choose(code) { try { localStorage.setItem(CHOICE, code); } catch (e) {} }

  var choice = chosen();
  if (lesson === 'index.ipynb' && choice && choice !== language && LANGUAGES.hasOwnProperty(choice)) {
    location.replace(urlFor(choice));
    return;
  }

  function links() {
    if (document.querySelector('.tutor-language')) return;
    var nav = document.createElement('nav');
    nav.className = 'tutor-language';
    nav.setAttribute('aria-label', _('Language'));
    Object.keys(LANGUAGES).forEach(function (code, k) {
      if (k) nav.appendChild(document.createTextNode(' · '));
      var item;
      if (code === language) {
        item = document.createElement('span');
        item.setAttribute('aria-current', 'page');
      } else {
        item = document.createElement('a');
        item.href = urlFor(code);
        item.hreflang = code;
        item.addEventListener('click', function () { choose(code); });
      }
      item.lang = code;
      item.setAttribute('data-language', code);
      item.textContent = LANGUAGES[code];
      nav.appendChild(item);
    });
    var cells = document.getElementById('rendered_cells');
    (cells || document.body).insertBefore(nav, (cells || document.body).firstChild);
  }
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', links);
  else links();
})();
