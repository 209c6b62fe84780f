/* A round's clock (static/js/clock.js): whole minutes left, rounded up, then "over". */
import assert from "node:assert/strict";
import { test } from "node:test";

import { clockWords } from "../../static/js/clock.js";

const WORDS = { one: "1 min left", many: "{n} min left", over: "Time is up" };
const ENDS = Date.parse("2026-12-07T20:30:00Z");
const before = (ms) => ENDS - ms;

test("the minutes left are whole minutes rounded up", () => {
  assert.equal(clockWords(ENDS, before(30 * 60_000), WORDS), "30 min left");
  assert.equal(clockWords(ENDS, before(29 * 60_000 + 1), WORDS), "30 min left");
  assert.equal(clockWords(ENDS, before(2 * 60_000), WORDS), "2 min left");
});

test("the last minute says one minute until its last millisecond, then time is up", () => {
  assert.equal(clockWords(ENDS, before(60_000), WORDS), "1 min left");
  assert.equal(clockWords(ENDS, before(1), WORDS), "1 min left");
  assert.equal(clockWords(ENDS, ENDS, WORDS), "Time is up");
  assert.equal(clockWords(ENDS, ENDS + 5 * 60_000, WORDS), "Time is up");
});

test("a time the page could not read says the round is over rather than a number", () => {
  assert.equal(clockWords(Number.NaN, ENDS, WORDS), "Time is up");
});
