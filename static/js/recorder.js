// @ts-check
/* The one path of a Record tap, without the page (docs/engine.md): refused at the tap, or kept
 * in the outbox and the sender woken. The unit tests and the simulation drive it as it is. */
import { NAMES } from "./contract.js";

/** @typedef {import("./outbox.js").Outbox} Outbox */
/** @typedef {import("./outbox.js").Base} Base */
/** @typedef {import("./sender.js").Sender} Sender */
/** @typedef {Record<string, string[]>} Fields */
/** @typedef {{kept: true, id: string} | {kept: false, why: string}} Kept */

/** Where each question an ending asks is answered on the record form. */
const INPUTS = { knocker: "knocker", shown_by: "shown", lowest: "lowest", winners: "winners" };

/** What the phone says when it could not keep a round, and when too many wait. */
export const SAID = {
  notKept: "This phone could not keep the round: record it again.",
  full: "At most {n} rounds can wait on a phone: connect to send them first.",
};

/** @param {URLSearchParams | string} body @returns {Fields} */
export function fieldsOf(body) {
  /** @type {Fields} */
  const fields = {};
  for (const [name, value] of new URLSearchParams(body)) (fields[name] ||= []).push(value);
  return fields;
}

/**
 * Why a round cannot be recorded as tapped, in the server's words, or "" (cards entered answer
 * a showdown's lowest or top hand).
 * @param {Fields} fields the form's fields @param {Record<string, string>} needs the ending's, question to words
 */
export function lacking(fields, needs) {
  const typed = Object.entries(fields).some(([name, values]) => /^cards_\d+$/.test(name) && values.some((value) => value.trim()));
  for (const [question, why] of Object.entries(needs)) {
    const input = INPUTS[/** @type {keyof typeof INPUTS} */ (question)];
    if (!input) continue;
    if ((fields[input] || []).some((value) => value !== "")) continue;
    if ((question === "lowest" || question === "winners") && typed) continue;
    return why;
  }
  return "";
}

/** A tap's own id, made on the phone when it is tapped (never one a kept page carries). */
export function tapId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/**
 * @param {{ready: Promise<{outbox: Outbox, sender: Sender}>, makeId?: () => string, say?: (key: string, fallback: string) => string}} needs
 *   the outbox and its sender once open (a tap made before waits for them, kept in the page);
 *   `makeId` makes tap ids; `say` gives the phone's words in the page's language.
 */
export function createRecorder({ ready, makeId = tapId, say = (_key, fallback) => fallback }) {
  return {
    /**
     * Keep a Record tap: refused where it lacks what its ending needs (nothing kept), else one
     * outbox entry and the sender woken.
     * @param {string} game the game's page
     * @param {{body: URLSearchParams, tapped: string, base: Base, url: string, needs: Record<string, string>, headline?: string}} tap
     * @returns {Promise<Kept>}
     */
    async keep(game, { body, tapped, base, url, needs, headline = "" }) {
      const why = lacking(fieldsOf(body), needs);
      if (why) return { kept: false, why };
      const id = makeId();
      const sent = new URLSearchParams(body);
      sent.set(NAMES.fields.tapId, id);
      sent.set(NAMES.fields.confirm, "1");
      let open;
      try {
        open = await ready;
      } catch {
        return { kept: false, why: say("not_kept", SAID.notKept) };
      }
      let added;
      try {
        added = await open.outbox.add(game, { id, url, body: sent.toString(), number: base.next, tapped, headline }, base);
      } catch {
        return { kept: false, why: say("not_kept", SAID.notKept) };
      }
      if (added === "full") return { kept: false, why: say("too_many_waiting", SAID.full).replace("{n}", String(NAMES.mostWaiting)) };
      open.sender.send(game);
      return { kept: true, id };
    },
  };
}

/** @typedef {ReturnType<typeof createRecorder>} Recorder */
