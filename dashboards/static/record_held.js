// The recorder's held deploys (dashboards/templates/record.html, docs/recording.md, "Your deploys
// before theirs"). Recording from one seat, another player's deploys are face down: their cards are
// learnt only at the reveal. When such a player holds the first player token, the log's next lines
// are their deploys, which the seat cannot know yet, while the seat's own deploys (which it makes
// now) come after them in the log. So the page lets the seat enter its own deploys first into a held
// list, kept with the game (record_store.js: game.held), then asks for the others' cards as they are
// revealed, and writes the held deploys after them, one at a time, in the rules' order.
//
// The stages, read from the positions API's answer (deploys_before_seat: the players who deploy
// before the seat, at another player's deploy turn) and game.held:
//   hold    the seat enters its own deploys. They are checked by the engine as they are entered: the
//           positions API is asked about the log as if the players before the seat deployed nothing
//           (a "probe"), and offers exactly the deploys the seat could then make. Nothing is written.
//   reveal  the seat's deploys are held (game.held.done); the others' cards are entered as the page
//           always asks for them, "No more cards" being their pass.
//   flush   the seat's deploy turn has come: each held line the engine offers is written in turn;
//           what a deploy makes happen (a card drawn, one to discard) is asked in between; a held
//           line the engine does not take is refused in words, and nothing held is lost.
//   later   the person went back before the point where the deploys were held: they wait, and
//           come back when the game does (an answer that replaces that point takes them along,
//           restorable like the decisions it replaces: record.js, write).
//
// game.held = {round, at: the decisions written when the first line was held, lines: the seat's
// deploy lines and perhaps its pass, in the order entered, done: the seat has finished, start: the
// decisions written when the seat's turn came (null before)}.
//
// Every text from a log, the catalog or a player is put into the page with textContent.
window.RecordHeld = (function () {
  "use strict";

  var B = window.EmpyreanBoard;
  var el = B.el, add = B.add;
  // The game screen (record.js): game(), position(), save(), post(url, body), body(decisions): the
  // log to ask about, urls, who(seat), name(seat), said(line), write(lines), drawGame(),
  // drawAnswers(lines), redoNext(): the undone decision a redo would bring back, or null
  var app = null;
  var probe = null;     // {key, answer}: the last answer about the log with the held lines
  var probing = null;   // the key being asked about, or null
  var failed = null;    // {key, message}: the service could not be reached about that key

  function byId(id) { return document.getElementById(id); }
  function seat() { return app.game().setup.view; }
  function held() { return app.game().held || null; }
  function isPass(line) { return / pass$/.test(line); }
  function names(players) {
    var ws = players.map(function (p) { return app.who(p); });
    return ws.length < 2 ? ws[0] : ws.slice(0, -1).join(", ") + " and " + ws[ws.length - 1];
  }

  // ------------------------------------------------------------------ where the held list stands
  function stage() {
    var game = app.game(), pos = app.position(), h = held();
    if (!pos || pos.status !== "in progress" || !game.setup.view) return null;
    if (h && game.decisions.length < h.at) return "later";
    var before = pos.deploys_before_seat || [];
    if (before.length && (!h || h.round === pos.round)) return h && h.done ? "reveal" : "hold";
    return h ? "flush" : null;
  }

  // The held lines not yet in the log: those written since the seat's turn came are matched in order.
  function unwritten(h) {
    if (h.start === null || h.start === undefined) return h.lines.slice();
    var decisions = app.game().decisions, j = 0;
    for (var i = h.start; i < decisions.length && j < h.lines.length; i++) {
      if (decisions[i] === h.lines[j]) j++;
    }
    return h.lines.slice(j);
  }

  // The lines the probe asks about: the log, the players before the seat passing, the held lines.
  function probeLines() {
    var pos = app.position(), h = held();
    return app.game().decisions.concat((pos.deploys_before_seat || []).map(function (p) { return "P" + p + " pass"; }),
                                       h ? h.lines : []);
  }

  function ask(lines, then) {
    var key = JSON.stringify(lines);
    if (probe && probe.key === key) return probe.answer;
    if (probing === key || (failed && failed.key === key)) return null;
    probing = key;
    failed = null;
    app.post(app.urls.positions, app.body(lines)).then(function (answer) {
      if (probing !== key) return;
      probing = null;
      probe = {key: key, answer: answer};
      then();
    }, function (err) {
      if (probing !== key) return;
      probing = null;
      failed = {key: key, message: err.message};
      then();
    });
    return null;
  }

  // ------------------------------------------------------------------ after each answer of the API
  // Moves the held list on: forgets the seat's turn start while it has not come, writes the next held
  // line when the seat's turn has come. Returns true when it wrote (a new answer is on its way).
  function sync() {
    var game = app.game(), pos = app.position(), h = held(), st = stage();
    if (!h) return false;
    if (st === "later" && !h.lines.length) { game.held = null; app.save(); return false; }
    if (st === "hold" || st === "reveal") {
      if (h.start !== null && h.start !== undefined) { h.start = null; app.save(); }
      return false;
    }
    if (st !== "flush") return false;
    if (h.start === null || h.start === undefined) { h.start = game.decisions.length; app.save(); }
    var left = unwritten(h);
    var mine = pos.to_decide === seat() && pos.kind === "deploy or pass" && pos.phase === "deploy";
    if (left.length && !mine && left.every(isPass)) {
      h.lines = h.lines.slice(0, h.lines.length - left.length);  // the engine passed for the seat: nothing left
      left = [];
    }
    if (!left.length) { game.held = null; app.save(); return false; }
    var redo = app.redoNext();
    if (mine && pos.legal.indexOf(left[0]) >= 0 && (redo === null || redo === left[0])) {
      app.write([left[0]]);
      return true;
    }
    return false;
  }

  // ------------------------------------------------------------------ what the person does
  // A line of the seat's own deploy turn tapped while holding: held, not written.
  function takes(line) {
    if (stage() !== "hold") return false;
    if ((answers() || []).indexOf(line) < 0) return true;  // a button left from an older question: nothing
    var game = app.game(), pos = app.position();
    var h = held() || {round: pos.round, at: game.decisions.length, lines: [], done: false, start: null};
    h.lines = h.lines.concat([line]);
    if (isPass(line)) h.done = true;
    game.held = h;
    app.save();
    app.drawGame();
    return true;
  }

  function finish() {
    var game = app.game(), pos = app.position();
    game.held = held() || {round: pos.round, at: game.decisions.length, lines: [], done: false, start: null};
    game.held.done = true;
    app.save();
    app.drawGame();
  }

  function takeBack() {
    var h = held();
    if (!h) return;
    h.lines = h.lines.slice(0, -1);
    h.done = false;
    app.save();
    app.drawGame();
  }

  // Back to the seat's own deploys from the others' cards (a pass held last is taken back).
  function reopen() {
    var h = held();
    if (!h) return;
    if (h.lines.length && isPass(h.lines[h.lines.length - 1])) h.lines = h.lines.slice(0, -1);
    h.done = false;
    app.save();
    app.drawGame();
  }

  // Undo, in the order things were entered: a held line, then the end of the seat's deploys; then the
  // log's decisions (record.js). Returns true when it undid something here.
  function undo() {
    var st = stage(), h = held();
    if (st === "hold" && h && h.lines.length) { takeBack(); return true; }
    if (st === "reveal" && h && app.game().decisions.length <= h.at) { reopen(); return true; }
    return false;
  }

  function drop(line) {
    var h = held();
    if (!h) return;
    var left = unwritten(h), k = h.lines.length - left.length;
    h.lines = line === null ? h.lines.slice(0, k) : h.lines.slice(0, k).concat(left.slice(1));
    app.save();
    if (!sync()) app.drawGame();
  }

  function applyNext() {
    var left = unwritten(held());
    if (left.length) app.write([left[0]]);
  }

  // ------------------------------------------------------------------ drawing
  // The lines the seat may hold now (the probe's answers), [] while they are asked; null when not holding.
  function answers() {
    if (stage() !== "hold") return null;
    var a = probe && probe.key === JSON.stringify(probeLines()) ? probe.answer : null;
    return a && mineToDeploy(a) ? a.legal : [];
  }

  function mineToDeploy(a) {
    return a.status === "in progress" && a.to_decide === seat() && a.kind === "deploy or pass" && a.phase === "deploy";
  }

  function button(parent, text, cls, id, act) {
    var b = add(parent, el("button", cls, text));
    b.type = "button";
    if (id) b.id = id;
    b.addEventListener("click", act);
    return b;
  }

  // The held list on screen (every stage), with what may be done with it.
  function drawList(box, h, st) {
    var left = st === "flush" ? unwritten(h) : h.lines;
    var head = st === "later" ? "Held for round " + h.round + ", until the game is back at that deploy: your deploys"
      : st === "flush" ? "Your held deploys, written next" : "Your deploys, held until their cards are in";
    add(box, el("p", "held-head", head + " (" + left.length + ")"));
    var list = add(box, el("ol", "held-list"));
    left.forEach(function (line, i) {
      var li = add(list, el("li"));
      li.setAttribute("data-held-line", line);
      add(li, el("span", "", app.said(line)));
      if (st === "hold" && i === left.length - 1) {
        button(li, "Take back", "secondary", "held-take-back", takeBack).setAttribute("aria-label", "Take back: " + app.said(line));
      }
    });
    if (!left.length) add(list, el("li", "note", "none"));
  }

  // Draws the stage's box and, while holding, the title, the line saying what to enter and the
  // answers. Returns true when it drew the answers (record.js draws the engine's own otherwise).
  function draw() {
    var box = byId("held"), st = stage(), h = held(), pos = app.position();
    box.textContent = "";
    box.hidden = !st || (!h && st !== "hold");
    box.setAttribute("data-stage", st || "");
    byId("record").setAttribute("data-held", String(h ? h.lines.length : 0));
    if (box.hidden) return false;
    var before = pos.deploys_before_seat || [];
    if (st === "hold") return drawHold(box, h, before);
    drawList(box, h, st);
    var actions = add(box, el("p", "actions"));
    if (st === "reveal") {
      byId("prompt").textContent = names(before) + ": their cards as they are revealed, each with its battlefield, " +
        "then “No more cards”. Your held deploys are written after them.";
      button(actions, "Change my deploys", "secondary", "held-reopen", reopen);
    } else if (st === "later") {
      armed(actions, "Drop the held deploys", "Tap again: drop them", function () { app.game().held = null; app.save(); app.drawGame(); });
    } else {
      drawFlush(box, actions, h);
    }
    return false;
  }

  function drawHold(box, h, before) {
    var who = app.who(seat()), title = byId("decide-title");
    title.textContent = "";
    add(title, el("span", "seat seat-" + seat(), "P" + seat()));
    add(title, document.createTextNode(" " + (app.name(seat()) || "Player " + seat()) + ": your own deploys first"));
    var one = before.length === 1;
    byId("prompt").textContent = names(before) + (one ? " deploys" : " deploy") + " first, face down: enter your own " +
      "deploys now; " + (one ? names(before) + "'s cards are" : "their cards are") + " entered as they are revealed.";
    if (h && h.lines.length) drawList(box, h, "hold");
    var lines = probeLines(), a = ask(lines, app.drawGame);
    var note = add(box, el("p", "held-note"));
    var actions = add(box, el("p", "actions"));
    if (!a) {
      note.textContent = failed ? "Could not reach the service: " + failed.message + ". What you held is kept."
                                : "Checking what you can deploy…";
      if (failed) button(actions, "Try again", "secondary", "held-retry", function () { failed = null; app.drawGame(); });
      return true;
    }
    var next = "Their cards next ›";
    if (mineToDeploy(a)) {
      note.textContent = who + " has " + a.essence[seat() - 1] + " essence left. Pick a card, then its battlefield; " +
        "“Pass” when you deploy nothing more.";
      app.drawAnswers(a.legal);
      button(actions, "Enter their cards first", "secondary", "held-done", finish);
      return true;
    }
    if (a.status !== "in progress") {
      var v = a.verdict || {};
      var bad = typeof v.index === "number" && v.index >= app.game().decisions.length + before.length
        ? lines[v.index] : null;
      note.textContent = (bad ? "“" + bad + "” cannot be held: " : "") + (v.rule || v.message || a.status);
      if (h && h.lines.length) button(actions, "Take back the last", "secondary", "held-take-back-refused", takeBack);
      return true;
    }
    var last = /^P\d deploy (.+)$/.exec(h && h.lines.length ? h.lines[h.lines.length - 1] : "");
    note.textContent = a.phase === "deploy" && a.kind !== "deploy or pass"
      ? "Deploying " + (last ? last[1] : "it") + " asks for more (" + (a.prompt || a.kind) + "): that is asked " +
        "when your deploys are written, after their cards; anything more you deploy is entered then."
      : "You have nothing more you can deploy.";
    button(actions, next, "primary", "held-done", finish);
    return true;
  }

  function drawFlush(box, actions, h) {
    var pos = app.position(), left = unwritten(h);
    var mine = pos.to_decide === seat() && pos.kind === "deploy or pass" && pos.phase === "deploy";
    var choice = pos.phase === "deploy" && pos.kind !== "deploy or pass" && h.round === pos.round;
    if (choice) {
      add(box, el("p", "held-note", "Asked first; your held deploys are written after it."));
      return;
    }
    if (mine && pos.legal.indexOf(left[0]) >= 0) {  // waiting because undone decisions could be redone
      add(box, el("p", "held-note", "Undone decisions are waiting: redo them, or write your held deploys here."));
      button(actions, "Write my held deploys", "primary", "held-apply", applyNext);
      return;
    }
    // refused: the engine's reason, asked about the log with the line written next
    var a = ask(app.game().decisions.concat([left[0]]), app.drawGame);
    var v = a && a.verdict ? a.verdict : null;
    var why = a ? (v ? v.rule || v.message : "the game is not at " + app.who(seat()) + "'s deploys")
                : failed ? "could not reach the service: " + failed.message : "checking…";
    var p = add(box, el("p", "held-refused", "Not written: “" + left[0] + "” — " + why));
    p.setAttribute("role", "alert");
    if (!a && failed) button(actions, "Try again", "secondary", "held-retry", function () { failed = null; app.drawGame(); });
    byId("answers").hidden = !!a;
    button(actions, "Leave it out", "primary", "held-drop-one", function () { byId("answers").hidden = false; drop(left[0]); });
    armed(actions, "Drop the held deploys", "Tap again: drop them all", function () { byId("answers").hidden = false; drop(null); });
  }

  // A button that acts on its second tap (no browser dialog), as the concession does.
  function armed(parent, text, again, act) {
    var b = button(parent, text, "danger", "held-drop", function () {
      if (b.getAttribute("data-armed") !== "true") { b.setAttribute("data-armed", "true"); b.textContent = again; return; }
      act();
    });
    return b;
  }

  function loading() { return probing !== null; }
  function reset() { probe = null; probing = null; failed = null; }

  return {init: function (a) { app = a; }, stage: stage, sync: sync, takes: takes, undo: undo, draw: draw,
          answers: answers, loading: loading, reset: reset};
})();
