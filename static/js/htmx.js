// @ts-check
/* htmx, the page's one copy (base.html loads it before the modules), as the table's modules use
 * it: typed, and read where it is used, so a module never holds a copy from before it loaded. */

/**
 * @typedef {{
 *   trigger: (elt: Element, name: string, detail?: unknown) => void,
 *   swap: (target: string | Element, html: string, spec: {swapStyle: string}, options?: {select?: string}) => void,
 * }} Htmx
 */

/** The page's htmx, or null on a page without it. @returns {Htmx | null} */
export function htmx() {
  return /** @type {{htmx?: Htmx}} */ (/** @type {unknown} */ (window)).htmx || null;
}
