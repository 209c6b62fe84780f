/* What the table page knows of each tap besides the outbox (ledger.js): when a round Knock did
 * not save is taken off the phone, and what the waiting box lists. The simulation drives the
 * same code through whole evenings; these are the rules one by one. */
import assert from "node:assert/strict";
import { test } from "node:test";

import { FRESH_MS, createLedger } from "../../static/js/ledger.js";

function clocked() {
  const clock = { now: 0 };
  return { clock, ledger: createLedger({ now: () => clock.now }) };
}

const stale = (id) => ({ id, game: "/g/", outcome: "stale" });

test("a tap made online with nothing before it, beaten a moment later, is taken off the phone", () => {
  const { clock, ledger } = clocked();
  ledger.kept("a", { online: true, alone: true });
  clock.now = FRESH_MS - 1;
  assert.equal(ledger.drops(stale("a"), [{ id: "a" }]), true);
  clock.now = FRESH_MS;
  assert.equal(ledger.drops(stale("a"), [{ id: "a" }]), false, "answered too late: the table settles it");
});

test("a tap that waited (offline, behind another round, or when Knock was out of reach) is never taken off", () => {
  const { ledger } = clocked();
  ledger.kept("offline", { online: false, alone: true });
  ledger.kept("behind", { online: true, alone: false });
  ledger.kept("cut", { online: true, alone: true });
  ledger.idle("offline", [{ id: "cut" }]);
  for (const id of ["offline", "behind", "cut"]) assert.equal(ledger.drops(stale(id), [{ id }]), false, id);
});

test("a round Knock refused by its rules comes off the phone only when it is alone on it", () => {
  const { ledger } = clocked();
  const refused = { id: "a", game: "/g/", outcome: "refused" };
  assert.equal(ledger.drops(refused, [{ id: "a" }]), true);
  assert.equal(ledger.drops(refused, [{ id: "a" }, { id: "b" }]), false);
});

test("the waiting box lists every refused round the table must settle, at once, and never the one on its way", () => {
  const { ledger } = clocked();
  ledger.kept("a", { online: true, alone: true });
  ledger.kept("b", { online: true, alone: false });
  const rounds = [{ id: "a", refused: { why: "stale" } }, { id: "b" }];
  // Fresh, but not alone: its answer does not take it off, so the table is asked now.
  assert.deepEqual(ledger.listed(rounds, undefined).map((entry) => entry.id), ["a"]);
  assert.deepEqual(ledger.listed([{ id: "a", refused: { why: "stale" } }], undefined), [], "fresh and alone: said on the table");
  ledger.allWaited(rounds);
  assert.deepEqual(ledger.listed(rounds, "b").map((entry) => entry.id), ["a"]);
});

test("a round the phone cannot take off (its storage refused) has waited: the table settles it", async () => {
  const { ledger } = clocked();
  ledger.kept("a", { online: true, alone: true });
  const faults = [];
  const full = { remove: () => Promise.reject(new Error("QuotaExceededError")) };
  assert.equal(await ledger.takeOff(full, stale("a"), [{ id: "a" }], (error) => faults.push(String(error))), false);
  assert.deepEqual(faults, ["Error: QuotaExceededError"]);
  assert.deepEqual(ledger.listed([{ id: "a", refused: { why: "stale" } }], undefined).map((entry) => entry.id), ["a"]);
});
