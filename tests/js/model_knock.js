/* A model of Knock's answers to what a phone's sender posts (scorekeeper/web/views/games.py:
 * record; the again view), small enough to run thousands of evenings: each game's version and
 * rounds, a tap id saved once, a round made on an older table refused as stale with the rounds
 * saved since (their tap ids among them), an incomplete round refused in Knock's words, a game
 * over after its rounds, the next game started only from a game that is over. Its answers are
 * checked against the real server by shared cases (record_cases.json: tests/js/model.test.js
 * here, tests/web/test_record_cases.py there). */
import { NAMES } from "../../static/js/contract.js";
import { asciiJson } from "./helpers.js";

/** What Knock says of an incomplete knock, as the record form's chips carry it. */
export const NEEDS = {
  knocker: "Say who knocked.",
  lowest: "Say who was lowest: tap them, or enter everyone's cards.",
};

/**
 * @param {{length?: number}} [options] how many rounds a game lasts (Infinity: never over)
 */
export function modelKnock({ length = Infinity } = {}) {
  /** @type {Map<string, {version: number, rounds: {id: string, version: number, number: number, fields: Record<string, string[]>}[], over: boolean}>} */
  const games = new Map();
  const counts = { saved: 0, already: 0, stale: 0, refused: 0 };

  function game(id) {
    if (!games.has(id)) games.set(id, { version: 0, rounds: [], over: false });
    return games.get(id);
  }

  /** @param {string} body */
  function fieldsOf(body) {
    const fields = {};
    for (const [name, value] of new URLSearchParams(body)) (fields[name] ||= []).push(value);
    return fields;
  }

  /** @param {number} status @param {Record<string, string>} headers @param {string} html */
  function answer(status, headers, html) {
    return { status, headers, html };
  }

  const knock = {
    games,
    counts,
    /** A game that exists from the start (made by the test). @param {string} id */
    open(id) {
      game(id);
    },

    /** Knock's answer to a Record of `gameId`. @param {string} gameId @param {string} body */
    record(gameId, body) {
      const g = games.get(gameId);
      if (!g) return answer(404, {}, "<h1>Not found</h1>");
      const fields = fieldsOf(body);
      const id = (fields[NAMES.fields.tapId] || [""])[0];
      const seen = Number((fields[NAMES.fields.version] || ["-1"])[0]);
      const table = (outcome, extra = {}) =>
        answer(200, { [NAMES.headers.outcome]: outcome, [NAMES.headers.version]: String(g.version), ...extra }, `<div id="table" data-version="${g.version}"></div>`);
      if (id && g.rounds.some((round) => round.id === id)) {
        counts.already += 1;
        return table("already");
      }
      if (seen !== g.version) {
        counts.stale += 1;
        const since = g.rounds.filter((round) => round.version > seen).slice(0, 5);
        const theirs = since.map((round) => ({ number: round.number, tap: round.id, tapped: "Knock", headline: "" }));
        const last = g.rounds[g.rounds.length - 1];
        const why = last ? `Another phone recorded round ${last.number} a moment ago` : "Another phone changed this game a moment ago";
        return table("stale", { [NAMES.headers.why]: asciiJson(why), [NAMES.headers.theirs]: asciiJson(theirs) });
      }
      const lacking = !(fields.knocker || []).some(Boolean) ? NEEDS.knocker : !(fields.lowest || []).some(Boolean) ? NEEDS.lowest : g.over ? "The game is over." : "";
      if (lacking) {
        counts.refused += 1;
        return table("refused", { [NAMES.headers.why]: asciiJson(lacking) });
      }
      g.version += 1;
      g.rounds.push({ id, version: g.version, number: g.rounds.length + 1, fields });
      if (g.rounds.length >= length) g.over = true;
      counts.saved += 1;
      return table("saved");
    },

    /** Knock's answer to Play again of `before`, starting the game the body names. @param {string} before @param {string} body */
    again(before, body) {
      const next = new URLSearchParams(body).get("id") || "";
      if (games.has(next)) return answer(200, {}, "");
      const old = games.get(before);
      if (!old) return answer(404, {}, "<h1>Not found</h1>");
      if (!old.over) return answer(400, { "Content-Type": "text/plain" }, "id: the game is not over yet");
      game(next);
      return answer(200, {}, "");
    },

    /** The version a poll sees, or null for a game Knock does not know. @param {string} gameId */
    poll(gameId) {
      return games.has(gameId) ? games.get(gameId).version : null;
    },
  };
  return knock;
}

/** A model answer as the Response a phone's fetch gives. */
export function asResponse({ status, headers, html }) {
  return new Response(html, { status, headers });
}
