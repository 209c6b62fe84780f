/* Knock's service worker: its files kept on the phone, and the tables it has seen kept for a
 * reload without a connection. Drawn by the server, so the list names the files' real URLs. */
"use strict";

const VERSION = "{{ version }}";
const FILES = "files-" + VERSION;
const PAGES = "pages";
const PRECACHE = {{ precache|safe }};
const OFFLINE = "{{ offline_url }}";
const STATIC = "{{ static_url }}";
// The engine on the phone (its runtime and its bundle): kept as first fetched, per release.
const ENGINE = "engine-" + VERSION;
const ENGINE_PREFIXES = {{ engine_prefixes|safe }};
// A game's pages, through either link: the table and its round log.
const KEPT = /^\/(c|v)\/[^/]+\/g\/[^/]+\/(log)?$/;
const KEEP_AT_MOST = 20; // the pages of the games seen last; older ones go

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(FILES).then((cache) => cache.addAll([...PRECACHE, OFFLINE])));
  self.skipWaiting();
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) =>
        Promise.all(
          keys
            .filter((key) => (key.startsWith("files-") && key !== FILES) || (key.startsWith("engine-") && key !== ENGINE))
            .map((key) => caches.delete(key))
        )
      )
      .then(() => self.clients.claim())
  );
});

const SAME = { ignoreVary: true };

/* The table's version a kept page shows (-1: none, as the round log). */
const VERSION_OF = /data-version="(\d+)"/;
async function versionOf(response) {
  const found = response ? VERSION_OF.exec(await response.clone().text()) : null;
  return found ? Number(found[1]) : -1;
}

/* A game's page kept as the newest, the oldest beyond KEEP_AT_MOST let go; one at a time, and
   never over a later table (a slow answer for an older one can arrive last). */
let keeping = Promise.resolve();
function keep(kept, request, response) {
  const step = async () => {
    if (!response.ok || !KEPT.test(new URL(request.url).pathname)) return;
    const older = await kept.match(request, SAME);
    if (older && (await versionOf(older)) > (await versionOf(response))) return;
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
async function page(request) {
  const kept = await caches.open(PAGES);
  try {
    const response = await fetch(request);
    if ([502, 503, 504].includes(response.status)) {
      // Knock is there but cannot answer (its database down, a restart): as without a
      // connection, the page as last kept.
      const last = await kept.match(request, SAME);
      if (last) return last;
    }
    if (response.status === 404) {
      // A game this phone started without a connection, that Knock has not heard of yet
      // (again.js): its page as the phone made it, until its start is sent.
      const made = await kept.match(request, SAME);
      if (made && made.headers.get("Knock-Made-On-Phone")) return made;
    }
    await keep(kept, request, response.clone());
    return response;
  } catch (error) {
    return (await kept.match(request, SAME)) || (await caches.match(OFFLINE));
  }
}

/* A table told of a change (a round recorded, taken back, another phone's) asks for its page
   to be kept as it is now, so a reload without a connection shows the latest table. */
self.addEventListener("message", (event) => {
  const url = event.data && event.data.keep;
  if (typeof url !== "string" || new URL(url).origin !== self.location.origin) return;
  const request = new Request(url, { credentials: "same-origin" });
  event.waitUntil(
    caches.open(PAGES).then((kept) => fetch(request).then((response) => keep(kept, request, response)).catch(() => {}))
  );
});

/* A file of the engine: as kept, or fetched once and kept (its URL names its version). */
async function engineFile(request) {
  const kept = await caches.open(ENGINE);
  const hit = await kept.match(request);
  if (hit) return hit;
  const response = await fetch(request);
  if (response.ok) await kept.put(request, response.clone());
  return response;
}

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (ENGINE_PREFIXES.some((prefix) => url.pathname.startsWith(prefix))) {
    event.respondWith(engineFile(request));
  } else if (url.pathname.startsWith(STATIC)) {
    event.respondWith(caches.match(request).then((hit) => hit || fetch(request)));
  } else if (request.mode === "navigate") {
    event.respondWith(page(request));
  }
});
