/* Share: the finished game as a picture (in this phone's theme and the page's language) with its
 * words and the view link, through the phone's share sheet where it takes files; else the
 * words and the link alone; else the picture is downloaded and the words copied. The link and
 * the picture are the view link's: the secret link is never shared. */
(function () {
  "use strict";

  // Loaded with each game-over screen (htmx runs it again when a game ends on the page): one
  // listener, whatever the times; the new screen's button is enabled (it comes disabled, so a
  // tap never lands before this script) and its picture fetched ahead all the same.
  if (window.knockShare) return window.knockShare.ready();

  const word = (key, fallback) => (window.knockWord ? window.knockWord(key, fallback) : fallback);
  const kept = new Map(); // a picture fetched once the page is idle, so the tap shares at once

  function pictureUrl(button) {
    const root = document.documentElement;
    const dark = root.dataset.theme
      ? root.dataset.theme === "dark"
      : matchMedia("(prefers-color-scheme: dark)").matches;
    const url = new URL(button.dataset.image, location.href);
    url.searchParams.set("theme", dark ? "dark" : "light");
    return url.href;
  }

  async function pictureFile(button) {
    const url = pictureUrl(button);
    if (!kept.has(url)) {
      kept.set(url, fetch(url).then((answer) => (answer.ok ? answer.blob() : Promise.reject(answer))));
    }
    const blob = await kept.get(url);
    return new File([blob], button.dataset.file || "knock.png", { type: "image/png" });
  }

  function prepare() {
    const button = document.querySelector("button.share[data-image]");
    if (button && navigator.canShare) pictureFile(button).catch(() => kept.clear());
  }
  function ready() {
    for (const button of document.querySelectorAll("button.share[data-share]")) button.disabled = false;
    if ("requestIdleCallback" in window) requestIdleCallback(prepare);
    else setTimeout(prepare, 500);
  }
  window.knockShare = { ready };
  ready();

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("button.share[data-share]");
    if (!button) return;
    const text = button.dataset.share;
    const link = button.dataset.url || "";
    const said = button.parentElement.querySelector(".shared");
    const title = button.dataset.title || document.title;
    try {
      let file = null;
      if (button.dataset.image && navigator.canShare) {
        file = await pictureFile(button).catch(() => null);
        if (file && !navigator.canShare({ files: [file] })) file = null;
      }
      if (navigator.share) {
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
      if (error.name !== "AbortError" && said) said.textContent = `${text} ${link}`.trim();
    }
  });
})();
