// @ts-check
/* Share: the finished game as a picture (in this phone's theme and the page's language) with its
 * words and the view link, through the phone's share sheet where it takes files; else the
 * words and the link alone; else the picture is downloaded and the words copied. The link and
 * the picture are the view link's: the secret link is never shared.
 *
 * Comes with each game-over screen (htmx runs it when a game ends on the page): a module runs
 * once, so its one listener stays; each new screen's button comes disabled (a tap never lands
 * before this script) and is enabled, and its picture fetched ahead, when the table settles. */
import { word } from "./words.js";

/** @type {Map<string, Promise<Blob>>} a picture fetched once the page is idle, so the tap shares at once */
const kept = new Map();

/** @param {HTMLButtonElement} button */
function pictureUrl(button) {
  const root = document.documentElement;
  const dark = root.dataset.theme ? root.dataset.theme === "dark" : matchMedia("(prefers-color-scheme: dark)").matches;
  const url = new URL(button.dataset.image || "", location.href);
  url.searchParams.set("theme", dark ? "dark" : "light");
  return url.href;
}

/** @param {HTMLButtonElement} button */
async function pictureFile(button) {
  const url = pictureUrl(button);
  if (!kept.has(url)) kept.set(url, fetch(url).then((answer) => (answer.ok ? answer.blob() : Promise.reject(answer))));
  const blob = await /** @type {Promise<Blob>} */ (kept.get(url));
  return new File([blob], button.dataset.file || "knock.png", { type: "image/png" });
}

function prepare() {
  const button = /** @type {HTMLButtonElement | null} */ (document.querySelector("button.share[data-image]"));
  if (button && typeof navigator.canShare === "function") pictureFile(button).catch(() => kept.clear());
}

function ready() {
  const buttons = /** @type {NodeListOf<HTMLButtonElement>} */ (document.querySelectorAll("button.share[data-share]"));
  if (!buttons.length) return;
  for (const button of buttons) button.disabled = false;
  const later = window.requestIdleCallback || ((/** @type {() => void} */ run) => window.setTimeout(run, 500));
  later(prepare);
}

document.addEventListener("htmx:afterSettle", ready);
ready();

document.addEventListener("click", async (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  const button = /** @type {HTMLButtonElement | null} */ (target.closest && target.closest("button.share[data-share]"));
  if (!button) return;
  const text = button.dataset.share || "";
  const link = button.dataset.url || "";
  const said = button.parentElement?.querySelector(".shared");
  const title = button.dataset.title || document.title;
  try {
    /** @type {File | null} */
    let file = null;
    if (button.dataset.image && typeof navigator.canShare === "function") {
      file = await pictureFile(button).catch(() => null);
      if (file && !navigator.canShare({ files: [file] })) file = null;
    }
    if (typeof navigator.share === "function") {
      await navigator.share(file ? { files: [file], text: `${text} ${link}`.trim(), title } : { text, url: link || undefined, title });
    } else {
      if (button.dataset.image) {
        const download = document.createElement("a");
        download.href = pictureUrl(button);
        download.download = button.dataset.file || "knock.png";
        download.click();
      }
      await navigator.clipboard.writeText(`${text} ${link}`.trim());
      if (said) said.textContent = word("copied", "Copied: paste it where the group will see it.");
    }
  } catch (error) {
    // Dismissing the share sheet is no failure; anything else shows the text to copy.
    if (!(error instanceof Error && error.name === "AbortError") && said) said.textContent = `${text} ${link}`.trim();
  }
});
