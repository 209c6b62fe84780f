// @ts-check
/* Draws a table view (scorekeeper/rules/view.py's TableView) into the table page, as the
 * server's templates draw the same view: used when the phone's engine played a round the server
 * has not answered yet. Nothing here is worked out: every word and every part a tile shows is
 * the view's (a part shows where it is not empty, as in _seat.html), and every tile's markup is
 * the page's own <template id="seat-template"> (_seat.html with every part), cloned and filled. */
import { word } from "./words.js";

/** @typedef {import("./contract.js").TableView} TableView */
/** @typedef {import("./contract.js").SeatView} SeatView */

/** @param {ParentNode} root @param {string} selector @returns {HTMLElement} */
function part(root, selector) {
  const found = root.querySelector(selector);
  if (!found) throw new Error(`the tile's template has no ${selector}`);
  return /** @type {HTMLElement} */ (found);
}

/** A class list: the base, and a size where the view gives one. @param {string} base @param {string} fit */
function fitted(base, fit) {
  return fit ? `${base} ${fit}` : base;
}

/**
 * A tile's words and marks for `seat`, cloned from the page's template, as _seat.html draws them.
 * @param {HTMLTemplateElement} template @param {SeatView} seat @param {TableView} view
 * @returns {Node[]}
 */
export function seatParts(template, seat, view) {
  const tile = /** @type {DocumentFragment} */ (template.content.cloneNode(true));
  const name = part(tile, ".name");
  name.className = fitted("name", seat.name_fit);
  name.textContent = seat.name;
  // Only the parts this seat shows stay, as _seat.html draws them for it.
  const coins = part(tile, ".coins");
  const lives = part(tile, ".lives");
  if (seat.coins !== null) {
    coins.textContent = seat.coins;
    lives.remove();
  } else {
    coins.remove();
    const token = part(lives, ".token");
    if (seat.tokens.length) {
      lives.replaceChildren(
        ...seat.tokens.map((kept) => {
          const made = /** @type {HTMLElement} */ (token.cloneNode());
          made.className = kept ? "token" : "token lost";
          return made;
        })
      );
    } else {
      part(lives, ".count").textContent = seat.count;
    }
  }
  part(tile, ".said").textContent = seat.said;
  const status = part(tile, ".status");
  if (!seat.label) status.remove();
  else {
    status.className = fitted("status", seat.label_fit);
    status.textContent = seat.label;
  }
  const dealer = part(tile, ".dealer");
  if (seat.deals) dealer.textContent = view.deals_word;
  else {
    dealer.previousSibling?.remove(); // the space before it
    dealer.remove();
  }
  return [...tile.childNodes];
}

/** @param {HTMLElement} table @param {TableView} view */
function drawHeader(table, view) {
  const head = table.querySelector(".game-head");
  if (!head) return;
  part(head, "h1").textContent = view.heading;
  const pot = head.querySelector(".pot");
  if (pot) pot.textContent = view.pot;
  const meta = head.querySelector(".meta");
  if (meta) {
    const named = meta.querySelector("bdi");
    /** @type {(Node | string)[]} */
    const line = [];
    if (view.dealer) {
      const dealer = document.createElement("strong");
      dealer.textContent = view.dealer;
      line.push(view.deals_line[0], dealer, view.deals_line[1]);
      if (named) line.push(" · ");
    }
    if (named) line.push(named);
    meta.replaceChildren(...line);
  }
  document.title = document.title.replace(/^[^·]*·/, `${view.heading} ·`);
}

/** The last round's story, in the page's place for it (game.html). @param {HTMLElement} table @param {TableView} view */
function drawStory(table, view) {
  const last = /** @type {HTMLElement | null} */ (table.querySelector("section.last"));
  if (!last) return;
  last.hidden = !view.story.length;
  part(last, "h2").textContent = view.story_heading;
  part(last, "ul.story").replaceChildren(
    ...view.story.map((sentence) => {
      const item = document.createElement("li");
      item.textContent = sentence;
      return item;
    })
  );
}

/** Who won, where the engine ends the game: the page's winner (game.html's winner-template,
 * Play again in it where this phone can play again), filled in. @param {HTMLElement} table @param {TableView} view */
function drawWinner(table, view) {
  let winner = table.querySelector(".winner.on-phone");
  const template = /** @type {HTMLTemplateElement | null} */ (document.getElementById("winner-template"));
  if (!view.game_over || !template) {
    winner?.remove();
    return;
  }
  if (!winner) {
    winner = /** @type {HTMLElement} */ (/** @type {DocumentFragment} */ (template.content.cloneNode(true)).firstElementChild);
    template.after(winner);
  }
  const line = part(winner, "p");
  if (view.winner) {
    const name = document.createElement("strong");
    name.textContent = view.winner;
    line.replaceChildren(view.wins_words[0], name, view.wins_words[1]);
  } else {
    line.textContent = `${view.result_words}.`;
  }
}

/**
 * The table after a round this phone played: `waiting` when the server has not saved it;
 * `toast` whether to say what it did; `tapping` while the Record tap is still on its way to
 * htmx, which disables Record itself while it sends.
 * @param {TableView} view
 * @param {{waiting?: boolean, toast?: boolean, tapping?: boolean}} [how]
 */
export function draw(view, { waiting = false, toast = true, tapping = false } = {}) {
  const table = document.getElementById("table");
  const template = /** @type {HTMLTemplateElement | null} */ (document.getElementById("seat-template"));
  if (!table || !template) return;
  table.dataset.drawn = waiting ? "phone" : "";
  drawHeader(table, view);
  table.querySelectorAll(".scoreboard > li.seat").forEach((item, i) => {
    const seat = view.seats[i];
    if (!seat) return;
    item.className = `seat ${seat.status}`;
    const tile = /** @type {HTMLElement} */ (item.querySelector(".tile"));
    const role = tile.querySelector("[data-role]");
    const mark = tile.querySelector(".mark"); // the player's colour and initials stay
    tile.replaceChildren(...(mark ? [mark] : []), ...seatParts(template, seat, view));
    if (waiting) {
      const unsaved = document.createElement("span");
      unsaved.className = "unsaved";
      unsaved.textContent = word("unsaved", "not saved yet");
      tile.append(unsaved);
    }
    if (role) tile.append(role);
    tile.classList.toggle("unsaved", waiting);
    if (tile instanceof HTMLButtonElement) tile.disabled = !seat.tappable;
    const has31 = /** @type {HTMLElement | null} */ (item.querySelector(".has31"));
    if (has31) has31.hidden = !seat.tappable;
  });
  drawStory(table, view);
  drawWinner(table, view);
  const form = document.getElementById("record");
  if (form) {
    // At game over the round's questions and Record go, as on the server's game-over screen;
    // Undo stays, for the round that ended it.
    form.classList.toggle("over", view.game_over);
    const confirm = /** @type {HTMLButtonElement | null} */ (form.querySelector("button[name=confirm]"));
    if (confirm) {
      confirm.textContent = form.classList.contains("counting") ? view.save : view.record;
      if (!tapping) confirm.disabled = view.game_over;
    }
    const undo = /** @type {HTMLButtonElement | null} */ (form.querySelector("button.undo"));
    if (undo) undo.hidden = !view.rounds;
  }
  const said = document.getElementById("toast");
  if (toast && said) {
    // None after the round that ends the game (the view says none): the winner says it.
    const words = waiting ? view.waiting : view.saved;
    const line = document.createElement("p");
    const span = document.createElement("span");
    span.textContent = words;
    line.append(span);
    said.replaceChildren(...(words ? [line] : []));
  }
}
