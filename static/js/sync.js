/* The table's rounds on their way: what a Record tap does when Knock cannot be reached, and the
 * rules engine on the phone (engine.js) that shows at once what a round did.
 *
 * With the engine, a round is played on the phone as it is tapped, and Record draws it in the
 * tap's own frame: the tiles, the dealer badge, the story and the toast show what the round did
 * while the server's answer is on its way; the server's answer (the judge: it plays the round
 * again from what was tapped, never from what the phone worked out) then draws the table as it
 * stands, and says so if it refused. Without a connection, every round waiting on the phone is played on it too, so the
 * table keeps playing to the winner, each tile marked as not saved yet.
 */
(function () {
  "use strict";

  const { sync, buzzIfSaved, word, OUTCOME } = window.knockTable;
  // A phone keeps at most this many rounds waiting: past it, a round is refused, said plainly.
  const MOST_WAITING = 200;

  /* Offline, and after. A round this phone recorded that could not reach Knock waits on the
     phone (localStorage, one list per game), in order, each with the tap id made when it was
     tapped and the version of the table it was made on (the one before it, for a round made
     while another waits); they are said ("2 rounds not sent yet") and sent in order when the
     connection is back, or by Retry. The server says what each did (Knock-Tap): saved, or that
     very tap stored before, goes; a round the table changed before is not saved, the table as
     it is now says what the other phone did, and it and the rounds after it wait to be sent
     again on the new table, or dropped, as the table says. Undo takes back a waiting round
     before anything sent. An Undo that could not be sent is sent once when the connection is
     back. */
  const NOT_SENT = "Not saved: no connection. Knock will send it when the connection is back.";
  const WAITING_OF = "knock-waiting:";
  const WAITING = WAITING_OF + location.pathname;
  // A game this phone started without a connection ("Play again", again.js): how to start it
  // on the server, which comes before any of its rounds.
  const START_OF = "knock-start:";
  let unsentUndo = null;
  let sending = false;

  function waiting() {
    try {
      return JSON.parse(localStorage.getItem(WAITING) || "[]");
    } catch (error) {
      return [];
    }
  }

  /* The table the page was drawn with, as the engine reads it (game.html's engine-table). */
  function engineTable() {
    const element = document.getElementById("engine-table");
    return element ? JSON.parse(element.textContent) : null;
  }

  /* A round's form as the engine reads it: each field with the list of its values. */
  function fieldsOf(body) {
    const fields = {};
    for (const [name, value] of new URLSearchParams(body)) (fields[name] = fields[name] || []).push(value);
    return fields;
  }

  /* The waiting rounds (and `more`, a round being tapped) played on the phone from the table
     the page shows, and the table after them drawn, marked as not saved; false where the
     engine cannot say (none yet, or a round it leaves to the server). */
  async function playOnPhone(more = [], { toast = true } = {}) {
    const asked = askEngine(more);
    if (!asked) return false;
    return drawAnswer(await asked.answer, asked.version, { toast });
  }

  /* The engine's answer for the waiting rounds and `more`, on the table the page shows: its
     version and a promise of the answer; null where there is no engine to ask. */
  function askEngine(more) {
    const table = engineTable();
    const engine = window.knockEngine;
    if (!engine || !engine.ready || !table) return null;
    if (table.engine !== engine.version) {
      // Knock was updated since this page was loaded: its rules are the server's to play.
      document.documentElement.dataset.engine = "old";
      return null;
    }
    const version = document.getElementById("table").dataset.version;
    const rounds = [...waiting().map((round) => fieldsOf(round.body)), ...more.map(fieldsOf)];
    return { version, answer: engine.play(table, rounds) };
  }

  /* The table after the engine's `answer`, drawn unless the server's answer has drawn the table
     meanwhile (it stands) or the engine left a round to the server. */
  function drawAnswer(answer, version, { toast = true, tapping = false } = {}) {
    if (!answer || document.getElementById("table").dataset.version !== version) return false;
    if (answer.stopped) return false;
    const last = answer.played.length ? answer.played[answer.played.length - 1].view : answer.before;
    const played = answer.played.length > 0;
    window.knockBoard.draw(last, { waiting: played, toast: toast && played, tapping });
    return last;
  }

  /* The round being tapped is played on the phone as it is tapped (each change of the record
     form, once the page has settled on it), so that Record has only to draw it: the tiles change
     in the frame of the tap. Only online with nothing waiting; the answer is kept for the
     table's version and the form as it was, and a Record of any other form asks afresh. */
  let ahead = { key: "", answer: undefined };
  let aheadSoon = 0;

  function roundOf(form) {
    return new URLSearchParams(new FormData(form)).toString();
  }

  function aheadKey(body) {
    return `${document.getElementById("table").dataset.version} ${body}`;
  }

  function playAhead() {
    aheadSoon = 0;
    const form = document.getElementById("record");
    if (!form || waiting().length || startWaits()) return;
    const body = roundOf(form);
    const key = aheadKey(body);
    if (ahead.key === key) return;
    delete form.dataset.ahead;
    const asked = askEngine([body]);
    if (!asked) return;
    const mine = { key, answer: undefined };
    ahead = mine;
    asked.answer.then((answer) => {
      mine.answer = answer;
      // Said on the form for whoever looks (the tests): Record will draw at once.
      if (ahead === mine && answer && !answer.stopped) form.dataset.ahead = "played";
    });
  }

  for (const type of ["change", "input"]) {
    document.addEventListener(type, (event) => {
      if (!aheadSoon && event.target.closest && event.target.closest("#record")) aheadSoon = setTimeout(playAhead, 0);
    });
  }

  function keepWaiting(rounds) {
    if (rounds.length) localStorage.setItem(WAITING, JSON.stringify(rounds));
    else localStorage.removeItem(WAITING);
    if (rounds.length) document.documentElement.dataset.unsent = "1";
    else delete document.documentElement.dataset.unsent;
    showWaiting();
  }

  /* A tap's own id, made on the phone when it is tapped (never one a kept page carries). */
  function tapId() {
    const bytes = crypto.getRandomValues(new Uint8Array(16));
    return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
  }

  function tableVersion() {
    const input = document.querySelector("#record input[name=version]");
    return input ? Number(input.value) : 0;
  }

  function nextRound() {
    const table = document.getElementById("table");
    return table ? Number(table.dataset.nextRound || 0) : 0;
  }

  function showWaiting() {
    const box = document.getElementById("waiting");
    if (!box) return;
    const rounds = waiting();
    const start = JSON.parse(localStorage.getItem(START_OF + location.pathname) || "null");
    if (start && start.refused) {
      // Knock would not start the game this phone started (a club's games full, say).
      const said = document.createElement("p");
      said.className = "error";
      said.textContent = start.refused;
      box.hidden = false;
      return box.replaceChildren(said);
    }
    box.hidden = !rounds.length;
    if (!rounds.length) return box.replaceChildren();
    const count = document.createElement("p");
    count.className = "count";
    count.textContent =
      rounds.length === 1
        ? word("waiting_one", "1 round not sent yet")
        : word("waiting_many", "{n} rounds not sent yet").replace("{n}", rounds.length);
    const list = document.createElement("ol");
    for (const round of rounds) {
      const item = document.createElement("li");
      const number = word("waiting_round", "Round {n}").replace("{n}", round.number);
      item.textContent = round.words ? `${number}: ${round.words}` : number;
      list.append(item);
    }
    const parts = [count, list];
    if (rounds[0].refused) {
      const said = document.createElement("p");
      said.className = "error";
      said.textContent = word(
        "refused_waiting",
        "Not saved: the table changed before these rounds reached it. Send them again on the table as it is now, or drop them."
      );
      parts.push(said, button(word("send_again", "Send again"), "send-again"), button(word("drop", "Drop them"), "drop-waiting"));
    } else {
      parts.push(button(word("send_now", "Send now"), "retry"));
    }
    box.replaceChildren(...parts);
  }

  function button(text, className) {
    const made = document.createElement("button");
    made.type = "button";
    made.className = `secondary small ${className}`;
    made.textContent = text;
    return made;
  }

  function sayNotSent() {
    const preview = document.getElementById("preview");
    if (!preview) return;
    const said = document.createElement("p");
    said.className = "error";
    said.setAttribute("role", "alert");
    said.textContent = word("not_sent", NOT_SENT);
    preview.replaceChildren(said, button(word("retry", "Retry"), "retry"));
  }

  /* A round kept to be sent later: the form as it was, with its tap id and version; played on
     the phone where the engine can, so the table goes on. */
  async function wait(form, body) {
    const rounds = waiting();
    if (rounds.length >= MOST_WAITING) {
      sayRefused(
        word("too_many_waiting", "At most {n} rounds can wait on a phone: connect to send them first.").replace("{n}", MOST_WAITING)
      );
      return;
    }
    const summary = document.querySelector("#preview details.what summary");
    rounds.push({
      url: form.getAttribute("hx-post") || form.action,
      body: body.toString(),
      number: nextRound() + rounds.length,
      words: summary ? summary.textContent.trim() : "",
    });
    keepWaiting(rounds);
    // The next round starts from nothing, as after a saved one.
    form.reset();
    sync(form);
    const played = await playOnPhone();
    if (!played) return sayNotSent();
    const preview = document.getElementById("preview");
    if (preview) preview.replaceChildren();
    const kept = waiting();
    if (kept.length) {
      kept[kept.length - 1].words = played.headline;
      keepWaiting(kept);
    }
  }

  function sayRefused(text) {
    const preview = document.getElementById("preview");
    if (!preview) return;
    const said = document.createElement("p");
    said.className = "error";
    said.setAttribute("role", "alert");
    said.textContent = text;
    preview.replaceChildren(said);
  }

  document.addEventListener("htmx:configRequest", (event) => {
    const elt = event.detail.elt;
    if (!elt.matches) return;
    if (elt.matches("#record button[name=confirm]")) {
      const params = event.detail.parameters;
      params.client_id = tapId();
      const rounds = waiting();
      if (rounds.length || startWaits()) {
        // Rounds wait before this one (or the game's start): it waits behind them, made on
        // the table they lead to.
        event.preventDefault();
        params.version = String(tableVersion() + rounds.length);
        const body = new URLSearchParams(event.detail.formData);
        body.set("client_id", params.client_id);
        body.set("version", params.version);
        body.set("confirm", "1");
        wait(elt.form, body);
        send();
      }
    } else if (elt.matches("button.undo") && waiting().length) {
      // The newest round has not been sent: taking it back is taking it off the phone.
      event.preventDefault();
      const rounds = waiting();
      const last = rounds.pop();
      keepWaiting(rounds);
      playOnPhone([], { toast: false }).then(() => {
        if (!waiting().length) {
          const table = document.getElementById("table");
          if (table) delete table.dataset.drawn;
          for (const tile of document.querySelectorAll(".tile.unsaved")) {
            tile.classList.remove("unsaved");
            const mark = tile.querySelector("span.unsaved");
            if (mark) mark.remove();
          }
        }
        const toast = document.getElementById("toast");
        if (toast) toast.textContent = word("undone_waiting", "Round {n} taken back: it had not been sent.").replace("{n}", last.number);
      });
    }
  });

  /* A Record tap is drawn from the round played as it was tapped (above), or played on the
     phone at once, before htmx has even built its request (the click's capture, ahead of htmx's
     own listener): the tiles change in the frame of the tap, and the server's answer then draws
     the table as it stands. Behind waiting rounds, the tap waits with them (above) and is
     played there. */
  document.addEventListener(
    "click",
    (event) => {
      const confirm = event.target.closest && event.target.closest("#record button[name=confirm]");
      if (!confirm || confirm.disabled || waiting().length || startWaits()) return;
      const body = roundOf(confirm.form);
      if (ahead.key === aheadKey(body) && ahead.answer !== undefined) {
        // Played as it was tapped: drawn now, before htmx sends it.
        const version = document.getElementById("table").dataset.version;
        drawAnswer(ahead.answer, version, { tapping: true });
      } else {
        playOnPhone([body]);
      }
    },
    true
  );

  document.addEventListener("htmx:sendError", (event) => notSent(event.detail));
  /* The proxy in front of Knock answered for it (502, 503, 504: the app server restarting, or
     too slow): no connection to Knock either. A 500 is a fault that sending again would not
     mend. */
  document.addEventListener("htmx:responseError", (event) => {
    if ([502, 503, 504].includes(event.detail.xhr.status)) notSent(event.detail);
  });

  function notSent(detail) {
    const elt = detail.elt;
    if (!elt.matches) return;
    if (elt.matches("button[name=confirm]")) {
      const body = new URLSearchParams(detail.requestConfig.formData);
      body.set("confirm", "1");
      wait(elt.form, body);
    } else if (elt.matches("button.undo")) {
      unsentUndo = elt;
      document.documentElement.dataset.unsent = "1";
      sayNotSent();
    }
  }

  function startWaits() {
    return localStorage.getItem(START_OF + location.pathname) !== null;
  }

  /* A POST as htmx makes it for the table; null without a connection to Knock. */
  async function post(url, body) {
    let response;
    try {
      response = await fetch(url, {
        method: "POST",
        body,
        credentials: "same-origin",
        headers: {
          "Content-Type": "application/x-www-form-urlencoded",
          "HX-Request": "true",
          "HX-Target": "table",
          "HX-Current-URL": location.href,
        },
      });
    } catch (error) {
      return null;
    }
    return [502, 503, 504].includes(response.status) ? null : response;
  }

  /* The game at `path` started on the server, where this phone started it without a
     connection; false while it cannot be (no connection, or refused: said on its page). */
  async function started(path) {
    const key = START_OF + path;
    const start = JSON.parse(localStorage.getItem(key) || "null");
    if (!start) return true;
    if (start.refused) return false;
    const response = await post(start.url, start.body);
    if (!response) return false;
    if (response.ok) {
      localStorage.removeItem(key);
      return true;
    }
    // The server's own words where it gave some ("id: …"), else what it answered.
    const plain = (response.headers.get("Content-Type") || "").startsWith("text/plain");
    const why = plain ? (await response.text()).slice(0, 300) : `HTTP ${response.status}`;
    localStorage.setItem(key, JSON.stringify({ ...start, refused: why }));
    return false;
  }

  /* The rounds waiting for the games of other pages (the game before a Play again without a
     connection, say): sent in order, their pages drawn by nobody; a round not saved stops
     them, for its own page to say. */
  let sendingElsewhere = false;
  async function sendElsewhere() {
    if (sendingElsewhere) return;
    sendingElsewhere = true;
    try {
      await sendEach(otherPaths());
    } finally {
      sendingElsewhere = false;
    }
  }

  function otherPaths() {
    const paths = new Set();
    for (let i = 0; i < localStorage.length; i++) {
      const key = localStorage.key(i);
      for (const prefix of [WAITING_OF, START_OF]) {
        if (key.startsWith(prefix) && key !== prefix + location.pathname) paths.add(key.slice(prefix.length));
      }
    }
    return paths;
  }

  async function sendEach(paths) {
    for (const path of paths) {
      if (!(await started(path))) continue;
      const key = WAITING_OF + path;
      for (;;) {
        const rounds = JSON.parse(localStorage.getItem(key) || "[]");
        if (!rounds.length || rounds[0].refused) break;
        const response = await post(rounds[0].url, rounds[0].body);
        if (!response) return; // no connection after all
        const outcome = response.headers.get(OUTCOME);
        if (outcome === "saved" || outcome === "already") rounds.shift();
        else rounds.forEach((round) => (round.refused = true));
        if (rounds.length) localStorage.setItem(key, JSON.stringify(rounds));
        else localStorage.removeItem(key);
        if (outcome !== "saved" && outcome !== "already") break;
      }
    }
  }

  /* The waiting rounds, in order, each with what it was made with; stops at the first that
     cannot be sent (no connection) or is not saved (the table changed, or the form refused).
     A game this phone started is started on the server first. */
  async function send() {
    if (sending) return;
    sending = true;
    try {
      if (!(await started(location.pathname))) return;
      for (;;) {
        const rounds = waiting();
        if (!rounds.length || rounds[0].refused) break;
        const response = await post(rounds[0].url, rounds[0].body);
        if (!response) break; // still no connection
        const outcome = response.headers.get(OUTCOME);
        const html = await response.text();
        buzzIfSaved(outcome);
        if (outcome === "saved" || outcome === "already") {
          rounds.shift();
          keepWaiting(rounds);
        } else {
          keepWaiting(rounds.map((round) => ({ ...round, refused: true })));
        }
        draw(html);
        if (outcome !== "saved" && outcome !== "already") break;
      }
    } finally {
      sending = false;
      showWaiting();
    }
  }

  function draw(html) {
    if (window.htmx && document.getElementById("table")) {
      window.htmx.swap("#table", html, { swapStyle: "outerHTML" }, { select: "#table" });
    }
  }

  /* Sent again on the table as it is now: each made on the one before it. */
  function sendAgain() {
    const base = tableVersion();
    const rounds = waiting().map((round, index) => {
      const body = new URLSearchParams(round.body);
      body.set("version", String(base + index));
      body.set("client_id", tapId());
      return { ...round, body: body.toString(), number: nextRound() + index, refused: false };
    });
    keepWaiting(rounds);
    send();
  }

  function resend() {
    send().then(sendElsewhere);
    const tap = unsentUndo;
    unsentUndo = null;
    if (!waiting().length) delete document.documentElement.dataset.unsent;
    if (tap && document.contains(tap)) {
      tap.disabled = false;
      tap.click();
    }
  }
  window.addEventListener("online", resend);
  document.addEventListener("click", (event) => {
    if (event.target.closest(".retry")) resend();
    else if (event.target.closest(".send-again")) sendAgain();
    else if (event.target.closest(".drop-waiting")) keepWaiting([]);
  });

  /* The table as this phone saw it last, kept by the service worker for a reload without a
     connection: after every change drawn, not only after a page load. */
  let keptVersion = null;
  function keepTable() {
    const worker = navigator.serviceWorker && navigator.serviceWorker.controller;
    const table = document.getElementById("table");
    if (!worker || !table || !navigator.onLine) return;
    const version = table.dataset.version;
    if (version === keptVersion) return;
    keptVersion = version;
    worker.postMessage({ keep: location.href });
  }

  // A reload without a connection: the rounds waiting on the phone are played again on it as
  // soon as its engine is ready.
  document.addEventListener("knock:engine-ready", () => {
    if (waiting().length) playOnPhone([], { toast: false });
  });
  document.addEventListener("htmx:afterSettle", keepTable);

  document.addEventListener("DOMContentLoaded", () => {
    keepWaiting(waiting());
    if (navigator.onLine) send().then(sendElsewhere);
    // The engine comes after the first paint, and after the page's own work: it never delays
    // the table. (Not at "load": without a connection a load can wait on a request for ever.)
    // So does Play again's (again.js).
    const scripts = [document.getElementById("engine"), document.getElementById("again")]
      .filter(Boolean)
      .map((where) => where.dataset.client || where.dataset.script);
    if (!scripts.length) return;
    requestAnimationFrame(() => {
      const later = window.requestIdleCallback || ((run) => window.setTimeout(run, 200));
      later(
        () => {
          for (const src of scripts) {
            const script = document.createElement("script");
            script.src = src;
            document.head.append(script);
          }
        },
        { timeout: 2000 }
      );
    });
  });
})();
