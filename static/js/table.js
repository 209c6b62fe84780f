/* The table page in one hand.
 *
 * A tap on a player answers the question the round's ending asks next (who knocked, who showed
 * 31, who was lowest); counting by hand, a tap takes a life. The answers are kept in the form's
 * own inputs, the ones a phone without JavaScript fills in by hand, so the server reads one form
 * either way, and htmx asks it for the preview after every tap. What a Record tap does without
 * a connection, and the engine on the phone, are sync.js's.
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
  // What the server says a Record tap did (saved, already, stale, refused).
  const OUTCOME = "Knock-Tap";
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
    const said = document.querySelector("#table .game-head > .messages");
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
    const toast = document.getElementById("toast");
    if (toast && toast.textContent.trim()) {
      clearTimeout(toastTimer);
      toastTimer = setTimeout(() => {
        toast.textContent = "";
      }, TOAST_SECONDS * 1000);
    }
    // What the page said of a tap it could not save stays twice as long as a toast.
    const said = document.querySelector("#table .game-head > .messages");
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
      if (event.target.matches && event.target.matches(".part-cards") && event.target.open) {
        pickerWanted();
      }
    },
    true
  );

  /* The card picker's part (cards.js) comes when the cards are first opened: the first load
     carries none of it. */
  let picker = null;
  function pickerWanted() {
    const where = document.querySelector(".part-cards[open] .card-picker[data-script]");
    if (!where || picker) return;
    picker = document.createElement("script");
    picker.src = where.dataset.script;
    document.head.append(picker);
  }

  function keepCardsOpen() {
    const cards = document.querySelector("#record .part-cards");
    if (cards && sessionStorage.getItem(CARDS_OPEN) && !cards.open) cards.open = true;
    pickerWanted();
  }
  document.addEventListener("htmx:afterSettle", keepCardsOpen);

  document.addEventListener("DOMContentLoaded", () => {
    const form = recordForm();
    if (form) sync(form);
    settings();
    keepCardsOpen();
  });

  // What the offline part (sync.js) needs of the taps.
  window.knockTable = { recordForm, sync, buzzIfSaved, word, OUTCOME };
})();
