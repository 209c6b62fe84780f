// How long the engine on the phone takes to start from scratch (Python started, the rules
// imported) and warm (from the snapshot static/js/engine-worker.js keeps, unpacked first), both
// in this one process, alternately, so the ratio holds on a busy machine. Run by bench/engine.py:
//     node bench/engine-start.mjs <runtime folder> <stdlib zip> <bundle json> [rounds]
import { readFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { gunzipSync, gzipSync } from "node:zlib";

const [folder, stdlib, bundlePath, rounds = "5"] = process.argv.slice(2);
const { loadPyodide } = await import(pathToFileURL(`${folder}/pyodide.mjs`).href);
const shipped = JSON.parse(readFileSync(bundlePath, "utf8"));
const options = { indexURL: `${folder}/`, stdLibURL: stdlib };

/** The worker's start: the rules' files written, the rules imported. */
function rules(pyodide) {
  for (const [path, text] of Object.entries(shipped.files)) {
    pyodide.FS.mkdirTree(`/knock/${path.split("/").slice(0, -1).join("/")}`);
    pyodide.FS.writeFile(`/knock/${path}`, text);
  }
  pyodide.runPython(`import sys\nif "/knock" not in sys.path:\n    sys.path.insert(0, "/knock")\nfrom scorekeeper.rules import phone`);
}

const median = (values) => values.toSorted((a, b) => a - b)[Math.floor(values.length / 2)];
const cold = [];
const warm = [];
let packed = null;
for (let round = 0; round < Number(rounds); round++) {
  let started = performance.now();
  const pyodide = await loadPyodide({ ...options, _makeSnapshot: true });
  rules(pyodide);
  cold.push(performance.now() - started);
  packed ??= gzipSync(pyodide.makeMemorySnapshot());
  started = performance.now();
  const again = await loadPyodide({ ...options, _loadSnapshot: gunzipSync(packed) });
  rules(again);
  warm.push(performance.now() - started);
}
console.log(JSON.stringify({ cold: median(cold), warm: median(warm), packed: packed.length, rounds: Number(rounds) }));
