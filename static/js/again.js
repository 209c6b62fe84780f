// @ts-check
/* "Play again", with or without a connection. Loaded by table.js once the table has painted.
 *
 * The next game (the same players, seats and rules; the deal one seat on) is drawn by the
 * server ahead, as a page, under an id that stands in for the new game's; this phone keeps it.
 * A Play again tap makes the new game's id on the phone and asks Knock to start it under that
 * id. Where Knock cannot be reached, the kept page becomes the new game's (its id put in for
 * the stand-in), the service worker serves it, and the new game's start waits in the outbox
 * (before any of its rounds) until the connection is back: sent again, the same id is the
 * same game. */
import { NAMES } from "./contract.js";
import { report } from "./faults.js";
import { keepStart, sendWaiting } from "./record.js";
import { word } from "./words.js";

const where = /** @type {HTMLElement} */ (document.getElementById("again"));
const data = where.dataset;

/* A game's id: a version 4 UUID from the phone's random numbers (crypto.randomUUID needs
   HTTPS, and a LAN may not have it). */
function gameId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  bytes[6] = (bytes[6] & 0x0f) | 0x40;
  bytes[8] = (bytes[8] & 0x3f) | 0x80;
  const hex = Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

function token() {
  const input = /** @type {HTMLInputElement | null} */ (document.querySelector("input[name=csrfmiddlewaretoken]"));
  return input ? input.value : "";
}

/* The next game's page, kept while there is a connection (again at every visit: a rename or a
   change of the way of asking shows in it). */
async function keepNext() {
  if (!("caches" in window) || !navigator.onLine || !data.next) return;
  try {
    const response = await fetch(data.next, { credentials: "same-origin" });
    if (response.ok) await (await caches.open(NAMES.caches.pages)).put(data.next, response);
  } catch {
    // No connection after all: the page kept before, if any, stands.
  }
}

/** @param {string} text */
function say(text) {
  const box = document.querySelector("#table .winner");
  if (!box) return;
  let said = box.querySelector("p.again-said");
  if (!said) {
    said = document.createElement("p");
    said.className = "error again-said";
    said.setAttribute("role", "alert");
    box.append(said);
  }
  said.textContent = text;
}

/** @param {HTMLButtonElement} button */
async function playAgain(button) {
  const id = gameId();
  const body = new URLSearchParams({ csrfmiddlewaretoken: token(), id });
  const path = location.pathname.replace(/\/g\/[^/]+\/$/, `/g/${id}/`);
  button.disabled = true;
  try {
    /** @type {Response | null} */
    let response = null;
    // The rounds of this game still on the phone go first: Knock starts the next game only from
    // a game it has seen end. Where they cannot go now, the start waits behind them.
    const clear = await sendWaiting().catch(() => false);
    try {
      if (!clear) throw new Error("rounds of this game still wait");
      response = await fetch(data.again || "", {
        method: "POST",
        body,
        credentials: "same-origin",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true" },
      });
    } catch {
      response = null; // no connection, or this game's rounds still on their way
    }
    if (response && !NAMES.proxyDown.includes(response.status)) {
      if (response.ok) return location.assign(response.headers.get("HX-Redirect") || path);
      const plain = (response.headers.get("Content-Type") || "").startsWith("text/plain");
      return say(plain ? (await response.text()).slice(0, 300) : `HTTP ${response.status}`);
    }
    const pages = await caches.open(NAMES.caches.pages);
    const next = await pages.match(data.next || "");
    if (!next) return say(word("again_not_kept", "No connection, and this phone has not kept the next game yet: connect once to play again."));
    const html = (await next.text()).replaceAll(data.standIn || "", id);
    const headers = { "Content-Type": "text/html; charset=utf-8", [NAMES.headers.madeOnPhone]: "1" };
    await pages.put(new URL(path, location.href).href, new Response(html, { headers }));
    try {
      await keepStart(path, { url: data.again || "", body: body.toString(), after: location.pathname });
    } catch {
      return say(word("again_not_stored", "This phone cannot store a new game without a connection: connect to play again."));
    }
    location.assign(path);
  } catch (error) {
    report("error", `play again: ${error}`);
  } finally {
    button.disabled = false;
  }
}

/* The server's game-over screen has a form; the one the phone drew (board.js) a button. */
document.addEventListener("submit", (event) => {
  const form = /** @type {HTMLFormElement} */ (event.target);
  if (!form.matches("form.play-again")) return;
  event.preventDefault();
  const submitter = /** @type {SubmitEvent} */ (event).submitter || form.querySelector("button");
  playAgain(/** @type {HTMLButtonElement} */ (submitter));
});
document.addEventListener("click", (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  const button = target.closest && /** @type {HTMLButtonElement | null} */ (target.closest("button.play-again-phone"));
  if (button) playAgain(button);
});

keepNext();
