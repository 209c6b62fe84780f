/* The outbox (static/js/outbox.js) on a fake IndexedDB: rounds kept in order per game, taken
 * out by tap id, refused and settled, capped, shared by two pages, moved in from localStorage. */
import assert from "node:assert/strict";
import { test } from "node:test";

import { NAMES } from "../../static/js/contract.js";
import { openOutbox, versionOf } from "../../static/js/outbox.js";
import { freshOutbox, round } from "./helpers.js";

const GAME = "/c/key/g/one/";
const OTHER = "/c/key/g/two/";

test("rounds are kept per game in the order they were tapped", async () => {
  const { outbox } = await freshOutbox();
  await outbox.add(GAME, round("a", 0, 1));
  await outbox.add(OTHER, round("x", 4, 5));
  await outbox.add(GAME, round("b", 1, 2));
  assert.deepEqual((await outbox.read(GAME)).rounds.map((entry) => entry.id), ["a", "b"]);
  assert.deepEqual((await outbox.read(OTHER)).rounds.map((entry) => entry.id), ["x"]);
  assert.deepEqual(await outbox.games(OTHER), [OTHER, GAME]);
  assert.deepEqual(outbox.seen(GAME).rounds.map((entry) => entry.id), ["a", "b"]);
});

test("a round is taken out by its tap id, whatever its place", async () => {
  const { outbox } = await freshOutbox();
  for (const [i, id] of ["a", "b", "c"].entries()) await outbox.add(GAME, round(id, i, i + 1));
  assert.equal(await outbox.remove(GAME, "b"), true);
  assert.equal(await outbox.remove(GAME, "b"), false);
  assert.deepEqual((await outbox.read(GAME)).rounds.map((entry) => entry.id), ["a", "c"]);
  assert.equal((await outbox.removeNewest(GAME)).id, "c");
  assert.deepEqual((await outbox.read(GAME)).rounds.map((entry) => entry.id), ["a"]);
});

test("two pages of one phone adding at once keep every round", async () => {
  const { indexedDB, outbox } = await freshOutbox();
  const other = await openOutbox({ indexedDB });
  await Promise.all(
    Array.from({ length: 20 }, (_, i) => (i % 2 ? outbox : other).add(GAME, round(`t${i}`, i, i + 1)))
  );
  const kept = (await outbox.read(GAME)).rounds.map((entry) => entry.id);
  assert.equal(kept.length, 20);
  assert.deepEqual(new Set(kept), new Set(Array.from({ length: 20 }, (_, i) => `t${i}`)));
});

test("past the most a phone keeps, a round is refused and nothing is kept", async () => {
  const { outbox } = await freshOutbox();
  for (let i = 0; i < NAMES.mostWaiting; i++) assert.equal(await outbox.add(GAME, round(`r${i}`, i, i + 1)), "added");
  assert.equal(await outbox.add(GAME, round("over", NAMES.mostWaiting, 0)), "full");
  assert.equal((await outbox.read(GAME)).rounds.length, NAMES.mostWaiting);
});

test("a refused round settled: dropped, or added after, the rest made on the table as it stands", async () => {
  const { outbox } = await freshOutbox();
  for (const [i, id] of ["a", "b", "c"].entries()) await outbox.add(GAME, round(id, 3 + i, 4 + i));
  const refusal = { why: "Another phone recorded round 4", version: 4, theirs: [] };
  await outbox.refuse(GAME, "a", refusal);
  assert.deepEqual((await outbox.read(GAME)).rounds[0].refused, refusal);

  await outbox.settle(GAME, "a", "drop", 4);
  let kept = (await outbox.read(GAME)).rounds;
  assert.deepEqual(kept.map((entry) => [entry.id, versionOf(entry.body), entry.refused]), [["b", 4, undefined], ["c", 5, undefined]]);

  await outbox.refuse(GAME, "b", { ...refusal, version: 6 });
  await outbox.settle(GAME, "b", "after", 6);
  kept = (await outbox.read(GAME)).rounds;
  assert.deepEqual(kept.map((entry) => [entry.id, versionOf(entry.body), entry.refused]), [["b", 6, undefined], ["c", 7, undefined]]);
  // The tap ids stay: a round saved before, whose answer was lost, is still saved once.
  assert.deepEqual(kept.map((entry) => new URLSearchParams(entry.body).get("client_id")), ["b", "c"]);
});

test("a game started without a connection waits before its rounds, and a refusal stays", async () => {
  const { outbox } = await freshOutbox();
  await outbox.setStart(OTHER, { url: "/again", body: "id=1" });
  assert.deepEqual(await outbox.games(), [OTHER]);
  await outbox.endStart(OTHER, "The club has as many games as it may");
  assert.equal((await outbox.read(OTHER)).start.refused, "The club has as many games as it may");
  await outbox.endStart(OTHER);
  assert.equal((await outbox.read(OTHER)).start, null);
});

test("every page hears of a change, its own and another's", async () => {
  const channels = [new BroadcastChannel("test-outbox"), new BroadcastChannel("test-outbox")];
  const { indexedDB, outbox } = await freshOutbox({ channel: channels[0] });
  const other = await openOutbox({ indexedDB, channel: channels[1] });
  const heard = [];
  outbox.listen((game) => heard.push(["mine", game, outbox.seen(game).rounds.length]));
  const told = new Promise((resolve) => other.listen((game) => resolve(["other", game, other.seen(game).rounds.length])));
  await outbox.add(GAME, round("a", 0, 1));
  assert.deepEqual(heard, [["mine", GAME, 1]]);
  assert.deepEqual(await told, ["other", GAME, 1]);
  channels.forEach((channel) => channel.close());
});

test("rounds an older Knock kept in localStorage are moved in once, none lost", async () => {
  const kept = new Map([
    [`knock-waiting:${GAME}`, JSON.stringify([{ url: "/r", body: "version=2&client_id=old1&confirm=1", number: 3, words: "Cat −1" }])],
    [`knock-start:${OTHER}`, JSON.stringify({ url: "/again", body: "id=2" })],
    ["knock-theme", "dark"],
  ]);
  const legacy = {
    get length() {
      return kept.size;
    },
    key: (i) => [...kept.keys()][i] ?? null,
    getItem: (key) => kept.get(key) ?? null,
    removeItem: (key) => kept.delete(key),
  };
  const { outbox } = await freshOutbox({ legacy });
  assert.deepEqual((await outbox.read(GAME)).rounds.map((entry) => [entry.id, entry.number, entry.tapped]), [["old1", 3, "Cat −1"]]);
  assert.equal((await outbox.read(OTHER)).start.url, "/again");
  assert.deepEqual([...kept.keys()], ["knock-theme"]);
});

test("a release that upgrades the outbox keeps every round an older release left waiting", async () => {
  // Version 1 of the outbox, as the release before this one made it, with two rounds waiting.
  const { IDBFactory } = await import("fake-indexeddb");
  const indexedDB = new IDBFactory();
  await new Promise((resolve, reject) => {
    const opening = indexedDB.open("knock", 1);
    opening.onupgradeneeded = () => {
      const db = opening.result;
      const rounds = db.createObjectStore("rounds", { keyPath: "seq", autoIncrement: true });
      rounds.createIndex("game", "game");
      rounds.createIndex("id", "id", { unique: true });
      db.createObjectStore("starts", { keyPath: "game" });
      rounds.add({ ...round("old1", 3, 4), game: GAME });
      rounds.add({ ...round("old2", 4, 5), game: GAME });
    };
    opening.onsuccess = () => resolve(opening.result.close());
    opening.onerror = () => reject(opening.error);
  });
  const outbox = await openOutbox({ indexedDB });
  assert.equal(outbox.lasting, true);
  assert.deepEqual((await outbox.read(GAME)).rounds.map((entry) => entry.id), ["old1", "old2"]);
  // And the new release's own bookkeeping works on it: a saved round leaves, Knock's word kept.
  await outbox.saved(GAME, "old1", 4);
  assert.deepEqual((await outbox.read(GAME)).known, { game: GAME, version: 4, next: 5, mine: ["old1"] });
});

test("a page of an older release holding the outbox open never keeps a tap from being kept", async () => {
  const { IDBFactory } = await import("fake-indexeddb");
  const indexedDB = new IDBFactory();
  // The release before this one: version 1, open in another tab, and it does not let go.
  const old = await new Promise((resolve) => {
    const opening = indexedDB.open("knock", 1);
    opening.onupgradeneeded = () => opening.result.createObjectStore("rounds", { keyPath: "seq", autoIncrement: true });
    opening.onsuccess = () => resolve(opening.result);
  });
  const heard = [];
  const outbox = await openOutbox({ indexedDB, blockedMs: 20, onFallback: (error) => heard.push(String(error)) });
  assert.equal(outbox.lasting, false); // kept in the page meanwhile, and the page says so
  assert.match(heard[0], /older page/);
  assert.equal(await outbox.add(GAME, round("a", 0, 1)), "added");
  old.close(); // the old tab closes at last
});
