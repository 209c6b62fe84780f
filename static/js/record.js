// @ts-check
/* What a Record tap does. Online, htmx sends it and the server's answer draws the table; with
 * the engine on the phone, the round was played as it was tapped, and Record draws it at once.
 * Without a connection (or behind rounds still waiting), the round goes to the outbox, played
 * on the phone where the engine can, and the sender takes it to Knock when it can. A round the
 * engine refuses is refused at the tap, in the server's words, and nothing is kept. A preview
 * never enters the outbox. */
import { NAMES } from "./contract.js";
import * as engine from "./engine-client.js";
import { report } from "./faults.js";
import { openOutbox } from "./outbox.js";
import { createSender } from "./sender.js";
import { clearTaps, hasTaps, putTaps, recordForm, tappedWords } from "./taps.js";
import { fill, word } from "./words.js";

/** @typedef {import("./outbox.js").Outbox} Outbox */
/** @typedef {import("./sender.js").Sender} Sender */
/** @typedef {import("./contract.js").OutboxEntry} Entry */
/** @typedef {import("./contract.js").PhoneAnswer} PhoneAnswer */
/** @typedef {import("./contract.js").TableView} TableView */
/** @typedef {import("./engine-client.js").EngineTable} EngineTable */
/** @typedef {Record<string, string[]>} Fields */
/** @typedef {{answer: PhoneAnswer, version: number, count: number}} Asked the engine's answer to `count` rounds played on the table at `version` */

const here = location.pathname;
/** @type {Outbox | undefined} */
let outbox;
/** @type {Sender} */
let sender;
/** @type {typeof import("./board.js") | null} */
let board = null;

/** The table the page was drawn with, as the engine reads it (game.html's engine-table). @returns {EngineTable | null} */
function engineTable() {
  const element = document.getElementById("engine-table");
  return element ? JSON.parse(element.textContent || "null") : null;
}

function table() {
  return document.getElementById("table");
}

/** The version of the table the page shows. */
function shownVersion() {
  return Number(table()?.dataset.version || 0);
}

/** The rounds of this game waiting on the phone. */
function waiting() {
  return outbox ? outbox.seen(here).rounds : [];
}

/** @type {Map<string, string>} what was tapped for each round htmx sent, by its tap id */
const tappedOf = new Map();

// Rounds being put in the outbox (played on the phone first): one at a time, in the order
// tapped, each made on the table the ones before it lead to.
let keeping = Promise.resolve();
let toKeep = 0;

/* The Record htmx is sending now, until its answer is drawn: the rounds tapped meanwhile are made
   on the table it leads to, wait behind it (never sent beside it, where one would cancel the
   other), and, if it cannot be sent, come after it in the outbox. */
/** @type {{body: string, done: Promise<void>, finish: () => void} | null} */
let flight = null;

/** Whether a Record tap waits on the phone rather than go to Knock now. */
function mustWait() {
  return !navigator.onLine || flight !== null || toKeep > 0 || waiting().length > 0 || (!!outbox && outbox.seen(here).start !== null);
}

/** The rounds ahead of the one being tapped, as the form's fields: the one on its way, then
 * the ones waiting (none while one is refused: the table settles it first). */
function roundsAhead() {
  const kept = waiting();
  const rounds = kept.some((entry) => entry.refused) ? [] : kept.map((entry) => entry.body);
  return (flight ? [flight.body, ...rounds] : rounds).map(fieldsOf);
}

/** A form's body as it is sent. @param {HTMLFormElement} form */
function bodyOf(form) {
  return new URLSearchParams(/** @type {any} */ (new FormData(form)));
}

/** @param {URLSearchParams | string} body @returns {Fields} */
function fieldsOf(body) {
  /** @type {Fields} */
  const fields = {};
  for (const [name, value] of new URLSearchParams(body)) (fields[name] ||= []).push(value);
  return fields;
}

/** A tap's own id, made on the phone when it is tapped (never one a kept page carries). */
function tapId() {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/* ---- the engine's answers ------------------------------------------------------------- */

/**
 * The waiting rounds (none while one is refused: the table settles it first) and `more`,
 * played on the phone from the table the page shows; null where the engine cannot say.
 * @param {Fields[]} more @returns {Promise<Asked | null>}
 */
async function ask(more) {
  const shown = engineTable();
  if (!engine.ready() || !shown) return null;
  if (shown.engine !== document.getElementById("engine")?.dataset.version) return null;
  const rounds = roundsAhead();
  const version = shownVersion();
  try {
    return { answer: await engine.play(shown, [...rounds, ...more]), version, count: rounds.length + more.length };
  } catch (error) {
    report("engine", error);
    return null;
  }
}

/** The engine's refusal of the last round it was asked, in the server's words, or "". @param {Asked} asked */
function refusalOf(asked) {
  const stopped = asked.answer.stopped;
  return stopped && stopped.refused && stopped.round === asked.count - 1 ? stopped.why : "";
}

/** What draws the engine's answers, loaded with the engine (the first load carries none of it). */
export async function loadBoard() {
  board ||= await import("./board.js");
}

/** Draw the table after the engine's answer, in the caller's own task, unless the server drew
 * the table meanwhile; every round the phone drew is marked as not saved yet.
 * @param {Asked | null} asked
 * @param {{toast?: boolean, tapping?: boolean}} [how] @returns {TableView | null} */
function drawAnswer(asked, how = {}) {
  if (!asked || !board || shownVersion() !== asked.version || asked.answer.stopped) return null;
  const { played, before } = asked.answer;
  const last = played.length ? played[played.length - 1].view : before;
  if (!last) return null;
  board.draw(last, { waiting: played.length > 0, toast: how.toast !== false && played.length > 0, tapping: how.tapping });
  return last;
}

/** Draw the table with the rounds waiting on the phone played on it (after a reload, an undo,
 * a server's redraw, or another page's change). @param {{toast?: boolean}} [how] */
export async function drawWaiting(how = { toast: false }) {
  if (!waiting().length) return;
  drawAnswer(await ask([]), how);
}

/* The round being tapped is played on the phone as it is tapped, so that Record has only to
   draw it: the tiles change in the frame of the tap. Only online with nothing waiting; the
   answer is kept for the table's version and the form as it was. */
/** @type {{key: string, asked: Asked | null | undefined}} */
let ahead = { key: "", asked: undefined };

/** @param {string} body */
function aheadKey(body) {
  return `${shownVersion()} ${body}`;
}

/** Play the form's round ahead (after the rounds waiting on the phone, if any): its preview is
 * the engine's, and online Record draws it at once. @param {HTMLFormElement} form @returns {Promise<void>} */
export async function playAhead(form) {
  if (!engine.ready()) return;
  const body = bodyOf(form).toString();
  const key = aheadKey(`${waiting().length} ${body}`);
  if (ahead.key === key) return;
  delete form.dataset.ahead;
  const mine = { key, asked: /** @type {Asked | null | undefined} */ (undefined) };
  ahead = mine;
  const asked = await ask([fieldsOf(body)]);
  mine.asked = asked;
  if (ahead !== mine || !asked) return;
  showPreview(asked.answer);
  // Said on the form for whoever looks (the tests): Record will draw at once.
  if (!asked.answer.stopped) form.dataset.ahead = "played";
}

/** The engine's word on the round being tapped, where the server's preview would say it. @param {PhoneAnswer} answer */
function showPreview(answer) {
  const preview = document.getElementById("preview");
  if (!preview) return;
  const stopped = answer.stopped;
  if (stopped && stopped.refused) {
    // What the round still lacks, said plainly, not as an alarm (as the server's preview).
    const said = document.createElement("p");
    said.className = "pending";
    said.textContent = stopped.why;
    preview.replaceChildren(said);
  } else if (!stopped && answer.played.length) {
    const view = answer.played[answer.played.length - 1].view;
    const details = document.createElement("details");
    details.className = "what";
    const summary = document.createElement("summary");
    summary.textContent = view.headline;
    const story = document.createElement("ul");
    story.className = "story";
    story.append(...view.story.map((line) => Object.assign(document.createElement("li"), { textContent: line })));
    details.append(summary, story);
    preview.replaceChildren(details);
  }
}

/** Whether the server's preview is needed for this form: the engine says what a round does,
 * but not what a typed hand is worth (said under each hand) nor what the table may choose. */
export function serverPreviewNeeded() {
  const form = recordForm();
  if (!form || !engine.ready()) return true;
  const typed = [...form.querySelectorAll(".part-cards input[type=text]")].some((input) => /** @type {HTMLInputElement} */ (input).value.trim());
  const answer = ahead.asked?.answer;
  return typed || !answer || (!!answer.stopped && !answer.stopped.refused);
}

/** The engine's answer for the form's round as it now is (played ahead), if it has come. @param {HTMLFormElement} form */
function aheadFor(form) {
  return ahead.key === aheadKey(`${waiting().length} ${bodyOf(form).toString()}`) ? ahead.asked : undefined;
}

/* ---- what the page says ---------------------------------------------------------------- */

/** @param {string} text @param {string} [className] */
function sayInPreview(text, className = "error") {
  const preview = document.getElementById("preview");
  if (!preview) return;
  const said = document.createElement("p");
  said.className = className;
  said.setAttribute("role", "alert");
  said.textContent = text;
  preview.replaceChildren(said);
}

/** Not saved for want of a connection: said where the thumb is, with Retry beside it. */
function sayNotSent() {
  sayInPreview(word("not_sent", "Not saved: no connection. Knock will send it when the connection is back."));
  document.getElementById("preview")?.append(button(word("retry", "Retry"), "retry"));
}

/** @param {string} text @param {string} className */
function button(text, className) {
  const made = document.createElement("button");
  made.type = "button";
  made.className = `secondary small ${className}`;
  made.textContent = text;
  return made;
}

/** @param {string} text @param {string} [className] */
function line(text, className = "") {
  const made = document.createElement("p");
  if (className) made.className = className;
  made.textContent = text;
  return made;
}

/** A waiting round in words: its number, what was tapped, and what it did where the engine said. @param {Entry} entry */
function roundWords(entry) {
  const number = fill(word("waiting_round", "Round {n}"), { n: entry.number });
  return [number, entry.tapped, entry.headline].filter(Boolean).join(" · ");
}

let everSent = false;

/** The waiting box: the rounds on the phone, what was refused and the choice it asks for. */
export function showWaiting() {
  const box = document.getElementById("waiting");
  if (!box || !outbox) return;
  const { rounds, start } = outbox.seen(here);
  document.documentElement.toggleAttribute("data-unsent", rounds.length > 0);
  /** @type {Node[]} */
  const parts = [];
  if (start && start.refused) {
    // Knock would not start the game this phone started (a club's games full, say).
    parts.push(line(start.refused, "error"));
  } else if (rounds.length) {
    everSent = true;
    parts.push(
      line(rounds.length === 1 ? word("waiting_one", "1 round not sent yet") : fill(word("waiting_many", "{n} rounds not sent yet"), { n: rounds.length }), "count")
    );
    const [head] = rounds;
    if (head.refused) {
      parts.push(...refusedParts(head), ...(rounds.length > 1 ? [line(word("waiting_behind", "Waiting behind it:"))] : []));
    }
    const list = document.createElement("ol");
    for (const entry of head.refused ? rounds.slice(1) : rounds) list.append(Object.assign(document.createElement("li"), { textContent: roundWords(entry) }));
    if (list.childElementCount) parts.push(list);
    if (!engine.ready() && !head.refused) {
      parts.push(line(word("counted_later", "Knock counts them when the connection is back."), "later"));
    }
    if (!head.refused) parts.push(button(word("send_now", "Send now"), "retry"));
  } else if (everSent) {
    parts.push(line(word("all_saved", "Every round is saved."), "all-saved"));
  }
  box.hidden = !parts.length;
  box.classList.toggle("saved", !rounds.length && !start);
  box.replaceChildren(...parts);
}

/** A refused round alone: why, what the table holds instead, and one tap for each choice. @param {Entry} entry */
function refusedParts(entry) {
  const refusal = /** @type {NonNullable<Entry["refused"]>} */ (entry.refused);
  /** @type {Node[]} */
  const parts = [line(fill(word("not_saved_why", "Not saved: {why}"), { why: refusal.why }), "error")];
  const compare = document.createElement("dl");
  compare.className = "compare";
  const add = (/** @type {string} */ term, /** @type {string} */ said) => {
    compare.append(Object.assign(document.createElement("dt"), { textContent: term }), Object.assign(document.createElement("dd"), { textContent: said }));
  };
  add(word("yours", "Yours"), roundWords(entry));
  for (const theirs of refusal.theirs) {
    add(
      word("theirs", "Saved by another phone"),
      [fill(word("waiting_round", "Round {n}"), { n: theirs.number }), theirs.tapped, theirs.headline].filter(Boolean).join(" · ")
    );
  }
  parts.push(compare);
  const settle = document.createElement("p");
  settle.className = "settle";
  settle.dataset.id = entry.id;
  if (refusal.theirs.length) {
    settle.append(button(word("same_hand", "Same hand: drop mine"), "drop-mine"), button(word("another_hand", "Another hand: add mine after"), "add-after"));
  } else {
    settle.append(button(word("drop_it", "Drop it"), "drop-mine"));
  }
  parts.push(settle);
  return parts;
}

/* ---- a round kept on the phone -------------------------------------------------------- */

/**
 * The round of `form` kept to be sent later, made on the table the waiting rounds lead to;
 * refused where the engine refuses it, as the server would. The form starts the next round at
 * once (`clear`, at a Record tap; a round htmx could not send was cleared when it was sent), so
 * a quick tap on the next round is never wiped; a refused round comes back to the form if
 * nothing was tapped since.
 * A round htmx could not send (`clear` false) is not sent again at once: Knock could not be
 * reached a moment ago; it goes when the connection is back, or with Retry.
 * @param {HTMLFormElement} form @param {URLSearchParams} body @param {boolean} clear
 */
function keep(form, body, clear) {
  const tapped = tappedOf.get(body.get(NAMES.fields.tapId) || "") ?? tappedWords(form);
  if (clear) clearTaps(form);
  toKeep += 1;
  // After the round on its way: until its answer is drawn, or, where it could not be sent,
  // until it is kept (notSent), so this one is made on the table that one leads to.
  const waitFor = Promise.all([flight?.done, keepingUnsent]);
  keeping = keeping
    .then(() => waitFor)
    .then(() => keepNow(form, body, tapped, clear && navigator.onLine))
    .catch((error) => report("outbox", error))
    .finally(() => {
      toKeep -= 1;
    });
  return keeping;
}

/** @param {HTMLFormElement} form @param {URLSearchParams} body @param {string} tapped @param {boolean} send */
async function keepNow(form, body, tapped, send) {
  const before = waiting();
  const id = body.get(NAMES.fields.tapId) || tapId();
  body.set(NAMES.fields.version, String(shownVersion() + before.length));
  body.set(NAMES.fields.confirm, "1");
  const asked = await ask([fieldsOf(body)]);
  const why = asked ? refusalOf(asked) : "";
  if (why) {
    if (!hasTaps(form)) putTaps(form, fieldsOf(body));
    return sayInPreview(why);
  }
  const played = asked && !asked.answer.stopped ? asked.answer.played : [];
  /** @type {Entry} */
  const entry = {
    id,
    url: form.getAttribute("hx-post") || form.action,
    body: body.toString(),
    number: Number(table()?.dataset.nextRound || 0) + before.length,
    tapped,
    headline: played.length ? played[played.length - 1].view.headline : "",
  };
  try {
    if (!outbox) throw new Error("no outbox");
    if ((await outbox.add(here, entry)) === "full") {
      return sayInPreview(fill(word("too_many_waiting", "At most {n} rounds can wait on a phone: connect to send them first."), { n: NAMES.mostWaiting }));
    }
  } catch (error) {
    report("outbox", error);
    return sayInPreview(word("not_kept", "This phone could not keep the round: record it again."));
  }
  document.getElementById("preview")?.replaceChildren();
  // Drawn from the engine's answer; or, where the table was drawn anew meanwhile (an answer
  // to a round sent before it), played again on the table as it now is.
  if (!drawAnswer(asked) && !(asked && drawAnswer(await ask([])))) sayNotSent();
  if (send) sender.send(here);
}

/* ---- the taps ------------------------------------------------------------------------- */

/** A Record tap, seen before htmx's own listener (the click's capture). @param {MouseEvent} event */
function onRecordTap(event) {
  const target = /** @type {HTMLElement} */ (event.target);
  const confirm = /** @type {HTMLButtonElement | null} */ (target.closest && target.closest("#record button[name=confirm]"));
  if (!confirm || confirm.disabled || !confirm.form) return;
  const form = confirm.form;
  const body = bodyOf(form).toString();
  const known = aheadFor(form);
  const why = known ? refusalOf(known) : "";
  if (why || mustWait()) {
    // Refused as the server would refuse it, or kept on the phone: htmx sends nothing.
    event.preventDefault();
    event.stopImmediatePropagation();
    if (why) return sayInPreview(why);
    // A tap id of its own: the one the page came with may have gone with an earlier round.
    const kept = bodyOf(form);
    kept.set(NAMES.fields.tapId, tapId());
    keep(form, kept, true);
    return;
  }
  if (known) drawAnswer(known, { tapping: true });
  else ask([fieldsOf(body)]).then((asked) => drawAnswer(asked, { tapping: true }));
}

/** htmx could not reach Knock with a tap: a Record is kept, a preview forgotten.
 * @param {{elt: Element, requestConfig?: {parameters?: Record<string, unknown>, formData?: FormData}}} detail */
function notSent(detail) {
  const elt = detail.elt;
  if (!(elt instanceof HTMLButtonElement) || !elt.form) return;
  if (elt.name === NAMES.fields.confirm) {
    // The tap id htmx sent goes with it: if Knock saved it after all, sent again it is "already".
    const body = new URLSearchParams(/** @type {any} */ (detail.requestConfig?.formData || new FormData(elt.form)));
    body.set(NAMES.fields.confirm, "1");
    const sent = flight;
    flight = null;
    // Kept first: the rounds tapped while it was on its way wait for it (keep).
    toKeep += 1;
    keepingUnsent = keepNow(elt.form, body, tappedOf.get(body.get(NAMES.fields.tapId) || "") ?? "", false)
      .catch((error) => report("outbox", error))
      .finally(() => {
        toKeep -= 1;
        sent?.finish();
      });
  } else if (elt.classList.contains("undo")) {
    unsentUndo = elt;
    sayNotSent();
  }
}
/** @type {HTMLButtonElement | null} */
let unsentUndo = null;
/** The Record htmx could not send, being kept: a round tapped meanwhile waits for it. */
let keepingUnsent = Promise.resolve();

/** Undo of a round that has not been sent: it comes off the phone. */
async function undoWaiting() {
  const taken = await outbox?.removeNewest(here);
  if (!taken) return;
  if (waiting().length) await drawWaiting();
  else {
    const shown = engineTable();
    if (shown && engine.ready()) drawAnswer(await ask([]), { toast: false });
  }
  const toast = document.getElementById("toast");
  if (toast) toast.textContent = fill(word("undone_waiting", "Round {n} taken back: it had not been sent."), { n: taken.number });
}

/** Send what waits, and try again an Undo that could not be sent. */
export function resend() {
  sender.send(here);
  const tap = unsentUndo;
  unsentUndo = null;
  if (tap && document.contains(tap)) {
    tap.disabled = false;
    tap.click();
  }
}

/** A POST as htmx makes it for the table; null where Knock cannot be reached. @param {string} url @param {string} body */
async function post(url, body) {
  try {
    const response = await fetch(url, {
      method: "POST",
      body,
      credentials: "same-origin",
      headers: {
        "Content-Type": "application/x-www-form-urlencoded",
        "HX-Request": "true",
        "HX-Target": "table",
        "HX-Current-URL": location.href,
      },
    });
    return NAMES.proxyDown.includes(response.status) ? null : response;
  } catch {
    return null; // no connection
  }
}

/** Runs `task` alone among this phone's pages, or not at all while another page runs it. */
const alone = navigator.locks
  ? (/** @type {string} */ name, /** @type {() => Promise<void>} */ task) =>
      navigator.locks.request(name, { ifAvailable: true }, (lock) => (lock ? task() : undefined))
  : undefined;

/**
 * Open the outbox, make the sender, and wire the Record tap into the page; `draw` draws the
 * table from Knock's answer to a round that waited (the page keeps the taps made meanwhile).
 * @param {{draw: (html: string, outcome: string) => void}} page
 */
export async function start({ draw }) {
  try {
    outbox = await openOutbox({
      indexedDB,
      channel: "BroadcastChannel" in window ? new BroadcastChannel(NAMES.storage.outbox) : null,
      legacy: localStorage,
    });
  } catch (error) {
    // No IndexedDB (a private window of some browsers): the table plays over the server.
    report("outbox", error);
    return;
  }
  sender = createSender({
    outbox,
    post,
    lock: alone,
    onAnswer({ game, outcome, html, status }) {
      if (game !== here || !document.getElementById("table")) return;
      if (!html.includes('id="table"')) {
        // Not Knock's table (a proxy's page, a refusal of the request itself): the table stays.
        report("outbox", `an answer without the table (${status}, ${outcome})`);
        return;
      }
      draw(html, outcome);
    },
    onFault: (message) => report("outbox", message),
  });
  engine.listen((state) => {
    if (state === "ready") drawWaiting();
    showWaiting();
  });
  document.addEventListener("click", onRecordTap, true);
  document.addEventListener("htmx:configRequest", (event) => {
    const detail = /** @type {CustomEvent} */ (event).detail;
    const elt = detail.elt;
    if (elt instanceof HTMLButtonElement && elt.name === NAMES.fields.confirm && elt.form) {
      const id = tapId();
      detail.parameters[NAMES.fields.tapId] = id;
      // What was tapped, said now: the form starts the next round before the answer comes.
      tappedOf.set(id, tappedWords(elt.form));
      const body = bodyOf(elt.form);
      body.set(NAMES.fields.tapId, id);
      /** @type {() => void} */
      let finish = () => {};
      const done = new Promise((resolve) => (finish = () => resolve(undefined)));
      flight = { body: body.toString(), done, finish };
    } else if (elt instanceof HTMLButtonElement && elt.classList.contains("undo") && waiting().length) {
      event.preventDefault();
      undoWaiting();
    }
  });
  document.addEventListener("htmx:sendError", (event) => notSent(/** @type {CustomEvent} */ (event).detail));
  // Knock answered the Record on its way (saved, or not): the table it draws is the one the
  // rounds tapped meanwhile are made on.
  document.addEventListener("htmx:beforeSwap", (event) => {
    const detail = /** @type {CustomEvent} */ (event).detail;
    const elt = detail.requestConfig?.elt;
    if (!flight || !(elt instanceof HTMLButtonElement) || elt.name !== NAMES.fields.confirm) return;
    if (NAMES.proxyDown.includes(detail.xhr.status)) return; // notSent keeps it
    const sent = flight;
    flight = null;
    // Once the swap that follows has drawn the table (htmx swaps in this same task).
    window.setTimeout(() => sent.finish(), 0);
  });
  document.addEventListener("htmx:responseError", (event) => {
    const detail = /** @type {CustomEvent} */ (event).detail;
    if (NAMES.proxyDown.includes(detail.xhr.status)) notSent(detail);
  });
  document.addEventListener("click", (event) => {
    const target = /** @type {HTMLElement} */ (event.target);
    if (!target.closest) return;
    const settle = /** @type {HTMLElement | null} */ (target.closest(".settle"));
    if (target.closest(".retry")) resend();
    else if (settle && target.closest(".drop-mine, .add-after")) {
      const id = settle.dataset.id || "";
      const entry = waiting().find((kept) => kept.id === id);
      if (!entry || !entry.refused) return;
      const choice = target.closest(".drop-mine") ? "drop" : "after";
      outbox?.settle(here, id, choice, entry.refused.version).then(() => sender.send(here));
    }
  });
  window.addEventListener("online", resend);
  // Knock answered something (a poll, say) while rounds wait: the connection is back, though
  // the phone never said it was gone (a Wi-Fi that drops packets, not the link).
  document.addEventListener("htmx:afterRequest", (event) => {
    if (/** @type {CustomEvent} */ (event).detail.successful && waiting().length) sender.send(here);
  });
  outbox.listen((game) => {
    if (game !== here) return;
    showWaiting();
  });
  await outbox.read(here);
  showWaiting();
  if (navigator.onLine) sender.send(here);
  // What draws the engine's answers comes first: it is small, the engine takes seconds.
  if (document.getElementById("engine")) await loadBoard();
  engine.start();
}
