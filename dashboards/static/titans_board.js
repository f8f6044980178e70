// Titans of Empyrean's board: one frame of engine/titans/views.py (frame) on the hex field of its
// layout (axial q, r and each hex's name). Drawn the same way by the replay viewer (replay.js) and
// the recorder's lines mode (record_lines.js), which load board.js (el, add) before this file.
//
// The field is an SVG of pointy-topped hexes: each titan on the field a token in its player's colour
// with a pointer to its facing and its damage; the face-down hazard tokens; and, given the legal
// lines of a pending attack, its arc (the hexes of the titans it could attack). Beside it, each
// squad: every titan's place (or "off the field"), damage and endurance, active maneuver (face up),
// its stack top first (count of size), and the squad's reserve and burned pile. A card of a stack or
// a reserve is drawn face up, by its name, where the frame names it (known: the cards the log's seat
// knows, engine/titans/known.py), else face down; a face-up card's kind and text are its title
// (hover) and, on focus or a tap, the card line under the squads. The round and phase are the page's
// to say (the viewer's step line, the recorder's counts), once.
//
// Every text from a log is put into the page with textContent (or an SVG text node), never markup.
//
// TitansBoard.draw(container, frame, options). options:
//   battlefields  the layout [{hex, q, r}] (the timeline's and the positions API's name for it)
//   players       [{seat, name, species}] in seat order (names optional)
//   cards         {maneuver key: {name, kind, text}}: what a face-up card shows (the viewer's, for the
//                 cards its frames name)
//   catalog       else the catalog version as GET /api/v1/catalog/{version} gives it (the recorder's)
//   legal         the legal next lines (the recorder): their attacks' arc is highlighted
//   fold          a name: the squads in a <details> of that name, folded at first on a phone (the recorder)
window.TitansBoard = (function () {
  "use strict";

  var B = EmpyreanBoard, el = B.el, add = B.add, svg = B.svg, corners = B.hexCorners;
  var SIZE = 30;  // a hex's corner radius in the SVG's units
  var STEPS = {NE: [1, -1], NW: [0, -1], W: [-1, 0], SW: [-1, 1], SE: [0, 1], E: [1, 0]};  // engine/titans/board.py
  var ATTACK = /^P([12]) (\S+) attack P([12]) (\S+)$/;

  function pixel(q, r) { return B.hexCentre(q, r, SIZE); }
  function titanId(t) { return "P" + t.player + " " + t.titan; }
  function words(key) { return key ? String(key).replace(/-/g, " ") : ""; }

  // The hexes a pending attack could reach: each legal attack line's target titan's hex, by attacker.
  function arcOf(legal, frame) {
    var byId = {};
    frame.titans.forEach(function (t) { byId[titanId(t)] = t; });
    var arc = {targets: {}, attackers: {}};
    (legal || []).forEach(function (line) {
      var m = ATTACK.exec(line);
      if (!m) return;
      var from = byId["P" + m[1] + " " + m[2]], to = byId["P" + m[3] + " " + m[4]];
      if (from && from.hex) arc.attackers[from.hex] = true;
      if (to && to.hex) arc.targets[to.hex] = true;
    });
    return arc;
  }

  function tokenTitle(t) {
    return titanId(t) + " " + t.name + " at " + t.hex + " facing " + t.facing + ": " + t.damage + " damage of " +
      t.endurance + " endurance, " + t.stack + "/" + t.stack_size + " in its stack" +
      (t.active ? ", active " + words(t.active) : "");
  }

  function drawField(container, frame, layout, arc) {
    var at = {};
    layout.forEach(function (h) { at[h.hex] = pixel(h.q, h.r); });
    var xs = layout.map(function (h) { return at[h.hex][0]; }), ys = layout.map(function (h) { return at[h.hex][1]; });
    var pad = SIZE + 2;
    var x0 = Math.min.apply(null, xs) - pad, y0 = Math.min.apply(null, ys) - pad;
    var w = Math.max.apply(null, xs) + pad - x0, h = Math.max.apply(null, ys) + pad - y0;
    var root = svg(null, "svg", {viewBox: [x0, y0, w, h].map(function (v) { return v.toFixed(1); }).join(" "),
                                 "class": "field", role: "img"});
    svg(root, "title", {}, "The field: round " + frame.round + ", " + frame.phase + " phase");
    var hazards = {};
    (frame.hazards || []).forEach(function (name) { hazards[name] = true; });
    layout.forEach(function (hx) {
      var p = at[hx.hex];
      var cls = "hex" + (arc.targets[hx.hex] ? " arc" : "") + (arc.attackers[hx.hex] ? " attacker" : "");
      var g = svg(root, "g", {"class": cls, "data-hex": hx.hex});
      svg(g, "polygon", {points: corners(p[0], p[1], SIZE - 1)});
      svg(g, "text", {x: p[0], y: p[1] - SIZE * 0.62, "class": "hex-name"}, hx.hex);
      if (hazards[hx.hex]) {
        var hz = svg(g, "g", {"class": "hazard", "data-hazard": hx.hex});
        svg(hz, "title", {}, "a hazard token, face down");
        // in the middle of its hex (a titan on it is drawn over it)
        svg(hz, "rect", {x: p[0] - 8, y: p[1] - 6, width: 16, height: 16, rx: 2,
                          transform: "rotate(45 " + p[0] + " " + (p[1] + 2) + ")"});
        svg(hz, "text", {x: p[0], y: p[1] + 6}, "?");
      }
    });
    // several titans may share a hex: set round its centre
    var onHex = {};
    frame.titans.forEach(function (t) { if (t.alive && t.hex) (onHex[t.hex] = onHex[t.hex] || []).push(t); });
    Object.keys(onHex).forEach(function (name) {
      var here = onHex[name], c = at[name];
      if (!c) return;
      var r = here.length > 1 ? SIZE * 0.3 : SIZE * 0.42;
      here.forEach(function (t, k) {
        var a = 2 * Math.PI * k / here.length - Math.PI / 2;
        var off = here.length > 1 ? SIZE * 0.42 : 0;
        var x = c[0] + off * Math.cos(a), y = c[1] + off * Math.sin(a);
        var g = svg(root, "g", {"class": "titan seat-" + t.player, "data-titan": titanId(t), "data-hex": t.hex,
                                "data-facing": t.facing, "data-damage": t.damage,
                                transform: "translate(" + x.toFixed(1) + " " + y.toFixed(1) + ")"});
        svg(g, "title", {}, tokenTitle(t));
        var d = STEPS[t.facing] ? pixel(STEPS[t.facing][0], STEPS[t.facing][1]) : [0, 0];
        var len = Math.sqrt(d[0] * d[0] + d[1] * d[1]) || 1, ux = d[0] / len, uy = d[1] / len;
        svg(g, "circle", {r: r.toFixed(1), "class": "token"});
        svg(g, "text", {y: 4, "class": "initials"}, t.name.slice(0, 2));
        if (t.damage) {
          svg(g, "circle", {cx: r * 0.75, cy: r * 0.75, r: 7, "class": "damage"});
          svg(g, "text", {x: r * 0.75, y: r * 0.75 + 3.5, "class": "damage-n"}, t.damage);
        }
        if (t.active) svg(g, "circle", {cx: -r * 0.75, cy: r * 0.75, r: 4, "class": "active-mark"});
        // the pointer to its facing, over the badges: a triangle from the token's rim outwards
        svg(g, "polygon", {"class": "facing", points: [
          [(r + 9) * ux, (r + 9) * uy], [(r - 2) * ux - 6 * uy, (r - 2) * uy + 6 * ux],
          [(r - 2) * ux + 6 * uy, (r - 2) * uy - 6 * ux]
        ].map(function (pt) { return pt[0].toFixed(1) + "," + pt[1].toFixed(1); }).join(" ")});
      });
    });
    add(container, root);
  }

  // A maneuver face up: a button with its name (the catalog's, else its key in words) that shows
  // its kind and text (``show``: in the card line) on focus, a tap or the pointer over it.
  function faceUp(key, cards, show) {
    var c = cards[key] || {};
    var b = el("button", "maneuver", c.name || words(key));
    b.type = "button";
    b.setAttribute("data-card", key);
    b.title = (c.name || words(key)) + (c.kind ? " (" + c.kind + ")" : "") + (c.text ? ": " + c.text : "");
    B.tells(b, show, b.title);
    return b;
  }

  // A stack or a reserve, top first: ``known`` names the cards face up (null: face down), then the count.
  function place(known, n, size, what, cards, show) {
    var span = el("span", "place");
    var down = 0;
    for (var k = 0; k < n; k++) {
      if (known && known[k]) {
        add(span, faceUp(known[k], cards, show));
      } else {
        add(span, el("span", "back"));
        down++;
      }
    }
    span.title = n + (size !== undefined ? " of " + size : "") + " " + what + ", top first" +
      (down === n ? ", face down" : down ? ", " + down + " face down" : ", face up");
    span.setAttribute("data-count", String(n));
    add(span, el("span", "count", size !== undefined ? n + "/" + size : String(n)));
    return span;
  }

  function drawSquad(frame, seat, players, cards, show) {
    var p = (players || [])[seat - 1] || {};
    var box = el("section", "squad seat-" + seat);
    box.setAttribute("data-seat", String(seat));
    var h = add(box, el("h3"));
    add(h, el("span", "seat", "P" + seat));
    if (p.name) add(h, el("span", "name", p.name));
    if (p.species) add(h, el("span", "species", p.species + (p.ally ? " with " + p.ally : "")));
    var piles = add(box, el("p", "piles"));
    add(piles, el("span", "", "Reserve "));
    add(piles, place((frame.reserve_known || [])[seat - 1], frame.reserve[seat - 1], undefined, "reserve cards",
                     cards, show)).classList.add("reserve");
    add(piles, el("span", "", " · burned " + frame.burned[seat - 1]));
    var list = add(box, el("ul", "titans"));
    frame.titans.filter(function (t) { return t.player === seat; }).forEach(function (t) {
      var li = add(list, el("li", t.alive ? (t.hex ? "on-field" : "off-field") : "dead"));
      li.setAttribute("data-titan", titanId(t));
      add(li, el("strong", "", t.name));
      add(li, el("span", "where", !t.alive ? "dead" : t.hex ? t.hex + " " + t.facing : "off the field"));
      if (t.alive) {
        add(li, el("span", "hurt", t.damage + "/" + t.endurance + " damage"));
        var active = add(li, el("span", "active", t.active ? "active: " : "no active maneuver"));
        if (t.active) add(active, faceUp(t.active, cards, show));
        add(li, place(t.known, t.stack, t.stack_size, "cards in its stack", cards, show)).classList.add("stack");
      }
    });
    return box;
  }

  function byKey(items) {
    var out = {};
    (items || []).forEach(function (m) { out[m.key] = m; });
    return out;
  }

  function draw(container, frame, options) {
    options = options || {};
    container.textContent = "";
    container.classList.add("tboard");
    var arc = arcOf(options.legal, frame);
    if (!options.legal && frame.decision) arc = arcOf([frame.decision], frame);  // the viewer: the attack just made
    var wrap = add(container, el("div", "tfield"));
    drawField(wrap, frame, options.battlefields || [], arc);
    var off = frame.titans.filter(function (t) { return t.alive && !t.hex; });
    add(container, el("p", "off-field",
      off.length ? "Off the field: " + off.map(function (t) { return "P" + t.player + " " + t.name; }).join(", ")
                 : "No titan off the field."));
    var squads = el("div", "squads");
    var said = B.wordsLine("card-line", "Point at, tap or tab to a face-up card for its text."), show = said.show;
    var cards = options.cards || byKey((options.catalog || {}).maneuvers);
    [1, 2].forEach(function (seat) { add(squads, drawSquad(frame, seat, options.players, cards, show)); });
    if (squads.querySelector("button.maneuver")) add(squads, said.line);
    if (options.fold) {  // the recorder: folded on a phone, so that the answers below stay in reach
      B.foldable(container, options.fold, "Each titan: damage, active maneuver, stack", squads).classList.add("squads-box");
    } else {
      add(container, squads);
    }
  }

  var board = {draw: draw, arcOf: arcOf};
  (window.EmpyreanBoards = window.EmpyreanBoards || {}).titans = board;
  return board;
})();
