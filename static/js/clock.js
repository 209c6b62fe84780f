// @ts-check
/* A tournament round's clock on the big screen and the organiser's page: each element with
 * data-ends (an ISO time) says the minutes left, in the words the page gave it (data-one,
 * data-many with {n}, data-over), once a second. An htmx swap brings new elements: each tick
 * looks them up anew. */

/** @typedef {{one: string, many: string, over: string}} ClockWords */

/**
 * What the clock says at `now` of a round that ends at `ends` (both in ms): whole minutes left,
 * rounded up, so "1 min left" until the last second, then `over`.
 * @param {number} ends @param {number} now @param {ClockWords} words
 */
export function clockWords(ends, now, words) {
  const left = Math.ceil((ends - now) / 60_000);
  if (!(left > 0)) return words.over;
  return left === 1 ? words.one : words.many.replace("{n}", String(left));
}

function tick() {
  for (const element of document.querySelectorAll("[data-ends]")) {
    const clock = /** @type {HTMLElement} */ (element);
    const { ends = "", one = "", many = "", over = "" } = clock.dataset;
    const said = clockWords(Date.parse(ends), Date.now(), { one, many, over });
    if (clock.textContent !== said) clock.textContent = said;
  }
}

if (typeof document !== "undefined") {
  tick();
  window.setInterval(tick, 1000);
}
