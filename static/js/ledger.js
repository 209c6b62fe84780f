// @ts-check
/* What the table page knows of each tap besides the outbox: whether it is fresh (tapped online
 * with nothing waiting before it, a moment ago) or has waited. No DOM: record.js asks it, and the
 * simulation (tests/js/simulation.test.js) drives the same code on its fake clock.
 *
 * One rule rests on it (docs/engine.md, the one exception): a tap made online with nothing
 * waiting before it, that another phone beat a moment later, is said on the table Knock answers
 * with ("Nothing was saved from this tap") and taken off the phone; every other round Knock did
 * not save stays, and the table settles it. */

/** How long a tap counts as fresh: the person is still looking at the table. */
export const FRESH_MS = 3000;

/** @typedef {{id: string, refused?: unknown}} Kept */
/** @typedef {{id: string, outcome: string}} Answered */

/** @param {{now?: () => number}} [clock] */
export function createLedger({ now = () => Date.now() } = {}) {
  /** @type {Map<string, number>} when each fresh tap was kept */
  const fresh = new Map();
  /** @type {Set<string>} rounds that have waited: found at load, tapped offline, or on the phone
   * when the sender found Knock out of reach (a send that failed among them) */
  const waited = new Set();

  /** @param {string} id */
  function isFresh(id) {
    return !waited.has(id) && now() - (fresh.get(id) ?? -Infinity) < FRESH_MS;
  }

  /** @param {Kept[]} rounds */
  function allWaited(rounds) {
    for (const entry of rounds) waited.add(entry.id);
  }

  return {
    isFresh,
    allWaited,

    /** A tap kept in the outbox: fresh where the phone is online and nothing waits before it,
     * waited where the phone knows it is offline. @param {string} id @param {{online: boolean, alone: boolean}} how */
    kept(id, { online, alone }) {
      for (const [old, at] of fresh) if (now() - at >= FRESH_MS) fresh.delete(old);
      if (online && alone) fresh.set(id, now());
      if (!online) waited.add(id);
    },

    /** The sender stopped; without a connection, every round on the phone has waited.
     * @param {string} sent @param {Kept[]} rounds */
    idle(sent, rounds) {
      if (sent === "offline") allWaited(rounds);
    },

    /** The rounds the waiting box lists: those that have waited, and a refused one the table
     * must settle (all but a fresh one alone, which its answer takes off the phone); never the
     * one on its way. @param {Kept[]} rounds @param {string | undefined} flying @returns {Kept[]} */
    listed(rounds, flying) {
      const alone = rounds.length === 1;
      return rounds.filter((entry) => (waited.has(entry.id) || (entry.refused && !(alone && isFresh(entry.id)))) && entry.id !== flying);
    },

    /** Whether Knock's answer takes its round off the phone: a round alone on it that Knock
     * refused by its rules (its taps go back on the form, with why), or a fresh one another
     * phone beat (said on the table). @param {Answered} answer @param {Kept[]} rounds */
    drops(answer, rounds) {
      const alone = rounds.length === 1 && rounds[0].id === answer.id;
      return alone && (answer.outcome === "refused" || (answer.outcome === "stale" && isFresh(answer.id)));
    },

    /** Take the answered round off the phone where `drops` says so: true once it is off. Where
     * the phone cannot (its storage refused the write), the round has waited, and the table
     * settles it as any other. @param {{remove: (game: string, id: string) => Promise<unknown>}} outbox
     * @param {Answered & {game: string}} answer @param {Kept[]} rounds @param {(error: unknown) => void} [onFault] */
    async takeOff(outbox, answer, rounds, onFault = () => {}) {
      if (!this.drops(answer, rounds)) return false;
      try {
        await outbox.remove(answer.game, answer.id);
        return true;
      } catch (error) {
        waited.add(answer.id);
        onFault(error);
        return false;
      }
    },
  };
}

/** @typedef {ReturnType<typeof createLedger>} Ledger */
