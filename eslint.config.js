// ESLint for the phone's JavaScript and its unit tests (`npm run check`): the recommended set,
// with the globals of where each file runs.
import js from "@eslint/js";
import globals from "globals";

export default [
  js.configs.recommended,
  {
    files: ["static/js/**/*.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.browser } },
  },
  {
    files: ["static/js/engine-worker.js"],
    languageOptions: { globals: { ...globals.worker } },
  },
  {
    // The service worker is a classic script: /sw.js imports it after naming the release's files.
    files: ["static/js/service-worker.js"],
    languageOptions: { sourceType: "script", globals: { ...globals.serviceworker } },
  },
  {
    files: ["tests/js/**/*.js", "eslint.config.js"],
    languageOptions: { sourceType: "module", globals: { ...globals.node } },
  },
  {
    rules: {
      "no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_", caughtErrors: "none" }],
    },
  },
];
