// The recorder's lines mode (dashboards/templates/record_lines.html, docs/recording.md, "Any game:
// the lines mode"): a game of any registered game recorded from what the engine offers every game,
// with no board and no words of the game's own. The setup comes from a form the server drew from the
// game's log schema; then, after every decision, the whole log so far goes to the positions API,
// whose answer is shown as it is: who decides and the prompt, every legal next line as a button
// (each carries its line in data-line) grouped by its verb (the word after who speaks: "C draw P1 3"
// is a draw), a box that filters them, each player's counts (the game's tallies); at a set of dice,
// a pad of faces and "Roll for us" above them (record_dice.js). The decisions'
// undo, redo and replace are record_steps.js's, the storage and the log record_store.js's, the end
// screen record_end.js's: the same as the board mode's.
//
// Every text from a log, the service or a player is put into the page with textContent.
(function () {
  "use strict";

  var B = window.EmpyreanBoard, store = window.RecordStore, steps = window.RecordSteps, api = window.RecordApi;
  var el = B.el, add = B.add;
  var config = JSON.parse(document.getElementById("record-config").textContent);
  var urls = config.urls, info = config.game, form = config.setup;
  var root = document.getElementById("record");

  var game = null;      // the game being recorded (record_store.js)
  var pos = null;       // the positions API's last answer for it
  var forcedAt = {};    // decisions written -> the lines the engine applied by itself after them
  var waiting = null;   // the lines of an answer that would replace undone decisions, until the person says

  function byId(id) { return document.getElementById(id); }
  function seatName(seat) { return steps.seatName(game, seat); }
  function who(seat) { return steps.who(game, seat); }

  // ------------------------------------------------------------------ the setup
  function players() {
    var chosen = document.querySelector("input[name=players]:checked");
    return chosen ? Number(chosen.value) : info.max_players;
  }

  // Fields of a seat the game does not have (fewer players chosen) are hidden and not read.
  function showSeats() {
    var n = players();
    document.querySelectorAll("#setup-form [data-seat]").forEach(function (label) {
      label.hidden = Number(label.getAttribute("data-seat")) > n;
    });
  }

  function fieldLabel(f) {
    var label = byId(f.id).closest("label");
    return label ? label.firstChild.textContent.trim() : f.path.join(" ");
  }

  // The value at ``path`` (keys and list indexes) of ``into``, made as the path goes.
  function put(into, path, value) {
    var at = into;
    path.forEach(function (key, i) {
      if (i === path.length - 1) { at[key] = value; return; }
      if (at[key] === undefined) at[key] = typeof path[i + 1] === "number" ? [] : {};
      at = at[key];
    });
  }

  // The game's setup from the form: {setup, problems}.
  function readOwnSetup() {
    var problems = [], setup = {};
    if (!form.fields) {
      try {
        setup = JSON.parse(byId("setup-json").value);
      } catch (e) {
        problems.push("The setup is not JSON that reads: " + e.message + ".");
      }
      return {setup: setup, problems: problems};
    }
    var n = players();
    form.fields.forEach(function (f) {
      if (f.seat && f.seat > n) return;
      var input = byId(f.id), text = input.value.trim(), value;
      input.removeAttribute("aria-invalid");
      if (f.kind === "check") {
        value = input.checked;
      } else if (!text) {
        if (f.required) {
          problems.push(fieldLabel(f) + " is needed.");
          input.setAttribute("aria-invalid", "true");
        }
        return;
      } else if (f.kind === "select") {
        value = JSON.parse(text);  // each option's value is its JSON text (dashboards/setup_form.py)
      } else if (f.kind === "number") {
        value = Number(text);
        if (!/^-?[0-9]+$/.test(text)) {
          problems.push(fieldLabel(f) + " is a whole number.");
          input.setAttribute("aria-invalid", "true");
          return;
        }
      } else {
        value = text;
      }
      put(setup, f.path, value);
    });
    return {setup: setup, problems: problems};
  }

  function readSetup() {
    var own = readOwnSetup(), problems = own.problems.slice(), names = [];
    for (var seat = 1; seat <= players(); seat++) {
      var name = byId("player-" + seat).value.trim();
      if (!name) problems.unshift("P" + seat + " needs a name.");
      names.push({name: name});
    }
    var catalog = byId("catalog").value.trim(), date = byId("date").value;
    if (!catalog) problems.push("Give the catalog version the game is played under.");
    if (!date) problems.push("Give the date of the game.");
    return {problems: problems,
            setup: {game: info.key, catalog: catalog, setup: own.setup, players: names, view: null, date: date,
                    event: null, round: "", table: ""}};
  }

  // What stops the game from starting: ours (record_steps.js lists them), or the engine's (a
  // malformed verdict's errors, each with its JSON pointer: the field it names is marked and called
  // by its label).
  var setupErrors = steps.setupErrors;

  // The form's input for a part of the log (a JSON pointer), if it has one.
  function inputAt(path) {
    var f = (form.fields || []).filter(function (x) { return path === "/setup/" + x.path.join("/"); })[0];
    if (f) return {input: byId(f.id), label: fieldLabel(f)};
    var seat = /^\/meta\/players\/([0-9]+)$/.exec(path);
    if (seat && byId("player-" + (Number(seat[1]) + 1))) {
      return {input: byId("player-" + (Number(seat[1]) + 1)), label: "P" + (Number(seat[1]) + 1) + "'s name"};
    }
    if (path === "/catalog") return {input: byId("catalog"), label: "Catalog version"};
    if (path === "/meta/date") return {input: byId("date"), label: "Date"};
    if (path === "/setup" && byId("setup-json")) return {input: byId("setup-json"), label: "The setup"};
    return null;
  }

  function engineErrors(errors) {
    setupErrors(errors.map(function (e) {
      var path = e.path || "", at = inputAt(path);
      if (at) {
        at.input.setAttribute("aria-invalid", "true");
        return at.label + ": " + e.message;
      }
      return (path ? path + ": " : "") + e.message;
    }));
  }

  function today() {
    var d = new Date();
    return d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" + String(d.getDate()).padStart(2, "0");
  }

  // ------------------------------------------------------------------ screens, saving, asking
  var show = steps.show;
  var save = steps.saver(store, function () { return game; });

  function busy(on) {
    root.setAttribute("data-busy", on ? "true" : "false");
    document.querySelectorAll("#answers button, #concede-buttons button").forEach(function (b) { b.disabled = on; });
  }

  function positionOf(result) { return api.post(urls.positions, store.log(game, result)); }
  var ask = steps.asker(function () { return positionOf(null); }, busy, function (answer) { received(answer); });

  function received(answer) {
    pos = answer;
    forcedAt[game.decisions.length] = answer.forced || [];
    if (answer.status === "in progress") {
      show("game");
      drawGame();
    } else if (answer.status === "malformed" && !game.decisions.length && !game.uploaded) {
      // a setup the engine refuses: said next to the form, which still holds it all; nothing was
      // recorded, so the game is not kept (a kept game is one that can go on)
      try { store.remove(game.id); } catch (e) { /* a browser that keeps nothing kept nothing here either */ }
      game = null;
      window.history.replaceState(null, "", window.location.pathname);
      store.drawSaved(info.key);
      show("setup");
      engineErrors(answer.verdict.errors || [{path: "", message: answer.verdict.message}]);
    } else if (answer.outcome && (answer.status === "valid" || answer.status === "mismatch")) {
      RecordEnd.show();
    } else {
      show("game");  // a log that breaks the rules (opened from a file) or an engine error: say where
      drawGame();
    }
  }

  // ------------------------------------------------------------------ decisions (record_steps.js)
  function write(lines, replace) {
    if (root.getAttribute("data-busy") === "true") return;
    if (!steps.write(game, lines, replace, null)) { askReplace(lines); return; }
    waiting = null;
    byId("line-search").value = "";
    save();
    ask();
  }

  function askReplace(lines) {
    waiting = lines;
    steps.askReplace(game.redo.length, 0, byId("lines"));
  }

  function closeReplace() {
    waiting = null;
    steps.closeReplace(byId("lines"));
  }

  // After a move of record_steps.js that changed the game: kept, and the service asked.
  function moved(changed) {
    if (!changed) return;
    closeReplace();
    byId("line-search").value = "";
    save();
    ask();
  }

  function undoTo(k) { moved(steps.undoTo(game, k)); }

  // A concession comes where the game stands: the points the log may leave out after the last line
  // (taken with their defaults) are written out before it, so that the engine stops after them.
  function concede(line) {
    var before = (pos && pos.left_out || []).map(function (point) { return point["default"]; });
    write(before.concat([line]));
  }

  // ------------------------------------------------------------------ drawing the game
  function drawGame() {
    var answered = document.activeElement && byId("answers").contains(document.activeElement);
    root.setAttribute("data-count", String(game.decisions.length));
    drawTally(byId("where"), byId("tally-table"), pos);
    drawDecide();
    steps.history(game, forcedAt, function (line) { return line; }, undoTo);
    drawFrame();
    drawBoard();
    byId("replaced-row").hidden = !game.replaced;
    if (game.replaced) byId("restore-replaced").textContent = steps.restoreWords(game.replaced.count);
    byId("undo").disabled = !game.decisions.length;
    byId("redo").disabled = !game.redo.length;
    byId("redo").textContent = game.redo.length ? "Redo (" + game.redo.length + ")" : "Redo";
    drawConcede();
    busy(false);
    document.querySelectorAll("#game .kept-warning").forEach(steps.inView);
    if (answered) {  // a keyboard user stays on the answers: focus the next question's first one
      var first = byId("answers").querySelector("button.answer");
      if (first) first.focus({preventScroll: true});
    }
  }

  // "Round 2 · play · 9 decisions", and each player's counts as the game keeps them: one row a seat,
  // one column a count (the positions API's players: [{seat, taken: 1}, …]).
  function drawTally(where, table, answer) {
    if (where) {
      where.textContent = "";
      add(where, el("strong", "", answer.round ? "Round " + answer.round : "Before the first round"));
      if (answer.phase) add(where, el("span", "", " · " + answer.phase));
      add(where, el("span", "count", " · " + game.decisions.length + " decisions"));
    }
    var head = table.querySelector("thead"), body = table.querySelector("tbody");
    head.textContent = "";
    body.textContent = "";
    var rows = answer.players || [];
    var counts = rows.length ? Object.keys(rows[0]).filter(function (k) { return k !== "seat"; }) : [];
    var tr = add(head, el("tr"));
    add(tr, el("th", "", "Player")).scope = "col";
    counts.forEach(function (k) { add(tr, el("th", "num", k.replace(/_/g, " "))).scope = "col"; });
    rows.forEach(function (row, i) {
      var seat = row.seat || i + 1;
      var r = add(body, el("tr", "seat-" + seat));
      var th = add(r, el("th"));
      th.scope = "row";
      add(th, el("span", "seat seat-" + seat, "P" + seat));
      if (seatName(seat)) add(th, el("span", "tally-name", " " + seatName(seat)));
      counts.forEach(function (k) {
        var v = row[k];
        add(r, el("td", "num", v !== null && typeof v === "object" ? JSON.stringify(v) : v));
      });
    });
  }

  // The verb of a line: the word after who speaks ("P1 play 3": play; "C draw P1 3": draw).
  function verbOf(line) {
    var words = line.split(" ");
    return words.length > 1 ? words[1] : line;
  }

  // Every word typed starts a word of the line: "1" finds "C draw P1 1", not every line of P1's.
  function matches(line, filter) {
    var words = line.toLowerCase().split(" ");
    return filter.toLowerCase().split(/\s+/).filter(Boolean).every(function (typed) {
      return words.some(function (w) { return w.indexOf(typed) === 0; });
    });
  }

  function drawDecide() {
    var title = byId("decide-title"), problem = byId("problem"), forced = byId("forced");
    title.textContent = "";
    byId("prompt").textContent = "";
    forced.textContent = "";
    problem.hidden = true;
    problem.textContent = "";
    closeReplace();
    if (pos.forced && pos.forced.length) {
      add(forced, el("span", "label", "Applied by itself: "));
      add(forced, el("span", "", pos.forced.join(", ")));
    }
    RecordDice.draw(byId("dice-pad"), pos.status === "in progress" ? pos.legal : [], write);
    if (pos.status !== "in progress") {
      byId("lines").hidden = true;
      steps.problem(problem, pos.verdict, game, undoTo);
      title.textContent = "The log cannot go on";
      return;
    }
    var seat = pos.to_decide;
    if (seat === "C") {
      title.textContent = "Chance";
    } else {
      add(title, el("span", "seat seat-" + seat, "P" + seat));
      add(title, document.createTextNode(" " + (seatName(seat) || "Player " + seat) + " to decide"));
    }
    var prompt = pos.prompt || pos.kind || "";
    byId("prompt").textContent = prompt.charAt(0).toUpperCase() + prompt.slice(1);
    drawAnswers();
  }

  // Every legal next line, grouped by verb in the order the engine gives them, filtered by the search
  // box's words; "?" (a card the recording seat did not see) said as such.
  function drawAnswers() {
    var box = byId("answers"), filter = byId("line-search").value;
    box.textContent = "";
    var groups = [], byVerb = {}, shown = 0;
    (pos.legal || []).forEach(function (line) {
      var verb = verbOf(line);
      if (!byVerb[verb]) { byVerb[verb] = []; groups.push(verb); }
      byVerb[verb].push(line);
    });
    groups.forEach(function (verb) {
      var lines = byVerb[verb].filter(function (line) { return matches(line, filter); });
      if (!lines.length) return;
      shown += lines.length;
      var section = add(box, el("section", "verb-group"));
      section.setAttribute("data-verb", verb);
      var head = add(section, el("h3", "", verb));
      add(head, el("span", "note", " · " + lines.length + (lines.length === 1 ? " line" : " lines")));
      var list = add(section, el("div", "answer-list"));
      lines.forEach(function (line) {
        var unseen = / \?$/.test(line);
        var b = add(list, el("button", "answer" + (unseen ? " unseen-answer" : "")));
        b.type = "button";
        b.setAttribute("data-line", line);
        add(b, el("span", "answer-text", line + (unseen ? " — not seen" : "")));
        b.addEventListener("click", function () { write([line]); });
      });
    });
    var total = (pos.legal || []).length;
    byId("line-count").textContent = !filter.trim() ? total + (total === 1 ? " line" : " lines") + " may come next."
      : shown ? shown + " of " + total + " lines match “" + filter.trim() + "”."
      : "No line matches “" + filter.trim() + "”: the " + total + " that may come next are hidden. Clear the box to see them.";
    number();
  }

  // Digits 1–9 take the first nine lines shown (a laptop's keyboard).
  function number() {
    byId("answers").querySelectorAll("button.answer").forEach(function (b, k) {
      var old = b.querySelector("kbd");
      if (old) b.removeChild(old);
      b.removeAttribute("aria-keyshortcuts");
      if (k < 9) {
        b.insertBefore(el("kbd", "key", String(k + 1)), b.firstChild);
        b.setAttribute("aria-keyshortcuts", String(k + 1));
      }
    });
  }

  // The catalog version the game is played under (GET /api/v1/catalog/{version}?game=…), for the
  // board (what its cards say): asked once a version, the board drawn again when it comes.
  var catalogs = {};
  function catalogOf(version) {
    if (!(version in catalogs)) {
      catalogs[version] = null;
      api.getJSON(urls.catalog + "/" + encodeURIComponent(version) + "?game=" + encodeURIComponent(info.key)).then(
        function (data) {
          catalogs[version] = data;
          if (game && pos && game.setup.catalog === version) drawBoard();
        },
        function () { delete catalogs[version]; });  // asked again at the next board
    }
    return catalogs[version];
  }

  // The game's board above the lines, where it has a renderer (dashboards/replay.py, BOARDS): the
  // positions API's frame on its layout, with the legal lines (a pending attack's arc), and ``pick``,
  // which writes a legal line a renderer offers on the board itself (Spells & Steam's build by a tap).
  function drawBoard() {
    var view = byId("board-view"), renderer = (window.EmpyreanBoards || {})[info.key];
    if (!view || !renderer) return;
    view.hidden = !(pos.board && pos.layout);
    if (view.hidden) return;
    var squads = (game.setup.setup || {}).squads || [];
    renderer.draw(view, pos.board, {battlefields: pos.layout, legal: pos.legal, fold: "record",
      catalog: catalogOf(game.setup.catalog), pick: function (line) { write([line]); },
      players: game.setup.players.map(function (p, i) {
        return {seat: i + 1, name: p.name, species: (squads[i] || {}).species, ally: (squads[i] || {}).ally};
      })});
  }

  // The game's own frame of the moment (the replay viewer's), each part as the engine writes it.
  function drawFrame() {
    var dl = byId("frame");
    dl.textContent = "";
    var frame = pos.board || {};
    Object.keys(frame).forEach(function (k) {
      if (k === "index" || k === "line" || k === "decision") return;  // where in the log, said elsewhere
      add(dl, el("dt", "", k.replace(/_/g, " ")));
      add(dl, el("dd", "", typeof frame[k] === "string" ? frame[k] : JSON.stringify(frame[k])));
    });
  }

  // The game's own concession lines (the positions API's), a button a seat.
  function drawConcede() {
    var lines = {};
    (pos.concede || []).forEach(function (line) { lines[Number((/^P([0-9]+) /.exec(line) || [0, 0])[1])] = line; });
    steps.concedeButtons(Object.keys(lines).map(Number), who, function (seat) { concede(lines[seat]); });
  }

  // ------------------------------------------------------------------ starting and resuming
  function start(g) {
    game = g;
    pos = null;
    forcedAt = {};
    save();  // a browser that refuses storage still records: the page says so, with the download
    steps.opened(game);
    ask();
  }

  function fromHash() {
    return steps.resume(store, function () { return game; }, function (id, saved) {
      return saved && store.gameOf(saved) === info.key ? ""
        : "There is no saved game " + id + " of " + info.name + " on this device.";
    }, start);
  }

  function newGame() {
    game = null;
    pos = null;
    steps.toSetup(function () { store.drawSaved(info.key); });
  }

  steps.keys({
    active: function () { return root.getAttribute("data-screen") === "game" && !waiting; },
    undo: function () { undoTo(game.decisions.length - 1); },
    // the digits: the next die's faces at a set of dice (record_dice.js), else the first nine lines
    answers: function () { return RecordDice.keys() || byId("answers").querySelectorAll("button.answer"); }
  });
  byId("undo").addEventListener("click", function () { undoTo(game.decisions.length - 1); });
  byId("redo").addEventListener("click", function () { moved(steps.redo(game)); });
  byId("keep-later").addEventListener("click", function () { steps.keepLater(game); moved(true); });
  byId("replace-later").addEventListener("click", function () {
    var lines = waiting;
    closeReplace();
    if (lines) write(lines, true);
  });
  byId("restore-replaced").addEventListener("click", function () { moved(steps.restore(game)); });
  byId("download-so-far").addEventListener("click", function () { RecordEnd.download(); });
  byId("new-game").addEventListener("click", newGame);
  byId("line-search").addEventListener("input", function () { if (pos) drawAnswers(); });
  window.addEventListener("hashchange", fromHash);
  steps.otherTabs(store, function () { return game; }, function (kept) { game = kept; ask(); });

  byId("date").value = today();
  document.querySelectorAll("input[name=players]").forEach(function (r) { r.addEventListener("change", showSeats); });
  showSeats();
  byId("setup-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var got = readSetup();
    setupErrors(got.problems);
    if (!got.problems.length) start(store.create(got.setup, []));
  });
  byId("open-log").addEventListener("change", function (ev) {
    if (ev.target.files && ev.target.files[0]) store.openFile(ev.target.files[0], start, info.key);
  });
  store.drawSaved(info.key);

  // ------------------------------------------------------------------ the end: this game's own part
  RecordEnd.init({
    game: function () { return game; }, position: function () { return pos; }, save: save, post: api.post,
    positionOf: positionOf, who: who, show: show, ask: ask, urls: urls,
    takeBackEnd: function () { moved(steps.takeBackEnd(game)); },
    end: {
      // the winner as the rules have it, when a log of this game claims its result so (else none)
      claim: function (outcome) { return config.claims_winner ? {winner: outcome.winner} : null; },
      how: function (outcome, p) {
        var at = p.round ? " in round " + p.round : "";
        var last = /^P([0-9]+) concede$/.exec(game.decisions[game.decisions.length - 1] || "");
        return last ? who(Number(last[1])) + " conceded" + at + "."
          : "The game was played to its end" + (outcome.winner ? ": " + who(outcome.winner) + " wins." :
                                                outcome.winner === null ? ": a draw." : ".");
      },
      tally: function (box, outcome, p) {
        var table = add(box, el("table", "tally-table"));
        add(table, el("caption", "", "The counts at the end"));
        add(table, el("thead"));
        add(table, el("tbody"));
        drawTally(null, table, p);
      },
      ruled: "by the rules",
      viewer: !!(window.EmpyreanBoards || {})[info.key]  // the viewer draws the boards this page draws
    }
  });
  fromHash();
})();
