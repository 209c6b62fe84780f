/* The rules engine on the phone: a Web Worker that runs Knock's own scorekeeper/rules package
 * under Pyodide (CPython in WebAssembly), so a round is played where the table is, with or
 * without a connection. Started by engine.js after the table has painted; never on the main
 * thread, whose taps it would freeze while it starts.
 *
 * In: {start: {runtime, stdlib, bundle, language}} once, then {id, play: payload} for each
 * question (scorekeeper/rules/phone.py says the payload). Out: {ready: version} or
 * {failed: why}, then {id, answer} or {id, failed}.
 */
let engine = null;

async function start({ runtime, stdlib, bundle, language }) {
  const { loadPyodide } = await import(runtime);
  const started = performance.now();
  const [pyodide, shipped] = await Promise.all([
    loadPyodide({ indexURL: new URL(".", new URL(runtime, self.location)).href, stdLibURL: stdlib }),
    fetch(bundle, { credentials: "same-origin" }).then((response) => {
      if (!response.ok) throw new Error(`the engine's bundle answered ${response.status}`);
      return response.json();
    }),
  ]);
  for (const [path, text] of Object.entries(shipped.files)) {
    const folder = `/knock/${path.split("/").slice(0, -1).join("/")}`;
    pyodide.FS.mkdirTree(folder);
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
  return { version: shipped.version, ms: Math.round(performance.now() - started) };
}

self.addEventListener("message", async (event) => {
  const message = event.data;
  if (message.start) {
    try {
      const { version, ms } = await start(message.start);
      self.postMessage({ ready: version, ms });
    } catch (error) {
      self.postMessage({ failed: String(error && error.message ? error.message : error) });
    }
  } else if (message.play !== undefined) {
    try {
      self.postMessage({ id: message.id, answer: engine(message.play) });
    } catch (error) {
      self.postMessage({ id: message.id, failed: String(error && error.message ? error.message : error) });
    }
  }
});
