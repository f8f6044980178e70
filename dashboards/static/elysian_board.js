// Elysian Battlefields' board: one frame of engine/elysian/views.py (frame) on the field of its layout
// (each territory's tile, terrain and axial q, r). Drawn the same way by the replay viewer (replay.js)
// and the recorder's lines mode (record_lines.js), which load board.js (el, add) before this file.
//
// The field is an SVG of pointy-topped hexes, one a territory, filled by its terrain (the legend
// says which), named, with a chip per player whose units stand there (their counts by kind, in the
// player's colour), its settlement with its holder (a vacant one drawn hollow and said so), walls
// and a temple. Only the territories the frame lists are drawn: during set-up the field grows tile
// by tile. The attack being resolved is highlighted (its target and the territories it comes from)
// and said in words with the last set of dice rolled drawn as faces; given the recorder's legal
// lines, the territories its attacks could target are marked. Each hex is a tab stop whose words
// (its title) show in the line under the field on focus, a tap or the pointer, and every territory
// is also listed in words. Beside the field, each player's panel: hero, conquest, territories,
// kingdom points, cards in hand (counted: a hand is never named), upgrades and items, out.
//
// Every text from a log is put into the page with textContent (or an SVG text node), never markup.
//
// ElysianBoard.draw(container, frame, options). options:
//   battlefields  the layout [{territory, tile, terrain, q, r}] (the timeline's and positions API's name)
//   players       [{seat, name}] in seat order (names optional)
//   cards         {tiles: {key: name}, heroes: {key: {name, ability, text}}, cards: {key: {name, kind, text}}}
//                 (the viewer's, for what its frames name)
//   catalog       else the catalog as GET /api/v1/catalog/{version}?game=elysian gives it (the recorder's)
//   legal         the legal next lines (the recorder): the territories its attacks could target are marked
//   fold          a name: the panels in a <details> of that name, folded at first on a phone (the recorder)
window.ElysianBoard = (function () {
  "use strict";

  var B = EmpyreanBoard, el = B.el, add = B.add, svg = B.svg, corners = B.hexCorners;
  var SIZE = 34;  // a hex's corner radius in the SVG's units
  var KINDS = [["infantry", "I"], ["archer", "A"], ["cavalry", "C"], ["hero", "H"]];
  var SETTLEMENTS = {outpost: "O", fortress: "F", palace: "P"};
  var TERRAINS = ["plains", "forest", "mountain", "water"];
  var BLOCKS = {1: true, 2: true};  // faces that score no hit (engine/elysian/pieces.py, BLOCK_FACES)
  var PIPS = {1: [[0, 0]], 2: [[-1, -1], [1, 1]], 3: [[-1, -1], [0, 0], [1, 1]],
              4: [[-1, -1], [1, -1], [-1, 1], [1, 1]], 5: [[-1, -1], [1, -1], [0, 0], [-1, 1], [1, 1]],
              6: [[-1, -1], [1, -1], [-1, 0], [1, 0], [-1, 1], [1, 1]]};
  var ATTACK = /^P([0-9]) attacks (\S+) from (.+)$/;

  function pixel(q, r) { return B.hexCentre(q, r, SIZE); }
  function plural(n, one, many) { return n + " " + (n === 1 ? one : many || one + "s"); }
  function words(key) { return key ? String(key).replace(/-/g, " ") : ""; }

  // The catalog's names, from the viewer's facts or the recorder's catalog: {tiles, heroes, cards}.
  function factsOf(options) {
    if (options.cards) return options.cards;
    var cat = options.catalog || {}, out = {tiles: {}, heroes: {}, cards: {}};
    (cat.tiles || []).forEach(function (t) { out.tiles[t.key] = t.name; });
    (cat.heroes || []).forEach(function (h) { out.heroes[h.key] = {name: h.name, ability: h.ability, text: h.text}; });
    (cat.cards || []).forEach(function (c) { out.cards[c.key] = {name: c.name, kind: c.kind, text: c.text}; });
    return out;
  }

  function seatLabel(seat, options) {
    var p = (options.players || [])[seat - 1] || {};
    return "P" + seat + (p.name ? " " + p.name : "");
  }

  function unitWords(kinds) {
    return KINDS.filter(function (k) { return kinds[k[0]]; }).map(function (k) {
      return k[0] === "hero" ? "the hero" : plural(kinds[k[0]], k[0], k[0] === "archer" ? "archers" : k[0]);
    }).join(", ");
  }
  function unitShort(kinds) {
    return KINDS.filter(function (k) { return kinds[k[0]]; }).map(function (k) {
      return k[0] === "hero" ? "H" : kinds[k[0]] + k[1];
    }).join(" ");
  }

  // A territory in words: what its hex's title and the list under the field say.
  function territoryWords(t, hex, facts, options) {
    var tile = facts.tiles[hex.tile];
    var out = [t.territory + (tile ? " (" + tile + ")" : "") + ", " + hex.terrain];
    out.push(t.holder ? "held by " + seatLabel(t.holder, options) : "held by nobody");
    Object.keys(t.units).sort().forEach(function (p) {
      out.push(seatLabel(Number(p.slice(1)), options) + ": " + unitWords(t.units[p]));
    });
    if (t.settlement) {
      out.push(t.settlement_holder ? "a " + t.settlement + " of " + seatLabel(t.settlement_holder, options)
                                   : "a vacant " + t.settlement);
    }
    if (t.walls) out.push("walls");
    if (t.temple) out.push("a temple");
    return out.join("; ");
  }

  // Where the attack being resolved is (target, sources), and where the recorder's legal attacks aim.
  function marksOf(frame, legal) {
    var marks = {target: {}, source: {}, arc: {}};
    if (frame.attack) {
      marks.target[frame.attack.target] = true;
      frame.attack.from.forEach(function (t) { marks.source[t] = true; });
    }
    (legal || []).forEach(function (line) {
      var m = ATTACK.exec(line);
      if (m) marks.arc[m[2]] = true;
    });
    return marks;
  }

  function drawField(container, frame, layout, facts, options, show) {
    var byName = {};
    layout.forEach(function (h) { byName[h.territory] = h; });
    var laid = frame.territories.filter(function (t) { return byName[t.territory]; });
    if (!laid.length) {
      add(container, el("p", "no-field", "No land tile is laid yet."));
      return;
    }
    var at = {};
    laid.forEach(function (t) { var h = byName[t.territory]; at[t.territory] = pixel(h.q, h.r); });
    var xs = laid.map(function (t) { return at[t.territory][0]; }), ys = laid.map(function (t) { return at[t.territory][1]; });
    var pad = SIZE + 2;
    var x0 = Math.min.apply(null, xs) - pad, y0 = Math.min.apply(null, ys) - pad;
    var w = Math.max.apply(null, xs) + pad - x0, h = Math.max.apply(null, ys) + pad - y0;
    var root = svg(null, "svg", {viewBox: [x0, y0, w, h].map(function (v) { return v.toFixed(1); }).join(" "),
                                 "class": "field", role: "group",
                                 "aria-label": "The field: " + laid.length + " territories; each is a tab stop"});
    var marks = marksOf(frame, options.legal);
    laid.forEach(function (t) {
      var hx = byName[t.territory], p = at[t.territory];
      var cls = "hex terrain-" + hx.terrain + (t.holder ? " held seat-" + t.holder : "") +
        (marks.target[t.territory] ? " target" : "") + (marks.source[t.territory] ? " source" : "") +
        (marks.arc[t.territory] ? " arc" : "");
      var text = territoryWords(t, hx, facts, options);
      var g = svg(root, "g", {"class": cls, "data-territory": t.territory, "data-tile": hx.tile, tabindex: 0,
                              role: "img", "aria-label": text});
      svg(g, "title", {}, text);
      svg(g, "polygon", {"class": "ground", points: corners(p[0], p[1], SIZE - 1)});
      if (t.walls) svg(g, "polygon", {"class": "walls", points: corners(p[0], p[1], SIZE - 5)});
      svg(g, "text", {x: p[0], y: p[1] - SIZE * 0.5, "class": "name"}, t.territory);
      var owners = Object.keys(t.units).sort();
      owners.forEach(function (owner, k) {
        var y = p[1] - 4 + (k - (owners.length - 1) / 2) * 13;
        var seat = owner.slice(1), label = unitShort(t.units[owner]);
        var chip = svg(g, "g", {"class": "units seat-" + seat, "data-owner": owner, "data-units": label});
        var wide = Math.max(16, label.length * 5.6 + 6);
        svg(chip, "rect", {x: p[0] - wide / 2, y: y - 6, width: wide, height: 12, rx: 3});
        svg(chip, "text", {x: p[0], y: y + 3.5}, label);
      });
      if (t.settlement) {
        var s = svg(g, "g", {"class": "settlement " + (t.settlement_holder ? "seat-" + t.settlement_holder : "vacant"),
                             "data-settlement": t.settlement, "data-holder": t.settlement_holder || "vacant"});
        svg(s, "rect", {x: p[0] - 15, y: p[1] + SIZE * 0.3, width: 12, height: 11, rx: 1.5});
        svg(s, "text", {x: p[0] - 9, y: p[1] + SIZE * 0.3 + 8.5}, SETTLEMENTS[t.settlement] || "?");
      }
      if (t.temple) {
        var tm = svg(g, "g", {"class": "temple"});
        svg(tm, "polygon", {points: [[p[0] + 3, p[1] + SIZE * 0.3 + 11], [p[0] + 9, p[1] + SIZE * 0.3],
                                     [p[0] + 15, p[1] + SIZE * 0.3 + 11]].map(function (c) { return c.join(","); }).join(" ")});
      }
      B.tells(g, show, text);
    });
    add(container, root);
  }

  function legend() {
    var box = el("details", "legend");
    add(box, el("summary", "", "Key"));
    var list = add(box, el("ul"));
    TERRAINS.forEach(function (t) {
      var li = add(list, el("li"));
      add(li, el("span", "swatch terrain-" + t));
      add(li, document.createTextNode(" " + t));
    });
    add(list, el("li", "", "I infantry · A archer · C cavalry · H hero, in their player's colour"));
    add(list, el("li", "", "O outpost · F fortress · P palace: filled in its holder's colour, hollow when vacant"));
    add(list, el("li", "", "a dark inner ring: walls · a gold triangle: a temple"));
    add(list, el("li", "", "red edge: the territory attacked · dashed: where the attack comes from" +
                 " · yellow: a territory an attack may target"));
    return box;
  }

  // A die's face: its pips on a square, red when it scores a hit, grey when it blocks.
  function die(face) {
    var s = svg(null, "svg", {viewBox: "-12 -12 24 24", "class": "die " + (BLOCKS[face] ? "block" : "hit"),
                              "data-face": face, role: "img", "aria-label": String(face)});
    svg(s, "rect", {x: -11, y: -11, width: 22, height: 22, rx: 4});
    (PIPS[face] || []).forEach(function (c) { svg(s, "circle", {cx: c[0] * 6, cy: c[1] * 6, r: 2.4}); });
    return s;
  }

  var ENDED = {repelled: "repelled (three blocks)", ravaged: "ravaged (three sixes)", defeated: "the defence destroyed",
               spent: "its dice spent"};

  function drawAttack(container, frame, options) {
    var att = frame.attack, dice = frame.dice;
    if (!att && !dice) return;
    var box = add(container, el("section", "attack-box" + (att ? " resolving" : "")));
    box.setAttribute("aria-label", att ? "The attack being resolved" : "The last dice rolled");
    if (att) {
      add(box, el("h3", "", "Attack: " + seatLabel(att.attacker, options) + " on " + att.target + " (" +
                  seatLabel(att.defender, options) + ") from " + att.from.join(", ")));
      add(box, el("p", "numbers", (att.dice_left === null ? "dice not yet counted" : plural(att.dice_left, "die", "dice") + " left") +
                  " · " + plural(att.hits, "hit") + " waiting · " + plural(att.sets, "set") + " rolled" +
                  (att.ended ? " · " + (ENDED[att.ended] || att.ended) : "")));
    }
    if (dice) {
      var line = add(box, el("p", "dice"));
      line.setAttribute("data-faces", dice.faces.join(" "));
      var hits = dice.faces.filter(function (f) { return !BLOCKS[f]; }).length;
      var own = att && att.sets > 0;  // else the last attack's, until this one rolls
      add(line, el("span", "label", own ? "Set " + dice.set + ": " : "Last dice, " + seatLabel(dice.attacker, options) +
                                          " on " + dice.target + ", set " + dice.set + ": "));
      var faces = add(line, el("span", "faces"));
      faces.setAttribute("role", "img");
      faces.setAttribute("aria-label", "dice showing " + dice.faces.join(", "));
      dice.faces.forEach(function (f) { faces.appendChild(die(f)); });
      add(line, el("span", "sum", plural(hits, "hit") + (!own && dice.ended ? " · " + (ENDED[dice.ended] || dice.ended) : "")));
    }
  }

  function cardChip(key, facts, show) {
    var c = facts.cards[key] || {};
    var b = el("button", "card", c.name || words(key));
    b.type = "button";
    b.setAttribute("data-card", key);
    b.title = (c.name || words(key)) + (c.kind ? " (" + c.kind + ")" : "") + (c.text ? ": " + c.text : "");
    B.tells(b, show, b.title);
    return b;
  }

  function drawPanel(p, frame, facts, options, show) {
    var box = el("section", "panel seat-" + p.seat + (p.out ? " out" : "") + (frame.current === p.seat ? " current" : ""));
    box.setAttribute("data-seat", String(p.seat));
    var h = add(box, el("h3"));
    add(h, el("span", "seat", "P" + p.seat));
    var name = ((options.players || [])[p.seat - 1] || {}).name;
    if (name) add(h, el("span", "name", name));
    var hero = facts.heroes[p.hero] || {};
    add(h, el("span", "hero", p.hero ? hero.name || words(p.hero) : "no hero yet")).title =
      hero.ability ? hero.ability + ": " + hero.text : "";
    if (frame.current === p.seat) add(h, el("span", "turn", "their turn"));
    if (p.out) add(h, el("span", "gone", "out"));
    var dl = add(box, el("dl", "counts"));
    [["Conquest", p.conquest, "conquest"], ["Territories", p.territories, "territories"],
     ["Kingdom", p.kingdom, "kingdom"], ["Cards in hand", p.hand, "hand"]].forEach(function (row) {
      var div = add(dl, el("div"));
      div.setAttribute("data-count", row[2]);
      add(div, el("dt", "", row[0]));
      add(div, el("dd", "", row[1]));
    });
    var owned = (p.upgrades || []).concat(p.items || []);
    if (owned.length) {
      var row = add(box, el("p", "owned"));
      add(row, el("span", "", "In play: "));
      owned.forEach(function (k) { add(row, cardChip(k, facts, show)); });
    }
    return box;
  }

  function drawList(container, frame, layout, facts, options) {
    var byName = {};
    layout.forEach(function (h) { byName[h.territory] = h; });
    var box = add(container, el("details", "territory-list"));
    add(box, el("summary", "", "Every territory in words"));
    var ul = add(box, el("ul"));
    frame.territories.forEach(function (t) {
      if (byName[t.territory]) add(ul, el("li", "", territoryWords(t, byName[t.territory], facts, options)));
    });
  }

  function draw(container, frame, options) {
    options = options || {};
    container.textContent = "";
    container.classList.add("yboard");
    var facts = factsOf(options), layout = options.battlefields || [];
    var said = B.wordsLine("hex-line", "Point at, tap or tab to a territory or a card for its words."), show = said.show;
    drawAttack(container, frame, options);
    var wrap = add(container, el("div", "yfield"));
    drawField(wrap, frame, layout, facts, options, show);
    add(container, said.line);
    var panels = el("div", "panels");
    frame.players.forEach(function (p) { add(panels, drawPanel(p, frame, facts, options, show)); });
    if (options.fold) {  // the recorder: folded on a phone, so that the answers below stay in reach
      B.foldable(container, options.fold, "Each player: hero, conquest, territories, kingdom, cards", panels)
        .classList.add("panels-box");
    } else {
      add(container, panels);
    }
    drawList(container, frame, layout, facts, options);
    add(container, legend());
  }

  var board = {draw: draw, marksOf: marksOf};
  (window.EmpyreanBoards = window.EmpyreanBoards || {}).elysian = board;
  return board;
})();
