// @ts-check
/* The outbox: what this phone recorded that has not reached Knock yet (rounds, in the order they
 * were tapped, and games started without a connection), for every game. The only reader and
 * writer of it: each change is one IndexedDB transaction, so two pages of one phone (two tabs,
 * or a page and the one it became) never overwrite each other's rounds; a round is taken out by
 * its tap id, never by its place in a list. Every page of the phone hears of each change.
 */
import { NAMES } from "./contract.js";

/** @typedef {import("./contract.js").OutboxEntry} Entry */
/** @typedef {import("./contract.js").Start} Start */
/** @typedef {import("./contract.js").Refusal} Refusal */
/** @typedef {Entry & {game: string, seq?: number}} Stored */
/** @typedef {{rounds: Entry[], start: Start | null}} GameBox */
/** @typedef {"added" | "full"} Added */

const DATABASE = "knock";
const ROUNDS = "rounds";
const STARTS = "starts";
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
 * Open the outbox.
 * @param {{indexedDB: IDBFactory, name?: string, channel?: BroadcastChannel | null, legacy?: Storage | null}} where
 *   the phone's IndexedDB (a fake one in the unit tests); the channel its pages tell each other
 *   of changes on; the localStorage an older Knock kept rounds in.
 */
export async function openOutbox({ indexedDB, name = DATABASE, channel = null, legacy = null }) {
  const opening = indexedDB.open(name, 1);
  opening.onupgradeneeded = () => {
    const db = opening.result;
    const rounds = db.createObjectStore(ROUNDS, { keyPath: "seq", autoIncrement: true });
    rounds.createIndex("game", "game");
    rounds.createIndex("id", "id", { unique: true });
    db.createObjectStore(STARTS, { keyPath: "game" });
  };
  const db = await done(opening);
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
   * One transaction over both stores: `task` queues its requests, and the change counts only
   * once the whole transaction is committed.
   * @template T
   * @param {IDBTransactionMode} mode
   * @param {(rounds: IDBObjectStore, starts: IDBObjectStore) => Promise<T>} task
   * @param {string | null} game the game it changes, whose pages are told
   * @returns {Promise<T>}
   */
  async function transact(mode, task, game) {
    const transaction = db.transaction([ROUNDS, STARTS], mode);
    const finished = committed(transaction);
    let result;
    try {
      result = await task(transaction.objectStore(ROUNDS), transaction.objectStore(STARTS));
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
    if (game !== null && mode === "readwrite") {
      await read(game);
      listeners.forEach((listener) => listener(game));
      if (channel) channel.postMessage(game);
    }
    return result;
  }

  /** @param {IDBObjectStore} rounds @param {string} game @returns {Promise<Stored[]>} */
  function roundsOf(rounds, game) {
    return done(rounds.index("game").getAll(game));
  }

  /** A game's rounds (oldest first) and its start, as stored now. @param {string} game */
  async function read(game) {
    /** @type {GameBox} */
    const box = await transact(
      "readonly",
      async (rounds, starts) => {
        const [kept, start] = await Promise.all([roundsOf(rounds, game), done(starts.get(game))]);
        return { rounds: kept.map(entryOf), start: start ? startOf(start) : null };
      },
      null
    );
    seen.set(game, box);
    return box;
  }

  const outbox = {
    read,

    /** What `game`'s page last read, without waiting (empty before any read). @param {string} game @returns {GameBox} */
    seen(game) {
      return seen.get(game) || { rounds: [], start: null };
    },

    /** Called with a game's path after every change to it, made by this page or another. @param {(game: string) => void} listener */
    listen(listener) {
      listeners.add(listener);
    },

    /**
     * A round to send later, after the game's others; refused past NAMES.mostWaiting.
     * @param {string} game @param {Entry} entry @returns {Promise<Added>}
     */
    add(game, entry) {
      return transact(
        "readwrite",
        async (rounds) => {
          const count = await done(rounds.index("game").count(game));
          if (count >= NAMES.mostWaiting) return "full";
          await done(rounds.add({ ...entry, game }));
          return "added";
        },
        game
      );
    },

    /** The round with this tap id taken out (saved, or dropped): true if it was there. @param {string} game @param {string} id */
    remove(game, id) {
      return transact(
        "readwrite",
        async (rounds) => {
          const stored = /** @type {Stored | undefined} */ (await done(rounds.index("id").get(id)));
          if (!stored || stored.seq === undefined) return false;
          await done(rounds.delete(stored.seq));
          return true;
        },
        game
      );
    },

    /** The newest round of a game taken back (Undo before it was sent): it, or null. @param {string} game */
    removeNewest(game) {
      return transact(
        "readwrite",
        async (rounds) => {
          const kept = await roundsOf(rounds, game);
          const newest = kept[kept.length - 1];
          if (!newest || newest.seq === undefined) return null;
          await done(rounds.delete(newest.seq));
          return entryOf(newest);
        },
        game
      );
    },

    /** What the engine says a waiting round did, kept with it. @param {string} game @param {string} id @param {string} headline */
    describe(game, id, headline) {
      return transact(
        "readwrite",
        async (rounds) => {
          const stored = /** @type {Stored | undefined} */ (await done(rounds.index("id").get(id)));
          if (stored) await done(rounds.put({ ...stored, headline }));
        },
        game
      );
    },

    /** A round Knock did not save, with why and what the table holds instead. @param {string} game @param {string} id @param {Refusal} refusal */
    refuse(game, id, refusal) {
      return transact(
        "readwrite",
        async (rounds) => {
          const stored = /** @type {Stored | undefined} */ (await done(rounds.index("id").get(id)));
          if (stored) await done(rounds.put({ ...stored, refused: refusal }));
        },
        game
      );
    },

    /**
     * A refused round settled by the table: `drop` takes it out (the same hand, saved by another
     * phone), `after` keeps it to be added after what the table holds. Either way the rounds
     * still waiting are made again on the table as it now stands (`version`), in their order;
     * their tap ids stay, so a round saved before whose answer was lost is still saved once.
     * @param {string} game @param {string} id @param {"drop" | "after"} choice @param {number} version
     */
    settle(game, id, choice, version) {
      return transact(
        "readwrite",
        async (rounds) => {
          const kept = await roundsOf(rounds, game);
          let next = version;
          for (const stored of kept) {
            if (stored.seq === undefined) continue;
            if (stored.id === id && choice === "drop") {
              await done(rounds.delete(stored.seq));
              continue;
            }
            const { refused: _refused, ...waiting } = stored;
            await done(rounds.put({ ...waiting, body: withVersion(stored.body, next) }));
            next += 1;
          }
        },
        game
      );
    },

    /** A game started on this phone, to start on the server before its rounds. @param {string} game @param {Start} start */
    setStart(game, start) {
      return transact("readwrite", async (_rounds, starts) => void (await done(starts.put({ ...start, game }))), game);
    },

    /** The game's start sent (or refused, with the server's words). @param {string} game @param {string} [refused] */
    endStart(game, refused) {
      return transact(
        "readwrite",
        async (_rounds, starts) => {
          if (!refused) return void (await done(starts.delete(game)));
          const start = await done(starts.get(game));
          if (start) await done(starts.put({ ...start, refused }));
        },
        game
      );
    },

    /** Every game with something waiting, `first` first. @param {string} [first] @returns {Promise<string[]>} */
    async games(first) {
      const found = await transact(
        "readonly",
        async (rounds, starts) => {
          const [all, started] = await Promise.all([done(rounds.getAll()), done(starts.getAllKeys())]);
          const games = all.map((stored) => String(stored.game));
          return [...new Set([...started.map(String), ...games])];
        },
        null
      );
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

/** @typedef {Awaited<ReturnType<typeof openOutbox>>} Outbox */
