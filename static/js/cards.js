/* The card picker of a dispute: the deck of the game's rules, three taps a player.
 *
 * A tap on a card puts it in the hand of the player being picked for (the field last touched,
 * or the first with fewer than three cards), as if it had been typed there, and the third card
 * moves on to the next player. A card someone holds is shown as theirs and cannot be picked
 * again; a tap on one of the player's own takes it back. The fields stay the form's: typing
 * works as before, and the page counts each hand as it fills (the preview, on the server).
 * Loaded by table.js when the cards are first opened.
 */
(function () {
  "use strict";

  const word = (key, fallback) => (window.knockWord ? window.knockWord(key, fallback) : fallback);
  const SUITS = { "♥": "H", "♦": "D", "♣": "C", "♠": "S" };
  const CODE = /^(10|[2-9]|[AKQJ])([HDCS])$/;
  const picking = new WeakMap(); // a picker: the index of the field it fills

  /* The cards typed in a field, as the picker names them (AH, 10S); what it cannot read (a
     German letter, a typo) is the server's to say. */
  function codes(text) {
    return text
      .toUpperCase()
      .replace(/[♥♦♣♠]/g, (suit) => SUITS[suit])
      .split(/[\s,;]+/)
      .filter((token) => CODE.test(token));
  }

  function fieldsOf(picker) {
    return Array.from(picker.closest(".part-cards").querySelectorAll(".card-entry input"));
  }

  /* The player a field is for, by name alone ("Ana"; its label says "Ana's cards"). */
  function playerOf(input) {
    return input.closest(".card-entry").dataset.name || nameOf(input);
  }

  function nameOf(input) {
    const label = input.labels && input.labels[0];
    return label ? label.textContent.trim() : "";
  }

  /* The deck's buttons, drawn once from what the page says of it (its ranks and suits in the
     table's words): a row per suit, each card a button a screen reader names. */
  function dealt(picker) {
    if (picker.querySelector("button.card") || !picker.dataset.deck) return;
    const { ranks, suits, name } = JSON.parse(picker.dataset.deck);
    for (const [code, symbol, suitWord, red] of suits) {
      const row = document.createElement("div");
      row.className = red ? "suit red" : "suit";
      row.setAttribute("role", "group");
      row.setAttribute("aria-label", suitWord);
      for (const [rank, letter, rankWord] of ranks) {
        const card = document.createElement("button");
        card.type = "button";
        card.className = "card";
        card.dataset.card = rank + code;
        card.dataset.name = name.replace("{rank}", rankWord).replace("{suit}", suitWord);
        card.textContent = letter + symbol;
        row.append(card);
      }
      picker.append(row);
    }
  }

  function draw(picker) {
    dealt(picker);
    const fields = fieldsOf(picker);
    if (!fields.length) return;
    const active = Math.min(picking.get(picker) || 0, fields.length - 1);
    const held = new Map();
    fields.forEach((input, i) => codes(input.value).forEach((code) => held.set(code, i)));
    fields.forEach((input, i) => input.closest(".card-entry").classList.toggle("picked-for", i === active));
    for (const card of picker.querySelectorAll("button.card")) {
      const holder = held.get(card.dataset.card);
      const mine = holder === active;
      card.setAttribute("aria-pressed", String(mine));
      card.disabled = holder !== undefined && !mine;
      card.classList.toggle("held", holder !== undefined);
      card.setAttribute(
        "aria-label",
        holder === undefined ? card.dataset.name : `${card.dataset.name}, ${playerOf(fields[holder])}`
      );
    }
    picker.querySelector(".picking").textContent = word("picking_for", "Cards of {name}").replace(
      "{name}",
      playerOf(fields[active])
    );
    drawHands(picker, fields, active);
  }

  /* Above the deck, each player's hand as it fills, with its value and why, as the page
     counts it under the player's field (the server's words). */
  function drawHands(picker, fields, active) {
    let list = picker.querySelector(".hands");
    if (!list) {
      list = document.createElement("ul");
      list.className = "hands";
      picker.querySelector(".picking").after(list);
    }
    list.replaceChildren(
      ...fields.map((input, i) => {
        const item = document.createElement("li");
        if (i === active) item.className = "active";
        const who = document.createElement("span");
        who.className = "who";
        who.textContent = playerOf(input);
        const cards = document.createElement("span");
        cards.className = "cards";
        cards.textContent = codes(input.value)
          .map((code) => (picker.querySelector(`button.card[data-card="${code}"]`) || {}).textContent || code)
          .join(" ");
        const value = document.getElementById(`value-${input.id}`);
        const said = document.createElement("span");
        said.className = "said";
        said.textContent = value ? value.textContent.trim() : "";
        item.append(who, " ", cards, " ", said);
        return item;
      })
    );
  }

  /* The next field with fewer than three cards after `from` (or `from` itself if all are). */
  function next(fields, from) {
    for (let step = 1; step <= fields.length; step++) {
      const i = (from + step) % fields.length;
      if (codes(fields[i].value).length < 3) return i;
    }
    return from;
  }

  function pick(picker, code) {
    const fields = fieldsOf(picker);
    let active = Math.min(picking.get(picker) || 0, fields.length - 1);
    let hand = codes(fields[active].value);
    if (hand.includes(code)) {
      hand = hand.filter((held) => held !== code);
    } else {
      if (hand.length >= 3) {
        active = next(fields, active);
        hand = codes(fields[active].value);
        if (hand.length >= 3) return; // every hand is whole
      }
      hand.push(code);
    }
    const input = fields[active];
    input.value = hand.join(" ");
    input.dispatchEvent(new Event("input", { bubbles: true }));
    picking.set(picker, hand.length >= 3 ? next(fields, active) : active);
    draw(picker);
  }

  document.addEventListener("click", (event) => {
    const card = event.target.closest && event.target.closest(".card-picker button.card");
    if (card && !card.disabled) pick(card.closest(".card-picker"), card.dataset.card);
    if (event.target.closest && event.target.closest(".clear-cards")) {
      // table.js empties the fields: the picking starts again with the first player.
      setTimeout(() => document.querySelectorAll(".card-picker").forEach((picker) => {
        picking.set(picker, 0);
        draw(picker);
      }));
    }
  });

  document.addEventListener("focusin", (event) => {
    const input = event.target.closest && event.target.closest(".part-cards .card-entry input");
    if (!input) return;
    const picker = input.closest(".part-cards").querySelector(".card-picker");
    if (!picker) return;
    picking.set(picker, fieldsOf(picker).indexOf(input));
    draw(picker);
  });

  document.addEventListener("input", (event) => {
    const input = event.target.closest && event.target.closest(".part-cards .card-entry input");
    const picker = input && input.closest(".part-cards").querySelector(".card-picker");
    if (picker) draw(picker);
  });

  function drawAll() {
    document.querySelectorAll(".card-picker").forEach(draw);
  }
  document.addEventListener("htmx:afterSettle", drawAll);
  drawAll();
  window.knockCards = { codes };
})();
