// The replay viewer (dashboards/templates/replay.html): draws one frame of engine.timeline at a
// time and steps through them. Every text that comes from the log (names, decks, cards,
// decisions) is put into the page with textContent — never innerHTML — so it can never be markup.
// A card nobody at the recording seat saw is named "?" in the timeline (a hand, the draft, a
// pile): it is drawn as an "unseen" card, never as the text "?".
(function () {
  "use strict";

  var dataEl = document.getElementById("timeline-data");
  var root = document.getElementById("replay");
  var board = document.getElementById("board");
  if (!dataEl || !root || !board || !document.getElementById("step-label")) {
    return; // nothing to replay (a malformed log): the page says why
  }
  var tl = JSON.parse(dataEl.textContent);
  var frames = tl.frames;
  var last = frames.length - 1;
  var total = tl.decisions.length;
  var current = 0;

  // --------------------------------------------------------------- small DOM helpers
  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }
  function add(parent, child) {
    parent.appendChild(child);
    return child;
  }
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
  // The name engine.timeline gives a card nobody at the recording seat saw.
  var UNSEEN = "?";
  var UNSEEN_TITLE = "a card nobody at the recording seat saw";
  function unseenMark(tag, cls, count) {
    var text = count > 1 ? count + " unseen" : "unseen";
    var node = el(tag, cls + " unseen", text);
    node.title = count > 1 ? count + " cards nobody at the recording seat saw" : UNSEEN_TITLE;
    return node;
  }
  // A pile's cards in order, names as text and each run of unseen ones as one "N unseen" mark.
  function pileList(names) {
    var p = el("p", "pile-cards");
    var k = 0;
    while (k < names.length) {
      if (k > 0) add(p, document.createTextNode(", "));
      if (names[k] === UNSEEN) {
        var run = 0;
        while (k < names.length && names[k] === UNSEEN) { run++; k++; }
        add(p, unseenMark("span", "unseen-cards", run));
      } else {
        add(p, document.createTextNode(names[k]));
        k++;
      }
    }
    return p;
  }
  function tokenText(tokens) {
    return Object.keys(tokens).sort().map(function (k) {
      return k + (tokens[k] > 1 ? "×" + tokens[k] : "");
    });
  }

  // --------------------------------------------------------------- drawing one frame
  function drawNow(frame) {
    var now = document.getElementById("step-now");
    if (!now) return;
    now.textContent = "";
    var where = "Round " + frame.round + " · " + frame.phase + " phase";
    if (frame.first_player) where += " · first player P" + frame.first_player;
    add(now, el("span", "where", where));
    if (frame.decision) {
      add(now, el("span", "label", "Just applied: "));
      add(now, el("code", "just", frame.decision));
    } else {
      add(now, el("span", "just-none", "Setup done, no decision yet."));
    }
    var next = add(now, el("span", "next"));
    if (frame.over) {
      next.textContent = frame.winner ? "Game over: " + seatLabel(frame.winner) + " wins." : "Game over: a draw.";
    } else if (frame.to_move !== null) {
      next.textContent = "Next: " + who(frame.to_move) + " — " + (frame.prompt || frame.kind || "");
    }
    if (tl.failing_frame === frame.index && tl.failure) {
      add(now, el("strong", "now-illegal", "The next decision in the log is illegal: " + tl.failure.reason));
    }
  }

  function drawPlayer(p) {
    var box = el("section", "player seat-" + p.seat);
    var head = add(box, el("h3"));
    add(head, el("span", "seat seat-" + p.seat, "P" + p.seat));
    if (seatName(p.seat)) add(head, el("span", "player-name", seatName(p.seat)));
    add(head, el("span", "deck-name", p.deck));
    var stats = add(box, el("p", "stats"));
    add(stats, el("span", "essence", "Essence " + p.essence));
    add(stats, el("span", "", "Deck " + p.deck_size));
    add(stats, el("span", "", "Discard " + p.discard.length));
    add(stats, el("span", "", "Destroyed " + p.destroyed.length));
    if (p.banished.length) add(stats, el("span", "", "Banished " + p.banished.length));
    var hand = add(box, el("ul", "hand"));
    hand.setAttribute("aria-label", "Hand of P" + p.seat);
    var drafting = p.drafting.slice();
    p.hand.forEach(function (name) {
      var i = drafting.indexOf(name);
      var cls = i >= 0 ? "card drafting" : "card";
      var li = add(hand, name === UNSEEN ? unseenMark("li", cls, 1) : el("li", cls, name));
      if (i >= 0) {
        drafting.splice(i, 1);
        li.title = name === UNSEEN ? UNSEEN_TITLE + ", drawn in the draft: keep one of the two"
                                   : "drawn in the draft: keep one of the two";
      }
    });
    if (!p.hand.length) add(hand, el("li", "empty", "no cards in hand"));
    [["Discard", p.discard], ["Destroyed", p.destroyed], ["Banished", p.banished]].forEach(function (pile) {
      if (!pile[1].length) return;
      var det = add(box, el("details", "pile"));
      var unseen = pile[1].filter(function (name) { return name === UNSEEN; }).length;
      add(det, el("summary", "", pile[0] + " (" + pile[1].length + (unseen ? ", " + unseen + " unseen" : "") + ")"));
      add(det, pileList(pile[1]));
    });
    return box;
  }

  function drawZone(z) {
    var li = el("li", "zone" + (z.face_up ? "" : " face-down"));
    add(li, el("span", "zone-no", "Z" + z.zone));
    add(li, el("span", "card-name", z.card));
    add(li, el("span", "might", z.might));
    if (!z.face_up) add(li, el("span", "hidden", "face down"));
    tokenText(z.tokens).forEach(function (t) { add(li, el("span", "token", t)); });
    if (z.under.length) add(li, el("span", "under", "over " + z.under.join(", ")));
    return li;
  }

  function drawBattlefield(bf, b) {
    var box = el("section", "battlefield");
    var head = add(box, el("h3"));
    add(head, el("span", "bf-label", bf.label));
    add(head, document.createTextNode(" " + bf.name));
    var info = tl.battlefields[b];
    if (info && info.text && info.text.length) {
      var det = add(box, el("details", "bf-text"));
      add(det, el("summary", "", info.zones + " zones · effect"));
      info.text.forEach(function (line) { add(det, el("p", "", line)); });
    }
    var col = bf.sides.map(function (s) { return s.might; });
    var top = Math.max.apply(null, col);
    var leaders = col.filter(function (m) { return m === top; }).length;
    bf.sides.forEach(function (side) {
      var lead = side.might === top && leaders === 1 && top > 0;
      var s = add(box, el("div", "side seat-" + side.seat + (lead ? " leading" : "")));
      var sh = add(s, el("div", "side-head"));
      add(sh, el("span", "seat seat-" + side.seat, "P" + side.seat));
      add(sh, el("span", "side-might", "might " + side.might));
      if (side.stops) add(sh, el("span", "token stop", "stop" + (side.stops > 1 ? "×" + side.stops : "")));
      var zones = add(s, el("ol", "zones"));
      side.zones.forEach(function (z) { add(zones, drawZone(z)); });
      if (!side.zones.length) add(zones, el("li", "empty", "no cards"));
    });
    return box;
  }

  function draw(i) {
    var frame = frames[i];
    board.textContent = "";
    var players = add(board, el("div", "players"));
    frame.players.forEach(function (p) { add(players, drawPlayer(p)); });
    var bfs = add(board, el("div", "battlefields"));
    frame.battlefields.forEach(function (bf, b) { add(bfs, drawBattlefield(bf, b)); });
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
      // keep the current decision in view inside the list, without scrolling the whole page
      var top = shown.offsetTop - list.offsetTop;
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
    document.getElementById("step-label").textContent = "Decision " + i + " of " + total;
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

  function jumpLinks(container) {
    if (!container) return;
    container.addEventListener("click", function (ev) {
      var a = ev.target.closest("[data-step]");
      if (!a || !container.contains(a)) return;
      ev.preventDefault();
      go(Number(a.getAttribute("data-step")));
    });
  }
  jumpLinks(list);
  jumpLinks(document.getElementById("illegal-reason"));

  document.addEventListener("keydown", function (ev) {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    var t = ev.target;
    if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return;
    var to = null;
    if (ev.key === "ArrowLeft") to = current - 1;
    else if (ev.key === "ArrowRight") to = current + 1;
    else if (ev.key === "Home") to = 0;
    else if (ev.key === "End") to = last;
    if (to === null) return;
    ev.preventDefault();
    go(to);
  });

  // The server picked the opening step (?step=N, else an illegal game's failing decision).
  var start = Number(root.getAttribute("data-step"));
  go(isFinite(start) ? start : 0);
})();
