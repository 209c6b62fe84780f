/* The sender (static/js/sender.js) against a fake Knock: rounds tapped while others are on
 * their way are sent, never lost; a stale round stops its game until the table settles it. */
import assert from "node:assert/strict";
import { test } from "node:test";

import { createSender } from "../../static/js/sender.js";
import { fakeKnock, freshOutbox, round } from "./helpers.js";

const GAME = "/c/key/g/one/";
const OTHER = "/c/key/g/two/";

test("a round tapped while the rounds before it are being sent is sent too", async () => {
  // Offline, round 1 waits; back online, its answer is slow, and round 2 is tapped meanwhile.
  // The loop that read the list, awaited the answer and wrote its old copy back lost round 2.
  const { outbox } = await freshOutbox();
  const knock = fakeKnock();
  knock.hold = true;
  const sender = createSender({ outbox, post: knock.post });
  await outbox.add(GAME, round("one", 0, 1));
  const sending = sender.send(GAME);
  await outbox.add(GAME, round("two", 1, 2)); // tapped while round 1 is on its way
  sender.send(GAME);
  await knock.release();
  await knock.release();
  await sending;
  assert.deepEqual(knock.saved.map((kept) => kept.id), ["one", "two"]);
  assert.deepEqual((await outbox.read(GAME)).rounds, []);
});

test("without a connection nothing is lost and everything goes once it is back", async () => {
  const { outbox } = await freshOutbox();
  const knock = fakeKnock();
  knock.down = true;
  const sender = createSender({ outbox, post: knock.post });
  for (const [i, id] of ["a", "b", "c"].entries()) await outbox.add(GAME, round(id, i, i + 1));
  await sender.send(GAME);
  assert.equal((await outbox.read(GAME)).rounds.length, 3);
  knock.down = false;
  await sender.send(GAME);
  assert.deepEqual(knock.saved.map((kept) => kept.id), ["a", "b", "c"]);
});

test("an answer lost on the way: sent again, the round is saved once", async () => {
  const { outbox } = await freshOutbox();
  const knock = fakeKnock();
  await outbox.add(GAME, round("a", 0, 1));
  knock.answer(round("a", 0, 1).body); // saved, but the phone never heard
  await createSender({ outbox, post: knock.post }).send(GAME);
  assert.equal(knock.saved.length, 1);
  assert.deepEqual((await outbox.read(GAME)).rounds, []);
});

test("a round another phone beat stops its game, shown with theirs, and one choice settles it", async () => {
  const { outbox } = await freshOutbox();
  const knock = fakeKnock();
  knock.answer(round("theirs", 0, 1).body); // the other phone's round 1
  const answers = [];
  const sender = createSender({ outbox, post: knock.post, onAnswer: (answer) => answers.push(answer.outcome) });
  await outbox.add(GAME, round("mine", 0, 1));
  await outbox.add(GAME, round("next", 1, 2));
  await sender.send(GAME);
  const [mine, next] = (await outbox.read(GAME)).rounds;
  assert.equal(mine.refused.version, 1);
  assert.deepEqual(mine.refused.theirs, [{ number: 1, tapped: "Knock", headline: "Ben −1" }]);
  assert.equal(next.refused, undefined);
  assert.deepEqual(answers, ["stale"]); // and nothing after it was sent
  // "Same hand: drop mine": the rounds after it are made on the table as it stands, and sent.
  await outbox.settle(GAME, "mine", "drop", mine.refused.version);
  await sender.send(GAME);
  assert.deepEqual(knock.saved.map((kept) => kept.id), ["theirs", "next"]);
});

test("another hand: added after the other phone's", async () => {
  const { outbox } = await freshOutbox();
  const knock = fakeKnock();
  knock.answer(round("theirs", 0, 1).body);
  const sender = createSender({ outbox, post: knock.post });
  await outbox.add(GAME, round("mine", 0, 1));
  await sender.send(GAME);
  const [mine] = (await outbox.read(GAME)).rounds;
  await outbox.settle(GAME, "mine", "after", mine.refused.version);
  await sender.send(GAME);
  assert.deepEqual(knock.saved.map((kept) => kept.id), ["theirs", "mine"]);
});

test("a game started on the phone is started before its rounds; refused, its rounds wait", async () => {
  const { outbox } = await freshOutbox();
  const posted = [];
  const post = async (url, _body) => {
    posted.push(url);
    if (url === "/again") return new Response("The club has as many games as it may", { status: 400, headers: { "Content-Type": "text/plain" } });
    return new Response("", { headers: { "Knock-Tap": "saved" } });
  };
  await outbox.setStart(OTHER, { url: "/again", body: "id=2" });
  await outbox.add(OTHER, round("a", 0, 1));
  await createSender({ outbox, post }).send(OTHER);
  assert.deepEqual(posted, ["/again"]);
  assert.equal((await outbox.read(OTHER)).start.refused, "The club has as many games as it may");
  assert.equal((await outbox.read(OTHER)).rounds.length, 1);
});

test("asked to send while sending, the loop goes round once more, never twice at once", async () => {
  const { outbox } = await freshOutbox();
  const knock = fakeKnock();
  let inFlight = 0;
  let most = 0;
  const post = async (url, body) => {
    inFlight += 1;
    most = Math.max(most, inFlight);
    await new Promise((resolve) => setTimeout(resolve, 2));
    inFlight -= 1;
    return knock.answer(body);
  };
  const sender = createSender({ outbox, post });
  for (let i = 0; i < 5; i++) {
    await outbox.add(GAME, round(`r${i}`, i, i + 1));
    sender.send(GAME);
  }
  await sender.send(GAME);
  assert.equal(most, 1);
  assert.equal(knock.saved.length, 5);
});

test("a game played again on the phone starts after the last rounds of the game before it", async () => {
  // Offline, the last round of the old game and Play again wait; the new game's page is open,
  // so its game is sent first: its start waits for the old game's rounds (Knock starts the
  // next game only from a game that is over).
  const { outbox } = await freshOutbox();
  const knock = fakeKnock();
  const posted = [];
  const post = async (url, body) => {
    posted.push(url);
    return url === "/again" ? new Response("", { status: 200 }) : knock.post(url, body);
  };
  await outbox.add(GAME, round("last", 0, 1));
  await outbox.setStart(OTHER, { url: "/again", body: "id=2", after: GAME });
  await createSender({ outbox, post }).send(OTHER);
  assert.deepEqual(posted, [round("last", 0, 1).url, "/again"]);
  assert.deepEqual((await outbox.read(GAME)).rounds, []);
  assert.equal((await outbox.read(OTHER)).start, null);
});

test("without a connection the sender tries again by itself, later each time, and at once when woken", async () => {
  const { outbox } = await freshOutbox();
  const knock = fakeKnock();
  knock.down = true;
  const waits = [];
  const timers = { setTimeout: (run, ms) => (waits.push({ run, ms }), waits.length), clearTimeout: () => {} };
  const sender = createSender({ outbox, post: knock.post, timers });
  await outbox.add(GAME, round("a", 0, 1));
  await sender.send(GAME);
  await waits.shift().run();
  await sender.send(GAME); // the retry's loop
  await waits.shift().run();
  await sender.send(GAME);
  assert.deepEqual(waits.map((wait) => wait.ms), [4000]);
  knock.down = false;
  await sender.wake(GAME);
  assert.deepEqual(knock.saved.map((kept) => kept.id), ["a"]);
});

test("a stale answer naming only this phone's own saved rounds is no conflict: made again and sent", async () => {
  const { outbox } = await freshOutbox();
  const knock = fakeKnock();
  const sender = createSender({ outbox, post: knock.post });
  await outbox.add(GAME, round("mine1", 0, 1));
  await sender.send(GAME);
  // Made on the table before round 1's answer: Knock holds round 1, this phone's own.
  await outbox.add(GAME, round("mine2", 0, 2));
  const post = async (url, body) => {
    const answer = knock.answer(body);
    if (answer.headers.get("Knock-Tap") === "stale") answer.headers.set("Knock-Their-Rounds", JSON.stringify([{ number: 1, tap: "mine1", tapped: "", headline: "" }]));
    return answer;
  };
  await createSender({ outbox, post }).send(GAME);
  assert.deepEqual(knock.saved.map((kept) => kept.id), ["mine1", "mine2"]);
  assert.deepEqual((await outbox.read(GAME)).rounds, []);
});

test("another page of the phone holding the loop: this page looks again in a moment", async () => {
  const { outbox } = await freshOutbox();
  const knock = fakeKnock();
  const waits = [];
  const timers = { setTimeout: (run, ms) => (waits.push({ run, ms }), waits.length), clearTimeout: () => {} };
  const held = async () => {}; // the lock is another page's: the task does not run
  const sender = createSender({ outbox, post: knock.post, timers, lock: held });
  await outbox.add(GAME, round("a", 0, 1));
  await sender.send(GAME);
  assert.equal(waits.length, 1);
});

test("a round made again on this phone's own rounds is not answered as stale: the page never drops it", async () => {
  const { outbox } = await freshOutbox();
  const knock = fakeKnock();
  await outbox.add(GAME, round("mine1", 0, 1));
  await createSender({ outbox, post: knock.post }).send(GAME);
  await outbox.add(GAME, round("mine2", 0, 2)); // made before round 1's answer was drawn
  const post = async (url, body) => {
    const answer = knock.answer(body);
    if (answer.headers.get("Knock-Tap") === "stale") answer.headers.set("Knock-Their-Rounds", JSON.stringify([{ number: 1, tap: "mine1", tapped: "", headline: "" }]));
    return answer;
  };
  const told = [];
  await createSender({ outbox, post, onAnswer: (answer) => told.push(answer.outcome) }).send(GAME);
  assert.deepEqual(told, ["saved"]);
});
