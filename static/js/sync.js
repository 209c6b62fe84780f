/* The table page in one hand.
 *
 * A tap on a player answers the question the round's ending asks next (who knocked, who showed
 * 31, who was lowest); counting by hand, a tap takes a life. The answers are kept in the form's
 * own inputs, the ones a phone without JavaScript fills in by hand, so the server reads one form
 * either way, and htmx asks it for the preview after every tap.
 */
(function () {
  "use strict";

  const INPUT = { knocker: "knocker", shown_by: "shown", lowest: "lowest", winners: "winners" };
  const word = (key, fallback) => (window.knockWord ? window.knockWord(key, fallback) : fallback);
  const ROLE_WORDS = {
    knocker: ["knocked", "knocked"],
    lowest: ["lowest", "lowest"],
    winners: ["wins", "wins"],
  };
  const TOAST_SECONDS = 6;
  let toastTimer = null;
  let recorded = false;

  function recordForm() {
    return document.getElementById("record");
  }

  function counting(form) {
    return form.classList.contains("counting");
  }

  function chosenEnding(form) {
    return form.querySelector("input[name=ending]:checked");
  }

  /* The questions taps answer for the chosen ending, in the order they answer them. */
  function tapOrder(form) {
    const ending = chosenEnding(form);
    return ending && ending.dataset.order ? ending.dataset.order.split(" ") : [];
  }

  /* Whether only one player can hold a role: one knocker; one who shows 31 or three aces. */
  function single(form, role) {
    if (role === "knocker") return true;
    const ending = chosenEnding(form);
    return role === "shown_by" && !!ending && form.dataset.one.split(" ").includes(ending.value);
  }

  function roleInput(form, role, seat) {
    return form.querySelector(`input[name=${INPUT[role]}][value="${seat}"]`);
  }

  function held(form, seat, roles) {
    return roles.filter((role) => {
      const input = roleInput(form, role, seat);
      return input && input.checked;
    });
  }

  function heldByAnother(form, role, seat) {
    return Array.from(form.querySelectorAll(`input[name=${INPUT[role]}]:checked`)).some(
      (input) => input.value !== "" && input.value !== String(seat)
    );
  }

  /* What a player can be marked as, in the order taps go through it: nothing, then each role
     (and "knocked and lowest", or "knocked and wins", after "knocked"), leaving out a role
     another player holds alone. */
  function marks(form, seat) {
    const roles = tapOrder(form);
    const all = [[]];
    for (const role of roles) {
      all.push([role]);
      if (role === "knocker" && roles.includes("lowest")) all.push(["knocker", "lowest"]);
      if (role === "knocker" && roles.includes("winners")) all.push(["knocker", "winners"]);
    }
    return all.filter((mark) =>
      mark.every((role) => !single(form, role) || !heldByAnother(form, role, seat))
    );
  }

  function sameMark(a, b) {
    return a.length === b.length && a.every((role) => b.includes(role));
  }

  function mark(form, seat, roles) {
    for (const role of tapOrder(form)) {
      const input = roleInput(form, role, seat);
      if (!input) continue;
      const on = roles.includes(role);
      if (role === "knocker" && !on) {
        if (input.checked) form.querySelector("input[name=knocker][value='']").checked = true;
      } else {
        input.checked = on;
      }
    }
  }

  function tapRole(form, seat) {
    const options = marks(form, seat);
    const now = options.findIndex((option) => sameMark(option, held(form, seat, tapOrder(form))));
    mark(form, seat, options[(now + 1) % options.length]);
  }

  function lostSelect(form, seat) {
    return form.querySelector(`select[name=lost_${seat}]`);
  }

  /* Counting by hand: each tap takes one more life, up to what a round can cost, then none. */
  function tapLife(form, seat) {
    const select = lostSelect(form, seat);
    if (!select) return;
    const most = Number(form.dataset.most);
    select.value = String((Number(select.value || 0) + 1) % (most + 1));
  }

  /* "Has 31": a life from everyone else still in. */
  function hasThirtyOne(form, seat) {
    for (const select of form.querySelectorAll("select[name^=lost_]")) {
      select.value = select.name === `lost_${seat}` ? "0" : "1";
    }
  }

  /* Draw each player's mark from the form's inputs, and the hint for the chosen ending. */
  function sync(form) {
    const ending = chosenEnding(form);
    const roles = counting(form) ? [] : tapOrder(form);
    // What a player who showed is called on their tile, as the ending says ("dealt 31").
    const shown = (ending && ending.dataset.shownWord) || word("showed_31", "showed 31");
    for (const tile of form.querySelectorAll(".tile[data-seat]")) {
      const seat = tile.dataset.seat;
      let words;
      if (counting(form)) {
        const select = lostSelect(form, seat);
        const lost = select ? Number(select.value || 0) : 0;
        words = lost ? [`−${lost}`] : [];
      } else {
        words = held(form, seat, roles).map((role) => (ROLE_WORDS[role] ? word(...ROLE_WORDS[role]) : shown));
      }
      // Read out after the player's lives as a list item of its own: "Eli, 2 of 3 lives, lowest".
      const role = tile.querySelector("[data-role]");
      if (words.length) {
        const pause = document.createElement("span");
        pause.className = "visually-hidden";
        pause.textContent = ", ";
        role.replaceChildren(pause, words.join(" · "));
      } else {
        role.replaceChildren();
      }
      tile.setAttribute("aria-pressed", words.length ? "true" : "false");
      tile.classList.toggle("marked", words.length > 0);
    }
    const hint = document.getElementById("tap-hint");
    if (hint) hint.textContent = ending ? ending.dataset.hint || "" : "";
  }

  /* After a change by tap: redraw, and let htmx ask for the preview. */
  function changed(form) {
    const toast = document.getElementById("toast");
    if (toast) toast.textContent = "";  // the next round has begun: the last one's toast goes
    const said = document.querySelector("#table > .messages");
    if (said) said.replaceChildren();  // and what was said of the tap before it
    sync(form);
    form.dispatchEvent(new Event("change", { bubbles: true }));
  }

  document.addEventListener("click", (event) => {
    const form = recordForm();
    if (!form || !form.contains(event.target)) return;
    const tile = event.target.closest(".tile[data-seat]");
    const thirtyOne = event.target.closest(".has31");
    const clear = event.target.closest(".clear-cards");
    if (tile && !tile.disabled) {
      if (counting(form)) tapLife(form, tile.dataset.seat);
      else tapRole(form, tile.dataset.seat);
      changed(form);
    } else if (thirtyOne) {
      hasThirtyOne(form, thirtyOne.dataset.seat);
      changed(form);
    } else if (clear) {
      for (const input of form.querySelectorAll(".part-cards input[type=text]")) input.value = "";
      for (const value of form.querySelectorAll(".part-cards .hand-value")) value.replaceChildren();
      changed(form);
    }
  });

  document.addEventListener("change", (event) => {
    const form = recordForm();
    if (form && form.contains(event.target)) sync(form);
  });

  /* A hand being typed again is no longer the one refused: its red outline goes at once. */
  document.addEventListener("input", (event) => {
    if (event.target.matches && event.target.matches(".part-cards input[aria-invalid]")) {
      event.target.removeAttribute("aria-invalid");
    }
  });

  /* Offline, and after. A round this phone recorded that could not reach Knock waits on the
     phone (localStorage, one list per game), in order, each with the tap id made when it was
     tapped and the version of the table it was made on (the one before it, for a round made
     while another waits); they are said ("2 rounds not sent yet") and sent in order when the
     connection is back, or by Retry. The server says what each did (Knock-Tap): saved, or that
     very tap stored before, goes; a round the table changed before is not saved, the table as
     it is now says what the other phone did, and it and the rounds after it wait to be sent
     again on the new table, or dropped, as the table says. Undo takes back a waiting round
     before anything sent. An Undo that could not be sent is sent once when the connection is
     back. */
  const NOT_SENT = "Not saved: no connection. Knock will send it when the connection is back.";
  const WAITING = `knock-waiting:${location.pathname}`;
  const OUTCOME = "Knock-Tap";
  let unsentUndo = null;
  let sending = false;

  function waiting() {
    try {
      return JSON.parse(localStorage.getItem(WAITING) || "[]");
    } catch (error) {
      return [];
    }
  }

  function keepWaiting(rounds) {
    if (rounds.length) localStorage.setItem(WAITING, JSON.stringify(rounds));
    else localStorage.removeItem(WAITING);
    if (rounds.length) document.documentElement.dataset.unsent = "1";
    else delete document.documentElement.dataset.unsent;
    showWaiting();
  }

  /* A tap's own id, made on the phone when it is tapped (never one a kept page carries). */
  function tapId() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  }

  function tableVersion() {
    const input = document.querySelector("#record input[name=version]");
    return input ? Number(input.value) : 0;
  }

  function nextRound() {
    const table = document.getElementById("table");
    return table ? Number(table.dataset.nextRound || 0) : 0;
  }

  function showWaiting() {
    const box = document.getElementById("waiting");
    if (!box) return;
    const rounds = waiting();
    box.hidden = !rounds.length;
    if (!rounds.length) return box.replaceChildren();
    const count = document.createElement("p");
    count.className = "count";
    count.textContent =
      rounds.length === 1
        ? word("waiting_one", "1 round not sent yet")
        : word("waiting_many", "{n} rounds not sent yet").replace("{n}", rounds.length);
    const list = document.createElement("ol");
    for (const round of rounds) {
      const item = document.createElement("li");
      const number = word("waiting_round", "Round {n}").replace("{n}", round.number);
      item.textContent = round.words ? `${number}: ${round.words}` : number;
      list.append(item);
    }
    const parts = [count, list];
    if (rounds[0].refused) {
      const said = document.createElement("p");
      said.className = "error";
      said.textContent = word(
        "refused_waiting",
        "Not saved: the table changed before these rounds reached it. Send them again on the table as it is now, or drop them."
      );
      parts.push(said, button(word("send_again", "Send again"), "send-again"), button(word("drop", "Drop them"), "drop-waiting"));
    } else {
      parts.push(button(word("send_now", "Send now"), "retry"));
    }
    box.replaceChildren(...parts);
  }

  function button(text, className) {
    const made = document.createElement("button");
    made.type = "button";
    made.className = `secondary small ${className}`;
    made.textContent = text;
    return made;
  }

  function sayNotSent() {
    const preview = document.getElementById("preview");
    if (!preview) return;
    const said = document.createElement("p");
    said.className = "error";
    said.setAttribute("role", "alert");
    said.textContent = word("not_sent", NOT_SENT);
    preview.replaceChildren(said, button(word("retry", "Retry"), "retry"));
  }

  /* A round kept to be sent later: the form as it was, with its tap id and version. */
  function wait(form, body) {
    const rounds = waiting();
    const summary = document.querySelector("#preview details.what summary");
    rounds.push({
      url: form.getAttribute("hx-post") || form.action,
      body: body.toString(),
      number: nextRound() + rounds.length,
      words: summary ? summary.textContent.trim() : "",
    });
    keepWaiting(rounds);
    // The next round starts from nothing, as after a saved one.
    form.reset();
    sync(form);
    sayNotSent();
  }

  document.addEventListener("htmx:configRequest", (event) => {
    const elt = event.detail.elt;
    if (!elt.matches) return;
    if (elt.matches("#record button[name=confirm]")) {
      const params = event.detail.parameters;
      params.client_id = tapId();
      const rounds = waiting();
      if (rounds.length) {
        // Rounds wait before this one: it waits behind them, made on the table they lead to.
        event.preventDefault();
        params.version = String(tableVersion() + rounds.length);
        const body = new URLSearchParams(event.detail.formData);
        body.set("client_id", params.client_id);
        body.set("version", params.version);
        body.set("confirm", "1");
        wait(elt.form, body);
        send();
      }
    } else if (elt.matches("button.undo") && waiting().length) {
      // The newest round has not been sent: taking it back is taking it off the phone.
      event.preventDefault();
      const rounds = waiting();
      const last = rounds.pop();
      keepWaiting(rounds);
      const toast = document.getElementById("toast");
      if (toast) toast.textContent = word("undone_waiting", "Round {n} taken back: it had not been sent.").replace("{n}", last.number);
    }
  });

  document.addEventListener("htmx:sendError", (event) => notSent(event.detail));
  /* The proxy in front of Knock answered for it (502, 503, 504: the app server restarting, or
     too slow): no connection to Knock either. A 500 is a fault that sending again would not
     mend. */
  document.addEventListener("htmx:responseError", (event) => {
    if ([502, 503, 504].includes(event.detail.xhr.status)) notSent(event.detail);
  });

  function notSent(detail) {
    const elt = detail.elt;
    if (!elt.matches) return;
    if (elt.matches("button[name=confirm]")) {
      const body = new URLSearchParams(detail.requestConfig.formData);
      body.set("confirm", "1");
      wait(elt.form, body);
    } else if (elt.matches("button.undo")) {
      unsentUndo = elt;
      document.documentElement.dataset.unsent = "1";
      sayNotSent();
    }
  }

  /* The waiting rounds, in order, each with what it was made with; stops at the first that
     cannot be sent (no connection) or is not saved (the table changed, or the form refused). */
  async function send() {
    if (sending) return;
    sending = true;
    try {
      for (;;) {
        const rounds = waiting();
        if (!rounds.length || rounds[0].refused) break;
        let response;
        try {
          response = await fetch(rounds[0].url, {
            method: "POST",
            body: rounds[0].body,
            credentials: "same-origin",
            headers: {
              "Content-Type": "application/x-www-form-urlencoded",
              "HX-Request": "true",
              "HX-Target": "table",
              "HX-Current-URL": location.href,
            },
          });
        } catch (error) {
          break; // still no connection
        }
        if ([502, 503, 504].includes(response.status)) break;
        const outcome = response.headers.get(OUTCOME);
        const html = await response.text();
        buzzIfSaved(outcome);
        if (outcome === "saved" || outcome === "already") {
          rounds.shift();
          keepWaiting(rounds);
        } else {
          keepWaiting(rounds.map((round) => ({ ...round, refused: true })));
        }
        draw(html);
        if (outcome !== "saved" && outcome !== "already") break;
      }
    } finally {
      sending = false;
      showWaiting();
    }
  }

  function draw(html) {
    if (window.htmx && document.getElementById("table")) {
      window.htmx.swap("#table", html, { swapStyle: "outerHTML" }, { select: "#table" });
    }
  }

  /* Sent again on the table as it is now: each made on the one before it. */
  function sendAgain() {
    const base = tableVersion();
    const rounds = waiting().map((round, index) => {
      const body = new URLSearchParams(round.body);
      body.set("version", String(base + index));
      body.set("client_id", tapId());
      return { ...round, body: body.toString(), number: nextRound() + index, refused: false };
    });
    keepWaiting(rounds);
    send();
  }

  function resend() {
    send();
    const tap = unsentUndo;
    unsentUndo = null;
    if (!waiting().length) delete document.documentElement.dataset.unsent;
    if (tap && document.contains(tap)) {
      tap.disabled = false;
      tap.click();
    }
  }
  window.addEventListener("online", resend);
  document.addEventListener("click", (event) => {
    if (event.target.closest(".retry")) resend();
    else if (event.target.closest(".send-again")) sendAgain();
    else if (event.target.closest(".drop-waiting")) keepWaiting([]);
  });

  /* The table as this phone saw it last, kept by the service worker for a reload without a
     connection: after every change drawn, not only after a page load. */
  let keptVersion = null;
  function keepTable() {
    const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    const table = document.getElementById("table");
    if (!worker || !table || !navigator.onLine) return;
    const version = table.dataset.version;
    if (version === keptVersion) return;
    keptVersion = version;
    worker.postMessage({ keep: location.href });
  }

  /* This phone's settings: keep the screen on (where the phone can), vibrate on a saved round. */
  const AWAKE = "knock-awake";
  const VIBRATE = "knock-vibrate";
  let lock = null;

  async function keepAwake(on) {
    if (!("wakeLock" in navigator)) return;
    if (on && !lock && document.visibilityState === "visible") {
      try {
        lock = await navigator.wakeLock.request("screen");
        lock.addEventListener("release", () => {
          lock = null;
        });
      } catch (error) {
        lock = null;
      }
    } else if (!on && lock) {
      await lock.release();
    }
  }

  document.addEventListener("visibilitychange", () => {
    if (localStorage.getItem(AWAKE) === "on") keepAwake(true);
  });
  document.addEventListener("change", (event) => {
    if (event.target.id === "wake") {
      localStorage.setItem(AWAKE, event.target.checked ? "on" : "off");
      keepAwake(event.target.checked);
    } else if (event.target.id === "vibrate") {
      localStorage.setItem(VIBRATE, event.target.checked ? "on" : "off");
    }
  });

  function settings() {
    const wake = document.getElementById("wake");
    if (wake) {
      wake.closest("label").hidden = !("wakeLock" in navigator);
      wake.checked = localStorage.getItem(AWAKE) === "on";
      if (wake.checked) keepAwake(true);
    }
    const vibrate = document.getElementById("vibrate");
    if (vibrate) {
      vibrate.closest("label").hidden = !("vibrate" in navigator);
      vibrate.checked = localStorage.getItem(VIBRATE) !== "off";
    }
  }

  /* One short buzz for each round saved, whatever the page's language: the server says what a
     Record tap did (Knock-Tap), on the tap's own answer and on a waiting round's. */
  function buzzIfSaved(outcome) {
    if (outcome === "saved" && localStorage.getItem(VIBRATE) !== "off" && navigator.vibrate) {
      navigator.vibrate(40);
    }
  }
  document.addEventListener("htmx:beforeSwap", (event) => {
    // (Before the swap: the tapped button is still in the page, and the answer still the tap's.)
    const tapped = event.detail.requestConfig && event.detail.requestConfig.elt;
    if (tapped && tapped.name === "confirm") buzzIfSaved(event.detail.xhr.getResponseHeader(OUTCOME));
  });

  document.addEventListener("htmx:beforeRequest", (event) => {
    recorded = event.detail.elt.name === "confirm" || event.detail.elt.classList.contains("undo");
  });

  /* After the table is drawn again: marks from the new form, the toast's timer, and the focus
     where the next round starts (without moving the page). */
  document.addEventListener("htmx:afterSettle", () => {
    const form = recordForm();
    if (form) sync(form);
    keepTable();
    const toast = document.getElementById("toast");
    if (toast && toast.textContent.trim()) {
      clearTimeout(toastTimer);
      toastTimer = setTimeout(() => {
        toast.textContent = "";
      }, TOAST_SECONDS * 1000);
    }
    // What the page said of a tap it could not save stays twice as long as a toast.
    const said = document.querySelector("#table > .messages");
    if (said && said.textContent.trim()) {
      setTimeout(() => said.replaceChildren(), 2 * TOAST_SECONDS * 1000);
    }
    if (!recorded) return;
    recorded = false;
    if (!form) return;
    const refused = form.querySelector("#preview .error");
    const start = refused
      ? form.querySelector("button[name=confirm]")
      : chosenEnding(form) || form.querySelector(".tile:not([disabled])");
    if (start) start.focus({ preventScroll: true });
    // Saved or taken back (after a dispute, the page was down at the cards): back to the
    // players, where the next round starts, unless they are all in view already.
    const players = form.querySelector(".scoreboard");
    if (!refused && players && players.getBoundingClientRect().top < 0) window.scrollTo({ top: 0 });
  });

  /* The cards section stays as the player left it, open or closed, when the table is drawn
     again (a refused Record, another phone's round). */
  const CARDS_OPEN = "knock-cards-open";
  document.addEventListener(
    "toggle",
    (event) => {
      if (event.target.matches && event.target.matches("#record .part-cards")) {
        sessionStorage.setItem(CARDS_OPEN, event.target.open ? "1" : "");
      }
    },
    true
  );

  function keepCardsOpen() {
    const cards = document.querySelector("#record .part-cards");
    if (cards && sessionStorage.getItem(CARDS_OPEN) && !cards.open) cards.open = true;
  }
  document.addEventListener("htmx:afterSettle", keepCardsOpen);

  document.addEventListener("DOMContentLoaded", () => {
    const form = recordForm();
    if (form) sync(form);
    settings();
    keepCardsOpen();
    keepWaiting(waiting());
    if (navigator.onLine) send();
  });
})();
