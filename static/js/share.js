/* A Share button: its text through the phone's share sheet, or else onto the clipboard. */
(function () {
  "use strict";

  document.addEventListener("click", async (event) => {
    const button = event.target.closest("button.share[data-share]");
    if (!button) return;
    const text = button.dataset.share;
    const said = button.parentElement.querySelector(".shared");
    try {
      if (navigator.share) {
        await navigator.share({ text, title: button.dataset.title || document.title });
      } else {
        await navigator.clipboard.writeText(text);
        if (said) said.textContent = window.knockWord
          ? window.knockWord("copied", "Copied: paste it where the group will see it.")
          : "Copied: paste it where the group will see it.";
      }
    } catch (error) {
      // Dismissing the share sheet is no failure; anything else shows the text to copy.
      if (error.name !== "AbortError" && said) said.textContent = text;
    }
  });
})();
