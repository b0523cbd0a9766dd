/* The page's messages in the lesson's language: window.RULES_TUTOR_MESSAGES (messages/<language>.json, written
 * from the catalog by `rules-tutor languages`) maps each English message to its translation. The other scripts
 * call rulesTutorMessage('English {name}.', {name: ...}); a message without a translation stays English.
 */
window.rulesTutorMessage = function (message, values) {
  'use strict';
  var all = window.RULES_TUTOR_MESSAGES || {};
  var text = Object.prototype.hasOwnProperty.call(all, message) && all[message] ? all[message] : message;
  if (!values) return text;
  return text.replace(/[{](\w+)[}]/g, function (whole, name) {
    return Object.prototype.hasOwnProperty.call(values, name) ? String(values[name]) : whole;
  });
};
