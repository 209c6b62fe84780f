// @ts-check
/* The table page's start: the taps at once, and the Record tap's one path (record.js: the
 * outbox, the sender) from the first moment, so a tap is kept from the first paint; the engine
 * once the table has painted; and htmx's swaps tied to them, so that a tap made while an answer
 * arrives survives it. It asks the service worker to keep what the table needs offline, and
 * says when the phone is ready for an evening without a connection. */
import { NAMES } from "./contract.js";
import { report } from "./faults.js";
import { htmx } from "./htmx.js";
import * as record from "./record.js";
import { buzzIfSaved, keepCardsOpen, listen as listenSettings } from "./settings.js";
import { chosenEnding, hasTaps, listen as listenTaps, putTaps, recordForm, roundFields, sync } from "./taps.js";
import { word } from "./words.js";

/** @typedef {Record<string, string[]>} Fields */

const TOAST_SECONDS = 4;
let lastOutcome = "";

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
  await record.playAhead(form);
  if (record.serverPreviewNeeded()) htmx()?.trigger(form, "knock:preview");
}

document.addEventListener("input", (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  const form = recordForm();
  if (form && target.closest && target.closest(".card-entry")) htmx()?.trigger(form, "knock:typed");
});

// A preview never records (htmx sends the last submit button focused with the form's requests).
document.addEventListener("htmx:configRequest", (event) => {
  const detail = /** @type {CustomEvent} */ (event).detail;
  if (detail.elt === recordForm()) delete detail.parameters[NAMES.fields.confirm];
});

// A preview of a form with nothing tapped (the round just recorded has left it) says nothing.
document.addEventListener("htmx:confirm", (event) => {
  const elt = /** @type {CustomEvent} */ (event).detail.elt;
  if (elt === recordForm() && !hasTaps(/** @type {HTMLFormElement} */ (elt))) event.preventDefault();
});

/** The version of the table a piece of markup draws (its #table's), or -1. @param {string} html */
function versionIn(html) {
  const found = /id="table"[^>]*data-version="(\d+)"/.exec(html);
  return found ? Number(found[1]) : -1;
}

/** Whether `html` draws a table older than the one shown (a game's version only grows). @param {string} html */
function older(html) {
  const shown = Number(document.getElementById("table")?.dataset.version ?? -1);
  const incoming = versionIn(html);
  return incoming >= 0 && incoming < shown;
}

document.addEventListener("htmx:beforeSwap", (event) => {
  const detail = /** @type {CustomEvent} */ (event).detail;
  if (detail.target?.id !== "table") return;
  if (older(detail.serverResponse ?? detail.xhr?.responseText ?? "")) {
    detail.shouldSwap = false;
    return;
  }
  const form = recordForm();
  kept = form && hasTaps(form) ? roundFields(form) : null;
  lastOutcome = "";
});

/** The table drawn from Knock's answer to a round the sender took to it (not a swap htmx made,
 * so no beforeSwap): the taps on the next round made meanwhile are kept across it the same way.
 * @param {string} html @param {string} outcome */
function drawAnswer(html, outcome) {
  if (older(html)) return buzzIfSaved(outcome);
  const form = recordForm();
  kept = form && hasTaps(form) ? roundFields(form) : null;
  // Whatever Knock said of the round, the taps on the next round made meanwhile stay, and the
  // focus stays where the thumb is; with none made, the next round starts where a round does.
  lastOutcome = kept ? "" : outcome;
  buzzIfSaved(outcome);
  htmx()?.swap("#table", html, { swapStyle: "outerHTML" }, { select: "#table" });
  settled();
}

let toastTimer = 0;
/** After the table is drawn again: the taps made meanwhile put back, marks from the new form,
 * the rounds waiting on the phone drawn on it, the toast's timer, and the focus where the next
 * round starts (without moving the page). */
function settled() {
  const form = recordForm();
  if (form && kept) {
    putTaps(form, kept);
    record.playAhead(form);
  } else if (form) {
    sync(form);
  }
  kept = null;
  record.drawWaiting();
  record.showWaiting();
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
        await record.start({ draw: drawAnswer });
      } catch (error) {
        report("error", `the table's Record part: ${error}`);
      }
      if (document.getElementById("again")) import("./again.js");
      readyForOffline().catch((error) => report("error", `ready for offline: ${error}`));
    },
    { timeout: 2000 }
  );
});

listenSettings();
const form = recordForm();
if (form) sync(form);
