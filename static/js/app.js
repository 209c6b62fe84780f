/* Every page: the theme this phone chose, the offline banner, and the service worker that keeps
 * Knock's files on the phone. Loaded in the head, before the page is drawn, so a dark page never
 * flashes white. */
(function () {
  "use strict";

  /* The words a script says, in the page's language (base.html draws them as JSON). */
  window.knockWord = (key, fallback) => {
    const element = document.getElementById("script-words");
    const words = element ? JSON.parse(element.textContent) : {};
    return words[key] || fallback;
  };

  const root = document.documentElement;
  const THEME = "knock-theme";
  root.classList.add("js");

  function applyTheme() {
    const chosen = localStorage.getItem(THEME);
    if (chosen === "light" || chosen === "dark") root.dataset.theme = chosen;
    else delete root.dataset.theme;
  }
  applyTheme();

  /* iOS has no install prompt: a one-line hint on the home page, until it is dismissed. */
  const HINTED = "knock-install-hint";
  function installHint() {
    const hint = document.getElementById("install-hint");
    const ios = /iPhone|iPad|iPod/.test(navigator.userAgent);
    const installed = window.matchMedia("(display-mode: standalone)").matches || navigator.standalone;
    if (!hint || !ios || installed || localStorage.getItem(HINTED)) return;
    hint.hidden = false;
    document.getElementById("install-hint-done").addEventListener("click", () => {
      localStorage.setItem(HINTED, "1");
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
    // Back online: the table is drawn again at once instead of at the next poll, unless a tap
    // is waiting to be sent (its answer draws the table).
    if (!root.dataset.unsent) document.body.dispatchEvent(new CustomEvent("game-changed"));
  });

  const SPREAD = 250; // ms a phone waits while its own tap's answer is on its way

  /* A game's page with its stream of news open (server-sent events) hears of a change at once,
   * so it skips the polls its clock asks for, and polls again as soon as the stream drops, or
   * says nothing for longer than its beat and a margin (data-quiet, from scorekeeper/live.py):
   * a stream can look open long after the server or the Wi-Fi behind it went. */
  const quiet = () => {
    const stream = document.querySelector("[data-quiet]");
    return stream ? Number(stream.dataset.quiet) : 0;
  };
  const heard = () => (root.dataset.heard = String(Date.now()));
  document.addEventListener("htmx:sseOpen", () => {
    root.dataset.live = "1";
    heard();
  });
  document.addEventListener("htmx:sseMessage", heard);
  for (const name of ["htmx:sseError", "htmx:sseClose"]) {
    document.addEventListener(name, () => delete root.dataset.live);
  }
  // The phone's word that it is offline is enough to poll again (until a stream opens anew).
  window.addEventListener("offline", () => delete root.dataset.live);
  const streamLive = () => root.dataset.live && Date.now() - Number(root.dataset.heard) < quiet();
  document.addEventListener("htmx:confirm", (event) => {
    const poll = event.target;
    if (!poll.hasAttribute("data-poll")) return;
    const cause = event.detail.triggeringEvent;
    if (cause && cause.type === "sse:beat") {
      event.preventDefault(); // the stream is alive, and nothing changed
    } else if (cause && cause.type === "sse:changed") {
      // The news says the game's version: the page redraws itself if it shows another one,
      // without asking the poll first, at once: news comes game by game (on PostgreSQL the
      // moment a round is saved), so only one table's phones ask together.
      event.preventDefault();
      const news = cause.detail.data;
      // Checked again when the moment comes: the answer to this phone's own tap may have
      // brought that version meanwhile (the news of a tap can outrun its answer), and while
      // a tap's answer is still on its way, wait for it.
      const redraw = () => {
        const shown = document.querySelector("[data-poll]");
        if (!shown || shown.dataset.version === news) return;
        if (document.querySelector(".htmx-request")) window.setTimeout(redraw, SPREAD);
        else document.body.dispatchEvent(new CustomEvent("game-changed"));
      };
      if (news !== poll.dataset.version) redraw();
    } else if (!cause && streamLive()) {
      event.preventDefault(); // the clock's poll, while the stream is open
    }
  });

  /* A round's form shows only the questions its chosen ending asks: the server names them on
     each ending (data-asks, from the rules engine), and each question says which it is
     (data-question). Without JavaScript every question shows, and the server drops the
     answers the ending does not ask for. */
  function askedQuestions(form) {
    const ending = form.querySelector("input[name=ending]:checked");
    const asks = ending && ending.dataset.asks !== undefined ? ending.dataset.asks.split(" ") : null;
    for (const part of form.querySelectorAll(".part[data-question]")) {
      part.hidden = asks !== null && !asks.includes(part.dataset.question);
    }
  }
  function allAskedQuestions() {
    for (const form of document.querySelectorAll("form.record")) askedQuestions(form);
  }
  document.addEventListener("change", (event) => {
    const form = event.target.closest && event.target.closest("form.record");
    if (form && event.target.name === "ending") askedQuestions(form);
  });
  document.addEventListener("htmx:afterSettle", allAskedQuestions);

  document.addEventListener("change", (event) => {
    if (event.target.id !== "theme") return;
    if (event.target.value === "auto") localStorage.removeItem(THEME);
    else localStorage.setItem(THEME, event.target.value);
    applyTheme();
  });

  document.addEventListener("DOMContentLoaded", () => {
    const select = document.getElementById("theme");
    if (select) select.value = localStorage.getItem(THEME) || "auto";
    showOffline();
    installHint();
    allAskedQuestions();
    if ("serviceWorker" in navigator && root.dataset.worker) {
      navigator.serviceWorker.register(root.dataset.worker).catch(() => {});
    }
  });
})();
