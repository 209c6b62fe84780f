// @ts-check
/* The words the phone's scripts say, in the page's language: base.html draws them as JSON from
 * the server's catalogue (scorekeeper/web/context.py); a script keeps only an English fallback. */

/** @type {Record<string, string> | null} */
let words = null;

/** The page's word for `key`, or `fallback` where the page has none. @param {string} key @param {string} fallback */
export function word(key, fallback) {
  if (words === null) {
    const element = document.getElementById("script-words");
    words = element ? JSON.parse(element.textContent || "{}") : {};
  }
  return (words && words[key]) || fallback;
}

/** `template` with each {name} put in. @param {string} template @param {Record<string, string | number>} values */
export function fill(template, values) {
  return template.replace(/\{(\w+)\}/g, (whole, name) => (name in values ? String(values[name]) : whole));
}
