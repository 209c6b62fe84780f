/* The new-game page: each house rule's "As the rules say" names what the chosen rule set says,
 * and follows a change of rule set. */
(function () {
  "use strict";

  function saying(words) {
    const said = window.knockWord ? window.knockWord("as_the_rules_say", "") : "";
    return (said || "As the rules say: {words}").replace("{words}", words);
  }

  function follow(preset) {
    for (const rule of document.querySelectorAll(".house-rule[data-said]")) {
      const words = JSON.parse(rule.dataset.said)[preset];
      const select = rule.querySelector("select");
      const number = rule.querySelector("input[type=number]");
      if (select && select.options[0].value === "") {
        select.options[0].textContent = saying(words);
      } else if (number) {
        number.placeholder = saying(words);
      }
    }
  }

  document.addEventListener("change", (event) => {
    if (event.target.name === "preset") follow(event.target.value);
  });
})();
