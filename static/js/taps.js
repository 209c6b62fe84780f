// @ts-check
/* The record form in one hand: a tap on a player answers the question the round's ending asks
 * next (who knocked, who showed 31, who was lowest); counting by hand, a tap takes a life. The
 * answers are kept in the form's own inputs, the ones a phone without JavaScript fills in by
 * hand, so the server and the phone's engine read one form either way. This module changes the
 * form and draws each player's mark from it; what a Record tap does is record.js's. */
import { word } from "./words.js";

const INPUT = { knocker: "knocker", shown_by: "shown", lowest: "lowest", winners: "winners" };
/** @type {Record<string, [string, string]>} */
const ROLE_WORDS = {
  knocker: ["knocked", "knocked"],
  lowest: ["lowest", "lowest"],
  winners: ["wins", "wins"],
};
/** @typedef {"knocker" | "shown_by" | "lowest" | "winners"} Role */

/** The page's record form, if it records. */
export function recordForm() {
  return /** @type {HTMLFormElement | null} */ (document.getElementById("record"));
}

/** @param {HTMLFormElement} form */
export function counting(form) {
  return form.classList.contains("counting");
}

/** @param {HTMLFormElement} form */
export function chosenEnding(form) {
  return /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=ending]:checked"));
}

/** The questions taps answer for the chosen ending, in the order they answer them. @param {HTMLFormElement} form @returns {Role[]} */
function tapOrder(form) {
  const ending = chosenEnding(form);
  return ending && ending.dataset.order ? /** @type {Role[]} */ (ending.dataset.order.split(" ")) : [];
}

/** Whether only one player can hold a role: one knocker; one who shows 31 or three aces. @param {HTMLFormElement} form @param {Role} role */
function single(form, role) {
  if (role === "knocker") return true;
  const ending = chosenEnding(form);
  return role === "shown_by" && !!ending && (form.dataset.one || "").split(" ").includes(ending.value);
}

/** @param {HTMLFormElement} form @param {Role} role @param {string} seat */
function roleInput(form, role, seat) {
  return /** @type {HTMLInputElement | null} */ (form.querySelector(`input[name=${INPUT[role]}][value="${seat}"]`));
}

/** @param {HTMLFormElement} form @param {string} seat @param {Role[]} roles */
function held(form, seat, roles) {
  return roles.filter((role) => roleInput(form, role, seat)?.checked);
}

/** @param {HTMLFormElement} form @param {Role} role @param {string} seat */
function heldByAnother(form, role, seat) {
  return Array.from(/** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll(`input[name=${INPUT[role]}]:checked`))).some(
    (input) => input.value !== "" && input.value !== String(seat)
  );
}

/* What a player can be marked as, in the order taps go through it: nothing, then each role
   (and "knocked and lowest", or "knocked and wins", after "knocked"), leaving out a role
   another player holds alone. */
/** @param {HTMLFormElement} form @param {string} seat @returns {Role[][]} */
function marks(form, seat) {
  const roles = tapOrder(form);
  /** @type {Role[][]} */
  const all = [[]];
  for (const role of roles) {
    all.push([role]);
    if (role === "knocker" && roles.includes("lowest")) all.push(["knocker", "lowest"]);
    if (role === "knocker" && roles.includes("winners")) all.push(["knocker", "winners"]);
  }
  return all.filter((mark) => mark.every((role) => !single(form, role) || !heldByAnother(form, role, seat)));
}

/** @param {Role[]} a @param {Role[]} b */
function sameMark(a, b) {
  return a.length === b.length && a.every((role) => b.includes(role));
}

/** @param {HTMLFormElement} form @param {string} seat @param {Role[]} roles */
function mark(form, seat, roles) {
  for (const role of tapOrder(form)) {
    const input = roleInput(form, role, seat);
    if (!input) continue;
    const on = roles.includes(role);
    if (role === "knocker" && !on) {
      const nobody = /** @type {HTMLInputElement | null} */ (form.querySelector("input[name=knocker][value='']"));
      if (input.checked && nobody) nobody.checked = true;
    } else {
      input.checked = on;
    }
  }
}

/** @param {HTMLFormElement} form @param {string} seat */
function tapRole(form, seat) {
  const options = marks(form, seat);
  const now = options.findIndex((option) => sameMark(option, held(form, seat, tapOrder(form))));
  mark(form, seat, options[(now + 1) % options.length]);
}

/** @param {HTMLFormElement} form @param {string} seat */
function lostSelect(form, seat) {
  return /** @type {HTMLSelectElement | null} */ (form.querySelector(`select[name=lost_${seat}]`));
}

/* Counting by hand: each tap takes one more life, up to what a round can cost, then none. */
/** @param {HTMLFormElement} form @param {string} seat */
function tapLife(form, seat) {
  const select = lostSelect(form, seat);
  if (!select) return;
  const most = Number(form.dataset.most);
  select.value = String((Number(select.value || 0) + 1) % (most + 1));
}

/* "Has 31": a life from everyone else still in. */
/** @param {HTMLFormElement} form @param {string} seat */
function hasThirtyOne(form, seat) {
  for (const select of /** @type {NodeListOf<HTMLSelectElement>} */ (form.querySelectorAll("select[name^=lost_]"))) {
    select.value = select.name === `lost_${seat}` ? "0" : "1";
  }
}

/** Draw each player's mark from the form's inputs, and the hint for the chosen ending. @param {HTMLFormElement} form */
export function sync(form) {
  const ending = chosenEnding(form);
  const roles = counting(form) ? [] : tapOrder(form);
  // What a player who showed is called on their tile, as the ending says ("dealt 31").
  const shown = (ending && ending.dataset.shownWord) || word("showed_31", "showed 31");
  for (const tile of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll(".tile[data-seat]"))) {
    const seat = tile.dataset.seat || "";
    /** @type {string[]} */
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
    if (role && words.length) {
      const pause = document.createElement("span");
      pause.className = "visually-hidden";
      pause.textContent = ", ";
      role.replaceChildren(pause, words.join(" · "));
    } else if (role) {
      role.replaceChildren();
    }
    tile.setAttribute("aria-pressed", words.length ? "true" : "false");
    tile.classList.toggle("marked", words.length > 0);
  }
  const hint = document.getElementById("tap-hint");
  if (hint) hint.textContent = ending ? ending.dataset.hint || "" : "";
}

/** What was tapped, in words, as the tiles say it: "Knock · Ana knocked · Cara lowest". @param {HTMLFormElement} form */
export function tappedWords(form) {
  const ending = chosenEnding(form);
  const parts = [];
  if (ending) parts.push((ending.closest("label")?.textContent || ending.value).trim());
  for (const tile of /** @type {NodeListOf<HTMLElement>} */ (form.querySelectorAll(".tile[data-seat]"))) {
    const role = tile.querySelector("[data-role]")?.textContent?.replace(/^,\s*/, "").trim();
    const name = tile.querySelector(".name")?.textContent?.trim();
    if (role && name) parts.push(`${name} ${role}`);
  }
  const typed = Array.from(/** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll(".part-cards input[type=text]"))).filter((input) => input.value.trim());
  if (typed.length) parts.push(typed.map((input) => input.value.trim()).join(" / "));
  return parts.join(" · ");
}

/** The taps of a round, as the form's fields (each with the list of its values): what the engine
   reads and what a swap must not lose. @param {HTMLFormElement} form */
export function roundFields(form) {
  /** @type {Record<string, string[]>} */
  const fields = {};
  for (const [name, value] of new FormData(form)) (fields[name] ||= []).push(String(value));
  return fields;
}

/** The form as a new round begins: no player marked, no life taken, no card typed. @param {HTMLFormElement} form */
export function clearTaps(form) {
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll("input[name=knocker], input[name=shown], input[name=lowest], input[name=winners], input[name=choice]"))) {
    input.checked = input.name === "knocker" && input.value === "";
  }
  for (const select of /** @type {NodeListOf<HTMLSelectElement>} */ (form.querySelectorAll("select[name^=lost_]"))) select.value = "0";
  for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll(".part-cards input[type=text]"))) input.value = "";
  sync(form);
}

/** Whether anything of a round is tapped on the form (a player marked, a life taken, a card typed). @param {HTMLFormElement} form */
export function hasTaps(form) {
  const marked = form.querySelector("input[name=shown]:checked, input[name=lowest]:checked, input[name=winners]:checked, input[name=knocker]:checked:not([value=''])");
  const lost = [...form.querySelectorAll("select[name^=lost_]")].some((select) => /** @type {HTMLSelectElement} */ (select).value !== "0");
  const typed = [...form.querySelectorAll(".part-cards input[type=text]")].some((input) => /** @type {HTMLInputElement} */ (input).value.trim());
  return !!marked || lost || typed;
}

/** The taps `fields` put on `form` (a form drawn afresh by the server's answer). @param {HTMLFormElement} form @param {Record<string, string[]>} fields */
export function putTaps(form, fields) {
  for (const element of /** @type {HTMLCollectionOf<HTMLInputElement | HTMLSelectElement>} */ (form.elements)) {
    const name = element.name;
    if (!name || ["version", "client_id", "csrfmiddlewaretoken"].includes(name)) continue;
    const values = fields[name] || [];
    if (element instanceof HTMLInputElement && (element.type === "radio" || element.type === "checkbox")) {
      element.checked = values.includes(element.value) || (element.name === "knocker" && element.value === "" && !values.length);
    } else if (element instanceof HTMLSelectElement || (element instanceof HTMLInputElement && element.type === "text")) {
      element.value = values[0] || (element instanceof HTMLSelectElement ? "0" : "");
    }
  }
  sync(form);
}

/**
 * Listen for the taps on the page's record form; `changed` is told after each.
 * @param {(form: HTMLFormElement) => void} changed
 */
export function listen(changed) {
  /** @param {HTMLFormElement} form */
  function tapped(form) {
    sync(form);
    changed(form);
    form.dispatchEvent(new Event("change", { bubbles: true }));
  }

  document.addEventListener("click", (event) => {
    const form = recordForm();
    const target = /** @type {HTMLElement} */ (event.target);
    if (!form || !form.contains(target)) return;
    const tile = /** @type {HTMLButtonElement | null} */ (target.closest(".tile[data-seat]"));
    const thirtyOne = /** @type {HTMLElement | null} */ (target.closest(".has31"));
    const clear = target.closest(".clear-cards");
    if (tile && !tile.disabled) {
      if (counting(form)) tapLife(form, tile.dataset.seat || "");
      else tapRole(form, tile.dataset.seat || "");
      tapped(form);
    } else if (thirtyOne) {
      hasThirtyOne(form, thirtyOne.dataset.seat || "");
      tapped(form);
    } else if (clear) {
      for (const input of /** @type {NodeListOf<HTMLInputElement>} */ (form.querySelectorAll(".part-cards input[type=text]"))) input.value = "";
      for (const value of form.querySelectorAll(".part-cards .hand-value")) value.replaceChildren();
      tapped(form);
    }
  });

  document.addEventListener("change", (event) => {
    const form = recordForm();
    const target = /** @type {HTMLElement} */ (event.target);
    if (form && form.contains(target) && event.isTrusted) {
      sync(form);
      changed(form);
    }
  });

  /* A hand being typed again is no longer the one refused: its red outline goes at once. */
  document.addEventListener("input", (event) => {
    const form = recordForm();
    const target = /** @type {HTMLElement} */ (event.target);
    if (target.matches && target.matches(".part-cards input[aria-invalid]")) target.removeAttribute("aria-invalid");
    if (form && form.contains(target)) changed(form);
  });
}
