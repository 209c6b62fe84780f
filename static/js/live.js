// @ts-check
/* The live news of a game: its page hears of a change at once on a stream (server-sent events,
 * scorekeeper/live.py) and skips the polls its clock asks for while the stream is alive; it
 * polls again as soon as the stream drops, or says nothing for longer than its beat and a
 * margin (data-quiet): a stream can look open long after the server or the Wi-Fi behind it
 * went. A server without the events server answers the stream with 204: the page then polls,
 * and asks for a stream again only now and then, saying nothing of it. */

const SPREAD = 250; // ms a phone waits while its own tap's answer is on its way
const LONGEST_WAIT = 64_000; // ms between two asks for a stream, at most

let open = false;
let heard = 0;
let quiet = 0;

/** Whether the stream is open, said on the page for whoever looks (the tests). @param {boolean} now */
function opened(now) {
  open = now;
  if (now) document.documentElement.dataset.live = "1";
  else delete document.documentElement.dataset.live;
}

/** The page's poll, which says the version the page shows. */
function shownVersion() {
  const poll = /** @type {HTMLElement | null} */ (document.querySelector("[data-poll]"));
  return poll ? poll.dataset.version : undefined;
}

/** News that the game is at `version`: the page redraws itself if it shows another one, once
   the answer to this phone's own tap (which may bring that version) has arrived. @param {string} version */
function changed(version) {
  const redraw = () => {
    const shown = shownVersion();
    if (shown === undefined || shown === version) return;
    // A request of the page's own on its way, or a round the sender is taking to Knock
    // (record.js marks the page until its answer is drawn): that answer brings the table.
    if (document.querySelector(".htmx-request") || document.documentElement.hasAttribute("data-sending")) window.setTimeout(redraw, SPREAD);
    else document.body.dispatchEvent(new CustomEvent("game-changed"));
  };
  redraw();
}

/** @param {HTMLElement} where @param {number} wait */
function connect(where, wait) {
  if (!("EventSource" in window)) return;
  const url = new URL(where.dataset.events || "", location.href);
  const version = shownVersion();
  if (version !== undefined) url.searchParams.set("v", version);
  const source = new EventSource(url);
  source.onopen = () => {
    opened(true);
    heard = Date.now();
    wait = 500;
  };
  source.addEventListener("beat", () => (heard = Date.now()));
  source.addEventListener("changed", (event) => {
    heard = Date.now();
    changed(String(/** @type {MessageEvent} */ (event).data));
  });
  source.addEventListener("gone", () => source.close());
  source.onerror = () => {
    opened(false);
    if (source.readyState !== EventSource.CLOSED) return; // the browser asks again itself
    window.setTimeout(() => document.contains(where) && connect(where, Math.min(wait * 2, LONGEST_WAIT)), wait);
  };
}

/** Follow the game of this page, if it has one. */
export function follow() {
  const where = /** @type {HTMLElement | null} */ (document.querySelector("[data-events]"));
  if (!where) return;
  quiet = Number(where.dataset.quiet || 0);
  connect(where, 500);
  // The phone's word that it is offline is enough to poll again (until a stream opens anew).
  window.addEventListener("offline", () => opened(false));
  document.addEventListener("htmx:confirm", (event) => {
    const poll = /** @type {HTMLElement} */ (event.target);
    if (poll.hasAttribute("data-poll") && open && Date.now() - heard < quiet) event.preventDefault();
  });
}
