/* The Record tap's one path (static/js/recorder.js) with the real outbox and sender: an
 * incomplete round refused at the tap in the server's words and never kept; a complete one kept
 * and sent at once; made on the table the phone's own rounds lead to, even before the page has
 * drawn Knock's answer; a tap that storage refuses said, never silently dropped. */
import assert from "node:assert/strict";
import { test } from "node:test";

import { memoryStores, openOutbox, outboxOver, versionOf } from "../../static/js/outbox.js";
import { createRecorder, lacking } from "../../static/js/recorder.js";
import { createSender } from "../../static/js/sender.js";
import { fakeKnock, freshOutbox } from "./helpers.js";
import { NEEDS } from "./model_knock.js";

const GAME = "/c/key/g/one/";

function knockTap(lowest = ["1"]) {
  const body = new URLSearchParams({ ending: "knock", knocker: "0", version: "0" });
  for (const seat of lowest) body.append("lowest", seat);
  return body;
}

function phone(outbox, knock) {
  // Its retries without a connection are the sender's own tests': here they never fire.
  const sender = createSender({ outbox, post: knock.post, timers: { setTimeout: () => 0, clearTimeout: () => {} } });
  let n = 0;
  const recorder = createRecorder({ ready: Promise.resolve({ outbox, sender }), makeId: () => `tap${++n}` });
  return { sender, recorder };
}

test("what an ending needs is checked at the tap, in the words the chips carry", () => {
  assert.equal(lacking({ knocker: ["0"], lowest: ["1"] }, NEEDS), "");
  assert.equal(lacking({ knocker: ["0"] }, NEEDS), NEEDS.lowest);
  assert.equal(lacking({ knocker: [""], lowest: ["1"] }, NEEDS), NEEDS.knocker);
  // Cards entered answer who was lowest: the engine or the server counts them.
  assert.equal(lacking({ knocker: ["0"], cards_1: ["AS KS QS"] }, NEEDS), "");
  assert.equal(lacking({ knocker: ["0"], cards_1: ["  "] }, NEEDS), NEEDS.lowest);
});

test("an incomplete round is refused at the tap and nothing is kept or sent", async () => {
  const { outbox } = await freshOutbox();
  const knock = fakeKnock();
  const { recorder } = phone(outbox, knock);
  const kept = await recorder.keep(GAME, { body: knockTap([]), tapped: "Knock", base: { version: 0, next: 1 }, url: "/r", needs: NEEDS });
  assert.deepEqual(kept, { kept: false, why: NEEDS.lowest });
  assert.deepEqual((await outbox.read(GAME)).rounds, []);
  assert.equal(knock.saved.length, 0);
});

test("a complete round is one outbox entry with its own tap id, sent at once", async () => {
  const { outbox } = await freshOutbox();
  const knock = fakeKnock();
  const { recorder, sender } = phone(outbox, knock);
  const kept = await recorder.keep(GAME, { body: knockTap(), tapped: "Knock · Ann knocked", base: { version: 0, next: 1 }, url: "/r", needs: NEEDS });
  assert.deepEqual(kept, { kept: true, id: "tap1" });
  await sender.send(GAME);
  assert.deepEqual(knock.saved.map((round) => round.id), ["tap1"]);
  assert.deepEqual((await outbox.read(GAME)).rounds, []);
});

test("a tap made before the page drew its own last answer is made on the table Knock holds", async () => {
  // Round 1 is saved (version 1) but the page still shows version 0 when round 2 is tapped:
  // made on 0, Knock would call it stale and blame another phone.
  const { outbox } = await freshOutbox();
  const knock = fakeKnock();
  const { recorder, sender } = phone(outbox, knock);
  await recorder.keep(GAME, { body: knockTap(), tapped: "", base: { version: 0, next: 1 }, url: "/r", needs: NEEDS });
  await sender.send(GAME);
  await recorder.keep(GAME, { body: knockTap(), tapped: "", base: { version: 0, next: 1 }, url: "/r", needs: NEEDS });
  assert.equal(versionOf((await outbox.read(GAME)).rounds[0].body), 1);
  await sender.send(GAME);
  assert.deepEqual(knock.saved.map((round) => round.id), ["tap1", "tap2"]);
  assert.deepEqual((await outbox.read(GAME)).rounds, []);
});

test("rounds tapped while others wait are made one after another", async () => {
  const { outbox } = await freshOutbox();
  const knock = fakeKnock();
  knock.down = true;
  const { recorder } = phone(outbox, knock);
  for (let i = 0; i < 3; i++) await recorder.keep(GAME, { body: knockTap(), tapped: "", base: { version: 4, next: 5 }, url: "/r", needs: NEEDS });
  assert.deepEqual((await outbox.read(GAME)).rounds.map((entry) => [versionOf(entry.body), entry.number]), [[4, 5], [5, 6], [6, 7]]);
});

test("storage that refuses the tap: not kept, and said", async () => {
  const inner = memoryStores();
  const outbox = await outboxOver((mode, task) => (mode === "readwrite" ? Promise.reject(new Error("QuotaExceededError")) : inner(mode, task)));
  const { recorder } = phone(outbox, fakeKnock());
  const kept = await recorder.keep(GAME, { body: knockTap(), tapped: "", base: { version: 0, next: 1 }, url: "/r", needs: NEEDS });
  assert.equal(kept.kept, false);
  assert.match(kept.why, /could not keep the round/);
});

test("an outbox that cannot open storage keeps rounds in the page, and says it does not last", async () => {
  const heard = [];
  const outbox = await openOutbox({ indexedDB: null, onFallback: (error) => heard.push(String(error)) });
  assert.equal(outbox.lasting, false);
  assert.equal(heard.length, 1);
  const knock = fakeKnock();
  const { recorder, sender } = phone(outbox, knock);
  assert.equal((await recorder.keep(GAME, { body: knockTap(), tapped: "", base: { version: 0, next: 1 }, url: "/r", needs: NEEDS })).kept, true);
  await sender.send(GAME);
  assert.equal(knock.saved.length, 1);
});
