// @ts-check
/* A Record tap on the table page, one path whatever the connection (docs/engine.md): refused
 * at the tap where the round lacks what its ending needs, else kept in the outbox (recorder.js)
 * and sent by the sender; the table is drawn from its answer. htmx never posts a Record. */
import { NAMES } from "./contract.js";
import { htmx } from "./htmx.js";
import * as engine from "./engine-client.js";
import { report } from "./faults.js";
import { createLedger } from "./ledger.js";
import { openOutbox, versionOf } from "./outbox.js";
import { createRecorder, fieldsOf, lacking } from "./recorder.js";
import { createSender } from "./sender.js";
import { chosenEnding, clearTaps, hasTaps, putTaps, recordForm, tappedWords } from "./taps.js";
import { fill, word } from "./words.js";

/** @typedef {import("./outbox.js").Outbox} Outbox */
/** @typedef {import("./sender.js").Sender} Sender */
/** @typedef {import("./sender.js").Answer} Answer */
/** @typedef {import("./contract.js").OutboxEntry} Entry */
/** @typedef {import("./contract.js").PhoneAnswer} PhoneAnswer */
/** @typedef {import("./contract.js").TableView} TableView */
/** @typedef {import("./engine-client.js").EngineTable} EngineTable */
/** @typedef {Record<string, string[]>} Fields */
/** @typedef {{answer: PhoneAnswer, version: number, count: number}} Asked the engine's answer to `count` rounds played on the table at `version` */
/** @typedef {{draw: (html: string, outcome: string) => void}} Page */

const here = location.pathname;
/** @type {Outbox | undefined} */
let outbox;
/** @type {Sender | undefined} */
let sender;
/** @type {typeof import("./board.js") | null} */
let board = null;
/** @type {Page} */
let page = { draw: () => {} };

/** Runs `task` alone among this phone's pages, or not at all while another page runs it. */
const alone = navigator.locks
  ? (/** @type {string} */ name, /** @type {() => Promise<void>} */ task) =>
      navigator.locks.request(name, { ifAvailable: true }, (lock) => (lock ? task() : undefined))
  : undefined;

/** A round on its way, said on the page until its answer is drawn (live.js waits for it). @param {boolean} now */
function sending(now) {
  document.documentElement.toggleAttribute("data-sending", now);
}

/** Each tap's fresh or waited (ledger.js). */
const ledger = createLedger();

/** A POST as the table's own requests make it; null where Knock cannot be reached. @param {string} url @param {string} body */
async function post(url, body) {
  sending(true);
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
    if (!NAMES.proxyDown.includes(response.status)) return response;
    sending(false);
    return null;
  } catch {
    sending(false);
    return null; // no connection
  }
}

// The outbox is opened as the module loads, before the first paint: a tap made meanwhile waits
// for it in the page. Where IndexedDB cannot be had, it lives in the page's memory, and says so.
const ready = (async () => {
  const opened = await openOutbox({
    indexedDB: "indexedDB" in window ? indexedDB : null,
    channel: "BroadcastChannel" in window ? new BroadcastChannel(NAMES.storage.outbox) : null,
    legacy: localStorage,
    onFallback: (error) => report("outbox", `kept in the page only: ${error}`),
  });
  outbox = opened;
  sender = createSender({
    outbox: opened,
    post,
    lock: alone,
    onAnswer: answered,
    onFault: (message) => report("outbox", message),
    onIdle: idle,
  });
  return { outbox: opened, sender };
})();
ready.catch((error) => report("outbox", error));

const recorder = createRecorder({ ready, say: word });

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

/** The rounds of this game waiting on the phone (the one on its way among them). */
function waiting() {
  return outbox ? outbox.seen(here).rounds : [];
}

/** What the waiting box lists (ledger.js). @returns {Entry[]} */
function notSent() {
  const flying = sender?.flying();
  return /** @type {Entry[]} */ (ledger.listed(waiting(), flying && flying.game === here ? flying.id : undefined));
}

/** The rounds ahead of the table shown, as the form's fields; null where the table shown is
 * not the one they were made on (an answer on its way to the page), or one is refused (the
 * table settles it first). */
function roundsAhead() {
  const kept = waiting();
  if (kept.some((entry) => entry.refused)) return null;
  if (kept.length && versionOf(kept[0].body) !== shownVersion()) return null;
  return kept.map((entry) => fieldsOf(entry.body));
}

/** A form's body as it is sent. @param {HTMLFormElement} form */
function bodyOf(form) {
  return new URLSearchParams(/** @type {any} */ (new FormData(form)));
}

/** What the ending chosen on the form cannot be recorded without, in the server's words. @param {HTMLFormElement} form @returns {Record<string, string>} */
function needsOf(form) {
  const ending = chosenEnding(form);
  try {
    return JSON.parse(ending?.dataset.needs || "{}");
  } catch {
    return {};
  }
}

/* ---- the engine's answers ------------------------------------------------------------- */

/**
 * The waiting rounds and `more`, played on the phone from the table the page shows; null where
 * the engine cannot say.
 * @param {Fields[]} more @returns {Promise<Asked | null>}
 */
async function ask(more) {
  const shown = engineTable();
  if (!engine.ready() || !shown) return null;
  if (shown.engine !== document.getElementById("engine")?.dataset.version) return null;
  const rounds = roundsAhead();
  if (!rounds) return null;
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

/* The round being tapped, played on the phone as it is tapped: Record has only to draw it. */
/** @type {{key: string, asked: Asked | null | undefined}} */
let ahead = { key: "", asked: undefined };

/** @param {string} body */
function aheadKey(body) {
  return `${shownVersion()} ${waiting().length} ${body}`;
}

/** Play the form's round ahead (after the rounds waiting on the phone, if any): its preview is
 * the engine's, and Record draws it at once. @param {HTMLFormElement} form @returns {Promise<void>} */
export async function playAhead(form) {
  if (!engine.ready()) return;
  const body = bodyOf(form).toString();
  const key = aheadKey(body);
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
  return ahead.key === aheadKey(bodyOf(form).toString()) ? ahead.asked : undefined;
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

/** The waiting box: the rounds on the phone not on their way, what was refused and the choice
 * it asks for; and, where the phone keeps rounds only as long as the page, that it does. */
export function showWaiting() {
  const box = document.getElementById("waiting");
  if (!box || !outbox) return;
  const { start } = outbox.seen(here);
  const rounds = notSent();
  document.documentElement.toggleAttribute("data-unsent", waiting().length > 0);
  /** @type {Node[]} */
  const parts = [];
  if (!outbox.lasting && waiting().length) {
    parts.push(line(word("page_only", "This phone cannot store rounds: keep this page open until they are sent."), "error page-only"));
  }
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
  } else if (everSent && !waiting().length) {
    parts.push(line(word("all_saved", "Every round is saved."), "all-saved"));
  }
  box.hidden = !parts.length;
  box.classList.toggle("saved", !rounds.length && !start);
  // Drawn again only where it says something new: a button redrawn under a thumb (each try of
  // the sender ends here) loses the tap.
  const drawn = document.createElement("div");
  drawn.append(...parts);
  if (drawn.innerHTML !== box.innerHTML) box.replaceChildren(...drawn.childNodes);
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

/* ---- the tap and the answer ------------------------------------------------------------ */

/** Rounds the engine drew at the tap: no "not sent" line is needed for them, the tiles say it. */
const drawnOnPhone = new Set();

/** A Record tap: refused at once, or kept in the outbox and sent; htmx and the form's own
 * submit never see it. @param {MouseEvent} event */
function onRecordTap(event) {
  const target = /** @type {HTMLElement} */ (event.target);
  const confirm = /** @type {HTMLButtonElement | null} */ (target.closest && target.closest("#record button[name=confirm]"));
  if (!confirm || !confirm.form) return;
  event.preventDefault();
  event.stopImmediatePropagation();
  if (confirm.disabled) return;
  // Until the tap is kept (a few milliseconds): a second tap on the same round is not a second round.
  confirm.disabled = true;
  tap(confirm.form)
    .catch((error) => report("outbox", error))
    // Enabled again, unless the round drawn at the tap ended the game.
    .finally(() => (confirm.disabled = !!confirm.form?.classList.contains("over")));
}

/** A Record tap: refused, or drawn and the form cleared in the tap's own task; then kept (or
 * put back, said). @param {HTMLFormElement} form @returns {Promise<void>} */
async function tap(form) {
  const body = bodyOf(form);
  const fields = fieldsOf(body);
  const needs = needsOf(form);
  const known = aheadFor(form);
  // A preview on its way would draw over what this tap says: the round's refusal, or the next
  // round's form.
  htmx()?.trigger(form, "htmx:abort");
  // Refused as the server would refuse it: nothing is kept, the taps stay, with why.
  const why = lacking(fields, needs) || (known ? refusalOf(known) : "");
  if (why) return sayInPreview(why);
  const base = { version: shownVersion(), next: Number(table()?.dataset.nextRound || 0) };
  const played = known && !known.answer.stopped ? known.answer.played : [];
  const tapped = tappedWords(form);
  const drawn = known ? drawAnswer(known, { tapping: true }) : null;
  // Not played ahead (the engine still busy with the taps): asked now, on the table as tapped,
  // so what it says of the round holds even if the table moves on (another phone's round, a
  // refusal) before a slow engine answers.
  const asking = drawn ? null : ask([fields]);
  clearTaps(form);
  document.getElementById("preview")?.replaceChildren();
  const headline = played.length ? played[played.length - 1].view.headline : "";
  const check = await recorder.keep(here, { body, tapped, base, url: form.getAttribute("action") || "", needs, headline });
  if (!check.kept) {
    // The taps come back to the form (unless the next round is being tapped), with why, and
    // the table as it was.
    if (!hasTaps(form)) putTaps(form, fields);
    if (drawn) drawAnswer(await ask([]), { toast: false });
    return sayInPreview(check.why);
  }
  ledger.kept(check.id, { online: navigator.onLine, alone: waiting().length === 1 });
  let view = drawn;
  if (!view) {
    // The engine had not played this very round ahead: drawn now (if the table is still the one
    // tapped on), and what it did kept with the round for the waiting box.
    const asked = await asking;
    view = drawAnswer(asked, { tapping: true });
    const said = asked && !asked.answer.stopped ? asked.answer.played[asked.answer.played.length - 1]?.view.headline : "";
    if (said && !headline) await outbox?.describe(here, check.id, said).catch((error) => report("outbox", error));
  }
  if (view) drawnOnPhone.add(check.id);
  if (!navigator.onLine && !drawnOnPhone.has(check.id)) sayNotSent();
  showWaiting();
}

/** Knock answered a round the sender took to it: this page's table is drawn from the answer
 * (the taps made meanwhile stay). A round Knock refused by the rules, alone on the phone, comes
 * back to the form with Knock's words beside it, as the answer draws it.
 * @param {Answer} answer */
function answered(answer) {
  drawnOnPhone.delete(answer.id);
  window.setTimeout(() => sending(false), 0);
  if (answer.game !== here || !document.getElementById("table")) return;
  if (!answer.html.includes('id="table"')) {
    // Not Knock's table (a proxy's page, a refusal of the request itself): the table stays.
    report("outbox", `an answer without the table (${answer.status}, ${answer.outcome})`);
    return;
  }
  // Said on the table Knock answered with, the taps of a refused round back on its form; where
  // the phone cannot take it off, the waiting box asks the table to settle it.
  if (outbox) {
    ledger.takeOff(outbox, answer, waiting(), (error) => report("outbox", error)).then((off) => off || showWaiting());
  }
  page.draw(answer.html, answer.outcome);
}

/** The sender stopped: without a connection, the rounds the tiles do not show as waiting say
 * so where the thumb is. @param {import("./sender.js").Sent} sent */
function idle(sent) {
  sending(false);
  ledger.idle(sent, waiting());
  showWaiting();
  if (sent === "offline" && notSent().some((entry) => !drawnOnPhone.has(entry.id) && !entry.refused)) {
    if (!document.querySelector("#preview .error")) sayNotSent();
  }
}

/** Undo of a round that has not been sent: it comes off the phone. One on its way is left to
 * its answer, and Undo is tapped again on the table that answer draws. */
async function undoWaiting() {
  const flying = sender?.flying();
  const taken = await outbox?.removeNewest(here, flying && flying.game === here ? flying.id : undefined);
  if (!taken) {
    await sender?.send(here);
    /** @type {HTMLButtonElement | null} */ (document.querySelector("#table button.undo:not([hidden])"))?.click();
    return;
  }
  if (waiting().length) await drawWaiting();
  else {
    const shown = engineTable();
    if (shown && engine.ready()) drawAnswer(await ask([]), { toast: false });
  }
  const toast = document.getElementById("toast");
  if (toast) toast.textContent = fill(word("undone_waiting", "Round {n} taken back: it had not been sent."), { n: taken.number });
}

/** @type {HTMLButtonElement | null} */
let unsentUndo = null;

/** Send what waits, and try again an Undo that could not be sent. */
export function resend() {
  sender?.wake(here);
  const undo = unsentUndo;
  unsentUndo = null;
  if (undo && document.contains(undo)) {
    undo.disabled = false;
    undo.click();
  }
}

// The tap is heard from the first moment the module runs (a capture on the document runs
// before anything on the button).
document.addEventListener("click", onRecordTap, true);

document.addEventListener("htmx:configRequest", (event) => {
  const detail = /** @type {CustomEvent} */ (event).detail;
  const elt = detail.elt;
  if (elt instanceof HTMLButtonElement && elt.classList.contains("undo") && waiting().length) {
    event.preventDefault();
    undoWaiting();
  }
});
// An Undo htmx could not send: Retry sends it again.
/** @param {Event} event */
function undoNotSent(event) {
  const detail = /** @type {CustomEvent} */ (event).detail;
  const elt = detail.elt;
  if (event.type === "htmx:responseError" && !NAMES.proxyDown.includes(detail.xhr?.status)) return;
  if (elt instanceof HTMLButtonElement && elt.classList.contains("undo")) {
    unsentUndo = elt;
    sayNotSent();
  }
}
document.addEventListener("htmx:sendError", undoNotSent);
document.addEventListener("htmx:responseError", undoNotSent);

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
    outbox?.settle(here, id, choice, entry.refused.version).then(() => sender?.send(here));
  }
});

// What wakes the sender: the connection back, the page shown again, any answer from Knock (a
// Wi-Fi that drops packets never says it was gone); and its own timer while Knock cannot be
// reached.
window.addEventListener("online", resend);
document.addEventListener("visibilitychange", () => {
  if (document.visibilityState === "visible") sender?.wake(here);
});
document.addEventListener("htmx:afterRequest", (event) => {
  if (!(/** @type {CustomEvent} */ (event).detail.successful)) return;
  if (waiting().length || !sender?.busy()) sender?.wake(here);
});

/** Send what waits for this game now: true once nothing of it waits (Play again starts the
 * next game on Knock only from a game Knock has seen end). */
export async function sendWaiting() {
  const open = await ready;
  await open.sender.send(here);
  return (await open.outbox.read(here)).rounds.length === 0;
}

/** A game started on this phone, kept to be started on Knock after what waits of this one. @param {string} game @param {import("./contract.js").Start} start */
export async function keepStart(game, start) {
  const open = await ready;
  if (!open.outbox.lasting) throw new Error("this phone cannot store a game started without a connection");
  await open.outbox.setStart(game, start);
}

/**
 * Wire the page's drawing of Knock's answers in, and start what the table needs once it has
 * painted: the rounds waiting read and shown, sent, and the engine.
 * @param {Page} drawing
 */
export async function start(drawing) {
  page = drawing;
  let open;
  try {
    open = await ready;
  } catch {
    return;
  }
  engine.listen((state) => {
    if (state === "ready") drawWaiting();
    showWaiting();
  });
  open.outbox.listen((game) => {
    if (game === here) showWaiting();
  });
  await open.outbox.read(here);
  ledger.allWaited(waiting());
  showWaiting();
  drawWaiting();
  open.sender.send(here);
  // What draws the engine's answers comes first: it is small, the engine takes seconds.
  if (document.getElementById("engine")) await loadBoard();
  engine.start();
}
