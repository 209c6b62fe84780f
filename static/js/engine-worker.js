// @ts-check
/* The rules engine on the phone: a Web Worker that runs Knock's own scorekeeper/rules package
 * under Pyodide (CPython in WebAssembly), so a round is played where the table is, with or
 * without a connection. Started by engine-client.js after the table has painted; never on the
 * main thread, whose taps it would freeze while it starts. Its messages are typed in
 * contract.js: ToWorkerStart once, then ToWorkerPlay for each question; FromWorkerReady or
 * FromWorkerFailed, then FromWorkerAnswer (or FromWorkerFailed with the question's id). */

/** @typedef {import("./contract.js").WorkerStart} WorkerStart */
/** @typedef {import("./contract.js").ToWorkerStart | import("./contract.js").ToWorkerPlay} ToWorker */
/** @typedef {import("./contract.js").FromWorkerReady | import("./contract.js").FromWorkerFailed | import("./contract.js").FromWorkerAnswer} FromWorker */

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

/** @param {WorkerStart} where */
async function start({ runtime, stdlib, bundle, language }) {
  const { loadPyodide } = await import(runtime);
  const started = performance.now();
  const [pyodide, shipped] = await Promise.all([
    loadPyodide({ indexURL: new URL(".", new URL(runtime, self.location.href)).href, stdLibURL: stdlib }),
    fetch(bundle, { credentials: "same-origin" }).then((response) => {
      if (!response.ok) throw new Error(`the engine's bundle answered ${response.status}`);
      return response.json();
    }),
  ]);
  for (const [path, text] of Object.entries(/** @type {Record<string, string>} */ (shipped.files))) {
    pyodide.FS.mkdirTree(`/knock/${path.split("/").slice(0, -1).join("/")}`);
    pyodide.FS.writeFile(`/knock/${path}`, text);
  }
  const catalogue = shipped.catalogues[language];
  if (catalogue) {
    pyodide.FS.writeFile("/knock/catalogue.mo", Uint8Array.from(atob(catalogue), (c) => c.charCodeAt(0)));
  }
  pyodide.runPython(`
import sys
sys.path.insert(0, "/knock")
from scorekeeper.rules import phone
phone.speak(open("/knock/catalogue.mo", "rb").read() if ${catalogue ? "True" : "False"} else None)
`);
  const play = pyodide.globals.get("phone").play;
  engine = (payload) => play(payload);
  return { version: String(shipped.version), ms: Math.round(performance.now() - started) };
}

self.addEventListener("message", async (event) => {
  /** @type {ToWorker} */
  const message = /** @type {MessageEvent} */ (event).data;
  if ("start" in message) {
    try {
      const { version, ms } = await start(message.start);
      say({ ready: version, ms });
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
