// The decisions of a game being recorded, as every mode of the recorder keeps them (record.js, the
// board mode; record_lines.js, the lines mode): writing an answer after the log, undo, redo, going
// back and replacing (asked first, and restorable), taking back the end; and the parts of the
// screens that every mode shows alike: which screen is shown, the setup's problems, a game opened,
// resumed from the address or left for a new one, the players as the page names them, the list of
// decisions taken, the question an answer that replaces undone decisions asks, why the log cannot
// go on, the concession buttons, the warning when the browser will not keep the game, the line that
// says the service could not be reached, the keys of a laptop.
//
// The moves change the kept game (record_store.js) only; the page saves it and asks the positions
// API about the new log. Every text from a log or a player is put into the page with textContent.
window.RecordSteps = (function () {
  "use strict";

  var B = window.EmpyreanBoard;
  var el = B.el, add = B.add;

  function byId(id) { return document.getElementById(id); }

  // ------------------------------------------------------------------ the moves
  // Write ``lines`` (one answer; or a concession with what it takes before it) after the log. After
  // going back, undone decisions wait in game.redo: the next of them is simply redone, but any other
  // answer replaces them all, so it is written only once the person has said yes (``replace``);
  // else nothing changes and the answer is false. What is replaced is kept in game.replaced ({decisions:
  // the whole old log, count, held: ``heldLater``, the held deploys it takes along}) for Restore.
  function write(game, lines, replace, heldLater) {
    var later = game.redo.length;
    if (later && lines.length === 1 && game.redo[later - 1] === lines[0]) {
      game.redo.pop();
    } else if (later) {
      if (!replace) return false;
      game.replaced = {decisions: game.decisions.concat(game.redo.slice().reverse()), count: later,
                       held: heldLater || null};
      if (game.replaced.held) game.held = null;  // held for a point the answer replaces: restorable with it
      game.redo = [];
    }
    if (/ concede$/.test(lines[lines.length - 1])) game.conceded_at = game.decisions.length;
    game.decisions = game.decisions.concat(lines);
    game.result = null;
    return true;
  }

  // Keep them: back to the end of the game, every undone decision as it was.
  function keepLater(game) {
    game.decisions = game.decisions.concat(game.redo.slice().reverse());
    game.redo = [];
  }

  // Restore the replaced decisions: the old log exactly. What replaced them is kept in turn, so a
  // second tap undoes the restore. False when there is nothing to restore.
  function restore(game) {
    var old = game.replaced;
    if (!old) return false;
    var now = game.decisions.concat(game.redo.slice().reverse());
    var same = 0, heldNow = old.held ? game.held : null;
    while (same < now.length && same < old.decisions.length && now[same] === old.decisions[same]) same++;
    game.decisions = old.decisions.slice();
    game.redo = [];
    game.replaced = now.length > same ? {decisions: now, count: now.length - same, held: heldNow} : null;
    if (old.held) game.held = old.held;
    game.result = null;
    game.end = null;
    game.conceded_at = null;
    return true;
  }

  // Back to just before decision ``k`` (counted from 0); the decisions after it wait for a redo.
  function undoTo(game, k) {
    if (k < 0 || k >= game.decisions.length) return false;
    if (typeof game.conceded_at === "number" && k <= game.conceded_at) game.conceded_at = null;
    var undone = game.decisions.splice(k);
    game.redo = game.redo.concat(undone.reverse());
    game.result = null;
    game.end = null;
    return true;
  }

  function redo(game) {
    if (!game.redo.length) return false;
    game.decisions.push(game.redo.pop());
    return true;
  }

  // Back to the game from the end: a concession goes with the lines it wrote before it (the points a
  // seat's view left out); anything else is the last decision undone.
  function takeBackEnd(game) {
    var n = game.decisions.length, at = game.conceded_at;
    game.result = null;
    if (n && / concede$/.test(game.decisions[n - 1]) && typeof at === "number" && at >= 0 && at < n) {
      game.decisions.splice(at);
      game.conceded_at = null;
      return true;
    }
    return undoTo(game, n - 1);
  }

  // ------------------------------------------------------------------ the screens
  // Show one screen of #record (setup, game, end); #record's data-screen says which.
  function show(screen) {
    ["setup", "game", "end"].forEach(function (s) { byId(s).hidden = s !== screen; });
    byId("record").setAttribute("data-screen", screen);
  }

  // What stops the game from starting, listed above the Start button (#setup-errors); none: emptied.
  function setupErrors(problems) {
    var box = byId("setup-errors");
    box.textContent = "";
    if (!problems.length) return;
    add(box, el("p", "", "Before the game can start:"));
    var ul = add(box, el("ul"));
    problems.forEach(function (p) { add(ul, el("li", "", p)); });
    box.scrollIntoView({block: "nearest"});
  }

  // ``save()`` for the page: ``current()`` kept by ``store``; a browser that refuses is said
  // (keptWarning, with the download), and the answer is false.
  function saver(store, current) {
    return function () {
      try {
        store.save(current());
        keptWarning(null);
        return true;
      } catch (e) {
        keptWarning(e, function () { window.RecordEnd.download(); });
        return false;
      }
    };
  }

  // A game opened on the game screen: its id in the address (#game=<id>), so that a reload resumes it.
  function opened(game) {
    window.history.replaceState(null, "", "#game=" + encodeURIComponent(game.id));
    show("game");
    byId("decide-title").textContent = "Loading the game…";
  }

  // The game the address names (#game=<id>), kept on this device: true when it is (or already was)
  // opened with ``start``. ``refusal(id, saved)``: why this page cannot record it (said in #open-error), or "".
  function resume(store, current, refusal, start) {
    var m = /^#game=([0-9a-f]+)$/.exec(window.location.hash);
    if (!m) return false;
    var game = current();
    if (game && game.id === m[1]) return true;
    var saved = store.load(m[1]);
    var why = refusal(m[1], saved);
    if (why) {
      byId("open-error").textContent = why;
      return false;
    }
    start(saved);
    return true;
  }

  // Back to the setup screen for a new game: the address forgets the old one, ``drawSaved()`` lists
  // the games kept.
  function toSetup(drawSaved) {
    window.history.replaceState(null, "", window.location.pathname);
    drawSaved();
    show("setup");
    window.scrollTo(0, 0);
  }

  // The players as the page names them: "Ada" (seat 1 of ``game``), "P1 Ada" (or "P1" without a name).
  function seatName(game, seat) {
    var p = game.setup.players[seat - 1];
    return p && p.name ? p.name : "";
  }
  function who(game, seat) { return "P" + seat + (seatName(game, seat) ? " " + seatName(game, seat) : ""); }

  // ------------------------------------------------------------------ what the screen says of them
  function replaceWords(n, heldCount) {
    return {text: (n === 1 ? "This replaces the decision after it" : "This replaces the " + n + " decisions after it") +
                  (heldCount ? ", and your " + heldCount + " held deploy" + (heldCount === 1 ? "" : "s") : "") + ".",
            keep: n === 1 ? "Keep it" : "Keep them"};
  }

  function restoreWords(count) {
    return count === 1 ? "Restore the replaced decision" : "Restore the " + count + " replaced decisions";
  }

  // The question an answer that replaces ``n`` undone decisions asks (#replace-panel, in place of
  // ``answers``, the box of answers; ``heldCount``: the held deploys it takes along).
  function askReplace(n, heldCount, answers) {
    var words = replaceWords(n, heldCount);
    byId("replace-text").textContent = words.text;
    byId("keep-later").textContent = words.keep;
    byId("replace-panel").setAttribute("data-count", String(n));
    byId("replace-panel").hidden = false;
    answers.hidden = true;
    inView(byId("replace-panel"));
    byId("keep-later").focus({preventScroll: true});
  }

  function closeReplace(answers) {
    byId("replace-panel").hidden = true;
    answers.hidden = false;
  }

  // Why the log cannot go on (the positions API's verdict ``v``) in ``box``, with a button back to
  // just before the decision at fault (``undoTo(k)``) when it is one of ``game``'s.
  function problem(box, v, game, undoTo) {
    v = v || {message: "unknown"};
    box.hidden = false;
    add(box, el("p", "", v.message));
    if (v.index !== null && v.index !== undefined && v.index < game.decisions.length) {
      var b = add(box, el("button", "primary", "Go back to just before decision " + (v.index + 1)));
      b.type = "button";
      b.addEventListener("click", function () { undoTo(v.index); });
    }
    (v.errors || []).slice(0, 10).forEach(function (e) {
      add(box, el("p", "note", (e.path ? e.path + ": " : "") + e.message));
    });
  }

  // A concession button for each of ``seats`` in #concede-buttons (``who(seat)`` names them); the
  // second tap closes "End early" and calls ``concede(seat)``.
  function concedeButtons(seats, who, concede) {
    var box = byId("concede-buttons");
    box.textContent = "";
    seats.forEach(function (seat) {
      var b = add(box, el("button", "danger", who(seat) + " concedes"));
      b.type = "button";
      b.setAttribute("data-concede", String(seat));
      b.addEventListener("click", function () {
        if (!secondTap(b, "Tap again: " + who(seat) + " concedes the game")) return;
        byId("end-early").open = false;
        concede(seat);
      });
    });
  }

  // The decisions taken (#history-list; tap one to go back to just before it), with the answers the
  // engine took by itself after each (``forcedAt``: decisions written -> those lines; ``said``: how
  // such a line is said).
  function history(game, forcedAt, said, onPick) {
    var list = byId("history-list");
    list.textContent = "";
    byId("history-count").textContent = "(" + game.decisions.length + ")";
    function applied(line) { add(list, el("li", "forced-line", said(line) + " · applied by itself")); }
    (forcedAt[0] || []).forEach(applied);
    game.decisions.forEach(function (line, i) {
      var li = add(list, el("li"));
      var b = add(li, el("button", "history-item"));
      b.type = "button";
      b.setAttribute("data-index", String(i));
      // named by what it shows ("12 P1 deploy …"); what a tap does is the list's note, its description
      b.setAttribute("aria-describedby", "history-note");
      add(b, el("span", "dn", String(i + 1)));
      add(b, el("span", "", line));
      b.addEventListener("click", function () { onPick(i); });
      (forcedAt[i + 1] || []).forEach(applied);
    });
    list.scrollTop = list.scrollHeight;
  }

  // A box that is shown but off the screen (a phone scrolled down to the list of decisions) is
  // brought into view, below the tally that stays on top: the page and the decisions' own scrolling
  // box move as little as they can.
  function inView(box) {
    if (box.hidden || !box.offsetParent) return;
    var tally = byId("tally");
    var top = tally && tally.offsetParent ? tally.getBoundingClientRect().bottom : 0;
    var r = box.getBoundingClientRect();
    if (r.top >= top && r.bottom <= window.innerHeight) return;
    box.scrollIntoView({block: "nearest"});
    r = box.getBoundingClientRect();
    if (r.top < top) window.scrollBy(0, r.top - top - 8);
  }

  // The browser refused to keep the game (storage full, or private mode): said at the top of the
  // decisions (and of the end screen), where the person is looking, with the download at hand.
  // ``err`` null: it keeps it again, the boxes go.
  function keptWarning(err, download) {
    document.querySelectorAll(".kept-warning").forEach(function (box) {
      if (!err) { box.hidden = true; return; }
      var why = String(err.message || err.name || "storage refused").replace(/\.+$/, "");
      var text = "This browser will not keep the game (" + why + "). A reload would lose it: download the log " +
        "so far to keep it.";
      if (box.hidden || !box.querySelector("button")) {
        box.textContent = "";
        add(box, el("p", "", ""));
        var b = add(box, el("button", "primary", "Download the log so far"));
        b.type = "button";
        b.setAttribute("data-download", "true");
        b.addEventListener("click", download);
      }
      box.querySelector("p").textContent = text;
      box.hidden = false;
      inView(box);
    });
  }

  // The service could not be reached (#net): said, with what is safe, and a button to try again.
  function offline(err, retry) {
    var net = byId("net");
    net.textContent = (err.status === 429 ? "Too many requests for a moment: " : "Could not reach the service: ") +
      err.message + ". Every decision so far is kept on this device. ";
    var again = add(net, el("button", "secondary", "Try again"));
    again.type = "button";
    again.id = "retry";
    again.addEventListener("click", retry);
  }

  // ``ask()``: ``question()`` (a promise of the positions API's answer) asked, the page ``busy`` the
  // while, the answer handed to ``received``; an answer to an older question is dropped (a late one
  // after a quicker undo), and a failure is said with a button to try again.
  function asker(question, busy, received) {
    var asked = 0;
    function ask() {
      var mine = ++asked;
      busy(true);
      byId("net").textContent = "";
      return question().then(function (answer) {
        if (mine !== asked) return;
        busy(false);
        received(answer);
      }, function (err) {
        if (mine !== asked) return;
        busy(false);
        offline(err, ask);
      });
    }
    return ask;
  }

  // A button that acts on its second tap (a concession, time called): no browser dialog. True on
  // the second tap; on the first it says ``armedText``.
  function secondTap(button, armedText) {
    if (button.getAttribute("data-armed") === "true") return true;
    button.setAttribute("data-armed", "true");
    button.textContent = armedText;
    return false;
  }

  // A laptop's keys on the game screen: u undoes, 1–9 take the answers shown (``answers()``, the
  // buttons in order), Esc calls ``on.escape``. ``on.active()``: the game screen is shown and no
  // question of its own (a dialog, the replace panel) is open.
  function keys(on) {
    document.addEventListener("keydown", function (ev) {
      if (ev.altKey || ev.ctrlKey || ev.metaKey || !on.active()) return;
      var t = ev.target;
      if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
      if (ev.key === "u" || ev.key === "U") {
        ev.preventDefault();
        on.undo();
      } else if (/^[1-9]$/.test(ev.key)) {
        var b = on.answers()[Number(ev.key) - 1];
        if (b && !b.disabled) { ev.preventDefault(); b.click(); }
      } else if (ev.key === "Escape" && on.escape) {
        on.escape();
      }
    });
  }

  // The same game recorded on in another tab of this device: ``changed(game)`` with what it kept.
  function otherTabs(store, current, changed) {
    window.addEventListener("storage", function (ev) {
      var game = current();
      if (!game || ev.key !== store.key(game.id) || !ev.newValue) return;
      var kept = store.load(game.id);
      if (!kept || JSON.stringify(kept.decisions) === JSON.stringify(game.decisions)) return;
      changed(kept);
    });
  }

  return {write: write, keepLater: keepLater, restore: restore, undoTo: undoTo, redo: redo, takeBackEnd: takeBackEnd,
          show: show, setupErrors: setupErrors, saver: saver, opened: opened, resume: resume, toSetup: toSetup,
          seatName: seatName, who: who, askReplace: askReplace, closeReplace: closeReplace, problem: problem,
          concedeButtons: concedeButtons, restoreWords: restoreWords, history: history,
          inView: inView, keptWarning: keptWarning, offline: offline, asker: asker, secondTap: secondTap, keys: keys,
          otherTabs: otherTabs};
})();
