// @ts-check
/* The table page's start: the taps at once; once the table has painted, the Record tap's part
 * (record.js: the outbox, the sender, the engine); and htmx's swaps tied to them, so that a tap
 * made while an answer arrives survives it. It asks the service worker to keep what the table
 * needs offline, and says when the phone is ready for an evening without a connection. */
import { NAMES } from "./contract.js";
import { report } from "./faults.js";
import { buzzIfSaved, keepCardsOpen, listen as listenSettings } from "./settings.js";
import { chosenEnding, clearTaps, hasTaps, listen as listenTaps, putTaps, recordForm, roundFields, sync } from "./taps.js";
import { word } from "./words.js";

/** @typedef {Record<string, string[]>} Fields */

const TOAST_SECONDS = 4;
const htmx = /** @type {any} */ (window).htmx;

/** @type {typeof import("./record.js") | null} the Record tap's part, loaded after the first paint */
let record = null;
/** @type {(loaded: typeof import("./record.js")) => void} */
let recordLoaded = () => {};
const recordReady = new Promise((resolve) => (recordLoaded = resolve));
let lastOutcome = "";

/* A Record tap in the moment before its part has come waits for it (a document's capture
   listener runs before htmx's own on the button). */
document.addEventListener(
  "click",
  (event) => {
    const target = /** @type {HTMLElement} */ (event.target);
    const confirm = target.closest && /** @type {HTMLButtonElement | null} */ (target.closest("#record button[name=confirm]"));
    if (!confirm || record) return;
    event.preventDefault();
    event.stopImmediatePropagation();
    recordReady.then(() => confirm.click());
  },
  true
);

/* ---- taps kept across a swap ----------------------------------------------------------- */

// The taps of the round being tapped, whenever the table is drawn anew under them (an answer,
// news of another phone's round): the swap puts them back on the new form.
/** @type {Fields | null} */
let kept = null;

listenTaps((form) => {
  const toast = document.getElementById("toast");
  if (toast) toast.textContent = ""; // the next round has begun: the last one's toast goes
  document.querySelector("#table .game-head > .messages")?.replaceChildren();
  window.setTimeout(() => preview(form), 0);
});

/** The round being tapped, played ahead by the engine; the server's preview asked only where
 * the engine cannot say (htmx sends it on knock:preview). @param {HTMLFormElement} form */
async function preview(form) {
  if (record) await record.playAhead(form);
  if (!record || record.serverPreviewNeeded()) htmx.trigger(form, "knock:preview");
}

document.addEventListener("input", (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  const form = recordForm();
  if (form && target.closest && target.closest(".card-entry")) htmx.trigger(form, "knock:typed");
});

// A Record on its way: a preview asked now (a typed card's, after its delay) would replace it
// (the form's requests are synced), and would preview a round already sent.
let sending = false;
document.addEventListener("htmx:confirm", (event) => {
  const elt = /** @type {CustomEvent} */ (event).detail.elt;
  if (elt === recordForm() && (sending || !hasTaps(/** @type {HTMLFormElement} */ (elt)))) event.preventDefault();
});
// Its end (the answer drawn, or no answer): heard on the document while the button is in it.
for (const type of ["htmx:afterRequest", "htmx:sendError"]) {
  document.addEventListener(type, (event) => {
    const elt = /** @type {CustomEvent} */ (event).detail.elt;
    if (elt instanceof HTMLButtonElement && elt.name === NAMES.fields.confirm) sending = false;
  });
}

document.addEventListener("htmx:beforeSend", (event) => {
  const elt = /** @type {CustomEvent} */ (event).detail.elt;
  if (elt instanceof HTMLButtonElement && elt.name === NAMES.fields.confirm && elt.form) {
    // Sent: the next round starts from nothing.
    sending = true;
    clearTaps(elt.form);
  }
});

document.addEventListener("htmx:beforeSwap", (event) => {
  const detail = /** @type {CustomEvent} */ (event).detail;
  if (detail.target?.id !== "table") return;
  const form = recordForm();
  kept = form && hasTaps(form) ? roundFields(form) : null;
  const elt = detail.requestConfig?.elt;
  lastOutcome = elt instanceof HTMLButtonElement && elt.name === NAMES.fields.confirm ? detail.xhr.getResponseHeader(NAMES.headers.outcome) || "" : "";
  buzzIfSaved(lastOutcome);
});

/** The table drawn from Knock's answer to a round the sender took to it (not a swap htmx made,
 * so no beforeSwap): the taps on the next round made meanwhile are kept across it the same way.
 * @param {string} html @param {string} outcome */
function drawAnswer(html, outcome) {
  const form = recordForm();
  kept = form && hasTaps(form) ? roundFields(form) : null;
  // Whatever Knock said of the waiting round, the taps on the next round stay, and the focus
  // stays where the thumb is.
  lastOutcome = "";
  buzzIfSaved(outcome);
  htmx.swap("#table", html, { swapStyle: "outerHTML" }, { select: "#table" });
  settled();
}

let toastTimer = 0;
/** After the table is drawn again: the taps made meanwhile put back, marks from the new form,
 * the rounds waiting on the phone drawn on it, the toast's timer, and the focus where the next
 * round starts (without moving the page). */
function settled() {
  const form = recordForm();
  if (form && kept && lastOutcome !== "refused") {
    putTaps(form, kept);
    record?.playAhead(form);
  } else if (form) {
    sync(form);
  }
  kept = null;
  sending = false;
  record?.drawWaiting();
  record?.showWaiting();
  keepCardsOpen();
  const toast = document.getElementById("toast");
  if (toast && toast.textContent?.trim()) {
    window.clearTimeout(toastTimer);
    toastTimer = window.setTimeout(() => (toast.textContent = ""), TOAST_SECONDS * 1000);
  }
  const said = document.querySelector("#table .game-head > .messages");
  if (said && said.textContent?.trim()) window.setTimeout(() => said.replaceChildren(), 3 * TOAST_SECONDS * 1000);
  if (!lastOutcome || !form) return;
  const refused = form.querySelector("#preview .error");
  const start = /** @type {HTMLElement | null} */ (
    refused ? form.querySelector("button[name=confirm]") : chosenEnding(form) || form.querySelector(".tile:not([disabled])")
  );
  start?.focus({ preventScroll: true });
  // Saved (after a dispute, the page was down at the cards): back to the players, where the
  // next round starts, unless they are all in view already.
  const players = form.querySelector(".scoreboard");
  if (!refused && players && players.getBoundingClientRect().top < 0) window.scrollTo({ top: 0 });
  lastOutcome = "";
}
document.addEventListener("htmx:afterSettle", (event) => {
  if (/** @type {HTMLElement} */ (event.target).id === "table" || /** @type {HTMLElement} */ (event.target).closest?.("#table")) settled();
});

/* ---- the engine, Play again, and the phone ready for offline --------------------------- */

/** Ask the service worker to keep this table and every file it needs offline; say when it has. */
async function readyForOffline() {
  if (!("serviceWorker" in navigator)) return;
  const registration = await navigator.serviceWorker.ready;
  const worker = navigator.serviceWorker.controller || registration.active;
  if (!worker) return;
  const channel = new MessageChannel();
  const answered = new Promise((resolve) => (channel.port1.onmessage = (event) => resolve(event.data)));
  worker.postMessage({ ready: location.href, engine: !!document.getElementById("engine") }, [channel.port2]);
  const { kept: have, of } = /** @type {{kept: number, of: number}} */ (await answered);
  const said = document.getElementById("offline-ready");
  if (said) {
    said.hidden = false;
    said.classList.toggle("ready", have === of);
    said.textContent = have === of ? word("offline_ready", "Ready for offline") : word("offline_not_ready", "Not ready for offline yet");
  }
  document.documentElement.dataset.offlineReady = have === of ? "yes" : `${have}/${of}`;
}

// After the first paint, and after the page's own work: the engine, Play again's part and the
// files kept for offline never delay the table. (Not at "load": without a connection a load can
// wait on a request for ever.)
requestAnimationFrame(() => {
  const later = window.requestIdleCallback || ((/** @type {() => void} */ run) => window.setTimeout(run, 200));
  later(
    async () => {
      try {
        record = await import("./record.js");
        await record.start({ draw: drawAnswer });
      } catch (error) {
        report("error", `the table's Record part: ${error}`);
      }
      if (record) recordLoaded(record);
      if (document.getElementById("again")) import("./again.js");
      readyForOffline().catch((error) => report("error", `ready for offline: ${error}`));
    },
    { timeout: 2000 }
  );
});

listenSettings();
const form = recordForm();
if (form) sync(form);
