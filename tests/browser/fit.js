/* What a page does wrong on this screen, measured on its boxes (tests/browser/test_every_phone.py):
 * a sideways scroll, a text cut (an ellipsis, a clamp, a box too small for it), a word broken
 * inside itself, two things drawn on each other, a control that cannot be reached under another.
 * Returns a list of sentences, empty when the page fits. */
() => {
  const problems = [];
  const root = document.documentElement;
  const width = root.clientWidth;
  const say = (el) => {
    const classes = typeof el.className === "string" && el.className.trim()
      ? "." + el.className.trim().split(/\s+/).join(".") : "";
    const text = (el.textContent || el.getAttribute("aria-label") || "").replace(/\s+/g, " ").trim();
    return `${el.tagName.toLowerCase()}${el.id ? "#" + el.id : ""}${classes} "${text.slice(0, 40)}"`;
  };
  const style = (el) => getComputedStyle(el);
  const shown = (el) => {
    if (!el.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return false;
    const box = el.getBoundingClientRect();
    return box.width > 1 && box.height > 1;
  };
  // A box kept for screen readers only (clipped away): not drawn.
  const forReaders = (el) => {
    for (let at = el; at && at !== document.body; at = at.parentElement) {
      if (style(at).clip.startsWith("rect")) return true;
    }
    return false;
  };
  // Boxes that stay in view as the page scrolls (the bar, a sticky header): drawn over the page
  // on purpose, so compared only with what shares their layer.
  const layerOf = (el) => {
    for (let at = el; at && at !== document.body; at = at.parentElement) {
      const position = style(at).position;
      if (position === "sticky" || position === "fixed") return at;
    }
    return null;
  };
  const elements = [...document.body.querySelectorAll("*")].filter((el) => shown(el) && !forReaders(el));

  // 1. Nothing scrolls sideways: neither the page nor a box inside it.
  if (root.scrollWidth > width + 1) problems.push(`the page scrolls sideways (${root.scrollWidth} px in ${width})`);
  for (const el of elements) {
    const s = style(el);
    if ((s.overflowX === "auto" || s.overflowX === "scroll") && el.scrollWidth > el.clientWidth + 1) {
      problems.push(`scrolls sideways: ${say(el)} (${el.scrollWidth} px in ${el.clientWidth})`);
    }
  }

  // The text of the page, node by node, with the boxes of its lines.
  const texts = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    const el = node.parentElement;
    if (!node.textContent.trim() || !el || !elements.includes(el)) continue;
    if (el.closest("script, style, template, option, textarea, code")) continue;
    texts.push(node);
  }

  // 2. No text cut: a box that hides what overflows it holds all of its text.
  const hides = (s) => s.overflowX !== "visible" || s.overflowY !== "visible" || s.textOverflow === "ellipsis"
    || (s.webkitLineClamp && s.webkitLineClamp !== "none");
  const checked = new Set();
  for (const node of texts) {
    for (let el = node.parentElement; el && el !== document.body; el = el.parentElement) {
      if (checked.has(el)) break;
      checked.add(el);
      const s = style(el);
      if (!hides(s) || el.matches("input, select, textarea")) continue;
      if (s.overflowX === "auto" || s.overflowX === "scroll" || s.overflowY === "auto" || s.overflowY === "scroll") continue;
      if (el.scrollWidth > el.clientWidth + 1 || el.scrollHeight > el.clientHeight + 1) {
        problems.push(`text cut: ${say(el)} (${el.scrollWidth}x${el.scrollHeight} in ${el.clientWidth}x${el.clientHeight})`);
      }
    }
  }

  // 3. No word broken inside itself: each word (a hyphen or a slash may end a line) on one line.
  const range = document.createRange();
  const linesOf = (r) => {
    const tops = [];
    for (const box of r.getClientRects()) {
      if (box.width < 1) continue;
      if (!tops.some((top) => Math.abs(top - box.top) < box.height / 2)) tops.push(box.top);
    }
    return tops.length;
  };
  for (const node of texts) {
    const text = node.textContent;
    const word = /[^\s\u00AD\-‐–/]+[\-‐/]?/g;
    for (let match = word.exec(text); match; match = word.exec(text)) {
      if (match[0].length < 2) continue;
      range.setStart(node, match.index);
      range.setEnd(node, match.index + match[0].length);
      if (linesOf(range) > 1) problems.push(`word broken: "${match[0]}" in ${say(node.parentElement)}`);
    }
  }

  // 4. Nothing drawn on anything else: lines of text, and the marks that stand for lives.
  const atoms = [];
  for (const node of texts) {
    range.selectNodeContents(node);
    for (const box of range.getClientRects()) {
      if (box.width >= 1 && box.height >= 1) atoms.push({ box, el: node.parentElement, layer: layerOf(node.parentElement) });
    }
  }
  // Beside the text: what stands for something (a life, a chart, a field), and a small box drawn
  // with its own background or border and nothing inside it but text (a badge).
  const painted = (s) => (s.backgroundColor !== "rgba(0, 0, 0, 0)" && s.backgroundColor !== "transparent")
    || parseFloat(s.borderTopWidth) > 0;
  for (const el of elements) {
    if (el.matches(".token, svg, img, input:not([type=hidden]), select")
        || (el.childElementCount === 0 && el.textContent.trim() && painted(style(el)))) {
      atoms.push({ box: el.getBoundingClientRect(), el, layer: layerOf(el) });
    }
  }
  // What a box scrolled or cut by an ancestor shows of it: its box within theirs.
  const visiblePart = (el, box) => {
    let { left, top, right, bottom } = box;
    for (let at = el.parentElement; at && at !== document.body; at = at.parentElement) {
      const s = style(at);
      if (s.overflowX === "visible" && s.overflowY === "visible") continue;
      const clip = at.getBoundingClientRect();
      left = Math.max(left, clip.left);
      top = Math.max(top, clip.top);
      right = Math.min(right, clip.right);
      bottom = Math.min(bottom, clip.bottom);
    }
    return { left, top, right, bottom };
  };
  for (const atom of atoms) atom.box = visiblePart(atom.el, atom.box);
  const overlap = (a, b) => Math.min(a.right, b.right) - Math.max(a.left, b.left) > 2
    && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 4;
  const reported = new Set();
  for (let i = 0; i < atoms.length; i++) {
    for (let j = i + 1; j < atoms.length; j++) {
      const a = atoms[i];
      const b = atoms[j];
      if (a.el === b.el || a.layer !== b.layer || a.el.contains(b.el) || b.el.contains(a.el)) continue;
      if (!overlap(a.box, b.box)) continue;
      const key = `${say(a.el)} / ${say(b.el)}`;
      if (reported.has(key)) continue;
      reported.add(key);
      problems.push(`drawn on each other: ${key}`);
    }
  }

  // 5. Every control can be reached: scrolled to the middle of the screen, a tap at its middle
  // lands on it, not on something over it.
  const controls = elements.filter((el) => el.matches(
    "a[href], button, input:not([type=hidden]):not([type=radio]):not([type=checkbox]), select, summary, textarea, label:has(> input[type=radio], > input[type=checkbox])",
  ));
  const { scrollX, scrollY } = window;
  for (const el of controls) {
    el.scrollIntoView({ block: "center", inline: "center", behavior: "instant" });
    const box = el.getBoundingClientRect();
    const x = box.left + box.width / 2;
    const y = box.top + box.height / 2;
    if (x < 0 || y < 0 || x > width || y > window.innerHeight) {
      problems.push(`out of reach: ${say(el)}`);
      continue;
    }
    const hit = document.elementFromPoint(x, y);
    if (hit && !el.contains(hit) && !hit.contains(el) && !(el.control && (hit === el.control || el.control.contains(hit)))) {
      problems.push(`under another: ${say(el)} under ${say(hit)}`);
    }
  }
  window.scrollTo({ left: scrollX, top: scrollY, behavior: "instant" });
  return problems;
}
