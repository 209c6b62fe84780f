// @ts-check
/* The edit page of a round: its tiles take taps as the table page's do (taps.js), and what the
 * edit would do is asked of the server as the round is tapped (the form's hx-trigger). */
import { listen, recordForm, sync } from "./taps.js";

listen(() => {});
document.addEventListener("input", (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  const form = recordForm();
  if (form && target.closest && target.closest(".card-entry")) form.dispatchEvent(new Event("knock:typed"));
});
document.addEventListener("htmx:afterSettle", () => {
  const form = recordForm();
  if (form) sync(form);
});
const form = recordForm();
if (form) sync(form);
