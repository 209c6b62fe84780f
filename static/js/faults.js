// @ts-check
/* A phone's faults, seen: an uncaught error, a promise nobody caught, a refusal of the page's
 * security policy, and what the phone's own modules report (a round the outbox could not keep,
 * an engine that failed) reach the server as a small same-origin report, which it logs with
 * the release (scorekeeper/web/views/app.py). No key, no name, no page address is in it: only
 * what failed and in which file. At most a few a page, each said once. */

/** @typedef {import("./contract.js").Fault} Fault */

const MOST = 5; // reports a page sends at most
const said = new Set();

/** Where a fault happened, as a file name only (no path: a club's key is in the page's). @param {string} url */
function fileOf(url) {
  return String(url || "").split(/[?#]/)[0].split("/").pop() || "";
}

/** The page's CSRF token, as htmx sends it (base.html's hx-headers). */
function csrfToken() {
  try {
    const headers = JSON.parse(document.body.getAttribute("hx-headers") || "{}");
    return String(headers["x-csrftoken"] || "");
  } catch {
    return "";
  }
}

/**
 * Tell the server of a fault.
 * @param {Fault["kind"]} kind @param {unknown} message @param {string} [where]
 */
export function report(kind, message, where = "") {
  const text = String(message instanceof Error ? message.message : message).slice(0, 300);
  const key = `${kind} ${text} ${where}`;
  if (said.has(key) || said.size >= MOST) return;
  said.add(key);
  const url = document.documentElement.dataset.faults;
  if (!url) return;
  /** @type {Fault} */
  const fault = { kind, message: text, where: fileOf(where), release: document.documentElement.dataset.release || "" };
  fetch(url, {
    method: "POST",
    body: JSON.stringify(fault),
    credentials: "same-origin",
    keepalive: true,
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
  }).catch(() => {
    // No connection: a fault report is not worth keeping for later.
  });
}

/** Listen for what no module caught. */
export function watch() {
  window.addEventListener("error", (event) => report("error", event.message, event.filename));
  window.addEventListener("unhandledrejection", (event) => report("rejection", event.reason));
  document.addEventListener("securitypolicyviolation", (event) =>
    report("csp", `${event.effectiveDirective} refused ${fileOf(event.blockedURI) || event.blockedURI}`, event.sourceFile)
  );
}
