// @ts-check
/* The printed pages' Print button: the browser's own print dialog. */
document.addEventListener("click", (event) => {
  const target = /** @type {HTMLElement} */ (event.target);
  if (target.closest && target.closest(".print-button")) window.print();
});
