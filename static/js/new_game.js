// @ts-check
/* The new-game and new-tournament pages: each house rule's "As the rules say" names what the chosen rule set says,
 * and follows a change of rule set. */
import { fill, word } from "./words.js";

/** @param {string} words */
function saying(words) {
  return fill(word("as_the_rules_say", "As the rules say: {words}"), { words });
}

/** @param {string} preset */
function follow(preset) {
  for (const rule of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll(".house-rule[data-said]"))) {
    const words = JSON.parse(rule.dataset.said || "{}")[preset];
    const select = rule.querySelector("select");
    const number = /** @type {HTMLInputElement | null} */ (rule.querySelector("input[type=number]"));
    if (select && select.options[0].value === "") select.options[0].textContent = saying(words);
    else if (number) number.placeholder = saying(words);
  }
}

document.addEventListener("change", (event) => {
  const target = /** @type {HTMLInputElement} */ (event.target);
  if (target.name === "preset") follow(target.value);
});
