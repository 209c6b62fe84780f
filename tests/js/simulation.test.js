/* Evenings at the table, simulated: the real outbox, sender and Record path (outbox.js,
 * sender.js, recorder.js, and ledger.js: what the page does with each answer) on phones with one or two pages each, over IndexedDB (fake-indexeddb),
 * storage in the page only, or storage that fails now and then; a fake clock; a Wi-Fi that drops
 * and comes back, answers that arrive late or are lost after Knock saved the round; two phones on
 * one game; reloads and pages closed mid-send; incomplete taps; Play again chains made offline;
 * a release that reloads every page; against a model of Knock (model_knock.js).
 *
 * fast-check makes each evening from a seed and, when one breaks an invariant, shrinks it to the
 * shortest evening that still does and prints its seed and path: replay it with
 *   KNOCK_SEED=<seed> KNOCK_PATH=<path> node --test tests/js/simulation.test.js
 * KNOCK_EVENINGS sets how many evenings (1,000 by default).
 *
 * The invariants, checked after each evening once the Wi-Fi is back for good:
 *   - every tap the phone kept is stored exactly once, in the order tapped, as tapped, save
 *     a fresh one another phone beat, which the page takes off the phone and says (only such);
 *   - the person settles only what the waiting box shows;
 *   - every tap not kept was said, in words;
 *   - nothing incomplete reaches Knock, and one phone alone is never told of another phone;
 *   - nothing waits on any phone once the network is back. */
import assert from "node:assert/strict";
import { test } from "node:test";

import fc from "fast-check";
import { IDBFactory } from "fake-indexeddb";

import { NAMES } from "../../static/js/contract.js";
import { createLedger } from "../../static/js/ledger.js";
import { memoryStores, openOutbox, outboxOver } from "../../static/js/outbox.js";
import { createRecorder } from "../../static/js/recorder.js";
import { createSender } from "../../static/js/sender.js";
import { NEEDS, asResponse, modelKnock } from "./model_knock.js";

const EVENINGS = Number(process.env.KNOCK_EVENINGS || 1000);

/** Let every promise and IndexedDB request that can run, run. */
async function flush(turns = 12) {
  for (let i = 0; i < turns; i++) await new Promise((resolve) => setImmediate(resolve));
}

/** A clock the test moves: the sender's timers and the network's latency run on it. */
function fakeClock(turns) {
  let now = 0;
  let seq = 0;
  /** @type {Map<number, {at: number, run: () => void}>} */
  const timers = new Map();
  return {
    setTimeout(run, ms) {
      seq += 1;
      timers.set(seq, { at: now + Math.max(0, ms), run });
      return seq;
    },
    clearTimeout(id) {
      timers.delete(id);
    },
    get pending() {
      return timers.size;
    },
    get now() {
      return now;
    },
    async advance(ms) {
      const end = now + ms;
      for (;;) {
        let next = null;
        for (const [id, timer] of timers) if (timer.at <= end && (!next || timer.at < next[1].at || (timer.at === next[1].at && id < next[0]))) next = [id, timer];
        if (!next) break;
        timers.delete(next[0]);
        now = next[1].at;
        next[1].run();
        await flush(turns);
      }
      now = end;
      await flush(turns);
    },
  };
}

/** A phone's Web Locks: `ifAvailable`, and a closed page's lock let go. */
function phoneLocks() {
  const held = new Map();
  return {
    for(page) {
      return async (name, task) => {
        if (held.has(name) || !page.alive) return;
        held.set(name, page);
        try {
          await task();
        } finally {
          if (held.get(name) === page) held.delete(name);
        }
      };
    },
    release(page) {
      for (const [name, holder] of held) if (holder === page) held.delete(name);
    },
  };
}

/** A round's taps: a knock, complete or not. */
function knockBody(knocker, lowest, complete) {
  const body = new URLSearchParams({ csrfmiddlewaretoken: "t", ending: "knock", knocker: String(knocker), version: "0", client_id: "" });
  if (complete) body.append("lowest", String(lowest));
  return body;
}

/** One evening, as fast-check drew it; throws where an invariant breaks. */
async function evening({ phones: phoneCount, storage, latency, length, settleBy, actions }) {
  const twoPhones = phoneCount > 1;
  const knock = modelKnock({ length: twoPhones ? Infinity : length });
  const turns = storage === "idb" ? 30 : 8;
  const clock = fakeClock(turns);
  let games = 0;
  const newGame = () => `/c/key/g/${++games}/`;
  const first = newGame();
  knock.open(first);
  let refusedAlone = 0;
  /** Taps taken off a phone that were not fresh (it must never be). */
  const wrongly = [];
  /** Conflicts put to a phone that was alone on its game (it must never be). */
  const blamed = [];
  let taps = 0;

  const phones = Array.from({ length: phoneCount }, (_, n) => ({
    n,
    online: true,
    // What the phone believes (navigator.onLine): a Wi-Fi that drops packets never says so.
    onLine: true,
    locks: phoneLocks(),
    idb: storage === "idb" ? new IDBFactory() : null,
    shared: storage === "idb" ? null : memoryStores(),
    pages: [],
    /** taps kept, per game, in the order tapped: {id, knocker, lowest} */
    kept: new Map(),
    dropped: new Set(),
    /** taps the page took off the phone on Knock's answer, said on the table it drew */
    takenOff: new Set(),
    /** when each tap id was first posted, and whether a send of it ever failed */
    posted: new Map(),
    said: [],
    shownOf: new Map(),
    writes: 0,
  }));

  async function openPage(phone, game) {
    const page = { phone, game, alive: true, shown: { version: phone.shownOf.get(game) ?? 0, next: 1 } };
    if (phone.online && knock.poll(game) !== null) page.shown.version = knock.poll(game);
    let outbox;
    if (phone.idb) outbox = await openOutbox({ indexedDB: phone.idb });
    else {
      const inner = phone.shared;
      // Storage that fails now and then: one write in seven is refused, as a full disk would.
      const transact = storage === "flaky" ? (mode, task) => (mode === "readwrite" && ++phone.writes % 7 === 0 ? Promise.reject(new Error("QuotaExceededError")) : inner(mode, task)) : inner;
      outbox = await outboxOver(transact, { lasting: storage !== "memory" });
    }
    const post = (url, body) =>
      new Promise((resolve) => {
        const id = new URLSearchParams(body).get(NAMES.fields.tapId);
        if (id && !phone.posted.has(id)) phone.posted.set(id, { at: clock.now, failed: false });
        clock.setTimeout(() => {
          if (!page.alive) return; // the page closed: its request goes nowhere
          if (!phone.online) {
            if (id) phone.posted.get(id).failed = true;
            return resolve(null);
          }
          const game = url.replace(/(record|again)$/, "");
          const answer = url.endsWith("again") ? knock.again(game, body) : knock.record(game, body);
          clock.setTimeout(() => {
            if (!page.alive) return;
            if (!phone.online && id) phone.posted.get(id).failed = true;
            resolve(phone.online ? asResponse(answer) : null); // an answer lost on its way back
          }, latency);
        }, latency);
      });
    // What the page knows of each tap besides the outbox, as record.js keeps it.
    const ledger = createLedger({ now: () => clock.now });
    const sender = createSender({
      outbox,
      post,
      lock: phone.locks.for(page),
      // A closed page runs nothing more: its timers go with it.
      timers: { setTimeout: (run, ms) => clock.setTimeout(() => page.alive && run(), ms), clearTimeout: clock.clearTimeout },
      onAnswer(answer) {
        if (!page.alive) return;
        if (answer.outcome === "refused") refusedAlone += 1;
        if (answer.game === page.game) page.shown = { version: answer.version, next: answer.version + 1 };
        phone.shownOf.set(answer.game, answer.version);
        if (!twoPhones && answer.outcome === "stale" && outbox.seen(answer.game).rounds.some((entry) => entry.refused)) {
          blamed.push(JSON.stringify(outbox.seen(answer.game).rounds[0].refused));
        }
        // As record.js: the page drawing this game takes a fresh tap another phone beat (or a
        // round refused alone) off the phone, and says so on the table it draws.
        if (answer.game === page.game && ledger.drops(answer, outbox.seen(answer.game).rounds)) {
          // Only a tap the person is still looking at: tapped online with nothing before it,
          // never sent in vain, answered within 3 s.
          const slot = [...phone.kept.values()].flat().find((kept) => kept.id === answer.id);
          const posted = phone.posted.get(answer.id);
          // (Said after the evening: the sender does not let a page's callback stop it.)
          if (!(slot && slot.fresh)) wrongly.push(`${answer.id}: a tap taken off the phone was tapped online with nothing waiting before it`);
          else if (!(posted && !posted.failed && clock.now - slot.at < 3000)) {
            wrongly.push(`${answer.id}: a tap taken off the phone was answered within 3 s, never sent in vain`);
          }
        }
        if (answer.game === page.game) ledger.takeOff(outbox, answer, outbox.seen(answer.game).rounds).then((off) => off && phone.takenOff.add(answer.id));
      },
      onIdle(sent) {
        if (page.alive) ledger.idle(sent, outbox.seen(page.game).rounds);
      },
    });
    const recorder = createRecorder({ ready: Promise.resolve({ outbox, sender }) });
    Object.assign(page, { outbox, sender, recorder, ledger });
    await outbox.read(game);
    ledger.allWaited(outbox.seen(game).rounds);
    phone.pages.push(page);
    sender.send(game);
    await flush(turns);
    return page;
  }

  function closePage(page) {
    page.alive = false;
    page.phone.locks.release(page);
    page.phone.pages = page.phone.pages.filter((open) => open !== page);
  }

  const livePages = (phone) => phone.pages.filter((page) => page.alive);
  const keptOn = (phone, game) => {
    if (!phone.kept.has(game)) phone.kept.set(game, []);
    return phone.kept.get(game);
  };

  for (const phone of phones) await openPage(phone, first);

  for (const action of actions) {
    const phone = phones[action.phone % phones.length];
    const pages = livePages(phone);
    const page = pages[(action.page || 0) % pages.length];
    switch (action.kind) {
      case "tap": {
        if (!page) break;
        if (!twoPhones && keptOn(phone, page.game).filter((slot) => slot.kept !== false).length >= length) break; // over on this phone
        const body = knockBody(action.knocker % 3, (action.knocker + 1) % 3, action.complete);
        const game = page.game;
        taps += 1;
        const order = keptOn(phone, game);
        const slot = { id: "", knocker: String(action.knocker % 3), lowest: String((action.knocker + 1) % 3), kept: null };
        // The tap's place among the others is taken at the tap (the page keeps them in order).
        order.push(slot);
        page.recorder
          .keep(game, { body, tapped: "Knock", base: page.shown, url: `${game}record`, needs: NEEDS })
          .then((result) => {
            slot.kept = result.kept;
            if (result.kept) {
              slot.id = result.id;
              slot.at = clock.now;
              slot.fresh = phone.onLine && page.outbox.seen(game).rounds.length === 1;
              page.ledger.kept(result.id, { online: phone.onLine, alone: page.outbox.seen(game).rounds.length === 1 });
            } else {
              assert.ok(result.why && typeof result.why === "string", "a tap not kept is said, in words");
              if (action.complete) assert.notEqual(storage, "idb", `a complete tap was not kept on a phone with storage: ${result.why}`);
              phone.said.push(result.why);
            }
          });
        await flush(turns);
        break;
      }
      case "wifi":
        phone.online = action.on;
        // Whether the phone noticed: a Wi-Fi that drops packets never says it was gone.
        if (action.noticed) phone.onLine = action.on;
        if (action.on && action.noticed) for (const open of livePages(phone)) open.sender.wake(open.game);
        await flush(turns);
        break;
      case "wait":
        await clock.advance(action.ms);
        break;
      case "poll":
        // The page's poll (or live news): the table as Knock has it, and the sender woken by
        // any answer; a game Knock does not know yet answers 404 and wakes nothing.
        if (page && phone.online && knock.poll(page.game) !== null) {
          const seen = knock.poll(page.game);
          const waiting = (await page.outbox.read(page.game)).rounds;
          if (!waiting.length) page.shown = { version: seen, next: seen + 1 };
          page.sender.wake(page.game);
        }
        await flush(turns);
        break;
      case "reload":
        if (!page || storage === "memory") break;
        closePage(page);
        await openPage(phone, page.game);
        break;
      case "tab":
        if (!page || storage === "memory" || pages.length > 1) break;
        await openPage(phone, page.game);
        break;
      case "release":
        // A new release: every page of the phone loads again (its outbox kept on the phone).
        if (storage === "memory") break;
        for (const open of pages) {
          closePage(open);
          await openPage(phone, open.game);
        }
        break;
      case "again": {
        if (twoPhones || !page) break;
        const order = keptOn(phone, page.game);
        if (order.filter((slot) => slot.kept !== false).length < length) break;
        await flush(turns);
        if (order.filter((slot) => slot.kept).length < length) break; // a tap of it was not kept: not over
        const next = newGame();
        await page.outbox.setStart(next, { url: `${page.game}again`, body: `id=${encodeURIComponent(next)}`, after: page.game }).catch(() => null);
        if (!(await page.outbox.read(next)).start) break; // storage refused it: Play again said so
        page.game = next;
        page.shown = { version: 0, next: 1 };
        page.sender.send(next);
        await flush(turns);
        break;
      }
      case "settle":
        for (const open of pages) await settleRefused(open, action.drop ? "drop" : settleBy);
        break;
    }
  }

  async function settleRefused(page, choice) {
    for (const game of await page.outbox.games()) {
      const { rounds } = await page.outbox.read(game);
      const [head] = rounds;
      if (!head || !head.refused) continue;
      // The person settles only what the page shows them (the waiting box of its game).
      const flying = page.sender.flying();
      if (game === page.game && !page.ledger.listed(rounds, flying && flying.game === game ? flying.id : undefined).includes(head)) continue;
      // Two phones on one game: the person says whether it is the same hand.
      if (choice === "drop") page.phone.dropped.add(head.id);
      await page.outbox.settle(game, head.id, choice, head.refused.version).catch(() => null);
      page.sender.send(game);
    }
  }

  // The Wi-Fi is back for good, and nobody touches anything: what waits must reach Knock on
  // the phone's own (no page is opened, no button tapped).
  for (const phone of phones) phone.online = phone.onLine = true;
  let waiting = [];
  for (let step = 0; step < 400; step++) {
    await clock.advance(500);
    waiting = [];
    for (const phone of phones) {
      for (const page of livePages(phone)) await settleRefused(page, settleBy);
      const [page] = livePages(phone);
      if (!page) continue;
      for (const game of await page.outbox.games()) {
        const box = await page.outbox.read(game);
        waiting.push(...box.rounds.map((entry) => `phone ${phone.n} ${game} ${entry.id}`), ...(box.start ? [`phone ${phone.n} start ${game}`] : []));
      }
    }
    if (!waiting.length) break;
  }
  assert.deepEqual(waiting, [], "nothing waits once the network is back");
  assert.deepEqual(blamed, [], "one phone alone is never told another phone recorded a round");
  assert.deepEqual(wrongly, [], "only a fresh tap another phone beat is taken off the phone");

  // Every kept tap stored exactly once, in the order tapped, as tapped.
  const stored = new Map();
  for (const [game, g] of knock.games) for (const round of g.rounds) stored.set(round.id, { game, round });
  for (const phone of phones) {
    for (const [game, order] of phone.kept) {
      const expected = order.filter((slot) => slot.kept && !phone.dropped.has(slot.id) && !phone.takenOff.has(slot.id));
      for (const slot of order.filter((kept) => phone.takenOff.has(kept.id))) {
        assert.ok(!stored.has(slot.id), "a tap the page took off the phone was not stored");
        assert.ok(twoPhones, "one phone alone never has a tap taken off: only another phone beats it");
      }
      const g = knock.games.get(game);
      const ids = new Set(expected.map((slot) => slot.id));
      const saved = g ? g.rounds.filter((round) => ids.has(round.id)) : [];
      assert.deepEqual(
        saved.map((round) => round.id),
        expected.map((slot) => slot.id),
        `phone ${phone.n}, ${game}: every kept tap stored once, in the order tapped`
      );
      for (const slot of expected) {
        const { round } = stored.get(slot.id);
        assert.deepEqual([round.fields.knocker, round.fields.lowest], [[slot.knocker], [slot.lowest]], "stored as tapped");
      }
      for (const slot of order) assert.notEqual(slot.kept, null, "every tap was answered: kept, or said why not");
    }
  }
  assert.equal(refusedAlone, 0, "nothing incomplete reached Knock");
  return { taps, saved: knock.counts.saved };
}

const actionArb = fc.oneof(
  { weight: 8, arbitrary: fc.record({ kind: fc.constant("tap"), phone: fc.nat(1), page: fc.nat(1), knocker: fc.nat(2), complete: fc.oneof({ weight: 9, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }) }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("wifi"), phone: fc.nat(1), on: fc.boolean(), noticed: fc.boolean() }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant("wait"), phone: fc.constant(0), ms: fc.integer({ min: 0, max: 4000 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("poll"), phone: fc.nat(1), page: fc.nat(1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("reload"), phone: fc.nat(1), page: fc.nat(1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("tab"), phone: fc.nat(1), page: fc.constant(0) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("release"), phone: fc.nat(1) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("again"), phone: fc.nat(1), page: fc.nat(1) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("settle"), phone: fc.nat(1), drop: fc.boolean() }) }
);

const eveningArb = fc.record({
  phones: fc.oneof({ weight: 3, arbitrary: fc.constant(1) }, { weight: 1, arbitrary: fc.constant(2) }),
  storage: fc.oneof({ weight: 1, arbitrary: fc.constant("idb") }, { weight: 4, arbitrary: fc.constant("shared") }, { weight: 1, arbitrary: fc.constant("memory") }, { weight: 1, arbitrary: fc.constant("flaky") }),
  // Each way: a good Wi-Fi, or a slow one (a round answered seconds after its tap).
  latency: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 400 }) }, { weight: 1, arbitrary: fc.integer({ min: 1000, max: 2500 }) }),
  length: fc.integer({ min: 2, max: 6 }),
  settleBy: fc.constantFrom("drop", "after"),
  actions: fc.array(actionArb, { minLength: 8, maxLength: 60, size: "max" }),
});

test(`${EVENINGS} simulated evenings lose, double, block and change no tap`, { timeout: 240_000 }, async () => {
  const totals = { evenings: 0, taps: 0, saved: 0 };
  const replay = process.env.KNOCK_SEED ? { seed: Number(process.env.KNOCK_SEED), path: process.env.KNOCK_PATH } : {};
  await fc.assert(
    fc.asyncProperty(eveningArb, async (drawn) => {
      const { taps, saved } = await evening(drawn);
      totals.evenings += 1;
      totals.taps += taps;
      totals.saved += saved;
    }),
    { numRuns: EVENINGS, includeErrorInReport: true, ...replay }
  );
  console.log(`${totals.evenings} evenings (with the shrinking), ${totals.taps} taps, ${totals.saved} rounds saved`);
});

test("a one-phone evening in the worst order: taps during a send, the Wi-Fi cut, answers lost, a reload", async () => {
  // A fixed evening the random ones may miss: every kind of step, one after another.
  await evening({
    phones: 1,
    storage: "idb",
    latency: 200,
    length: 4,
    settleBy: "after",
    actions: [
      { kind: "tap", phone: 0, page: 0, knocker: 0, complete: true },
      { kind: "tap", phone: 0, page: 0, knocker: 1, complete: true },
      { kind: "wait", phone: 0, ms: 250 },
      { kind: "wifi", phone: 0, on: false, noticed: true },
      { kind: "wait", phone: 0, ms: 300 },
      { kind: "tap", phone: 0, page: 0, knocker: 2, complete: false },
      { kind: "tap", phone: 0, page: 0, knocker: 2, complete: true },
      { kind: "reload", phone: 0, page: 0 },
      { kind: "tap", phone: 0, page: 0, knocker: 0, complete: true },
      { kind: "again", phone: 0, page: 0 },
      { kind: "tap", phone: 0, page: 0, knocker: 1, complete: true },
      { kind: "wifi", phone: 0, on: true, noticed: false },
      { kind: "tap", phone: 0, page: 0, knocker: 1, complete: true },
    ],
  });
});

test("the model answers a Record as the contract names it", () => {
  const knock = modelKnock();
  knock.open("/g/");
  const body = knockBody(0, 1, true);
  body.set(NAMES.fields.tapId, "a");
  assert.equal(knock.record("/g/", body.toString()).headers[NAMES.headers.outcome], "saved");
});
