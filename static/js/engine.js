/* The table page's link to the engine on the phone (engine-worker.js): loaded by sync.js once
 * the table has painted, and only on a table this phone can record on. Until it is ready, or where it
 * cannot start (no WebAssembly, a worker that fails, a bundle still on its way), nothing
 * changes: the table plays over the server, as it always did, and says nothing of it.
 *
 * window.knockEngine.play(table, rounds) answers what scorekeeper/rules/phone.py answers, or
 * null while there is no engine.
 */
(function () {
  "use strict";

  let worker = null;
  let ready = false;
  let version = "";
  let asked = 0;
  const waiting = new Map();

  function start() {
    const where = document.getElementById("engine");
    if (!where || worker || !("WebAssembly" in window) || !("Worker" in window)) return;
    try {
      worker = new Worker(where.dataset.worker, { type: "module" });
    } catch (error) {
      return;
    }
    worker.addEventListener("message", (event) => {
      const message = event.data;
      if (message.ready) {
        // What draws the engine's answers comes with it: the first load carries none of it.
        const board = document.createElement("script");
        board.src = where.dataset.board;
        board.addEventListener("load", () => {
          version = message.ready;
          ready = version === where.dataset.version;
          document.documentElement.dataset.engine = ready ? "ready" : "old";
          document.documentElement.dataset.engineMs = String(message.ms);
          document.dispatchEvent(new CustomEvent("knock:engine-ready"));
        });
        document.head.append(board);
      } else if (message.failed && message.id === undefined) {
        // Said nowhere on the page (the table plays over the server), kept for whoever looks.
        document.documentElement.dataset.engine = "failed";
        document.documentElement.dataset.engineFailed = message.failed;
      } else if (waiting.has(message.id)) {
        const answer = waiting.get(message.id);
        waiting.delete(message.id);
        answer(message.failed ? null : JSON.parse(message.answer));
      }
    });
    worker.addEventListener("error", () => {
      ready = false;
      document.documentElement.dataset.engine = "failed";
    });
    worker.postMessage({
      start: {
        runtime: new URL(where.dataset.runtime, location.href).href,
        stdlib: new URL(where.dataset.stdlib, location.href).href,
        bundle: new URL(where.dataset.bundle, location.href).href,
        language: document.documentElement.lang,
      },
    });
  }

  /* The rounds (each the record form's fields, as lists of values) played from `table` (the
     page's engine-table): a promise of the engine's answer, or of null without an engine. */
  function play(table, rounds) {
    if (!ready) return Promise.resolve(null);
    const id = ++asked;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      worker.postMessage({ id, play: JSON.stringify({ ...table, rounds }) });
    });
  }

  window.knockEngine = {
    play,
    get ready() {
      return ready;
    },
    get version() {
      return version;
    },
  };

  // Loaded by sync.js once the table has painted: it starts the worker at once.
  start();
})();
