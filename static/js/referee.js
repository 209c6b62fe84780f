// @ts-check
/* The referee's card grids: a card already in another player's hand is greyed out in every
 * other grid (a deck has one of each). The server still checks; this only saves a wrong tap. */

/** @type {Record<string, string>} */
const SUITS = { "♠": "S", "♥": "H", "♦": "D", "♣": "C" };

/** The codes a player typed, as the grid names them: "10h K♦ as" gives 10H KD AS. @param {string} text */
function typed(text) {
  return text
    .toUpperCase()
    .replace(/[♠♥♦♣]/g, (suit) => SUITS[suit])
    .split(/[\s,]+/)
    .filter(Boolean);
}

function grey() {
  const players = Array.from(document.querySelectorAll("#referee-form .player"));
  const held = players.map((player) => {
    const field = /** @type {HTMLInputElement | null} */ (player.querySelector("input[name$='-cards']"));
    const cards = new Set(typed(field?.value || ""));
    for (const pick of /** @type {NodeListOf<HTMLInputElement>} */ (player.querySelectorAll(".pick input:checked"))) cards.add(pick.value);
    return cards;
  });
  players.forEach((player, i) => {
    for (const pick of /** @type {NodeListOf<HTMLInputElement>} */ (player.querySelectorAll(".pick input"))) {
      const elsewhere = held.some((cards, j) => j !== i && cards.has(pick.value));
      pick.closest(".pick")?.classList.toggle("used", elsewhere && !pick.checked);
    }
  });
}

document.addEventListener("input", grey);
document.addEventListener("change", grey);
document.addEventListener("htmx:afterSettle", grey);
grey();
