// @ts-check
/* Every page: the offline banner, the theme switch, the install hint, the questions a round's
 * ending asks, the live news of a game, and the service worker that keeps Knock's files on the
 * phone; and the watch for faults, so that none goes unseen (faults.js). */
import { NAMES } from "./contract.js";
import { report, watch } from "./faults.js";
import { follow } from "./live.js";

watch();
const root = document.documentElement;

function applyTheme() {
  const chosen = localStorage.getItem(NAMES.storage.theme);
  if (chosen === "light" || chosen === "dark") root.dataset.theme = chosen;
  else delete root.dataset.theme;
}

/* iOS has no install prompt: a one-line hint on the home page, until it is dismissed. */
function installHint() {
  const hint = document.getElementById("install-hint");
  const ios = /iPhone|iPad|iPod/.test(navigator.userAgent);
  const installed =
    window.matchMedia("(display-mode: standalone)").matches || /** @type {{standalone?: boolean}} */ (navigator).standalone;
  if (!hint || !ios || installed || localStorage.getItem(NAMES.storage.installHint)) return;
  hint.hidden = false;
  document.getElementById("install-hint-done")?.addEventListener("click", () => {
    localStorage.setItem(NAMES.storage.installHint, "1");
    hint.hidden = true;
  });
}

function showOffline() {
  const banner = document.getElementById("offline");
  if (banner) banner.hidden = navigator.onLine;
}

window.addEventListener("offline", showOffline);
window.addEventListener("online", () => {
  showOffline();
  // Back online: a game's page is drawn again at once instead of at the next poll; after the
  // taps sent again meanwhile have their answers (a table drawn over a tap's would lose it).
  const redraw = () => {
    if (document.querySelector(".htmx-request") || root.hasAttribute("data-sending")) window.setTimeout(redraw, 250);
    else document.body.dispatchEvent(new CustomEvent("game-changed"));
  };
  window.setTimeout(redraw, 0);
});

/* A round's form shows only the questions its chosen ending asks: the server names them on
   each ending (data-asks, from the rules engine), and each question says which it is
   (data-question). Without JavaScript every question shows, and the server drops the answers
   the ending does not ask for. */
/** @param {HTMLFormElement} form */
function askedQuestions(form) {
  const ending = /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=ending]:checked"));
  const asks = ending && ending.dataset.asks !== undefined ? ending.dataset.asks.split(" ") : null;
  for (const part of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll(".part[data-question]"))) {
    part.hidden = asks !== null && !asks.includes(part.dataset.question || "");
  }
}
function allAskedQuestions() {
  for (const form of /** @type {NodeListOf<HTMLFormElement>} */ (document.querySelectorAll("form.record"))) askedQuestions(form);
}
document.addEventListener("change", (event) => {
  const target = /** @type {HTMLInputElement} */ (event.target);
  const form = target.closest && /** @type {HTMLFormElement | null} */ (target.closest("form.record"));
  if (form && target.name === "ending") askedQuestions(form);
  if (target.id === "theme") {
    if (target.value === "auto") localStorage.removeItem(NAMES.storage.theme);
    else localStorage.setItem(NAMES.storage.theme, target.value);
    applyTheme();
  }
});
document.addEventListener("htmx:afterSettle", allAskedQuestions);

// A module runs once the page is parsed: what follows needs the whole page.
const select = /** @type {HTMLSelectElement | null} */ (document.getElementById("theme"));
if (select) select.value = localStorage.getItem(NAMES.storage.theme) || "auto";
showOffline();
installHint();
allAskedQuestions();
follow();
if ("serviceWorker" in navigator && root.dataset.worker) {
  navigator.serviceWorker.register(root.dataset.worker).catch((error) => report("error", `service worker: ${error}`));
}
