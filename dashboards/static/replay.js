// The replay viewer (dashboards/templates/replay.html): draws one frame of engine.timeline at a
// time (with board.js, the board drawing it shares with the recorder) and steps through them.
// Every text that comes from the log (names, decks, cards, decisions) is put into the page with
// textContent — never innerHTML — so it can never be markup. Decisions are named by the numbers
// and labels dashboards/replay.py put in the timeline (frame.number, frame.label, failure.number):
// one numbering, counted from 1 as the log's lines are, computed in one place.
(function () {
  "use strict";

  var dataEl = document.getElementById("timeline-data");
  var root = document.getElementById("replay");
  var board = document.getElementById("board");
  if (!dataEl || !root || !board || !document.getElementById("step-label")) {
    return; // nothing to replay (a malformed log): the page says why
  }
  var tl = JSON.parse(dataEl.textContent);
  var cardsEl = document.getElementById("card-data");
  var cards = cardsEl ? JSON.parse(cardsEl.textContent) : {};
  var frames = tl.frames;
  var last = frames.length - 1;
  var current = 0;
  // the game's board (board.js: Battle for Empyrean's; titans_board.js …), by the page's game key
  var renderer = window.EmpyreanBoards[root.getAttribute("data-game")] || EmpyreanBoard;

  // --------------------------------------------------------------- small DOM helpers
  var el = EmpyreanBoard.el;
  var add = EmpyreanBoard.add;
  function seatName(seat) {
    var p = tl.players[seat - 1];
    return p && p.name ? p.name : "";
  }
  function seatLabel(seat) {
    var name = seatName(seat);
    return name ? "P" + seat + " " + name : "P" + seat;
  }
  function who(player) {
    if (player === 0) return "chance";
    return seatLabel(player);
  }

  // --------------------------------------------------------------- drawing one frame
  function drawNow(frame) {
    var now = document.getElementById("step-now");
    if (!now) return;
    now.textContent = "";
    // the opening hands are drawn before round 1: said as the recorder says it, never "Round 0"
    var where = (frame.round ? "Round " + frame.round : "Before round 1") + " · " + frame.phase + " phase";
    if (frame.first_player) where += " · first player P" + frame.first_player;
    add(now, el("span", "where", where));
    if (frame.decision) {
      add(now, el("span", "label", "Decision " + frame.number + ": "));
      add(now, el("code", "just", frame.decision));
    } else if (frame.index === 0) {
      add(now, el("span", "just-none", "Setup done, no decision yet."));
    } else {
      add(now, el("span", "just-none", "Time was called."));
    }
    var next = add(now, el("span", "next"));
    if (frame.over) {
      next.textContent = frame.winner ? "Game over: " + seatLabel(frame.winner) + " wins."
                       : frame.winner === null ? "Game over: a draw." : "Game over.";
    } else if (frame.to_move !== null && frame.to_move !== undefined) {  // a game whose frame names who is next
      next.textContent = "Next: " + who(frame.to_move) + " — " + (frame.prompt || frame.kind || "");
    }
    if (tl.failing_frame === frame.index && tl.failure) {
      var f = tl.failure;
      var next = f.decision ? "Decision " + f.number + ", next in the log, breaks the rules: "
                            : "The log stops here, before the game is over: ";
      add(now, el("strong", "now-illegal", next + f.reason));
    }
  }

  // --------------------------------------------------------------- a card's cost, might and text
  // On hover (the button's title) and on tap or Enter (a dialog): the catalog's facts, embedded by
  // dashboards/replay.py for the cards this game shows.
  var info = document.getElementById("card-info");
  function cardStats(c) {
    return "Cost " + c.cost + " · might " + c.might + (c.max_might ? " (at most " + c.max_might + ")" : "") +
           " · " + c.type + " · " + c.deck;
  }
  function cardButton(node, name) {
    var c = cards[name];
    if (!c) return;
    var b = el("button", "card-btn", name);
    b.type = "button";
    b.setAttribute("data-card", name);
    b.title = name + " — " + cardStats(c) + ". " + (c.text || "No ability.");
    b.setAttribute("aria-haspopup", "dialog");
    node.textContent = "";
    node.appendChild(b);
  }
  function showCard(name) {
    var c = cards[name];
    if (!info || !c) return;
    document.getElementById("card-info-name").textContent = name;
    document.getElementById("card-info-stats").textContent = cardStats(c);
    document.getElementById("card-info-text").textContent = c.text || "No ability.";
    if (typeof info.showModal === "function") info.showModal();
  }
  board.addEventListener("click", function (ev) {
    var b = ev.target.closest("button.card-btn");
    if (b && board.contains(b)) showCard(b.getAttribute("data-card"));
  });
  if (info) {
    // a tap outside the dialog's box (on its backdrop) closes it, as a popover would
    info.addEventListener("click", function (ev) { if (ev.target === info) info.close(); });
  }

  function draw(i) {
    var frame = frames[i];
    renderer.draw(board, frame, {players: tl.players, battlefields: tl.battlefields, card: cardButton, cards: cards});
    drawNow(frame);
  }

  // --------------------------------------------------------------- stepping
  var list = document.getElementById("decision-list");

  function highlight(i) {
    if (!list) return;
    var items = list.querySelectorAll("li[data-step]");
    var shown = null;
    for (var k = 0; k < items.length; k++) {
      var li = items[k];
      // the decision just applied (the illegal one keeps its own style and is never "current")
      var on = Number(li.getAttribute("data-step")) === i && !li.classList.contains("illegal-decision");
      li.classList.toggle("current", on);
      if (on) {
        li.setAttribute("aria-current", "step");
        shown = li;
      } else {
        li.removeAttribute("aria-current");
      }
    }
    if (shown) {
      // keep the current decision in view inside the list, without scrolling the whole page (where
      // the list is on the page — beside the board or below it on a phone — does not matter)
      var top = shown.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
      if (top < list.scrollTop || top + shown.offsetHeight > list.scrollTop + list.clientHeight) {
        list.scrollTop = Math.max(0, top - list.clientHeight / 2);
      }
    }
  }

  function go(i) {
    i = Math.max(0, Math.min(last, i));
    current = i;
    draw(i);
    highlight(i);
    document.getElementById("step-label").textContent = frames[i].label;
    document.getElementById("step-first").disabled = i === 0;
    document.getElementById("step-back").disabled = i === 0;
    document.getElementById("step-forward").disabled = i === last;
    document.getElementById("step-last").disabled = i === last;
    root.setAttribute("data-step", String(i));
    var url = new URL(window.location.href);
    url.searchParams.set("step", String(i));
    window.history.replaceState(null, "", url.toString());
  }

  document.getElementById("step-first").addEventListener("click", function () { go(0); });
  document.getElementById("step-back").addEventListener("click", function () { go(current - 1); });
  document.getElementById("step-forward").addEventListener("click", function () { go(current + 1); });
  document.getElementById("step-last").addEventListener("click", function () { go(last); });

  // The board brought into view and flashed: what "Show the board …" does, also when the viewer
  // is already at that step (going there changes nothing else to see).
  function showBoard() {
    var steps = document.getElementById("stepper");
    var top = board.getBoundingClientRect().top + window.scrollY - (steps ? steps.offsetHeight : 0) - 8;
    window.scrollTo({top: Math.max(0, top), behavior: "smooth"});
    board.focus({preventScroll: true});
    board.classList.remove("flash");
    void board.offsetWidth;  // restart the animation when it is clicked again
    board.classList.add("flash");
  }
  board.addEventListener("animationend", function () { board.classList.remove("flash"); });

  function jumpLinks(container, toBoard) {
    if (!container) return;
    container.addEventListener("click", function (ev) {
      var a = ev.target.closest("[data-step]");
      if (!a || !container.contains(a)) return;
      ev.preventDefault();
      go(Number(a.getAttribute("data-step")));
      if (toBoard) showBoard();
    });
  }
  jumpLinks(list, false);
  jumpLinks(document.getElementById("illegal-reason"), true);
  jumpLinks(document.getElementById("mismatch-reason"), true);

  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var t = ev.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    if (info && info.open) return;  // the card dialog has the keys
    var to = null;
    if (ev.key === "ArrowLeft") to = current - 1;
    else if (ev.key === "ArrowRight") to = current + 1;
    else if (ev.key === "Home") to = 0;
    else if (ev.key === "End") to = last;
    if (to === null) return;
    ev.preventDefault();
    go(to);
  });

  // The server picked the opening step (?step=N, else an illegal game's failing decision, a mismatch
  // game's final board).
  var start = Number(root.getAttribute("data-step"));
  go(isFinite(start) ? start : 0);
})();
