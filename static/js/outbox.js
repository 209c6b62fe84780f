// @ts-check
/* The outbox: what this phone recorded that has not reached Knock yet (rounds, in the order they
 * were tapped, and games started without a connection), for every game; and, per game, the last
 * version Knock told this phone and the tap ids it saved from it. The only reader and writer of
 * it: each change is one transaction, so two pages of one phone (two tabs, or a page and the one
 * it became) never overwrite each other's rounds; a round is taken out by its tap id, never by
 * its place in a list. Every page of the phone hears of each change.
 *
 * Every change is written once, over a store that is IndexedDB where the phone has it and the
 * page's memory where it does not (a private window, storage refused or full): there the rounds
 * live as long as the page, and the page says so (`lasting` is false).
 */
import { NAMES } from "./contract.js";

/** @typedef {import("./contract.js").OutboxEntry} Entry */
/** @typedef {import("./contract.js").Start} Start */
/** @typedef {import("./contract.js").Refusal} Refusal */
/** @typedef {Entry & {game: string, seq?: number}} Stored */
/** @typedef {{game: string, version: number, next: number, mine: string[]}} Known what Knock last told this phone of a game */
/** @typedef {{rounds: Entry[], start: Start | null, known: Known | null}} GameBox */
/** @typedef {"added" | "full"} Added */
/** @typedef {{version: number, next: number}} Base the table a round was tapped on: its version and the number of its next round */

const DATABASE = "knock";
const VERSION = 2;
const ROUNDS = "rounds";
const STARTS = "starts";
const KNOWN = "known";
// How many of a game's saved tap ids a phone remembers: more than a phone ever has on its way.
const MINE = 50;
// Where rounds waited before the outbox (one localStorage list per game): moved in once.
const LEGACY = { rounds: "knock-waiting:", start: "knock-start:" };

/**
 * @template T
 * @param {IDBRequest<T>} request
 * @returns {Promise<T>}
 */
function done(request) {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

/** @param {IDBTransaction} transaction @returns {Promise<void>} */
function committed(transaction) {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error || new Error("the outbox's transaction was aborted"));
  });
}

/** The form's body with its version set to `version`. @param {string} body @param {number} version */
export function withVersion(body, version) {
  const fields = new URLSearchParams(body);
  fields.set(NAMES.fields.version, String(version));
  return fields.toString();
}

/** The version a body was made on. @param {string} body */
export function versionOf(body) {
  return Number(new URLSearchParams(body).get(NAMES.fields.version) || 0);
}

/** @param {Stored} stored @returns {Entry} */
function entryOf(stored) {
  const { game: _game, seq: _seq, ...entry } = stored;
  return entry;
}

/** A start as stored, without the store's own key. @param {Start & {game?: string}} stored @returns {Start} */
function startOf({ url, body, refused, after }) {
  return { url, body, ...(refused ? { refused } : {}), ...(after ? { after } : {}) };
}

/**
 * What one transaction may do, over either store.
 * @typedef {{
 *   rounds: (game: string) => Promise<Stored[]>,
 *   allRounds: () => Promise<Stored[]>,
 *   byId: (id: string) => Promise<Stored | undefined>,
 *   addRound: (stored: Stored) => Promise<unknown>,
 *   putRound: (stored: Stored) => Promise<unknown>,
 *   deleteRound: (seq: number) => Promise<unknown>,
 *   start: (game: string) => Promise<(Start & {game: string}) | undefined>,
 *   startKeys: () => Promise<string[]>,
 *   putStart: (start: Start & {game: string}) => Promise<unknown>,
 *   deleteStart: (game: string) => Promise<unknown>,
 *   known: (game: string) => Promise<Known | undefined>,
 *   putKnown: (known: Known) => Promise<unknown>,
 * }} Stores
 */
/** @typedef {<T>(mode: IDBTransactionMode, task: (stores: Stores) => Promise<T>) => Promise<T>} Transact */

/** @param {IDBOpenDBRequest} opening */
function upgrade(opening) {
  /** @param {IDBVersionChangeEvent} event */
  return (event) => {
    const db = opening.result;
    // Each version's change, in order, from the version the phone has.
    if (event.oldVersion < 1) {
      const rounds = db.createObjectStore(ROUNDS, { keyPath: "seq", autoIncrement: true });
      rounds.createIndex("game", "game");
      rounds.createIndex("id", "id", { unique: true });
      db.createObjectStore(STARTS, { keyPath: "game" });
    }
    if (event.oldVersion < 2) db.createObjectStore(KNOWN, { keyPath: "game" });
  };
}

/** The transactions of an IndexedDB database. @param {IDBDatabase} db @returns {Transact} */
function indexedStores(db) {
  return async (mode, task) => {
    const transaction = db.transaction([ROUNDS, STARTS, KNOWN], mode);
    const finished = committed(transaction);
    const rounds = transaction.objectStore(ROUNDS);
    const starts = transaction.objectStore(STARTS);
    const known = transaction.objectStore(KNOWN);
    /** @type {Stores} */
    const stores = {
      rounds: (game) => done(rounds.index("game").getAll(game)),
      allRounds: () => done(rounds.getAll()),
      byId: (id) => done(rounds.index("id").get(id)),
      addRound: (stored) => done(rounds.add(stored)),
      putRound: (stored) => done(rounds.put(stored)),
      deleteRound: (seq) => done(rounds.delete(seq)),
      start: (game) => done(starts.get(game)),
      startKeys: async () => (await done(starts.getAllKeys())).map(String),
      putStart: (start) => done(starts.put(start)),
      deleteStart: (game) => done(starts.delete(game)),
      known: (game) => done(known.get(game)),
      putKnown: (kept) => done(known.put(kept)),
    };
    let result;
    try {
      result = await task(stores);
    } catch (error) {
      try {
        transaction.abort();
      } catch {
        // Already finished: its own error is the one to say.
      }
      await finished.catch(() => {});
      throw error;
    }
    await finished;
    return result;
  };
}

/** The transactions of a store in the page's memory: one at a time, each all or nothing. @returns {Transact} */
export function memoryStores() {
  /** @type {{rounds: Stored[], starts: Map<string, Start & {game: string}>, known: Map<string, Known>, seq: number}} */
  let state = { rounds: [], starts: new Map(), known: new Map(), seq: 0 };
  let queue = Promise.resolve();
  const copy = (/** @type {any} */ value) => structuredClone(value);
  return (mode, task) => {
    const run = async () => {
      const before = state;
      state = copy(before);
      /** @type {Stores} */
      const stores = {
        rounds: async (game) => copy(state.rounds.filter((stored) => stored.game === game)),
        allRounds: async () => copy(state.rounds),
        byId: async (id) => copy(state.rounds.find((stored) => stored.id === id)),
        addRound: async (stored) => {
          if (state.rounds.some((kept) => kept.id === stored.id)) throw new Error("a round with this tap id is kept already");
          state.seq += 1;
          state.rounds.push({ ...copy(stored), seq: state.seq });
        },
        putRound: async (stored) => {
          const at = state.rounds.findIndex((kept) => kept.seq === stored.seq);
          if (at >= 0) state.rounds[at] = copy(stored);
        },
        deleteRound: async (seq) => void (state.rounds = state.rounds.filter((kept) => kept.seq !== seq)),
        start: async (game) => copy(state.starts.get(game)),
        startKeys: async () => [...state.starts.keys()],
        putStart: async (start) => void state.starts.set(start.game, copy(start)),
        deleteStart: async (game) => void state.starts.delete(game),
        known: async (game) => copy(state.known.get(game)),
        putKnown: async (kept) => void state.known.set(kept.game, copy(kept)),
      };
      try {
        const result = await task(stores);
        if (mode === "readonly") state = before;
        return result;
      } catch (error) {
        state = before;
        throw error;
      }
    };
    const result = queue.then(run);
    queue = result.then(
      () => undefined,
      () => undefined
    );
    return result;
  };
}

/**
 * Open the outbox: on IndexedDB where it opens, else in the page's memory (`lasting` false).
 * @param {{indexedDB?: IDBFactory | null, name?: string, channel?: BroadcastChannel | null, legacy?: Storage | null, onFallback?: (error: unknown) => void, blockedMs?: number}} where
 *   the phone's IndexedDB (a fake one in the unit tests); the channel its pages tell each other
 *   of changes on; the localStorage an older Knock kept rounds in; told why the outbox lives in
 *   the page's memory, where it does.
 */
export async function openOutbox({ indexedDB, name = DATABASE, channel = null, legacy = null, onFallback = () => {}, blockedMs = 3000 }) {
  /** @type {Transact} */
  let transact;
  let lasting = true;
  try {
    if (!indexedDB) throw new Error("this browser has no IndexedDB");
    const opening = indexedDB.open(name, VERSION);
    opening.onupgradeneeded = upgrade(opening);
    // A page of an older release holds the outbox open and does not let go (the releases before
    // this one did not know to): its own rounds are its own to send; this page does not wait
    // for it past `blockedMs`, and keeps its rounds in the page meanwhile, saying so.
    const blocked = new Promise((_resolve, reject) => {
      opening.onblocked = () =>
        setTimeout(() => {
          // Opened once the older page has gone: not this page's any more, closed at once.
          opening.onsuccess = () => opening.result.close();
          reject(new Error("an older page of Knock holds the outbox open"));
        }, blockedMs);
    });
    const db = await Promise.race([done(opening), blocked]);
    // A newer page upgrades the outbox: this page lets go, and its next change opens it anew.
    db.onversionchange = () => db.close();
    transact = indexedStores(db);
  } catch (error) {
    onFallback(error);
    transact = memoryStores();
    lasting = false;
    channel = null; // nothing another page could read
  }
  return outboxOver(transact, { channel, legacy, lasting });
}

/**
 * The outbox over its transactions.
 * @param {Transact} transact
 * @param {{channel?: BroadcastChannel | null, legacy?: Storage | null, lasting?: boolean}} [options]
 */
export async function outboxOver(transact, { channel = null, legacy = null, lasting = true } = {}) {
  /** @type {Set<(game: string) => void>} */
  const listeners = new Set();
  /** @type {Map<string, GameBox>} what each game's page last read, for a synchronous look */
  const seen = new Map();

  /** @param {string} game */
  function heard(game) {
    read(game).then(() => listeners.forEach((listener) => listener(game)));
  }
  if (channel) channel.onmessage = (event) => heard(String(event.data));

  /**
   * A change: committed whole or not at all, then every page of the game is told.
   * @template T
   * @param {string} game
   * @param {(stores: Stores) => Promise<T>} task
   * @returns {Promise<T>}
   */
  async function change(game, task) {
    const result = await transact("readwrite", task);
    await read(game);
    listeners.forEach((listener) => listener(game));
    if (channel) channel.postMessage(game);
    return result;
  }

  /** A game's rounds (oldest first), its start and what Knock told of it, as stored now. @param {string} game */
  async function read(game) {
    /** @type {GameBox} */
    const box = await transact("readonly", async (stores) => {
      const [kept, start, known] = await Promise.all([stores.rounds(game), stores.start(game), stores.known(game)]);
      return { rounds: kept.map(entryOf), start: start ? startOf(start) : null, known: known || null };
    });
    seen.set(game, box);
    return box;
  }

  /** @param {Stores} stores @param {string} id */
  async function take(stores, id) {
    const stored = await stores.byId(id);
    if (!stored || stored.seq === undefined) return null;
    await stores.deleteRound(stored.seq);
    return stored;
  }

  const outbox = {
    read,

    /** Whether what waits outlives the page (false: kept in the page's memory only). */
    lasting,

    /** What `game`'s page last read, without waiting (empty before any read). @param {string} game @returns {GameBox} */
    seen(game) {
      return seen.get(game) || { rounds: [], start: null, known: null };
    },

    /** Called with a game's path after every change to it, made by this page or another. @param {(game: string) => void} listener */
    listen(listener) {
      listeners.add(listener);
    },

    /**
     * A round to send, after the game's others; refused past NAMES.mostWaiting. Given `base`
     * (the table it was tapped on), it is made on the table the rounds before it lead to, read
     * in the same transaction: after the newest round waiting, or where none waits, on the
     * newer of the table shown and the last one Knock told this phone of (its own round saved
     * a moment ago, before the page drew the answer).
     * @param {string} game @param {Entry} entry @param {Base} [base] @returns {Promise<Added>}
     */
    add(game, entry, base) {
      return change(game, async (stores) => {
        const kept = await stores.rounds(game);
        if (kept.length >= NAMES.mostWaiting) return "full";
        let made = entry;
        if (base) {
          const last = kept[kept.length - 1];
          const known = await stores.known(game);
          const on = last
            ? { version: versionOf(last.body) + 1, next: last.number + 1 }
            : known && known.version > base.version
              ? { version: known.version, next: Math.max(known.next, base.next) }
              : base;
          made = { ...entry, body: withVersion(entry.body, on.version), number: on.next };
        }
        await stores.addRound({ ...made, game });
        return "added";
      });
    },

    /** The round with this tap id taken out (dropped): true if it was there. @param {string} game @param {string} id */
    remove(game, id) {
      return change(game, async (stores) => (await take(stores, id)) !== null);
    },

    /**
     * The round with this tap id reached Knock (saved, or saved before): taken out, and Knock's
     * version after it kept with its tap id, in the same transaction.
     * @param {string} game @param {string} id @param {number} version
     */
    saved(game, id, version) {
      return change(game, async (stores) => {
        const stored = await take(stores, id);
        const known = (await stores.known(game)) || { game, version: 0, next: 0, mine: [] };
        await stores.putKnown({
          game,
          version: Math.max(known.version, version),
          next: stored ? Math.max(known.next, stored.number + 1) : known.next,
          mine: [...known.mine.filter((mine) => mine !== id), id].slice(-MINE),
        });
        return stored !== null;
      });
    },

    /** The newest round of a game taken back (Undo before it was sent), unless it is `except` (on its way): it, or null. @param {string} game @param {string} [except] */
    removeNewest(game, except) {
      return change(game, async (stores) => {
        const kept = await stores.rounds(game);
        const newest = kept[kept.length - 1];
        if (!newest || newest.seq === undefined || newest.id === except) return null;
        await stores.deleteRound(newest.seq);
        return entryOf(newest);
      });
    },

    /** What the engine says a waiting round did, kept with it. @param {string} game @param {string} id @param {string} headline */
    describe(game, id, headline) {
      return change(game, async (stores) => {
        const stored = await stores.byId(id);
        if (stored) await stores.putRound({ ...stored, headline });
      });
    },

    /** A round Knock did not save, with why and what the table holds instead. @param {string} game @param {string} id @param {Refusal} refusal */
    refuse(game, id, refusal) {
      return change(game, async (stores) => {
        const stored = await stores.byId(id);
        if (stored) await stores.putRound({ ...stored, refused: refusal });
      });
    },

    /**
     * A refused round settled by the table: `drop` takes it out (the same hand, saved by another
     * phone), `after` keeps it to be added after what the table holds. Either way the rounds
     * still waiting are made again on the table as it now stands (`version`), in their order;
     * their tap ids stay, so a round saved before whose answer was lost is still saved once.
     * @param {string} game @param {string} id @param {"drop" | "after"} choice @param {number} version
     */
    settle(game, id, choice, version) {
      return change(game, async (stores) => {
        const kept = await stores.rounds(game);
        let next = version;
        for (const stored of kept) {
          if (stored.seq === undefined) continue;
          if (stored.id === id && choice === "drop") {
            await stores.deleteRound(stored.seq);
            continue;
          }
          const { refused: _refused, ...waiting } = stored;
          await stores.putRound({ ...waiting, body: withVersion(stored.body, next) });
          next += 1;
        }
      });
    },

    /** A game started on this phone, to start on the server before its rounds. @param {string} game @param {Start} start */
    setStart(game, start) {
      return change(game, async (stores) => void (await stores.putStart({ ...start, game })));
    },

    /** The game's start sent (or refused, with the server's words). @param {string} game @param {string} [refused] */
    endStart(game, refused) {
      return change(game, async (stores) => {
        if (!refused) return void (await stores.deleteStart(game));
        const start = await stores.start(game);
        if (start) await stores.putStart({ ...start, refused });
      });
    },

    /** Every game with something waiting, `first` first. @param {string} [first] @returns {Promise<string[]>} */
    async games(first) {
      const found = await transact("readonly", async (stores) => {
        const [all, started] = await Promise.all([stores.allRounds(), stores.startKeys()]);
        return [...new Set([...started, ...all.map((stored) => String(stored.game))])];
      });
      return first === undefined ? found : [first, ...found.filter((game) => game !== first)];
    },
  };

  if (legacy) await moveIn(outbox, legacy);
  return outbox;
}

/**
 * Rounds an older Knock kept in localStorage, moved into the outbox once, so an update in the
 * middle of an evening loses none of them.
 * @param {{add: (game: string, entry: Entry) => Promise<Added>, setStart: (game: string, start: Start) => Promise<void>}} outbox
 * @param {Storage} legacy
 */
async function moveIn(outbox, legacy) {
  const keys = [];
  for (let i = 0; i < legacy.length; i++) {
    const key = legacy.key(i);
    if (key && (key.startsWith(LEGACY.rounds) || key.startsWith(LEGACY.start))) keys.push(key);
  }
  for (const key of keys) {
    let kept;
    try {
      kept = JSON.parse(legacy.getItem(key) || "null");
    } catch {
      kept = null;
    }
    if (key.startsWith(LEGACY.start)) {
      if (kept && kept.url) await outbox.setStart(key.slice(LEGACY.start.length), { url: kept.url, body: kept.body });
    } else if (Array.isArray(kept)) {
      for (const round of kept) {
        const id = new URLSearchParams(round.body).get(NAMES.fields.tapId) || "";
        if (!id) continue;
        await outbox.add(key.slice(LEGACY.rounds.length), {
          id,
          url: round.url,
          body: round.body,
          number: Number(round.number) || 0,
          tapped: String(round.words || ""),
          headline: "",
        });
      }
    }
    legacy.removeItem(key);
  }
}

/** @typedef {Awaited<ReturnType<typeof outboxOver>>} Outbox */
