/* Knock's service worker, as this server draws it: the names of this release's files (their
 * real, hashed URLs in production), then the worker itself (static/js/service-worker.js,
 * type-checked and linted with the page's modules). */
"use strict";
self.KNOCK_WORKER = {{ config|safe }};
importScripts("{{ script }}");
