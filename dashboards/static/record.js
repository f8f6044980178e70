// The recorder (dashboards/templates/record.html, docs/recording.md): a game of Battle for Empyrean
// played with real cards, written down decision by decision, on its board (the board mode; any other
// game is recorded in the lines mode, record_lines.js). This file is the game screen; record_setup.js
// the setup, record_end.js the end, record_store.js the storage and the log, record_steps.js the
// decisions' undo, redo and replace, record_api.js the calls to the service, record_held.js a seat's
// own deploys entered before the others' face-down ones are revealed. After every decision the whole log so far goes to the
// positions API (POST /api/v1/positions, stateless), which answers who decides now, every legal
// answer as a log line, the board and the tally; the page offers exactly those lines as buttons
// (each carries its line in data-line) and keeps the log in the browser's storage (record_store.js).
//
// Every text from a log, the catalog or a player is put into the page with textContent.
(function () {
  "use strict";

  var B = window.EmpyreanBoard, store = window.RecordStore, setup = window.RecordSetup, held = window.RecordHeld;
  var steps = window.RecordSteps, post = window.RecordApi.post;
  var el = B.el, add = B.add;
  var urls = JSON.parse(document.getElementById("record-config").textContent).urls;
  var root = document.getElementById("record");

  var game = null;      // the game being recorded (record_store.js)
  var pos = null;       // the positions API's last answer for it
  var cat = null;       // its catalog's data, once loaded (card texts)
  var pick = null;      // a deploy or a card on the board chosen, waiting for its battlefield / action
  var filter = "";      // the search text of a long list of answers (a draw, a deploy)
  var forcedAt = {};    // decisions written -> the lines the engine applied by itself after them
  var waiting = null;   // the lines of an answer that would replace undone decisions, until the person says

  function byId(id) { return document.getElementById(id); }
  function seatName(seat) { return steps.seatName(game, seat); }
  function who(seat) { return steps.who(game, seat); }

  // ------------------------------------------------------------------ screens and saving
  var show = steps.show;
  var save = steps.saver(store, function () { return game; });
  var inView = steps.inView;

  function busy(on) {
    on = on || held.loading();  // the held deploys' own question to the API counts too
    root.setAttribute("data-busy", on ? "true" : "false");
    document.querySelectorAll("#answers button, #held button, #board button[data-board-line], #board button[data-board-group]")
      .forEach(function (b) { b.disabled = on; });
  }

  // ------------------------------------------------------------------ the positions API
  function positionOf(result) {
    return post(urls.positions, store.log(game, result));
  }

  // Ask the positions API about the log as it stands and show the answer (record_steps.js drops a
  // late answer to an older question).
  var ask = steps.asker(function () { return positionOf(game.end ? timeResult(null) : null); }, busy,
                        function (answer) { received(answer); });

  function received(answer) {
    pos = answer;
    forcedAt[game.decisions.length] = answer.forced || [];
    if (answer.status === "in progress" && held.sync()) return;  // a held deploy written: its answer follows
    if (answer.status === "in progress") {
      if (game.end) { game.end = null; save(); }
      show("game");
      drawGame();
      return;
    }
    if (answer.status === "malformed" && !game.decisions.length) {
      show("setup");  // a setup the engine refuses: said next to the form, nothing recorded yet
      setup.errors(answer.verdict.errors || [{path: "", message: answer.verdict.message}]);
      return;
    }
    if (answer.outcome && (answer.status === "valid" || answer.status === "mismatch")) {
      RecordEnd.show();
      return;
    }
    show("game");  // a log that breaks the rules (opened from a file) or an engine error: say where
    drawGame();
  }

  // ------------------------------------------------------------------ decisions
  function decide(line) {
    if (!held.takes(line)) write([line]);
  }

  // Write ``lines`` (one answer; or a concession with what it takes before it) after the log; an
  // answer that would replace undone decisions asks first (askReplace; ``replace``: the person said
  // yes). record_steps.js keeps what is replaced, for Restore.
  function write(lines, replace) {
    if (root.getAttribute("data-busy") === "true") return;
    if (!steps.write(game, lines, replace, heldLater())) { askReplace(lines); return; }
    pick = null;
    filter = "";
    waiting = null;
    save();
    ask();
  }

  // Deploys held for a point later than the log's end (the person went back): an answer there
  // replaces that point, and they go with the decisions it replaces.
  function heldLater() {
    return game.held && game.decisions.length < game.held.at ? game.held : null;
  }

  // "This replaces the 12 decisions after it — Keep them / Replace", in place of the answers.
  // The board's buttons wait too.
  function askReplace(lines) {
    var h = heldLater();
    waiting = lines;
    document.querySelectorAll("#board button[data-board-line], #board button[data-board-group]")
      .forEach(function (b) { b.disabled = true; });
    steps.askReplace(game.redo.length, h ? h.lines.length : 0, byId("answers"));
  }

  function closeReplace() {
    waiting = null;
    steps.closeReplace(byId("answers"));
  }

  // After a move of record_steps.js that changed the game (``changed``): nothing picked or searched
  // any more, the game kept, and the service asked.
  function moved(changed) {
    if (!changed) return;
    pick = null;
    filter = "";
    save();
    ask();
  }

  // Keep them: back to the end of the game, every undone decision as it was.
  function keepLater() {
    closeReplace();
    steps.keepLater(game);
    moved(true);
  }

  function replaceLater() {
    var lines = waiting;
    closeReplace();
    if (lines) write(lines, true);
  }

  // Restore the replaced decisions: the old log exactly (record_steps.js).
  function restoreReplaced() { moved(steps.restore(game)); }

  function drawReplaced() {
    var old = game.replaced;
    byId("replaced-row").hidden = !old;
    if (old) byId("restore-replaced").textContent = steps.restoreWords(old.count);
  }

  function undoTo(k) { moved(steps.undoTo(game, k)); }

  // Undo takes back what was entered last: a held deploy (record_held.js), else the last decision.
  function undoLast() {
    if (!held.undo()) undoTo(game.decisions.length - 1);
  }

  function redo() { moved(steps.redo(game)); }

  // ------------------------------------------------------------------ reading lines
  var POS = "P[1-3]:B[1-9]Z[1-9]";
  var LINES = [
    ["keep", /^P([1-3]) keep (.+)$/], ["pass", /^P([1-3]) pass$/], ["yes", /^P([1-3]) yes$/], ["no", /^P([1-3]) no$/],
    ["deploy", /^P([1-3]) deploy (.+) to B([1-9])$/], ["move", new RegExp("^P([1-3]) move (" + POS + ") to B([1-9])$")],
    ["command", new RegExp("^P([1-3]) command (" + POS + ")$")],
    ["target", new RegExp("^P([1-3]) choose (" + POS + ")$")], ["battlefield", /^P([1-3]) choose B([1-9])$/],
    ["nothing", /^P([1-3]) choose nothing$/], ["choose", /^P([1-3]) choose (.+)$/],
    ["draw", /^C draw P([1-3]) (.+)$/], ["concede", /^P([1-3]) concede$/]
  ];

  function read(line) {
    for (var k = 0; k < LINES.length; k++) {
      var m = LINES[k][1].exec(line);
      if (!m) continue;
      var verb = LINES[k][0], d = {verb: verb, line: line, seat: Number(m[1])};
      if (verb === "keep" || verb === "choose" || verb === "draw") d.card = m[2];
      if (verb === "deploy") { d.card = m[2]; d.bf = Number(m[3]); }
      if (verb === "move") { d.pos = m[2]; d.bf = Number(m[3]); }
      if (verb === "command" || verb === "target") d.pos = m[2];
      if (verb === "battlefield") d.bf = Number(m[2]);
      // deploys are chosen card first, then battlefield; moves and commands card first, then what
      if (verb === "deploy") d.group = "deploy " + d.card;
      if (verb === "move" || verb === "command") d.group = "card " + d.pos;
      return d;
    }
    return {verb: "other", line: line, seat: 0};
  }

  function zoneAt(p) {
    var m = /^P([1-3]):B([1-9])Z([1-9])$/.exec(p);
    var bf = pos.board.battlefields[Number(m[2]) - 1];
    var side = bf && bf.sides[Number(m[1]) - 1];
    return {owner: Number(m[1]), bf: Number(m[2]), zone: Number(m[3]), card: side && side.zones[Number(m[3]) - 1]};
  }
  function placeText(p) {
    var z = zoneAt(p);
    return "P" + z.owner + "'s side of B" + z.bf + ", zone " + z.zone;
  }
  function cardAtText(p) {
    var z = zoneAt(p);
    var name = z.card ? z.card.card : "the card";
    return (name === B.UNSEEN ? "a card nobody saw" : name) + (z.card && !z.card.face_up ? " (face down)" : "");
  }
  function bfName(n) {
    var bf = pos.board.battlefields[n - 1];
    return "B" + n + (bf ? " · " + bf.name : "");
  }
  function cost(name) {
    var c = cat && cat.cardsByName[name];
    return c ? " · cost " + c.cost : "";
  }

  function label(d) {
    switch (d.verb) {
      case "keep": return d.card === B.UNSEEN ? "Kept a card nobody saw" : "Keep " + d.card;
      case "pass":
        if (pos.kind !== "deploy or pass") return "Pass";
        return game.setup.view && d.seat !== game.setup.view ? "No more cards: " + who(d.seat) + " deploys nothing more"
                                                             : "Pass: deploy nothing more";
      case "yes": return "Yes";
      case "no": return "No";
      case "deploy": return "to " + bfName(d.bf);
      case "move": return "Move to " + bfName(d.bf);
      case "command": return "Use its command ability";
      case "target": return "Choose " + cardAtText(d.pos) + " — " + placeText(d.pos);
      case "battlefield": return "Choose " + bfName(d.bf);
      case "nothing": return "Nothing fitted";
      case "choose": return d.card === B.UNSEEN ? "A card nobody saw" : "Choose " + d.card + cost(d.card);
      case "draw": return d.card === B.UNSEEN ? "Not seen" : d.card + cost(d.card);
      default: return d.line;
    }
  }

  // An answer the engine applied by itself, said as people say it ("P2 Bo passes", "P2 Bo draws a
  // card nobody saw"), never as the raw log line.
  function said(line) {
    var d = read(line), name = who(d.seat);
    var card = d.card === B.UNSEEN ? "a card nobody saw" : d.card;
    switch (d.verb) {
      case "pass": return name + " passes";
      case "draw": return name + " draws " + card;
      case "keep": return name + " keeps " + card;
      case "yes": return name + " says yes";
      case "no": return name + " says no";
      case "nothing": return "nothing fitted " + name + "'s choice";
      case "choose": return name + " chooses " + card;
      case "deploy": return name + " deploys " + card + " to B" + d.bf;
      case "battlefield": return name + " chooses B" + d.bf;
      case "target": return name + " chooses the card at " + placeText(d.pos);
      default: return line;
    }
  }

  function groupLabel(d) {
    if (d.verb === "deploy") return "Deploy " + d.card + cost(d.card);
    return cardAtText(d.pos) + " on B" + zoneAt(d.pos).bf + " (zone " + zoneAt(d.pos).zone + ")";
  }

  // ------------------------------------------------------------------ drawing the game
  function drawGame() {
    var board = pos.board;
    var answered = document.activeElement && byId("decide").contains(document.activeElement);
    root.setAttribute("data-count", String(game.decisions.length));
    drawTally(byId("where"), byId("tally-table"), pos);
    drawDecide();
    if (board) {
      B.draw(byId("board"), board, {players: game.setup.players, battlefields: battlefieldInfo(board),
                                    card: cardButton, zone: zoneTarget, battlefield: battlefieldTarget});
    }
    drawHistory();
    drawReplaced();
    byId("undo").disabled = !game.decisions.length;
    byId("redo").disabled = !game.redo.length;
    byId("redo").textContent = game.redo.length ? "Redo (" + game.redo.length + ")" : "Redo";
    drawConcede();
    busy(false);
    document.querySelectorAll("#game .kept-warning").forEach(inView);
    if (answered) {  // a keyboard user stays on the answers: focus the next question's first one
      var first = byId("answers").querySelector("button.answer");
      if (first) first.focus({preventScroll: true});
    }
  }

  function battlefieldInfo(board) {
    return board.battlefields.map(function (bf) {
      var info = cat && cat.battlefields.filter(function (c) { return c.name === bf.name; })[0];
      return info ? {label: bf.label, name: bf.name, zones: info.zones, text: info.text} : {label: bf.label, name: bf.name};
    });
  }

  // The companion app's job: round, essence, might per battlefield and totals, always in view.
  function drawTally(where, table, answer) {
    var board = answer.board;
    if (where) {
      where.textContent = "";
      add(where, el("strong", "", answer.round ? "Round " + answer.round : "Before round 1"));
      if (answer.phase) add(where, el("span", "", " · " + answer.phase + " phase"));
      if (board && board.first_player) add(where, el("span", "", " · first player P" + board.first_player));
      add(where, el("span", "count", " · " + game.decisions.length + " decisions"));
    }
    var head = table.querySelector("thead"), body = table.querySelector("tbody");
    head.textContent = "";
    body.textContent = "";
    var might = answer.might || [];
    if (!might.length) return;
    var nbf = might[0].length;
    var tr = add(head, el("tr"));
    add(tr, el("th", "", "Player")).scope = "col";
    if (answer.essence) add(tr, el("th", "", "Essence")).scope = "col";
    for (var b = 0; b < nbf; b++) {
      var th = add(tr, el("th", "num", "B" + (b + 1)));
      th.scope = "col";
      if (board) th.title = board.battlefields[b].name;
    }
    add(tr, el("th", "num", "Total")).scope = "col";
    var top = [];
    for (b = 0; b <= nbf; b++) {
      var col = might.map(function (row) { return b < nbf ? row[b] : row.reduce(function (x, y) { return x + y; }, 0); });
      var best = Math.max.apply(null, col);
      top.push(col.filter(function (v) { return v === best; }).length === 1 && best > 0 ? best : null);
    }
    might.forEach(function (row, i) {
      var r = add(body, el("tr", "seat-" + (i + 1)));
      var th = add(r, el("th"));
      th.scope = "row";
      add(th, el("span", "seat seat-" + (i + 1), "P" + (i + 1)));
      if (seatName(i + 1)) add(th, el("span", "tally-name", " " + seatName(i + 1)));
      if (answer.essence) {
        var adj = answer.next_round_adjustment ? answer.next_round_adjustment[i] : 0;
        var ess = add(r, el("td", "num essence", answer.essence[i]));
        if (adj) add(ess, el("small", "", " (" + (adj > 0 ? "+" : "") + adj + " next)"));
      }
      var total = row.reduce(function (x, y) { return x + y; }, 0);
      row.concat([total]).forEach(function (v, b) {
        var lead = top[b] !== null && v === top[b];
        var td = add(r, el("td", "num" + (lead ? " lead" : "") + (b === nbf ? " total" : ""), v));
        if (lead) {  // not by colour alone: a mark and words for screen readers
          add(td, el("span", "lead-mark", "▲"));
          td.title = "leads";
        }
      });
    });
  }

  function drawDecide() {
    var title = byId("decide-title"), prompt = byId("prompt"), forced = byId("forced"), problem = byId("problem");
    title.textContent = "";
    prompt.textContent = "";
    forced.textContent = "";
    problem.hidden = true;
    problem.textContent = "";
    closeReplace();
    var answers = byId("answers");
    answers.textContent = "";
    if (pos.forced && pos.forced.length) {
      add(forced, el("span", "label", "Applied by itself: "));
      pos.forced.forEach(function (line, i) {
        if (i) add(forced, document.createTextNode(", "));
        add(forced, el("span", "", said(line))).setAttribute("data-line", line);
      });
    }
    if (pos.status !== "in progress") {
      held.draw();
      steps.problem(problem, pos.verdict, game, undoTo);
      title.textContent = "The log cannot go on";
      return;
    }
    var seat = pos.to_decide;
    if (seat === "C") {
      var drawer = read(pos.legal[0] || "").seat;
      title.textContent = who(drawer) + " draws a card";
      prompt.textContent = "Which card was it? Pick it, or “Not seen” if you did not see it.";
    } else {
      add(title, el("span", "seat seat-" + seat, "P" + seat));
      add(title, document.createTextNode(" " + (seatName(seat) || "Player " + seat) + " to decide"));
      prompt.textContent = pos.prompt || pos.kind || "";
    }
    if (!held.draw()) {  // held.draw: the seat's own deploys, when it enters them before the others'
      drawAnswers(answers, pos.legal.map(read));
      drawLeftOut(answers, pos.left_out || []);
    }
    number(answers);
  }

  function answerButton(parent, text, line, cls) {
    var b = add(parent, el("button", "answer" + (cls ? " " + cls : "")));
    b.type = "button";
    add(b, el("span", "answer-text", text));
    if (line !== null) {
      b.setAttribute("data-line", line);
      b.addEventListener("click", function () { decide(line); });
    }
    return b;
  }

  function searchBox(parent, what, redraw) {
    var label = add(parent, el("label", "search", "Find " + what + " "));
    var input = add(label, el("input"));
    input.type = "search";
    input.id = "answer-search";
    input.value = filter;
    input.autocomplete = "off";
    input.addEventListener("input", function () {
      filter = input.value;
      redraw();
    });
    return input;
  }

  function matches(text) {
    var words = filter.toLowerCase().split(/\s+/).filter(Boolean);
    var t = text.toLowerCase();
    return words.every(function (w) { return t.indexOf(w) >= 0; });
  }

  function drawAnswers(box, ds) {
    if (pick) {
      var chosen = ds.filter(function (d) { return d.group === pick; });
      if (!chosen.length) { pick = null; } else {
        add(box, el("p", "step", chosen[0].verb === "deploy" ? groupLabel(chosen[0]) + ": on which battlefield?"
                                                             : groupLabel(chosen[0]) + ": what does it do?"));
        var list = add(box, el("div", "answer-list"));
        chosen.forEach(function (d) { answerButton(list, label(d), d.line); });
        var back = answerButton(box, "Back", null, "secondary back");
        back.setAttribute("data-back", "true");
        back.addEventListener("click", function () { pick = null; drawDecide(); redrawBoard(); });
        return;
      }
    }
    var grid = ds.length && ds.every(function (d) { return d.verb === "draw"; });
    var groups = {}, entries = [];
    ds.forEach(function (d) {
      if (d.group) {
        if (!groups[d.group]) { groups[d.group] = []; entries.push({group: d.group, first: d}); }
        groups[d.group].push(d);
      } else {
        entries.push({single: d});
      }
    });
    var long = entries.length > 10;
    var listBox = el("div", "answer-list" + (grid ? " card-grid" : ""));
    function always(e) { return e.single && (e.single.verb === "pass" || e.single.card === B.UNSEEN); }
    if (long) {  // a long list (a draw, a deploy): "Pass" and "Not seen" first, in reach, never filtered out
      entries = entries.filter(always).concat(entries.filter(function (e) { return !always(e); }));
    }
    function fill() {
      listBox.textContent = "";
      entries.forEach(function (e) {
        var text = e.group ? groupLabel(e.first) : label(e.single);
        if (long && !always(e) && !matches(text)) return;
        if (e.single) {
          answerButton(listBox, text, e.single.line, e.single.card === B.UNSEEN ? "unseen-answer" : "");
        } else {
          var b = answerButton(listBox, text + " ›", null, "group");
          b.setAttribute("data-group", e.group);
          b.addEventListener("click", function () { choose(e.group); });
        }
      });
      number(box);
    }
    if (long) searchBox(box, grid ? "the card" : "an answer", fill);
    add(box, listBox);
    fill();
  }

  // Points the log may leave out (one seat's view: another player's draws, keeps and discards,
  // taken unseen; a choice among unseen cards that found nothing; a choice that can change nothing,
  // such as a deploy with no open zone), already taken with their default.
  // If the table saw one after all (a card that showed itself), its answer may be written instead;
  // and the default itself may be written out (as a seat's own log does where the next line could
  // be read as its answer). Offered folded away, under the point they answer.
  function drawLeftOut(box, points) {
    var shown = points.filter(function (point) { return point.legal.length > 1; });
    if (!shown.length) return;
    var det = add(box, el("details", "left-out"));
    add(det, el("summary", "", "Left out (" + shown.length + "): not seen from this seat, or a choice that " +
                "changes nothing — write it after all?"));
    shown.forEach(function (point) {
      var seat = read(point["default"]).seat;
      add(det, el("p", "note", who(seat) + ": " + point.prompt + " — taken as “" + point["default"] + "”"));
      var list = add(det, el("div", "answer-list"));
      point.legal.forEach(function (line) {
        var text = label(read(line)) + (line === point["default"] ? " (write it out)" : "");
        answerButton(list, text, line, "secondary");
      });
    });
    det.addEventListener("toggle", function () { number(box); });
  }

  function choose(group) {
    pick = group;
    filter = "";
    drawDecide();
    redrawBoard();
    var first = byId("answers").querySelector("button[data-line]");
    if (first) first.focus();
  }

  // Digits 1–9 pick the first nine answers shown (a laptop's keyboard).
  function number(box) {
    var k = 0;
    box.querySelectorAll("button.answer").forEach(function (b) {
      var old = b.querySelector("kbd");
      if (old) b.removeChild(old);
      if (b.closest("details") && !b.closest("details").open) return;
      if (++k <= 9) {
        b.insertBefore(el("kbd", "key", String(k)), b.firstChild);
        b.setAttribute("aria-keyshortcuts", String(k));
      }
    });
  }

  function redrawBoard() {
    if (pos && pos.board) {
      B.draw(byId("board"), pos.board, {players: game.setup.players, battlefields: battlefieldInfo(pos.board),
                                        card: cardButton, zone: zoneTarget, battlefield: battlefieldTarget});
    }
  }

  // ---- the board as a place to tap: targets, cards to move or command, battlefields
  function boardButton(parent, text, line, group) {
    var b = add(parent, el("button", "board-pick", text));
    b.type = "button";
    if (line) {
      b.setAttribute("data-board-line", line);
      b.addEventListener("click", function () { decide(line); });
    } else {
      b.setAttribute("data-board-group", group);
      b.addEventListener("click", function () { choose(group); });
    }
    return b;
  }

  function legalNow() {
    var mine = held.answers();  // holding the seat's own deploys: those, not the pending player's
    if (mine) return mine.map(read);
    return pos && pos.status === "in progress" ? pos.legal.map(read) : [];
  }

  function zoneTarget(li, z, side, bf) {
    var here = "P" + side.seat + ":B" + bf.number + "Z" + z.zone;
    var ds = legalNow().filter(function (d) { return d.pos === here; });
    if (!ds.length) return;
    var target = ds.filter(function (d) { return d.verb === "target"; })[0];
    li.classList.add("target");
    if (target) {
      boardButton(li, "Choose", target.line).setAttribute("aria-label", label(target));
    } else if (!pick) {
      boardButton(li, "Move or command", null, "card " + here)
        .setAttribute("aria-label", "Move or command " + cardAtText(here));
    } else if (pick === "card " + here) {
      li.classList.add("picked");
    }
  }

  function battlefieldTarget(box, bf) {
    var ds = legalNow().filter(function (d) {
      return d.bf === bf.number && (d.verb === "battlefield" || (pick && d.group === pick));
    });
    if (!ds.length) return;
    box.classList.add("target");
    var d = ds[0];
    var text = d.verb === "battlefield" ? "Choose " + bf.label : d.verb === "deploy" ? "Deploy here" : "Move here";
    var b = boardButton(box.querySelector("h3"), text, d.line);
    // the name starts with the words shown, so a person who says or sees them finds the button (WCAG 2.5.3)
    b.setAttribute("aria-label", d.verb === "battlefield" ? label(d)  // "Choose B1 · its name"
      : text + ": " + (d.verb === "deploy" ? d.card + " " + label(d) : label(d).replace(/^Move /, "")));
  }

  // ---- each card shows its cost, might and text, on hover (title) and on tap (a dialog)
  function cardFacts(name) {
    var c = cat && cat.cardsByName[name];
    if (!c) return null;
    return {stats: "Cost " + c.cost + " · might " + c.might + (c.max_might ? " (at most " + c.max_might + ")" : "") +
                   " · " + c.type + " · " + c.deck, text: c.text || "No ability."};
  }

  function cardButton(node, name) {
    var facts = cardFacts(name);
    var b = el("button", "card-btn", name);
    b.type = "button";
    b.setAttribute("data-card", name);
    if (facts) b.title = name + " — " + facts.stats + ". " + facts.text;
    b.addEventListener("click", function () { cardInfo(name); });
    node.textContent = "";
    node.appendChild(b);
  }

  function cardInfo(name) {
    var facts = cardFacts(name);
    var dialog = byId("card-info");
    byId("card-info-name").textContent = name;
    byId("card-info-stats").textContent = facts ? facts.stats : "Not in the catalog loaded.";
    byId("card-info-text").textContent = facts ? facts.text : "";
    if (typeof dialog.showModal === "function") dialog.showModal();
  }

  // ---- the decisions taken (tap one to go back to just before it), and what the engine did itself
  function drawHistory() { steps.history(game, forcedAt, said, undoTo); }

  function drawConcede() {
    steps.concedeButtons(game.setup.players.map(function (p, i) { return i + 1; }), who, concede);
    var time = byId("time-called");
    time.removeAttribute("data-armed");
    time.textContent = "Time is called";
  }

  // A concession comes where the board shows the game: the points this seat's view leaves out after
  // the last decision (another player's draws and keeps, taken unseen) are taken first, as time
  // called takes them, so both endings at one point count the same unseen cards. They are written
  // out before the concession (the engine would otherwise stop before them).
  function concede(seat) {
    var before = (pos && pos.left_out || []).map(function (point) { return point["default"]; });
    write(before.concat(["P" + seat + " concede"]));
  }

  // Back to the game from the end: a concession goes with the left-out points written before it.
  function takeBackEnd() { moved(steps.takeBackEnd(game)); }

  // ------------------------------------------------------------------ ending early: time called
  function timeRule() {
    var r = document.querySelector("input[name=time-rule]:checked");
    return r ? r.value : "tally";
  }
  function timeResult(winner) {
    return {winner: winner, reason: "time", time_rule: game.end.time_rule};
  }

  function timeArmedText() {
    return "Tap again: time is called (" + (timeRule() === "draw" ? "a draw" : "tally the board") + ")";
  }

  function callTime() {
    if (!steps.secondTap(byId("time-called"), timeArmedText())) return;  // a second tap, as a concession
    game.end = {reason: "time", time_rule: timeRule()};
    game.result = null;
    save();
    byId("end-early").open = false;
    ask();
  }

  // ------------------------------------------------------------------ starting and resuming
  function start(g) {
    game = g;
    pos = null;
    held.reset();
    pick = null;
    filter = "";
    forcedAt = {};
    save();  // a browser that refuses storage still records: the page says so, with the download
    setup.catalog(game.setup.catalog).then(function (data) {
      cat = data;
      if (pos && root.getAttribute("data-screen") === "game") drawGame();
    }, function () { cat = null; });
    steps.opened(game);
    ask();
  }

  function fromHash() {
    return steps.resume(store, function () { return game; }, function (id, saved) {
      if (!saved) return "There is no saved game " + id + " on this device.";
      if (store.gameOf(saved) === "bfe") return "";
      // a game of the lines mode: recorded on its own game's page
      return "The saved game " + id + " is a game of “" + store.gameOf(saved) + "”: it is recorded at /" +
        store.gameOf(saved) + "/record#game=" + id + ".";
    }, start);
  }

  function newGame() {
    game = null;
    pos = null;
    steps.toSetup(setup.drawSaved);
  }

  steps.keys({
    active: function () { return root.getAttribute("data-screen") === "game" && !byId("card-info").open && !waiting; },
    undo: undoLast,
    answers: function () { return byId("answers").querySelectorAll("button.answer"); },
    escape: function () {
      if (!pick) return;
      pick = null;
      drawDecide();
      redrawBoard();
    }
  });

  byId("undo").addEventListener("click", undoLast);
  byId("redo").addEventListener("click", redo);
  byId("time-called").addEventListener("click", callTime);
  document.querySelectorAll("input[name=time-rule]").forEach(function (r) {
    r.addEventListener("change", function () {
      var b = byId("time-called");
      if (b.getAttribute("data-armed") === "true") b.textContent = timeArmedText();
    });
  });
  byId("keep-later").addEventListener("click", keepLater);
  byId("replace-later").addEventListener("click", replaceLater);
  byId("restore-replaced").addEventListener("click", restoreReplaced);
  byId("download-so-far").addEventListener("click", function () { RecordEnd.download(); });
  byId("new-game").addEventListener("click", newGame);
  window.addEventListener("hashchange", fromHash);
  steps.otherTabs(store, function () { return game; }, function (kept) {
    game = kept;
    pick = null;
    ask();
  });

  held.init({
    game: function () { return game; }, position: function () { return pos; }, save: save, post: post, urls: urls,
    body: function (lines) { return store.log({setup: game.setup, decisions: lines}, null); }, who: who,
    name: seatName, said: said, write: function (lines) { write(lines); }, drawGame: drawGame,
    drawAnswers: function (lines) { drawAnswers(byId("answers"), lines.map(read)); },
    redoNext: function () { return game.redo.length ? game.redo[game.redo.length - 1] : null; }
  });
  // ------------------------------------------------------------------ the end: this game's own part
  var end = {
    // the result as the tally has it: the winner, the might per battlefield, how the game ended
    claim: function (outcome) {
      var result = {winner: outcome.winner, might: outcome.might, reason: outcome.end};
      if (outcome.end === "time") result.time_rule = game.end.time_rule;
      return result;
    },
    how: function (outcome, p) {
      var round = p.round ? " in round " + p.round : " before round 1";
      return outcome.end === "concession" ? who(outcome.conceded_by) + " conceded" + round + "."
        : outcome.end === "time" ? "Time was called" + round + " (" + (game.end.time_rule === "draw" ? "the game is a draw"
                                                                    : "the board is tallied as it stands") + ")."
        : "The game was played to the end and tallied.";
    },
    tally: function (box, outcome, p) {
      var table = add(box, el("table", "tally-table"));
      add(table, el("caption", "", "Might at the end, per battlefield"));
      add(table, el("thead"));
      add(table, el("tbody"));
      drawTally(null, table, {might: outcome.might, board: p.board});
    },
    ruled: "the tally",
    viewer: true
  };
  RecordEnd.init({
    game: function () { return game; }, position: function () { return pos; }, save: save, post: post,
    positionOf: positionOf, who: who, show: show, ask: ask, takeBackEnd: takeBackEnd, urls: urls, end: end
  });
  setup.init(start);
  fromHash();
})();
