/* What the unit tests of the phone's modules share: a fresh outbox on a fake IndexedDB (the
 * real API, kept in memory), and a fake Knock that answers a round's POST as the server does. */
import { IDBFactory } from "fake-indexeddb";

import { openOutbox } from "../../static/js/outbox.js";
import { NAMES } from "../../static/js/contract.js";

/** JSON kept to ASCII, as the server writes it in a header. */
export function asciiJson(value) {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

/** A new phone's outbox, and the factory behind it (to open it again, as another page). */
export async function freshOutbox(options = {}) {
  const indexedDB = new IDBFactory();
  return { indexedDB, outbox: await openOutbox({ indexedDB, ...options }) };
}

/** A round as the table page queues it, made on `version`. */
export function round(id, version, number, tapped = "Knock") {
  const body = new URLSearchParams({ ending: "knock", knocker: "0", lowest: "1", version: String(version), client_id: id, confirm: "1" });
  return { id, url: "/c/key/g/game/record", body: body.toString(), number, tapped, headline: "" };
}

/** A server that keeps a game's rounds as Knock does: a round made on the game's version is
 * saved, a tap id seen before is "already", anything else is "stale". `hold` lets a test
 * decide when each answer arrives; `down` makes it unreachable. */
export function fakeKnock() {
  const knock = {
    version: 0,
    saved: [],
    down: false,
    held: [],
    hold: false,
    answer(body) {
      const fields = new URLSearchParams(body);
      const id = fields.get("client_id");
      const headers = new Headers();
      let outcome;
      if (knock.saved.some((kept) => kept.id === id)) outcome = "already";
      else if (Number(fields.get("version")) !== knock.version) outcome = "stale";
      else {
        knock.saved.push({ id, body });
        knock.version += 1;
        outcome = "saved";
      }
      headers.set(NAMES.headers.outcome, outcome);
      headers.set(NAMES.headers.version, String(knock.version));
      if (outcome === "stale") {
        headers.set(NAMES.headers.why, asciiJson("Another phone recorded a round a moment ago"));
        headers.set(NAMES.headers.theirs, asciiJson([{ number: knock.version, tapped: "Knock", headline: "Ben −1" }]));
      }
      return new Response(`<div id="table" data-version="${knock.version}"></div>`, { headers });
    },
    /** What the page's post does: null without a connection. */
    post(url, body) {
      if (knock.down) return Promise.resolve(null);
      if (!knock.hold) return Promise.resolve(knock.answer(body));
      return new Promise((resolve) => knock.held.push(() => resolve(knock.down ? null : knock.answer(body))));
    },
    /** The oldest held answer arrives. */
    async release() {
      while (!knock.held.length) await new Promise((resolve) => setTimeout(resolve, 1));
      knock.held.shift()();
      await new Promise((resolve) => setTimeout(resolve, 5));
    },
  };
  knock.post = knock.post.bind(knock);
  return knock;
}
