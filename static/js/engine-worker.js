// @ts-check
/* The rules engine on the phone: a Web Worker that runs Knock's own scorekeeper/rules package
 * under Pyodide (CPython in WebAssembly), so a round is played where the table is, with or
 * without a connection. Started by engine-client.js after the table has painted; never on the
 * main thread, whose taps it would freeze while it starts. Its messages are typed in
 * contract.js: ToWorkerStart once, then ToWorkerPlay for each question; FromWorkerReady or
 * FromWorkerFailed, then FromWorkerAnswer (or FromWorkerFailed with the question's id). */

/** @typedef {import("./contract.js").WorkerStart} WorkerStart */
/** @typedef {import("./contract.js").ToWorkerStart | import("./contract.js").ToWorkerPlay} ToWorker */
/** @typedef {import("./contract.js").FromWorkerReady | import("./contract.js").FromWorkerFailed | import("./contract.js").FromWorkerAnswer | import("./contract.js").FromWorkerFault | import("./contract.js").FromWorkerKept} FromWorker */

import { NAMES } from "./contract.js";

/** @type {((payload: string) => string) | null} */
let engine = null;

/** @param {FromWorker} message */
function say(message) {
  self.postMessage(message);
}

/** @param {unknown} error */
function why(error) {
  return String(error instanceof Error ? error.message : error);
}

/** Where the started engine is kept: one entry, named by the runtime and the bundle it holds, so a
 * new release of either starts from scratch once and keeps its own.
 * @param {string} runtime @param {string} version */
function snapshotKey(runtime, version) {
  const key = new URL(`/engine-snapshot/${version}`, self.location.href);
  key.searchParams.set("runtime", runtime);
  return key.href;
}

/** The kept snapshot, unpacked, or null where none is kept (or the cache cannot be read).
 * @param {string} key @returns {Promise<Uint8Array | null>} */
async function keptSnapshot(key) {
  try {
    const kept = await (await caches.open(NAMES.caches.snapshot)).match(key);
    if (!kept?.body) return null;
    return new Uint8Array(await new Response(kept.body.pipeThrough(new DecompressionStream("gzip"))).arrayBuffer());
  } catch (error) {
    say({ fault: `the engine's snapshot could not be read: ${why(error)}` });
    return null;
  }
}

/** Keeps the engine's memory as it stands (Python started, the rules imported, nothing said
 * yet), packed, in place of any other snapshot. Run once the table is served: a failure only
 * means the next start is a cold one.
 * @param {Uint8Array} memory @param {string} key */
async function keepSnapshot(memory, key) {
  // Packed whole before it is put, so the cache never holds half of one (a page that goes
  // away ends its worker mid-write).
  const stream = new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (memory)]).stream();
  const packed = await new Response(stream.pipeThrough(new CompressionStream("gzip"))).blob();
  const cache = await caches.open(NAMES.caches.snapshot);
  await cache.put(key, new Response(packed, { headers: { "Content-Type": "application/octet-stream" } }));
  for (const old of await cache.keys()) if (old.url !== key) await cache.delete(old);
  say({ kept: packed.size });
}

/** @param {WorkerStart} where */
async function start({ runtime, stdlib, bundle, language }) {
  const { loadPyodide } = await import(runtime);
  const started = performance.now();
  const response = await fetch(bundle, { credentials: "same-origin" });
  if (!response.ok) throw new Error(`the engine's bundle answered ${response.status}`);
  const shipped = await response.json();
  const version = String(shipped.version);
  const key = snapshotKey(runtime, version);
  const snapshot = await keptSnapshot(key);
  const options = { indexURL: new URL(".", new URL(runtime, self.location.href)).href, stdLibURL: stdlib };
  /** @type {any} */
  let pyodide = null;
  if (snapshot) {
    // A snapshot that does not load (a runtime that changed under the same name) is dropped
    // and the engine started from scratch.
    pyodide = await loadPyodide({ ...options, _loadSnapshot: snapshot }).catch(async (/** @type {unknown} */ error) => {
      say({ fault: `the engine's snapshot did not load: ${why(error)}` });
      await caches.delete(NAMES.caches.snapshot);
      return null;
    });
  }
  const warm = pyodide !== null;
  if (!warm) pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
  // The rules' files are there for what they import later (the snapshot holds Python's memory,
  // not the files).
  for (const [path, text] of Object.entries(/** @type {Record<string, string>} */ (shipped.files))) {
    pyodide.FS.mkdirTree(`/knock/${path.split("/").slice(0, -1).join("/")}`);
    pyodide.FS.writeFile(`/knock/${path}`, text);
  }
  pyodide.runPython(`
import sys
if "/knock" not in sys.path:
    sys.path.insert(0, "/knock")
from scorekeeper.rules import phone
`);
  /** @type {Promise<void> | null} */
  const keeping = warm ? null : keepSnapshot(pyodide.makeMemorySnapshot(), key);
  const catalogue = shipped.catalogues[language];
  if (catalogue) {
    pyodide.FS.writeFile("/knock/catalogue.mo", Uint8Array.from(atob(catalogue), (c) => c.charCodeAt(0)));
  }
  pyodide.runPython(`phone.speak(open("/knock/catalogue.mo", "rb").read() if ${catalogue ? "True" : "False"} else None)`);
  const play = pyodide.globals.get("phone").play;
  engine = (payload) => play(payload);
  keeping?.catch((error) => say({ fault: `the engine's snapshot was not kept: ${why(error)}` }));
  return { version, ms: Math.round(performance.now() - started), warm };
}

self.addEventListener("message", async (event) => {
  /** @type {ToWorker} */
  const message = /** @type {MessageEvent} */ (event).data;
  if ("start" in message) {
    try {
      const { version, ms, warm } = await start(message.start);
      say({ ready: version, ms, warm });
    } catch (error) {
      say({ failed: why(error) });
    }
  } else if (engine) {
    try {
      say({ id: message.id, answer: engine(message.play) });
    } catch (error) {
      say({ id: message.id, failed: why(error) });
    }
  } else {
    say({ id: message.id, failed: "the engine has not started" });
  }
});
