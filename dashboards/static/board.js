// The board of one moment of a game — one frame of engine.timeline (snapshot()): every player's
// essence, hand and piles, every battlefield's sides and zones. Drawn the same way by the replay
// viewer (replay.js) and the recorder (record.js), which load this file first.
//
// Every text that comes from a log (names, decks, cards) is put into the page with textContent —
// never innerHTML — so it can never be markup. A card nobody at the recording seat saw is named "?"
// in a frame (a hand, the draft, a pile): it is drawn as an "unseen" card, never as the text "?".
//
// EmpyreanBoard.draw(container, frame, options) draws the frame into the container. options:
//   players       [{seat, name, deck}] in seat order (names are optional)
//   battlefields  [{label, name, zones, text}] (the battlefields' rules text, optional)
//   card(node, name)                 called for each named card drawn (hand, zone): a page may
//                                    make it show the card's cost, might and text
//   zone(li, zone, side, bf)         called for each zone drawn (side: its seat's side, bf: the
//                                    battlefield's frame entry, with its 1-based number as bf.number)
//   battlefield(box, bf)             called for each battlefield drawn
window.EmpyreanBoard = (function () {
  "use strict";

  // The name engine.timeline gives a card nobody at the recording seat saw.
  var UNSEEN = "?";
  var UNSEEN_TITLE = "a card nobody at the recording seat saw";

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
  function unseenMark(tag, cls, count) {
    var text = count > 1 ? count + " unseen" : "unseen";
    var node = el(tag, cls + " unseen", text);
    node.title = count > 1 ? count + " cards nobody at the recording seat saw" : UNSEEN_TITLE;
    return node;
  }
  // A pile's cards in order, names as text and each run of unseen ones as one "N unseen" mark.
  function pileList(names, options) {
    var p = el("p", "pile-cards");
    var k = 0;
    while (k < names.length) {
      if (k > 0) add(p, document.createTextNode(", "));
      if (names[k] === UNSEEN) {
        var run = 0;
        while (k < names.length && names[k] === UNSEEN) { run++; k++; }
        add(p, unseenMark("span", "unseen-cards", run));
      } else {
        var name = add(p, el("span", "pile-card", names[k]));
        if (options.card) options.card(name, names[k]);
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
  function seatName(options, seat) {
    var p = (options.players || [])[seat - 1];
    return p && p.name ? p.name : "";
  }

  function drawPlayer(p, options) {
    var box = el("section", "player seat-" + p.seat);
    var head = add(box, el("h3"));
    add(head, el("span", "seat seat-" + p.seat, "P" + p.seat));
    if (seatName(options, p.seat)) add(head, el("span", "player-name", seatName(options, p.seat)));
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
      if (name !== UNSEEN && options.card) options.card(li, name);
      if (i >= 0) {
        drafting.splice(i, 1);
        li.title = name === UNSEEN ? UNSEEN_TITLE + ", drawn in the draft: keep one of the two"
                                   : (li.title ? li.title + " — " : "") + "drawn in the draft: keep one of the two";
      }
    });
    if (!p.hand.length) add(hand, el("li", "empty", "no cards in hand"));
    [["Discard", p.discard], ["Destroyed", p.destroyed], ["Banished", p.banished]].forEach(function (pile) {
      if (!pile[1].length) return;
      var det = add(box, el("details", "pile"));
      var unseen = pile[1].filter(function (name) { return name === UNSEEN; }).length;
      add(det, el("summary", "", pile[0] + " (" + pile[1].length + (unseen ? ", " + unseen + " unseen" : "") + ")"));
      add(det, pileList(pile[1], options));
    });
    return box;
  }

  function drawZone(z, side, bf, options) {
    var li = el("li", "zone" + (z.face_up ? "" : " face-down"));
    add(li, el("span", "zone-no", "Z" + z.zone));
    var name = add(li, el("span", "card-name", z.card));
    if (options.card && z.card !== UNSEEN) options.card(name, z.card);
    add(li, el("span", "might", z.might));
    if (!z.face_up) add(li, el("span", "hidden", "face down"));
    tokenText(z.tokens).forEach(function (t) { add(li, el("span", "token", t)); });
    if (z.under.length) add(li, el("span", "under", "over " + z.under.join(", ")));
    if (options.zone) options.zone(li, z, side, bf);
    return li;
  }

  function drawBattlefield(bf, b, options) {
    var box = el("section", "battlefield");
    box.setAttribute("data-bf", bf.label);
    var head = add(box, el("h3"));
    add(head, el("span", "bf-label", bf.label));
    add(head, document.createTextNode(" " + bf.name));
    var info = (options.battlefields || [])[b];
    if (info && info.text && info.text.length) {
      var det = add(box, el("details", "bf-text"));
      add(det, el("summary", "", info.zones + " zones · effect"));
      info.text.forEach(function (line) { add(det, el("p", "", line)); });
    }
    var col = bf.sides.map(function (s) { return s.might; });
    var top = Math.max.apply(null, col);
    var leaders = col.filter(function (m) { return m === top; }).length;
    var entry = Object.assign({number: b + 1}, bf);
    bf.sides.forEach(function (side) {
      var lead = side.might === top && leaders === 1 && top > 0;
      var s = add(box, el("div", "side seat-" + side.seat + (lead ? " leading" : "")));
      var sh = add(s, el("div", "side-head"));
      add(sh, el("span", "seat seat-" + side.seat, "P" + side.seat));
      add(sh, el("span", "side-might", "might " + side.might));
      if (side.stops) add(sh, el("span", "token stop", "stop" + (side.stops > 1 ? "×" + side.stops : "")));
      var zones = add(s, el("ol", "zones"));
      side.zones.forEach(function (z) { add(zones, drawZone(z, side, entry, options)); });
      if (!side.zones.length) add(zones, el("li", "empty", "no cards"));
    });
    if (options.battlefield) options.battlefield(box, entry);
    return box;
  }

  function draw(container, frame, options) {
    options = options || {};
    container.textContent = "";
    var players = add(container, el("div", "players"));
    frame.players.forEach(function (p) { add(players, drawPlayer(p, options)); });
    var bfs = add(container, el("div", "battlefields"));
    frame.battlefields.forEach(function (bf, b) { add(bfs, drawBattlefield(bf, b, options)); });
  }

  // What the hex fields share (titans_board.js, elysian_board.js): an SVG node, the centre of a
  // pointy-topped hex from its axial q, r (corner radius ``size``), and its corners' points.
  var SVG_NS = "http://www.w3.org/2000/svg";
  function svg(parent, tag, attrs, text) {
    var node = document.createElementNS(SVG_NS, tag);
    Object.keys(attrs || {}).forEach(function (k) { node.setAttribute(k, String(attrs[k])); });
    if (text !== undefined) node.textContent = String(text);
    if (parent) parent.appendChild(node);
    return node;
  }
  function hexCentre(q, r, size) { return [size * Math.sqrt(3) * (q + r / 2), size * 1.5 * r]; }
  function hexCorners(cx, cy, s) {
    var out = [];
    for (var i = 0; i < 6; i++) {
      var a = Math.PI / 180 * (60 * i - 30);
      out.push((cx + s * Math.cos(a)).toFixed(1) + "," + (cy + s * Math.sin(a)).toFixed(1));
    }
    return out.join(" ");
  }

  // The line under a hex field where the words of what is pointed at, tapped or focused show
  // (titans_board.js, elysian_board.js, steam_board.js): {line: a <p> of class ``cls`` saying ``prompt``
  // until then, show(text): says ``text`` in it}; tells(node, show, text) makes ``node`` say ``text``
  // there on focus, a tap or the pointer.
  function wordsLine(cls, prompt) {
    var line = el("p", cls, prompt);
    line.setAttribute("aria-live", "polite");
    return {line: line, show: function (text) { line.textContent = text; }};
  }
  function tells(node, show, text) {
    ["focus", "click", "mouseenter"].forEach(function (ev) { node.addEventListener(ev, function () { show(text); }); });
  }

  // A part of a board the recorder folds at first on a phone (so that the answers below stay in
  // reach): a <details> of ``summary`` holding ``content``, open or shut as the person left it,
  // remembered under ``name`` across frames.
  var folded = {};
  function foldable(container, name, summary, content) {
    var box = add(container, el("details", "fold-box"));
    box.open = folded[name] !== undefined ? folded[name] : !window.matchMedia("(max-width: 700px)").matches;
    box.addEventListener("toggle", function () { folded[name] = box.open; });
    add(box, el("summary", "", summary));
    add(box, content);
    return box;
  }

  var board = {UNSEEN: UNSEEN, el: el, add: add, draw: draw, tokenText: tokenText, svg: svg, hexCentre: hexCentre,
               hexCorners: hexCorners, foldable: foldable, wordsLine: wordsLine, tells: tells};
  (window.EmpyreanBoards = window.EmpyreanBoards || {}).bfe = board;  // each game's board, by its key
  return board;
})();
