// @ts-check
/* The page's side of the engine on the phone (engine-worker.js runs it): starts the worker once
 * the table has painted, asks it to play rounds, and answers each question with a promise. A
 * worker that fails rejects every question still waiting; one that failed for want of a
 * connection is started again when the connection returns. Until it is ready, or where it
 * cannot start (no WebAssembly, a bundle still on its way), the table plays over the server. */
import { report } from "./faults.js";

/** @typedef {import("./contract.js").PhoneAnswer} PhoneAnswer */
/** @typedef {import("./contract.js").ToWorkerStart} ToWorkerStart */
/** @typedef {import("./contract.js").ToWorkerPlay} ToWorkerPlay */
/** @typedef {import("./contract.js").FromWorkerReady | import("./contract.js").FromWorkerFailed | import("./contract.js").FromWorkerAnswer | import("./contract.js").FromWorkerFault | import("./contract.js").FromWorkerKept} FromWorker */
/** @typedef {{rules: Record<string, unknown>, rules_version: number, names: string[], state: Record<string, unknown>, engine: string}} EngineTable */
/** @typedef {"starting" | "ready" | "old" | "failed" | "none"} EngineState */

/** @type {Worker | null} */
let worker = null;
/** @type {EngineState} */
let state = "none";
let asked = 0;
/** @type {Map<number, {resolve: (answer: PhoneAnswer) => void, reject: (error: Error) => void}>} */
const waiting = new Map();
/** @type {Set<(state: EngineState) => void>} */
const listeners = new Set();

/** @param {EngineState} now @param {string} [why] */
function become(now, why = "") {
  state = now;
  document.documentElement.dataset.engine = now;
  if (why) document.documentElement.dataset.engineFailed = why;
  listeners.forEach((listener) => listener(now));
}

/** Every question still waiting fails: the worker that would answer it is gone. @param {string} why */
function failAll(why) {
  for (const { reject } of waiting.values()) reject(new Error(why));
  waiting.clear();
}

/** @param {string} why */
function failed(why) {
  const offline = !navigator.onLine;
  worker?.terminate();
  worker = null;
  failAll(why);
  become("failed", why);
  if (offline) {
    // Its files could not be fetched: started again once the connection is back.
    window.addEventListener("online", () => start(), { once: true });
  } else {
    report("engine", why);
  }
}

/** Start the worker (again), where the page says the engine is. */
export function start() {
  const where = /** @type {HTMLElement | null} */ (document.getElementById("engine"));
  if (!where || worker || !("WebAssembly" in window) || !("Worker" in window)) return;
  const data = where.dataset;
  try {
    worker = new Worker(data.worker || "", { type: "module" });
  } catch (error) {
    failed(String(error));
    return;
  }
  become("starting");
  worker.addEventListener("message", (event) => {
    /** @type {FromWorker} */
    const message = event.data;
    if ("fault" in message) {
      report("engine", message.fault);
    } else if ("kept" in message) {
      document.documentElement.dataset.engineKept = String(message.kept);
    } else if ("ready" in message) {
      document.documentElement.dataset.engineMs = String(message.ms);
      document.documentElement.dataset.engineStart = message.warm ? "warm" : "cold";
      become(message.ready === data.version ? "ready" : "old");
    } else if ("answer" in message) {
      const question = waiting.get(message.id);
      waiting.delete(message.id);
      question?.resolve(JSON.parse(message.answer));
    } else if (message.id !== undefined) {
      const question = waiting.get(message.id);
      waiting.delete(message.id);
      question?.reject(new Error(message.failed));
      report("engine", message.failed);
    } else {
      failed(message.failed);
    }
  });
  worker.addEventListener("error", (event) => {
    event.preventDefault();
    failed(event.message || "the engine's worker stopped");
  });
  /** @type {ToWorkerStart} */
  const hello = {
    start: {
      runtime: new URL(data.runtime || "", location.href).href,
      stdlib: new URL(data.stdlib || "", location.href).href,
      bundle: new URL(data.bundle || "", location.href).href,
      language: document.documentElement.lang,
    },
  };
  worker.postMessage(hello);
}

/** Whether the engine answers now. */
export function ready() {
  return state === "ready" && worker !== null;
}

/** Told of every change of the engine's state. @param {(state: EngineState) => void} listener */
export function listen(listener) {
  listeners.add(listener);
}

/**
 * The rounds (each the record form's fields, as lists of values) played from `table` (the
 * page's engine-table): the engine's answer; rejected when the worker fails meanwhile, or
 * where there is no engine ready.
 * @param {EngineTable} table @param {Array<Record<string, string[]>>} rounds @returns {Promise<PhoneAnswer>}
 */
export function play(table, rounds) {
  if (!ready() || !worker) return Promise.reject(new Error("no engine"));
  const id = ++asked;
  const running = worker;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    /** @type {ToWorkerPlay} */
    const question = { id, play: JSON.stringify({ ...table, rounds }) };
    running.postMessage(question);
  });
}
