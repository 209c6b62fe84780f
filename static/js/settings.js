// @ts-check
/* This phone's own settings on the table page: keep the screen on (where the phone can), buzz
 * when a round is saved, the cards section left open or closed as the player left it, and the
 * card picker, which comes the first time the cards are opened (the first load carries none). */
import { NAMES } from "./contract.js";

/** @type {WakeLockSentinel | null} */
let lock = null;

/** @param {boolean} on */
async function keepAwake(on) {
  if (!("wakeLock" in navigator)) return;
  if (on && !lock && document.visibilityState === "visible") {
    try {
      lock = await navigator.wakeLock.request("screen");
      lock.addEventListener("release", () => (lock = null));
    } catch {
      lock = null; // refused (a phone saving its battery): the screen dims as usual
    }
  } else if (!on && lock) {
    await lock.release();
  }
}

/** One short buzz for a round saved, whatever the page's language. @param {string | null} outcome */
export function buzzIfSaved(outcome) {
  if (outcome === "saved" && localStorage.getItem(NAMES.storage.vibrate) !== "off" && navigator.vibrate) navigator.vibrate(40);
}

let picker = false;
function pickerWanted() {
  const where = /** @type {HTMLElement | null} */ (document.querySelector(".part-cards[open] .card-picker[data-script]"));
  if (!where || picker) return;
  picker = true;
  import("./cards.js");
}

/** The cards section as the player left it, after the table is drawn again. */
export function keepCardsOpen() {
  const cards = /** @type {HTMLDetailsElement | null} */ (document.querySelector("#record .part-cards"));
  if (cards && sessionStorage.getItem(NAMES.storage.cardsOpen) && !cards.open) cards.open = true;
  pickerWanted();
}

export function listen() {
  document.addEventListener("visibilitychange", () => {
    if (localStorage.getItem(NAMES.storage.awake) === "on") keepAwake(true);
  });
  document.addEventListener("change", (event) => {
    const target = /** @type {HTMLInputElement} */ (event.target);
    if (target.id === "wake") {
      localStorage.setItem(NAMES.storage.awake, target.checked ? "on" : "off");
      keepAwake(target.checked);
    } else if (target.id === "vibrate") {
      localStorage.setItem(NAMES.storage.vibrate, target.checked ? "on" : "off");
    }
  });
  document.addEventListener(
    "toggle",
    (event) => {
      const target = /** @type {HTMLDetailsElement} */ (event.target);
      if (!target.matches) return;
      if (target.matches("#record .part-cards")) sessionStorage.setItem(NAMES.storage.cardsOpen, target.open ? "1" : "");
      if (target.matches(".part-cards") && target.open) pickerWanted();
    },
    true
  );
  const wake = /** @type {HTMLInputElement | null} */ (document.getElementById("wake"));
  if (wake) {
    const label = wake.closest("label");
    if (label) label.hidden = !("wakeLock" in navigator);
    wake.checked = localStorage.getItem(NAMES.storage.awake) === "on";
    if (wake.checked) keepAwake(true);
  }
  const vibrate = /** @type {HTMLInputElement | null} */ (document.getElementById("vibrate"));
  if (vibrate) {
    const label = vibrate.closest("label");
    if (label) label.hidden = !("vibrate" in navigator);
    vibrate.checked = localStorage.getItem(NAMES.storage.vibrate) !== "off";
  }
  keepCardsOpen();
}
