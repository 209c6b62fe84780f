// @ts-check
/* The sender: the one loop that takes what waits in the outbox to Knock, every game in it (the
 * page's own first), each game's start before its rounds (and after the rounds of the game it
 * plays again), the rounds in the order they were tapped. Every Record goes this way, online or
 * not: the page puts the round in the outbox and wakes the sender; its answer is drawn from what
 * the sender got back.
 *
 * It reads the outbox afresh before every round and takes a round out by its tap id once Knock
 * has it, so a round tapped while others are on their way waits its turn and is never lost. A
 * round Knock did not save stops its game's rounds until the table settles it (outbox.settle),
 * unless the rounds Knock holds in its place were this phone's own (sent before, their answer
 * not yet drawn): then it is made on the table as it stands and sent, nobody asked. Without a
 * connection it tries again by itself, sooner after `wake` (the connection back, the page shown
 * again, any answer from Knock), later each time it fails (1 s doubling to 30 s).
 */
import { NAMES } from "./contract.js";

/** @typedef {import("./outbox.js").Outbox} Outbox */
/** @typedef {import("./contract.js").TheirRound} TheirRound */
/** @typedef {"saved" | "already" | "stale" | "refused"} Outcome */
/** @typedef {{game: string, id: string, outcome: Outcome, html: string, version: number, status: number, last: boolean}} Answer */
/** @typedef {"sent" | "blocked" | "offline"} Sent */
/** @typedef {{setTimeout: (run: () => void, ms: number) => unknown, clearTimeout: (timer: any) => void}} Timers */

/** The first wait before trying again without a connection, and the longest. */
export const RETRY = { first: 1000, most: 30_000 };

/**
 * A header's JSON (the server keeps headers ASCII by escaping the rest), or `fallback`.
 * @template T
 * @param {Response} response @param {string} name @param {T} fallback @returns {T}
 */
function headerJson(response, name, fallback) {
  const raw = response.headers.get(name);
  if (!raw) return fallback;
  try {
    return JSON.parse(raw);
  } catch {
    return fallback;
  }
}

/** What Knock said of the tap, or null where the answer is not Knock's word on it (a proxy's
 * page, a request cut on its way, a fault): then the round is sent again later, never judged
 * refused on it (its tap id keeps it from counting twice). @param {Response} response @returns {Outcome | null} */
function outcomeOf(response) {
  const said = response.headers.get(NAMES.headers.outcome);
  return said === "saved" || said === "already" || said === "stale" || said === "refused" ? said : null;
}

/**
 * @param {{
 *   outbox: Outbox,
 *   post: (url: string, body: string) => Promise<Response | null>,
 *   lock?: (name: string, task: () => Promise<void>) => Promise<void>,
 *   onAnswer?: (answer: Answer) => void,
 *   onFault?: (message: string) => void,
 *   onIdle?: (sent: Sent) => void,
 *   timers?: Timers,
 * }} needs
 *   `post` answers null where Knock cannot be reached (no connection, or a proxy answering for
 *   it); `lock` runs the loop alone among the phone's pages (navigator.locks), where given;
 *   `onIdle` hears how each loop ended; `timers` are the page's (a fake clock in the tests).
 */
export function createSender({ outbox, post, lock, onAnswer = () => {}, onFault = () => {}, onIdle = () => {}, timers = globalThis }) {
  /** @type {Promise<void> | null} */
  let running = null;
  let again = false;
  /** @type {{game: string, id: string} | null} the round on its way */
  let flying = null;
  let wait = RETRY.first;
  /** @type {unknown} */
  let retry = null;
  /** @type {string | undefined} */
  let lastFirst;

  /** @param {string} game @returns {Promise<Sent>} */
  async function sendStart(game) {
    const { start } = await outbox.read(game);
    if (!start) return "sent";
    if (start.refused) return "blocked";
    // The game played again first: Knock starts the next game only from a game that is over.
    if (start.after) {
      const before = await sendGame(start.after);
      if (before !== "sent") return before;
    }
    const response = await post(start.url, start.body);
    if (!response) return "offline";
    if (response.ok) {
      await outbox.endStart(game);
      return "sent";
    }
    // The server's own words where it gave some ("id: …"), else what it answered.
    const plain = (response.headers.get("Content-Type") || "").startsWith("text/plain");
    const why = plain ? (await response.text()).slice(0, 300) : `HTTP ${response.status}`;
    await outbox.endStart(game, why);
    onFault(`start refused: ${response.status}`);
    return "blocked";
  }

  /** @param {string} game @returns {Promise<Sent>} */
  async function sendGame(game) {
    const started = await sendStart(game);
    if (started !== "sent") return started;
    for (;;) {
      const [head] = (await outbox.read(game)).rounds;
      if (!head) return "sent";
      if (head.refused) return "blocked";
      flying = { game, id: head.id };
      let response;
      try {
        response = await post(head.url, head.body);
      } finally {
        flying = null;
      }
      if (!response) return "offline";
      const outcome = outcomeOf(response);
      if (!outcome) {
        onFault(`an answer to a waiting round without Knock's word on it: ${response.status}`);
        return "offline";
      }
      let html;
      try {
        html = await response.text();
      } catch {
        return "offline"; // the answer was cut on its way: sent again, it is "already" if saved
      }
      const version = Number(response.headers.get(NAMES.headers.version) || 0);
      const settled = outcome === "saved" || outcome === "already";
      if (settled) {
        await outbox.saved(game, head.id, version);
      } else {
        const why = headerJson(response, NAMES.headers.why, `HTTP ${response.status}`);
        /** @type {TheirRound[]} */
        const theirs = headerJson(response, NAMES.headers.theirs, []);
        const mine = outbox.seen(game).known?.mine || [];
        if (outcome === "stale" && theirs.length && theirs.every((round) => round.tap && mine.includes(round.tap))) {
          // What Knock holds in its place is this phone's own: made on the table as it stands
          // and sent again at once. Nothing is said of it: its own answer will be.
          await outbox.settle(game, head.id, "after", version);
          continue;
        } else {
          await outbox.refuse(game, head.id, { why, version, theirs });
          if (outcome === "refused") onFault(`a waiting round was refused: ${response.status}`);
        }
      }
      const last = !(await outbox.read(game)).rounds.length;
      onAnswer({ game, id: head.id, outcome, html, version, status: response.status, last });
      if (!settled) return "blocked";
    }
  }

  /** @param {string | undefined} first @returns {Promise<Sent>} */
  async function sendAll(first) {
    let all = /** @type {Sent} */ ("sent");
    for (const game of await outbox.games(first)) {
      const sent = await sendGame(game);
      if (sent === "offline") return "offline";
      if (sent === "blocked") all = "blocked";
    }
    return all;
  }

  /** Try again later, each time later, while Knock cannot be reached. */
  function later() {
    if (retry !== null) return;
    retry = timers.setTimeout(() => {
      retry = null;
      sender.send(lastFirst);
    }, wait);
    wait = Math.min(wait * 2, RETRY.most);
  }

  const sender = {
    /**
     * Send what waits, `first`'s game first. One loop at a time: asked while it runs, it runs
     * once more when done (a round tapped meanwhile is sent by it).
     * @param {string} [first] @returns {Promise<void>}
     */
    send(first) {
      if (first !== undefined) lastFirst = first;
      if (running) {
        again = true;
        return running;
      }
      if (retry !== null) {
        timers.clearTimeout(retry);
        retry = null;
      }
      const run = async () => {
        /** @type {{sent: Sent, ran: boolean}} */
        const loop = { sent: "sent", ran: false };
        do {
          again = false;
          loop.ran = false;
          const task = async () => {
            loop.ran = true;
            loop.sent = await sendAll(first);
          };
          if (lock) await lock(NAMES.locks.sender, task);
          else await task();
        } while (again);
        // Another page of the phone held the loop: it may have finished before this page's
        // round was in the outbox, so this page looks again in a moment.
        if (loop.sent === "offline" || !loop.ran) later();
        else wait = RETRY.first;
        onIdle(loop.sent);
      };
      running = run()
        .catch((error) => {
          onFault(`the sender stopped: ${error}`);
          later();
        })
        .finally(() => {
          running = null;
        });
      return running;
    },

    /** Something says Knock may be reachable again (the connection back, the page shown, an
     * answer): what waits goes now, and the wait starts short again. @param {string} [first] */
    wake(first) {
      wait = RETRY.first;
      return sender.send(first);
    },

    /** The round on its way now, if any: Undo must not take it back from under its send. */
    flying() {
      return flying;
    },

    /** Whether the loop is running (or waiting to try again). */
    busy() {
      return running !== null;
    },
  };
  return sender;
}

/** @typedef {ReturnType<typeof createSender>} Sender */
