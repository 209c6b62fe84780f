/* The printed pages' Print button: the browser's own print dialog. */
(function () {
  "use strict";

  document.addEventListener("click", (event) => {
    if (event.target.closest(".print-button")) window.print();
  });
})();
