// @ts-check
/* The sender: one loop that takes what waits in the outbox to Knock, game by game (the page's
 * own first), each game's start before its rounds (and after the rounds of the game it plays
 * again), the rounds in the order they were tapped.
 * It reads the outbox afresh before every round and takes a round out by its tap id once Knock
 * has it, so a round tapped while others are on their way waits its turn and is never lost.
 * A round Knock did not save (another phone's round came first, or it says why) stops its
 * game's rounds until the table settles it (outbox.settle); no connection stops the loop.
 */
import { NAMES } from "./contract.js";

/** @typedef {import("./outbox.js").Outbox} Outbox */
/** @typedef {import("./contract.js").TheirRound} TheirRound */
/** @typedef {"saved" | "already" | "stale" | "refused"} Outcome */
/** @typedef {{game: string, outcome: Outcome, html: string, version: number, status: number}} Answer */
/** @typedef {"sent" | "blocked" | "offline"} Sent */

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
 * }} needs
 *   `post` answers null where Knock cannot be reached (no connection, or a proxy answering for
 *   it); `lock` runs the loop alone among the phone's pages (navigator.locks), where given.
 */
export function createSender({ outbox, post, lock, onAnswer = () => {}, onFault = () => {} }) {
  /** @type {Promise<void> | null} */
  let running = null;
  let again = false;

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
      const response = await post(head.url, head.body);
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
      if (outcome === "saved" || outcome === "already") {
        await outbox.remove(game, head.id);
      } else {
        const why = headerJson(response, NAMES.headers.why, `HTTP ${response.status}`);
        /** @type {TheirRound[]} */
        const theirs = headerJson(response, NAMES.headers.theirs, []);
        await outbox.refuse(game, head.id, { why, version, theirs });
        if (outcome === "refused") onFault(`a waiting round was refused: ${response.status}`);
      }
      onAnswer({ game, outcome, html, version, status: response.status });
      if (outcome !== "saved" && outcome !== "already") return "blocked";
    }
  }

  /** @param {string | undefined} first */
  async function sendAll(first) {
    for (const game of await outbox.games(first)) {
      if ((await sendGame(game)) === "offline") return;
    }
  }

  return {
    /**
     * Send what waits, `first`'s game first. One loop at a time: asked while it runs, it runs
     * once more when done (a round tapped meanwhile is sent by it).
     * @param {string} [first] @returns {Promise<void>}
     */
    send(first) {
      if (running) {
        again = true;
        return running;
      }
      const loop = async () => {
        do {
          again = false;
          if (lock) await lock(NAMES.locks.sender, () => sendAll(first));
          else await sendAll(first);
        } while (again);
      };
      running = loop().finally(() => {
        running = null;
      });
      return running;
    },
  };
}

/** @typedef {ReturnType<typeof createSender>} Sender */
