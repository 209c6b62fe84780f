/* The theme this phone chose, set before the page is drawn, so a dark page never flashes
 * white: the one classic script, in the head (a module would run after the first paint). Its
 * storage key is the server's (data-key, from scorekeeper/web/contract.py); page.js changes it. */
(function () {
  "use strict";
  const root = document.documentElement;
  const script = document.currentScript;
  const key = (script && script.dataset.key) || "knock-theme";
  root.classList.add("js");
  const chosen = localStorage.getItem(key);
  if (chosen === "light" || chosen === "dark") root.dataset.theme = chosen;
})();
