/* Draws the table view that the engine worked out (scorekeeper/rules/view.py) into the table
 * page, as the server's templates draw the same view (game.html, _seat.html): the header, each
 * tile's lives, status and dealer badge, the story of the round, the toast, the winner. Used
 * when the phone's own engine played a round the server has not answered yet (engine.js).
 */
(function () {
  "use strict";

  const word = (key, fallback) => (window.knockWord ? window.knockWord(key, fallback) : fallback);

  function span(className, text) {
    const made = document.createElement("span");
    if (className) made.className = className;
    if (text !== undefined) made.textContent = text;
    return made;
  }

  /* A tile's parts before its role line, as _seat.html draws them. */
  function seatParts(seat, view, startLives) {
    const parts = [span(`name${seat.name_fit ? ` ${seat.name_fit}` : ""}`, seat.name), span("visually-hidden", ", ")];
    const deals = view.dealer && seat.deals;
    if (seat.coins !== null) {
      const coins = span("coins", seat.coins);
      coins.setAttribute("aria-hidden", "true");
      parts.push(coins, span("visually-hidden", seat.said + (deals ? "," : "")));
    } else {
      const lives = span("lives");
      lives.setAttribute("aria-hidden", "true");
      if (seat.tokens.length) {
        for (const kept of seat.tokens) lives.append(span(`token${kept ? "" : " lost"}`));
      } else {
        lives.append(span("token"), span("count", `${seat.lives}/${startLives}`));
      }
      parts.push(lives, span("visually-hidden", seat.said + (seat.status !== "in" || deals ? "," : "")));
    }
    const state = span("state");
    if (seat.status !== "in") state.append(span(`status${seat.label_fit ? ` ${seat.label_fit}` : ""}`, seat.label));
    if (deals) state.append(" ", span("dealer", view.deals_word));
    parts.push(state);
    return parts;
  }

  function drawHeader(table, view) {
    const head = table.querySelector(".game-head");
    if (!head) return;
    head.querySelector("h1").textContent = view.heading;
    const meta = head.querySelector(".meta");
    const dealer = meta && meta.querySelector("strong");
    if (dealer && view.dealer) dealer.textContent = view.dealer;
    else if (dealer) {
      // The game is over: nobody deals ("<strong>Ben</strong> deals · " goes).
      const after = dealer.nextSibling;
      if (after && after.nodeType === Node.TEXT_NODE) after.remove();
      dealer.remove();
    }
    const pot = head.querySelector(".pot");
    if (pot) pot.textContent = view.pot;
    document.title = document.title.replace(/^[^·]*·/, `${view.heading} ·`);
  }

  function drawStory(table, view) {
    let last = table.querySelector("section.last");
    if (!view.story.length) {
      if (last) last.remove();
      return;
    }
    if (!last) {
      last = document.createElement("section");
      last.className = "last";
      last.setAttribute("aria-labelledby", "last-heading");
      const heading = document.createElement("h2");
      heading.id = "last-heading";
      const story = document.createElement("ul");
      story.className = "story";
      last.append(heading, story);
      const card = table.querySelector(".rules-card, details.rules");
      if (card) card.before(last);
      else table.append(last);
    }
    last.querySelector("h2").textContent = view.story_heading;
    last.querySelector("ul.story").replaceChildren(...view.story.map((sentence) => {
      const item = document.createElement("li");
      item.textContent = sentence;
      return item;
    }));
  }

  function drawWinner(table, view) {
    let winner = table.querySelector(".winner.on-phone");
    if (!view.game_over) {
      if (winner) winner.remove();
      return;
    }
    if (!winner) {
      winner = document.createElement("div");
      winner.className = "winner on-phone";
      winner.setAttribute("role", "status");
      table.querySelector(".game-head").after(winner);
    }
    const line = document.createElement("p");
    if (view.winner) {
      // "<strong>%(name)s</strong> wins!": the words around the name are the language's.
      const [before, after] = view.wins_words;
      const name = document.createElement("strong");
      name.textContent = view.winner;
      line.append(before || "", name, after || "");
    } else {
      line.textContent = `${view.result_words}.`;
    }
    winner.replaceChildren(line);
    if (document.getElementById("again")) {
      // Play again, with or without a connection (again.js).
      const again = document.createElement("button");
      again.type = "button";
      again.className = "primary play-again-phone";
      again.textContent = word("play_again", "Play again");
      winner.append(again);
    }
  }

  /* The table after a round this phone played: `waiting` when the server has not saved it;
     `tapping` while the Record tap is still on its way to htmx, which disables Record itself
     while it sends. */
  function draw(view, { waiting = false, toast = true, tapping = false } = {}) {
    const table = document.getElementById("table");
    if (!table) return;
    const form = document.getElementById("record");
    table.dataset.drawn = waiting ? "phone" : "";
    drawHeader(table, view);
    const startLives = Number(table.dataset.startLives || 0);
    table.querySelectorAll(".scoreboard > li.seat").forEach((item, i) => {
      const seat = view.seats[i];
      if (!seat) return;
      item.className = `seat ${seat.status}`;
      const tile = item.querySelector(".tile");
      const role = tile.querySelector("[data-role]");
      const mark = tile.querySelector(".mark");  // the player's colour and initials stay
      tile.replaceChildren(...(mark ? [mark] : []), ...seatParts(seat, view, startLives));
      if (waiting) tile.append(span("unsaved", word("unsaved", "not saved yet")));
      if (role) tile.append(role);
      tile.classList.toggle("unsaved", waiting);
      if (tile.tagName === "BUTTON") tile.disabled = seat.out || view.game_over;
      const has31 = item.querySelector(".has31");
      if (has31) has31.hidden = seat.out;
    });
    drawStory(table, view);
    drawWinner(table, view);
    if (form) {
      const confirm = form.querySelector("button[name=confirm]");
      if (confirm) {
        confirm.textContent = form.classList.contains("counting") ? view.save : view.record;
        if (!tapping) confirm.disabled = view.game_over;
      }
      const undo = form.querySelector("button.undo");
      if (undo) undo.hidden = !view.rounds;
    }
    const said = document.getElementById("toast");
    if (toast && said) {
      // None after the round that ends the game (the view says none): the winner says it.
      const words = waiting ? view.waiting : view.saved;
      const line = document.createElement("p");
      line.append(span("", words));
      said.replaceChildren(...(words ? [line] : []));
    }
  }

  window.knockBoard = { draw };
})();
