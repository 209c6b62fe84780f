/* "Play again", with or without a connection. Loaded by sync.js once the table has painted.
 *
 * The next game (the same players, seats and rules; the deal one seat on) is drawn by the
 * server ahead, as a page, under an id that stands in for the new game's; this phone keeps
 * it. A Play again tap makes the new game's id on the phone and asks Knock to start it under
 * that id. Where Knock cannot be reached, the kept page becomes the new game's (its id put in
 * for the stand-in), the service worker serves it, and the new game is started on the
 * server (before any of its rounds, sync.js) once the connection is back: sent again, the
 * same id is the same game.
 */
(function () {
  "use strict";

  const where = document.getElementById("again");
  if (!where) return;
  const word = (key, fallback) => (window.knockWord ? window.knockWord(key, fallback) : fallback);
  const PAGES = "pages"; // the service worker's cache of pages (sw.js)
  // A page this phone made (the service worker serves it while Knock does not know the game).
  const MADE_ON_PHONE = "Knock-Made-On-Phone";
  const START = "knock-start:"; // + the new game's path: how to start it on the server

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
    const input = document.querySelector("input[name=csrfmiddlewaretoken]");
    return input ? input.value : "";
  }

  /* The next game's page, kept while there is a connection (again at every visit: a rename
     or a change of the way of asking shows in it). */
  async function keepNext() {
    if (!("caches" in window) || !navigator.onLine) return;
    try {
      const response = await fetch(where.dataset.next, { credentials: "same-origin" });
      if (response.ok) await (await caches.open(PAGES)).put(where.dataset.next, response);
    } catch (error) {
      // No connection after all: the page kept before, if any, stands.
    }
  }

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

  async function playAgain(button) {
    const id = gameId();
    const body = new URLSearchParams({ csrfmiddlewaretoken: token(), id });
    const path = location.pathname.replace(/\/g\/[^/]+\/$/, `/g/${id}/`);
    button.disabled = true;
    try {
      let response = null;
      try {
        response = await fetch(where.dataset.again, {
          method: "POST",
          body,
          credentials: "same-origin",
          headers: { "Content-Type": "application/x-www-form-urlencoded", "HX-Request": "true" },
        });
      } catch (error) {
        response = null; // no connection
      }
      if (response && ![502, 503, 504].includes(response.status)) {
        if (response.ok) return location.assign(response.headers.get("HX-Redirect") || path);
        const plain = (response.headers.get("Content-Type") || "").startsWith("text/plain");
        return say(plain ? (await response.text()).slice(0, 300) : `HTTP ${response.status}`);
      }
      const pages = await caches.open(PAGES);
      const next = await pages.match(where.dataset.next);
      if (!next) return say(word("again_not_kept", "No connection, and this phone has not kept the next game yet: connect once to play again."));
      const html = (await next.text()).replaceAll(where.dataset.standIn, id);
      const headers = { "Content-Type": "text/html; charset=utf-8", [MADE_ON_PHONE]: "1" };
      await pages.put(new URL(path, location.href).href, new Response(html, { headers }));
      localStorage.setItem(START + path, JSON.stringify({ url: where.dataset.again, body: body.toString() }));
      location.assign(path);
    } finally {
      button.disabled = false;
    }
  }

  /* The server's game-over screen has a form; the one the phone drew (board.js) a button. */
  document.addEventListener("submit", (event) => {
    if (!event.target.matches("form.play-again")) return;
    event.preventDefault();
    playAgain(event.submitter || event.target.querySelector("button"));
  });
  document.addEventListener("click", (event) => {
    const button = event.target.closest && event.target.closest("button.play-again-phone");
    if (button) playAgain(button);
  });

  keepNext();
})();
