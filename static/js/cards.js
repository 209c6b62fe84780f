// @ts-check
/* The card picker of a dispute: the deck of the game's rules, three taps a player.
 *
 * A tap on a card puts it in the hand of the player being picked for (the field last touched,
 * or the first with fewer than three cards), as if it had been typed there, and the third card
 * moves on to the next player. A card someone holds is shown as theirs and cannot be picked
 * again; a tap on one of the player's own takes it back. The fields stay the form's: typing
 * works as before, and the page counts each hand as it fills (the preview, on the server).
 * Loaded by settings.js when the cards are first opened.
 */
import { fill, word } from "./words.js";

/** @type {Record<string, string>} */
const SUITS = { "♥": "H", "♦": "D", "♣": "C", "♠": "S" };
const CODE = /^(10|[2-9]|[AKQJ])([HDCS])$/;
/** @type {WeakMap<HTMLElement, number>} a picker: the index of the field it fills */
const picking = new WeakMap();

/* The cards typed in a field, as the picker names them (AH, 10S); what it cannot read (a
   German letter, a typo) is the server's to say. */
/** @param {string} text */
export function codes(text) {
  return text
    .toUpperCase()
    .replace(/[♥♦♣♠]/g, (suit) => SUITS[suit])
    .split(/[\s,;]+/)
    .filter((token) => CODE.test(token));
}

/** @param {HTMLElement} picker @returns {HTMLInputElement[]} */
function fieldsOf(picker) {
  return Array.from(picker.closest(".part-cards")?.querySelectorAll(".card-entry input") || []);
}

/* The player a field is for, by name alone ("Ana"; its label says "Ana's cards"). */
/** @param {HTMLInputElement} input */
function playerOf(input) {
  const entry = /** @type {HTMLElement | null} */ (input.closest(".card-entry"));
  return entry?.dataset.name || nameOf(input);
}

/** @param {HTMLInputElement} input */
function nameOf(input) {
  const label = input.labels && input.labels[0];
  return label ? (label.textContent || "").trim() : "";
}

/* The deck's buttons, drawn once from what the page says of it (its ranks and suits in the
   table's words): a row per suit, each card a button a screen reader names. */
/** @param {HTMLElement} picker */
function dealt(picker) {
  if (picker.querySelector("button.card") || !picker.dataset.deck) return;
  /** @type {{ranks: [string, string, string][], suits: [string, string, string, boolean][], name: string}} */
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

/** @param {HTMLElement} picker */
function draw(picker) {
  dealt(picker);
  const fields = fieldsOf(picker);
  if (!fields.length) return;
  const active = Math.min(picking.get(picker) || 0, fields.length - 1);
  /** @type {Map<string, number>} */
  const held = new Map();
  fields.forEach((input, i) => codes(input.value).forEach((code) => held.set(code, i)));
  fields.forEach((input, i) => input.closest(".card-entry")?.classList.toggle("picked-for", i === active));
  for (const card of /** @type {NodeListOf<HTMLButtonElement>} */ (picker.querySelectorAll("button.card"))) {
    const holder = held.get(card.dataset.card || "");
    const mine = holder === active;
    card.setAttribute("aria-pressed", String(mine));
    card.disabled = holder !== undefined && !mine;
    card.classList.toggle("held", holder !== undefined);
    card.setAttribute("aria-label", holder === undefined ? card.dataset.name || "" : `${card.dataset.name}, ${playerOf(fields[holder])}`);
  }
  const picked = picker.querySelector(".picking");
  if (picked) picked.textContent = fill(word("picking_for", "Cards of {name}"), { name: playerOf(fields[active]) });
  drawHands(picker, fields, active);
}

/* Above the deck, each player's hand as it fills, with its value and why, as the page counts it
   under the player's field (the server's words). */
/** @param {HTMLElement} picker @param {HTMLInputElement[]} fields @param {number} active */
function drawHands(picker, fields, active) {
  let list = picker.querySelector(".hands");
  if (!list) {
    list = document.createElement("ul");
    list.className = "hands";
    picker.querySelector(".picking")?.after(list);
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
        .map((code) => picker.querySelector(`button.card[data-card="${code}"]`)?.textContent || code)
        .join(" ");
      const value = document.getElementById(`value-${input.id}`);
      const said = document.createElement("span");
      said.className = "said";
      said.textContent = value ? (value.textContent || "").trim() : "";
      item.append(who, " ", cards, " ", said);
      return item;
    })
  );
}

/* The next field with fewer than three cards after `from` (or `from` itself if all are). */
/** @param {HTMLInputElement[]} fields @param {number} from */
function next(fields, from) {
  for (let step = 1; step <= fields.length; step++) {
    const i = (from + step) % fields.length;
    if (codes(fields[i].value).length < 3) return i;
  }
  return from;
}

/** @param {HTMLElement} picker @param {string} code */
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
  const target = /** @type {HTMLElement} */ (event.target);
  if (!target.closest) return;
  const card = /** @type {HTMLButtonElement | null} */ (target.closest(".card-picker button.card"));
  const picker = /** @type {HTMLElement | null} */ (card?.closest(".card-picker"));
  if (card && picker && !card.disabled) pick(picker, card.dataset.card || "");
  if (target.closest(".clear-cards")) {
    // taps.js empties the fields: the picking starts again with the first player.
    window.setTimeout(() =>
      document.querySelectorAll(".card-picker").forEach((each) => {
        picking.set(/** @type {HTMLElement} */ (each), 0);
        draw(/** @type {HTMLElement} */ (each));
      })
    );
  }
});

/** The picker a card field belongs to. @param {EventTarget | null} target */
function pickerOf(target) {
  const input = /** @type {HTMLElement} */ (target).closest?.(".part-cards .card-entry input");
  const picker = /** @type {HTMLElement | null | undefined} */ (input?.closest(".part-cards")?.querySelector(".card-picker"));
  return { input: /** @type {HTMLInputElement | null} */ (input || null), picker: picker || null };
}

document.addEventListener("focusin", (event) => {
  const { input, picker } = pickerOf(event.target);
  if (!input || !picker) return;
  picking.set(picker, fieldsOf(picker).indexOf(input));
  draw(picker);
});

document.addEventListener("input", (event) => {
  const { picker } = pickerOf(event.target);
  if (picker) draw(picker);
});

function drawAll() {
  document.querySelectorAll(".card-picker").forEach((picker) => draw(/** @type {HTMLElement} */ (picker)));
}
document.addEventListener("htmx:afterSettle", drawAll);
drawAll();
// Said on the page for whoever looks (the tests): the deck answers taps from now on.
document.documentElement.dataset.picker = "ready";
