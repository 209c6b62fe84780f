// @ts-check
/* Knock's service worker: its files kept on the phone, the engine's too, and the tables it has
 * seen kept for a reload without a connection, each kept up to date from the table region an
 * answer brings (never fetched again for it). A classic script: /sw.js (drawn by the server,
 * templates/sw.js) sets the names of this release's files, then imports this, so the worker is
 * type-checked and linted with the page's modules. Its names are the server's
 * (scorekeeper/web/contract.py). */
"use strict";

/**
 * What /sw.js says of this release.
 * @typedef {{
 *   version: string,
 *   names: typeof import("./contract.js").NAMES,
 *   precache: string[],
 *   engineFiles: string[],
 *   offline: string,
 *   staticUrl: string,
 *   enginePrefixes: string[],
 * }} WorkerConfig
 */

const worker = /** @type {ServiceWorkerGlobalScope & {KNOCK_WORKER: WorkerConfig}} */ (/** @type {unknown} */ (self));
const CONFIG = worker.KNOCK_WORKER;
const VERSION = CONFIG.version;
const NAMES = CONFIG.names;
const FILES = NAMES.caches.files + VERSION;
const PAGES = NAMES.caches.pages;
const ENGINE = NAMES.caches.engine + VERSION;
const PRECACHE = CONFIG.precache;
const ENGINE_FILES = CONFIG.engineFiles;
const OFFLINE = CONFIG.offline;
const STATIC = CONFIG.staticUrl;
const ENGINE_PREFIXES = CONFIG.enginePrefixes;
// A game's pages, through either link: the table and its round log.
const KEPT = /^\/(c|v)\/[^/]+\/g\/[^/]+\/(log)?$/;
const KEEP_AT_MOST = 20; // the pages of the games seen last; older ones go
const [OPEN, CLOSE] = NAMES.tableMarks;

worker.addEventListener("install", (event) => {
  event.waitUntil(caches.open(FILES).then((cache) => cache.addAll([...PRECACHE, OFFLINE])));
  worker.skipWaiting();
});

worker.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((key) => (key.startsWith(NAMES.caches.files) && key !== FILES) || (key.startsWith(NAMES.caches.engine) && key !== ENGINE))
            .map((key) => caches.delete(key))
        )
      )
      .then(() => worker.clients.claim())
  );
});

const SAME = { ignoreVary: true };

/* The table's version a page (or a table region) shows (-1: none, as the round log). */
const VERSION_OF = /data-version="(\d+)"/;
/** @param {string} text */
function versionIn(text) {
  const found = VERSION_OF.exec(text);
  return found ? Number(found[1]) : -1;
}

/* A game's page kept as the newest, the oldest beyond KEEP_AT_MOST let go; one at a time, and
   never over a later table (a slow answer for an older one can arrive last). */
let keeping = Promise.resolve();
/** @param {Cache} kept @param {Request} request @param {Response} response @returns {Promise<void>} */
function keep(kept, request, response) {
  const step = async () => {
    if (!response.ok || !KEPT.test(new URL(request.url).pathname)) return;
    const older = await kept.match(request, SAME);
    if (older && versionIn(await older.clone().text()) > versionIn(await response.clone().text())) return;
    await kept.delete(request, SAME); // put again below, so it counts as the newest
    await kept.put(request, response);
    const pages = await kept.keys();
    await Promise.all(pages.slice(0, Math.max(0, pages.length - KEEP_AT_MOST)).map((old) => kept.delete(old)));
  };
  keeping = keeping.then(step, step);
  return keeping;
}

/* A page: from the network, keeping a game's page for later; without a network, the page as
   last kept, or else the offline page. */
/** @param {Request} request @returns {Promise<Response>} */
async function page(request) {
  const kept = await caches.open(PAGES);
  try {
    const response = await fetch(request);
    if (NAMES.proxyDown.includes(response.status)) {
      // Knock is there but cannot answer (its database down, a restart): as without a
      // connection, the page as last kept.
      const last = await kept.match(request, SAME);
      if (last) return last;
    }
    if (response.status === 404) {
      // A game this phone started without a connection, that Knock has not heard of yet
      // (again.js): its page as the phone made it, until its start is sent.
      const made = await kept.match(request, SAME);
      if (made && made.headers.get(NAMES.headers.madeOnPhone)) return made;
    }
    await keep(kept, request, response.clone());
    return response;
  } catch (error) {
    // Neither kept: a network error, as without the worker (never an answer of nothing).
    return (await kept.match(request, SAME)) || (await caches.match(OFFLINE)) || Response.error();
  }
}

/* An answer that draws a table (a round recorded or taken back, the table drawn again after
   news: htmx says the table is its target): its table region put into the page kept for that table, so a reload without a
   connection shows the latest table, and nothing is fetched again for it. */
/** @param {string | null} pageUrl @param {Response} response */
async function keepRegion(pageUrl, response) {
  if (!pageUrl || !response.ok) return;
  const text = await response.text();
  const start = text.indexOf(OPEN);
  const end = text.indexOf(CLOSE);
  if (start < 0 || end < start) return;
  const kept = await caches.open(PAGES);
  const request = new Request(pageUrl);
  const older = await kept.match(request, SAME);
  if (!older) return;
  const whole = await older.text();
  const from = whole.indexOf(OPEN);
  const to = whole.indexOf(CLOSE);
  if (from < 0 || to < from) return;
  const region = text.slice(start, end + CLOSE.length);
  const merged = whole.slice(0, from) + region + whole.slice(to + CLOSE.length);
  await keep(kept, request, new Response(merged, { headers: older.headers }));
}

/** @param {FetchEvent} event */
async function answer(event) {
  const pageUrl = event.request.headers.get("HX-Current-URL");
  const response = await fetch(event.request);
  event.waitUntil(keepRegion(pageUrl, response.clone()).catch(() => {}));
  return response;
}

/* A file of the engine: as kept, or fetched once and kept (its URL names its version). */
/** @param {Request} request */
async function engineFile(request) {
  const kept = await caches.open(ENGINE);
  const hit = await kept.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await kept.put(request, response.clone());
  return response;
}

/* Ready for tonight: a table asks for itself and every file it needs offline to be kept (after
   one visit, not two: the page's own first fetches came before this worker was there), and is
   told how many of them are. */
/** @param {string} url @param {boolean} withEngine */
async function ready(url, withEngine) {
  /** @type {[string, string[]][]} */
  const wanted = [
    [FILES, [...PRECACHE, OFFLINE]],
    [ENGINE, withEngine ? ENGINE_FILES : []],
    [PAGES, [url]],
  ];
  let kept = 0;
  let of = 0;
  for (const [name, urls] of wanted) {
    const cache = await caches.open(name);
    for (const each of urls) {
      of += 1;
      const request = new Request(each, { credentials: "same-origin" });
      if (await cache.match(request, SAME)) {
        kept += 1;
        continue;
      }
      try {
        const response = await fetch(request);
        if (!response.ok) continue;
        if (name === PAGES) await keep(cache, request, response);
        else await cache.put(request, response);
        kept += 1;
      } catch (error) {
        // No connection: said as not ready yet, and asked again at the next visit.
      }
    }
  }
  return { kept, of };
}

worker.addEventListener("message", (event) => {
  const url = event.data && event.data.ready;
  const port = event.ports && event.ports[0];
  if (typeof url !== "string" || new URL(url).origin !== worker.location.origin || !port) return;
  event.waitUntil(ready(url, !!event.data.engine).then((said) => port.postMessage(said)));
});

worker.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (url.origin !== worker.location.origin) return;
  if (request.headers.get("HX-Target") === "table" && request.headers.get("HX-Current-URL")) {
    event.respondWith(answer(event));
    return;
  }
  if (request.method !== "GET") return;
  if (ENGINE_PREFIXES.some((prefix) => url.pathname.startsWith(prefix))) {
    event.respondWith(engineFile(request));
  } else if (url.pathname.startsWith(STATIC)) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request));
  }
});
