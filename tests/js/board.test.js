/* The board (static/js/board.js) on a page made with linkedom: a table view drawn into the page's
 * own tile template, as _seat.html draws it: tokens or a count, coins, the status, who deals,
 * the story and the winner in the places game.html keeps for them, and game over taking the
 * round's questions away. The browser tests
 * compare the same drawing with the server's, field by field, in real Chromium. */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { parseHTML } from "linkedom";

// _seat.html with every part a tile may show (every=True), as game.html puts it in the page:
// rendered by Django from the real template (tests/web/test_phone_contract.py keeps it so).
const TEMPLATE = readFileSync(new URL("./seat-template.html", import.meta.url), "utf8");

function page(players) {
  const tiles = players
    .map((name, i) => `<li class="seat in"><button type="button" class="tile" data-seat="${i}"><span class="mark">${name[0]}</span><span class="name">${name}</span><span class="role" data-role></span></button></li>`)
    .join("");
  const { document, window } = parseHTML(`<!doctype html><html><head><title>Round 1 · Club</title></head><body>
    ${TEMPLATE}<div id="toast"></div>
    <div id="table" data-version="0"><div class="game-head"><div class="head-words"><h1>Round 1</h1><p class="pot"></p><p class="meta"><strong>Ana</strong> deals</p></div></div>
    <template id="winner-template"><div class="winner on-phone" role="status"><p></p><button type="button" class="primary play-again-phone">Play again</button></div></template>
    <form id="record" class="record"><div class="controls"></div><ol class="scoreboard">${tiles}</ol>
    <div class="bar"><section id="preview"></section><button type="submit" class="undo" hidden>Undo</button><button type="submit" name="confirm">Record round 1</button></div></form>
    <section class="last" hidden><h2></h2><ul class="story"></ul></section></div>
  </body></html>`);
  globalThis.document = document;
  globalThis.HTMLButtonElement = window.HTMLButtonElement;
  return document;
}

/** A seat as scorekeeper/rules/view.py makes it: every part decided, empty where not shown. */
function seat(name, overrides = {}) {
  return {
    name, name_fit: "", lives: 3, status: "in", out: false, tappable: true, label: "", label_fit: "", deals: false,
    tokens: [true, true, true], count: "", coins: null, said: "3 of 3 lives", ...overrides,
  };
}

function view(overrides = {}) {
  return {
    heading: "Round 2", next_round: 2, rounds: 1, start_lives: 3, game_over: false, dealer: "Ben",
    deals_line: ["", " deals"], pot: "1 life paid into the pot", winner: null, wins_words: ["", " wins!"],
    result_words: "", deals_word: "deals", headline: "Cara −1 · Ben deals next",
    story: ["Ana knocked.", "Cara was lowest and loses a life."], story_heading: "Round 1",
    saved: "Cara −1 · Ben deals next · round 1 saved", waiting: "Cara −1 · Ben deals next · round 1 not sent yet",
    record: "Record round 2", save: "Save round 2",
    seats: [seat("Ana"), seat("Ben", { deals: true, said: "3 of 3 lives," }), seat("Cara", { lives: 2, tokens: [true, true, false], said: "2 of 3 lives" })],
    ...overrides,
  };
}

const { draw, seatParts } = await (async () => {
  page(["Ana"]);
  return import("../../static/js/board.js");
})();

test("each tile keeps its mark and gets the view's words and tokens", () => {
  const document = page(["Ana", "Ben", "Cara"]);
  draw(view(), { waiting: true });
  const tiles = [...document.querySelectorAll(".scoreboard .tile")];
  assert.deepEqual(tiles.map((tile) => tile.querySelector(".mark").textContent), ["A", "B", "C"]);
  assert.equal(tiles[2].querySelectorAll(".token.lost").length, 1);
  assert.equal(tiles[2].querySelectorAll(".token").length, 3);
  assert.equal(tiles[0].querySelector(".count"), null); // tokens drawn one by one: no count
  assert.equal(tiles[0].querySelector(".dealer"), null);
  assert.equal(tiles[1].querySelector(".dealer").textContent, "deals");
  assert.equal(tiles[1].querySelector(".said").textContent, "3 of 3 lives,");
  assert.equal(tiles[0].querySelector(".status"), null);
  assert.ok(tiles.every((tile) => tile.classList.contains("unsaved") && tile.querySelector("span.unsaved")));
  assert.ok(tiles.every((tile) => tile.querySelector("[data-role]"))); // the tap's place stays
  assert.equal(document.querySelector("h1").textContent, "Round 2");
  assert.equal(document.querySelector(".meta").textContent, "Ben deals");
  assert.equal(document.querySelector(".meta strong").textContent, "Ben");
  assert.deepEqual([...document.querySelectorAll("section.last li")].map((li) => li.textContent), view().story);
  assert.equal(document.querySelector("section.last").hidden, false);
  assert.equal(document.querySelector(".winner"), null); // nobody has won yet
  assert.equal(document.querySelector("#toast").textContent, view().waiting);
  assert.equal(document.querySelector("button[name=confirm]").textContent, "Record round 2");
  assert.equal(document.title, "Round 2 · Club");
});

test("a count past five lives, coins, and a status with its size", () => {
  const document = page(["Ana"]);
  const template = document.getElementById("seat-template");
  const many = seatParts(template, seat("Ana", { lives: 7, tokens: [], count: "7/9", said: "7 of 9 lives" }), view({ start_lives: 9 }));
  const wrap = document.createElement("div");
  wrap.append(...many);
  assert.equal(wrap.querySelector(".count").textContent, "7/9");
  assert.equal(wrap.querySelectorAll(".token").length, 1);
  assert.equal(wrap.querySelector(".coins"), null);
  const rich = document.createElement("div");
  rich.append(...seatParts(template, seat("Ana", { coins: "+4", tokens: [], status: "county", label: "auf Gemeindekosten", label_fit: "fit-18", said: "3 of 3 lives," }), view()));
  assert.equal(rich.querySelector(".coins").textContent, "+4");
  assert.equal(rich.querySelector(".lives"), null);
  assert.equal(rich.querySelector(".status").className, "status fit-18");
  assert.equal(rich.querySelector(".said").textContent, "3 of 3 lives,");
});

test("game over: the winner in bold, nobody deals, and the round's questions go", () => {
  const document = page(["Ana", "Ben"]);
  draw(view({ game_over: true, dealer: "", winner: "Ana", heading: "Game over", saved: "", waiting: "", seats: [seat("Ana", { tappable: false }), seat("Ben", { lives: 0, tokens: [false, false, false], status: "out", out: true, tappable: false, label: "out", said: "0 of 3 lives," })] }));
  assert.equal(document.querySelector(".winner p").textContent, "Ana wins!");
  assert.equal(document.querySelector(".winner strong").textContent, "Ana");
  assert.ok(document.querySelector(".winner button.play-again-phone"));
  assert.equal(document.querySelector(".meta").textContent, "");
  assert.ok(document.getElementById("record").classList.contains("over"));
  assert.equal(document.querySelector("button[name=confirm]").disabled, true);
  assert.ok([...document.querySelectorAll(".tile")].every((tile) => tile.disabled));
  assert.equal(document.querySelector("#toast").textContent, ""); // the winner says it
});
