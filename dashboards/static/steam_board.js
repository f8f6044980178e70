// Spells & Steam's board: one frame of engine/steam/views.py (frame) on the map of its layout (every
// hex's name, col and row in odd-r offset coordinates — odd rows half a hex to the right —, its
// printed terrain and its city's colour). Drawn the same way by the replay viewer (replay.js) and the
// recorder's lines mode (record_lines.js), which load board.js first.
//
// The map as an SVG of pointy-topped hexes coloured by terrain, each named as the log names it; a
// city ringed in the colour it wants, its stand's demand tiles as small badges (the goods each
// needs); goods as coloured dots (a count beside a colour held twice or more); train cars as small
// carriages in their company's colour (the folio's `colour`); a wasteland placed as a dark hex with
// a dashed edge. Wide maps scroll inside their box, so hex names stay readable on a phone.
// Beside or below it, each company's folio: mana (available and spent), the conductor on its path
// (Start, the columns, the End of the Line), the railyard's grid (printed spellcars marked; those
// activated this turn too), specialists (exhausted ones dimmed), demand tiles, goods, trains left
// and score; then the market and the awards.
//
// In the recorder, at a build (the frame's `builds`: hex -> {via, cost}, the cheapest transfers and
// their mana), each hex the build may go on is highlighted with its cost in mana (0: no transfer),
// and a tap (or Enter) on it writes the matching legal line ("P1 builds f4 via e4") through
// options.pick. The viewer marks the hex a build just went on, and the hexes it transferred over.
//
// Every text from a log or a catalog is put into the page with textContent (or an SVG text node).
//
// SteamBoard.draw(container, frame, options). options:
//   battlefields  the layout [{hex, col, row, terrain, city, edge}] (the timeline's and positions API's name)
//   players       [{seat, name}] in seat order (names optional)
//   cards         {spellcars: {key: {name, cost, text}}, specialists: {key: {name, kind, text}},
//                  awards: {key: {name, text}}} (the viewer's, for what its frames name)
//   catalog       else the catalog as GET /api/v1/catalog/{version}?game=steam gives it (the recorder's)
//   legal         the legal next lines (the recorder): a build's hexes are highlighted from them
//   pick(line)    writes a legal line (the recorder): called when a highlighted hex is tapped
//   fold          a name: the folios in a <details> of that name, folded at first on a phone (the recorder)
window.SteamBoard = (function () {
  "use strict";

  var B = EmpyreanBoard, el = B.el, add = B.add, svg = B.svg, corners = B.hexCorners;
  var SIZE = 30;  // a hex's corner radius in the SVG's units
  var ROOT3 = Math.sqrt(3);
  var TERRAINS = [["desert", "hylatine"], ["forest", "heartwood"], ["glacier", "ritherwhyte"], ["lake", "ehrlite"],
                  ["lava", "crizma"], ["mountain", "silver"]];  // engine/steam/pieces.py, GOODS
  var SLOTS = ["captain", "engineer", "surveyor", "station"];
  var BUILD = /^P([0-9]) builds ([a-z][0-9]+)(?: via (.+))?$/;
  var COLOUR = /^#[0-9a-fA-F]{3}([0-9a-fA-F]{3})?$/;
  var PRINTED = /^[^:]+: /;  // a company's own spellcar is named after it

  function pixel(col, row) { return [SIZE * ROOT3 * (col + (row % 2 ? 0.5 : 0)), SIZE * 1.5 * row]; }
  function plural(n, one, many) { return n + " " + (n === 1 ? one : many || one + "s"); }
  function words(key) { return key ? String(key).replace(/-/g, " ") : ""; }

  // The catalog's names and texts, from the viewer's facts or the recorder's catalog.
  function factsOf(options) {
    if (options.cards) return options.cards;
    var cat = options.catalog || {}, out = {spellcars: {}, specialists: {}, awards: {}};
    (cat.spellcars || []).forEach(function (c) { out.spellcars[c.key] = {name: c.name, cost: c.cost, text: c.text}; });
    ["captains", "engineers", "surveyors", "station_masters"].forEach(function (list) {
      (cat[list] || []).forEach(function (s) { out.specialists[s.key] = {name: s.name, kind: s.kind, text: s.text}; });
    });
    (cat.awards || []).forEach(function (a) { out.awards[a.key] = {name: a.name, text: a.text}; });
    return out;
  }

  function seatLabel(seat, options) {
    var p = (options.players || [])[seat - 1] || {};
    return "P" + seat + (p.name ? " " + p.name : "");
  }

  // A company's colour (the folio's, from the catalog), else none: its seat's colour from the stylesheet.
  function colourOf(folio) { return folio && COLOUR.test(folio.colour || "") ? folio.colour : null; }
  function paint(node, colour) { if (colour) node.style.setProperty("--company", colour); }

  function goodsWords(goods) {
    return Object.keys(goods || {}).map(function (c) { return goods[c] + " " + c; }).join(", ");
  }
  function tileWords(t) { return t[0] + " for " + t[1]; }

  // The recorder's build: each hex with the legal line that builds there and its cost in mana.
  function buildsOf(frame, legal) {
    var out = {};
    if (!frame.builds || !legal) return out;
    legal.forEach(function (line) {
      var m = BUILD.exec(line), b = m && frame.builds[m[2]];
      if (b && (m[3] || "") === b.via.join(" ")) out[m[2]] = {line: line, cost: b.cost, via: b.via};
    });
    return out;
  }

  // The viewer: the hex the decision just made built on, and the hexes it transferred over.
  function builtOf(frame) {
    var m = BUILD.exec(frame.decision || "");
    return m ? {hex: m[2], via: m[3] ? m[3].split(" ") : []} : {hex: null, via: []};
  }

  function hexWords(h, frame, folios, build, options) {
    var name = h.hex, waste = frame.wastelands.indexOf(name) >= 0;
    var out = [name + ", " + (h.city ? "a city wanting " + h.city : waste ? "a wasteland (placed on " + h.terrain + ")"
                                                                          : h.terrain)];
    var tiles = frame.stands[name];
    if (h.city) out.push(tiles && tiles.length ? "demand tiles " + tiles.map(tileWords).join(", ") : "no demand tiles left");
    if (frame.goods[name]) out.push(goodsWords(frame.goods[name]));
    (frame.cars[name] || []).forEach(function (seat) {
      var f = folios[seat - 1];
      out.push("a car of " + seatLabel(seat, options) + (f && f.name ? " (" + f.name + ")" : ""));
    });
    if (build) {
      out.push("build here for " + plural(build.cost, "mana", "mana") +
               (build.via.length ? " (transfers over " + build.via.join(", ") + ")" : ""));
    }
    return out.join("; ");
  }

  function drawGoods(g, goods, x, y) {
    var colours = TERRAINS.map(function (t) { return t[1]; }).filter(function (c) { return goods[c]; });
    colours.forEach(function (c, k) {
      var cx = x + (k - (colours.length - 1) / 2) * 11;
      var dot = svg(g, "g", {"class": "good good-" + c, "data-good": c, "data-count": goods[c]});
      svg(dot, "circle", {cx: cx, cy: y, r: 4.2});
      if (goods[c] > 1) svg(dot, "text", {x: cx + 5.5, y: y + 3, "class": "good-n"}, goods[c]);
    });
  }

  function drawCars(g, seats, folios, x, y) {
    seats.forEach(function (seat, k) {
      var cx = x + (k - (seats.length - 1) / 2) * 13;
      var car = svg(g, "g", {"class": "car seat-" + seat, "data-seat": seat});
      paint(car, colourOf(folios[seat - 1]));
      svg(car, "rect", {x: cx - 5.5, y: y - 4, width: 11, height: 7, rx: 1.5});
      svg(car, "circle", {cx: cx - 3, cy: y + 3.6, r: 1.6, "class": "wheel"});
      svg(car, "circle", {cx: cx + 3, cy: y + 3.6, r: 1.6, "class": "wheel"});
    });
  }

  function drawStand(g, tiles, x, y) {
    tiles.forEach(function (t, k) {
      var tx = x + (k - (tiles.length - 1) / 2) * 10;
      var tile = svg(g, "g", {"class": "demand good-" + t[0], "data-demand": t[0] + "-" + t[1]});
      svg(tile, "rect", {x: tx - 4.5, y: y - 5.5, width: 9, height: 11, rx: 1.5});
      svg(tile, "text", {x: tx, y: y + 3}, t[1]);
    });
  }

  function drawMap(container, frame, layout, options, show) {
    if (!layout.length) {
      add(container, el("p", "no-field", "The map is not laid yet."));
      return;
    }
    var folios = frame.companies || [], builds = buildsOf(frame, options.legal), built = builtOf(frame);
    var at = layout.map(function (h) { return pixel(h.col, h.row); });
    var xs = at.map(function (p) { return p[0]; }), ys = at.map(function (p) { return p[1]; });
    var pad = SIZE + 2;
    var x0 = Math.min.apply(null, xs) - pad, y0 = Math.min.apply(null, ys) - pad;
    var w = Math.max.apply(null, xs) + pad - x0, h = Math.max.apply(null, ys) + pad - y0;
    var picking = !!options.pick && Object.keys(builds).length > 0;
    var root = svg(null, "svg", {viewBox: [x0, y0, w, h].map(function (v) { return v.toFixed(1); }).join(" "),
                                 "class": "map" + (picking ? " picking" : ""), role: "group",
                                 "aria-label": "The map: " + layout.length + " hexes" +
                                   (picking ? "; tap a highlighted hex to build there" : "")});
    root.style.minWidth = Math.round(w * 0.9) + "px";  // hex names readable: a narrow screen scrolls the map
    root.style.maxWidth = Math.round(w * 1.5) + "px";
    // the builds' costs in a layer of their own, above every hex (a hex to tap is named by its hex and line)
    var costs = svg(null, "g", {"class": "costs", "aria-hidden": "true"});
    layout.forEach(function (hx, i) {
      var p = at[i], name = hx.hex, waste = frame.wastelands.indexOf(name) >= 0, build = builds[name];
      var terrain = hx.city ? "city" : waste ? "wasteland" : hx.terrain;
      var cls = "hex terrain-" + terrain + (waste ? " placed" : "") + (build ? " buildable" : "") +
        (name === built.hex ? " built" : "") + (built.via.indexOf(name) >= 0 ? " via" : "");
      var text = hexWords(hx, frame, folios, build, options);
      var g = svg(root, "g", {"class": cls, "data-hex": name, role: build && options.pick ? "button" : "img",
                              "aria-label": build && options.pick ? name + ", " + plural(build.cost, "mana", "mana") +
                                ": " + build.line : text});
      if (build || !options.fold) g.setAttribute("tabindex", "0");  // the recorder: only the hexes to tap
      var tap = build && options.pick;
      if (!tap) svg(g, "title", {}, text);  // a hex to tap is named by its line; its words show under the map
      svg(g, "polygon", {"class": "ground", points: corners(p[0], p[1], SIZE - 1)});
      if (hx.city) {
        var ring = svg(g, "polygon", {"class": "city-ring good-" + hx.city, points: corners(p[0], p[1], SIZE - 5)});
        ring.setAttribute("data-city", hx.city);
      }
      svg(g, "text", {x: p[0], y: p[1] - SIZE * 0.52, "class": "name"}, name);
      // what stands on the hex, drawn: its words are the hex's own (its title and name)
      var pieces = svg(g, "g", {"class": "pieces", "aria-hidden": "true"});
      var tiles = frame.stands[name] || [], cars = frame.cars[name] || [];
      if (hx.city) drawStand(pieces, tiles, p[0], p[1] - 1);
      drawCars(pieces, cars, folios, p[0], hx.city ? p[1] + 12 : p[1] - 1);
      if (frame.goods[name]) drawGoods(pieces, frame.goods[name], p[0], p[1] + 13);
      if (build) {
        var badge = svg(costs, "g", {"class": "cost", "data-hex": name, "data-cost": build.cost});
        svg(badge, "circle", {cx: p[0] + SIZE * 0.5, cy: p[1] - SIZE * 0.3, r: 7.5});
        svg(badge, "text", {x: p[0] + SIZE * 0.5, y: p[1] - SIZE * 0.3 + 3.5}, build.cost);
        if (tap) {
          g.setAttribute("data-line", build.line);
          g.addEventListener("click", function () { options.pick(build.line); });
          g.addEventListener("keydown", function (ev) {
            if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); options.pick(build.line); }
          });
        }
      }
      ["focus", "mouseenter"].forEach(function (ev) {
        g.addEventListener(ev, function () { show(text); route(root, build ? build.via : []); });
      });
      if (!tap) g.addEventListener("click", function () { show(text); });
    });
    // the hexes to tap drawn last, so that no neighbour's edge covers their highlight
    root.querySelectorAll("g.hex.buildable").forEach(function (g) { root.appendChild(g); });
    root.appendChild(costs);
    var box = add(container, el("div", "map-box"));
    add(box, root);
    var picks = layout.filter(function (hx) { return builds[hx.hex]; }).map(function (hx) { return pixel(hx.col, hx.row); });
    scrollMap(container, box, picks.length && options.pick ? picks : null, root.getBoundingClientRect().width / w, x0, y0);
  }

  // Where a map that scrolls in its box (a phone) is scrolled, kept from frame to frame (each frame
  // draws a new box); at a build in the recorder, the hexes to tap brought to the middle of the box.
  var scrolled = new WeakMap();
  function scrollMap(container, box, picks, scale, x0, y0) {
    var at = scrolled.get(container) || [0, 0];
    if (picks) {
      var mid = function (k) { return picks.reduce(function (t, p) { return t + p[k]; }, 0) / picks.length; };
      at = [(mid(0) - x0) * scale - box.clientWidth / 2, (mid(1) - y0) * scale - box.clientHeight / 2];
    }
    box.scrollLeft = Math.max(0, at[0]);
    box.scrollTop = Math.max(0, at[1]);
    box.addEventListener("scroll", function () { scrolled.set(container, [box.scrollLeft, box.scrollTop]); });
  }

  // The transfers of the build under the pointer or the focus, marked on their hexes.
  function route(root, via) {
    root.querySelectorAll("g.hex.route").forEach(function (g) { g.classList.remove("route"); });
    via.forEach(function (name) {
      var g = root.querySelector("g.hex[data-hex='" + name + "']");
      if (g) g.classList.add("route");
    });
  }

  function legend() {
    var box = el("details", "legend");
    add(box, el("summary", "", "Key"));
    var list = add(box, el("ul"));
    TERRAINS.forEach(function (t) {
      var li = add(list, el("li"));
      add(li, el("span", "swatch terrain-" + t[0]));
      add(li, document.createTextNode(" " + t[0] + ", its good "));
      add(li, el("span", "dot good-" + t[1]));
      add(li, document.createTextNode(" " + t[1]));
    });
    var w = add(list, el("li"));
    add(w, el("span", "swatch terrain-wasteland"));
    add(w, document.createTextNode(" wasteland (dashed edge: placed in play)"));
    add(list, el("li", "", "a city is ringed in the colour it wants; its badges are its demand tiles, each the goods it needs"));
    add(list, el("li", "", "a carriage: a company's train car, in its colour"));
    add(list, el("li", "", "yellow edge and a number: a hex the build may go on and its transfers' mana, their hexes" +
                 " dashed on a pointer or the focus (tap to build)" +
                 " · blue: the hex just built on · dashed blue: the hexes it transferred over"));
    return box;
  }

  function chip(cls, label, title, show) {
    var b = el("span", cls, label);
    b.tabIndex = 0;
    b.title = title;
    B.tells(b, show, title);
    return b;
  }

  function spellcarTitle(key, facts) {
    var c = facts.spellcars[key] || {};
    return (c.name || words(key)) + (c.cost !== undefined ? " (cost " + c.cost + ")" : "") + (c.text ? ": " + c.text : "");
  }

  function badge(t) {
    var b = el("span", "tile good-" + t[0], t[1]);
    b.title = "demand tile: " + tileWords(t);
    b.setAttribute("data-demand", t[0] + "-" + t[1]);
    return b;
  }

  function goodsRow(goods) {
    var row = el("span", "goods");
    Object.keys(goods).forEach(function (c) {
      var g = add(row, el("span", "held"));
      g.setAttribute("data-good", c);
      add(g, el("span", "dot good-" + c));
      add(g, document.createTextNode(goods[c] + " " + c));
    });
    if (!Object.keys(goods).length) add(row, el("span", "none", "none"));
    return row;
  }

  function drawPath(f) {
    var path = el("ol", "path");
    path.setAttribute("aria-label", "The conductor's path");
    for (var k = 0; k <= f.columns + 1; k++) {
      var here = k === f.conductor || (k === f.columns + 1 && f.conductor > f.columns);
      var li = add(path, el("li", here ? "here" : "", k === 0 ? "Start" : k > f.columns ? "End of the Line" : String(k)));
      if (here) li.setAttribute("aria-current", "step");
    }
    return path;
  }

  function drawYard(f, facts, show) {
    var grid = el("div", "yard");
    grid.setAttribute("role", "group");
    grid.setAttribute("aria-label", "The railyard: " + f.columns + " columns of 3");
    grid.style.setProperty("--columns", String(f.columns));
    var bySlot = {};
    f.railyard.forEach(function (s) { bySlot[s.slot] = s; });
    for (var r = 1; r <= 3; r++) {
      for (var c = 1; c <= f.columns; c++) {
        var s = bySlot[c + ":" + r];
        if (!s) {
          add(grid, el("span", "slot empty", "")).setAttribute("data-slot", c + ":" + r);
          continue;
        }
        var title = c + ":" + r + " " + spellcarTitle(s.spellcar, facts) + (s.printed ? " — printed on the folio" : "") +
          (s.activated ? " — activated this turn" : "");
        var label = s.name || words(s.spellcar);
        if (s.printed) label = label.replace(PRINTED, "");  // "Golden Sands: Build on Desert" on its own folio
        var cell = add(grid, chip("slot" + (s.printed ? " printed" : "") + (s.activated ? " activated" : ""),
                                  label, title, show));
        cell.setAttribute("data-slot", s.slot);
        cell.setAttribute("data-spellcar", s.spellcar);
      }
    }
    return grid;
  }

  function drawSpecialists(f, facts, show) {
    var list = el("ul", "specialists");
    SLOTS.forEach(function (slot) {
      var s = (f.specialists || {})[slot];
      var li = add(list, el("li", s && s.exhausted ? "exhausted" : ""));
      li.setAttribute("data-slot", slot);
      add(li, el("span", "slot-name", slot === "station" ? "station master" : slot));
      if (!s) { add(li, el("span", "none", "—")); return; }
      var about = facts.specialists[s.key] || {};
      add(li, chip("who", s.name || words(s.key), (s.name || words(s.key)) + (s.exhausted ? " (exhausted)" : "") +
                   (about.text ? ": " + about.text : ""), show)).setAttribute("data-specialist", s.key);
      if (s.exhausted) add(li, el("span", "state", "exhausted"));
    });
    (f.extra || []).forEach(function (key) {
      var li = add(list, el("li", "extra"));
      add(li, el("span", "slot-name", "beside"));
      add(li, chip("who", (facts.specialists[key] || {}).name || words(key), words(key), show));
    });
    if (f.open_pick) add(list, el("li", "open", "a " + f.open_pick + " still to choose from the stack"));
    return list;
  }

  function drawFolio(f, score, frame, facts, options, show) {
    var box = el("section", "folio seat-" + f.seat + (f.out ? " out" : "") + (frame.current === f.seat ? " current" : ""));
    box.setAttribute("data-seat", String(f.seat));
    paint(box, colourOf(f));
    var h = add(box, el("h3"));
    add(h, el("span", "seat", "P" + f.seat));
    var name = ((options.players || [])[f.seat - 1] || {}).name;
    if (name) add(h, el("span", "name", name));
    add(h, el("span", "company", f.name || "no company yet"));
    if (f.team) add(h, el("span", "team", "team " + f.team));
    if (frame.current === f.seat) add(h, el("span", "turn", "their turn"));
    if (f.out) add(h, el("span", "gone", "left"));
    var dl = add(box, el("dl", "counts"));
    [["Score", score ? score.score : "—", "score"], ["Mana", f.mana, "mana"], ["Spent", f.spent, "spent"],
     ["Trains left", f.trains, "trains"], ["Demand tiles", f.demand.length, "demand"]].forEach(function (row) {
      var div = add(dl, el("div"));
      div.setAttribute("data-count", row[2]);
      add(div, el("dt", "", row[0]));
      add(div, el("dd", "", row[1]));
    });
    if (score) {
      add(box, el("p", "score-parts", "Score: " + score.goods + " for goods, " + score.demand + " for demand tiles, " +
                  score.awards + " for awards"));
    }
    add(box, drawPath(f));
    add(box, drawYard(f, facts, show));
    add(box, drawSpecialists(f, facts, show));
    var held = add(box, el("p", "held-row"));
    add(held, el("span", "label", "Demand tiles: "));
    if (f.demand.length) f.demand.forEach(function (t) { add(held, badge(t)); }); else add(held, el("span", "none", "none"));
    var goods = add(box, el("p", "held-row"));
    add(goods, el("span", "label", "Goods: "));
    add(goods, goodsRow(f.goods || {}));
    return box;
  }

  function drawMarket(container, frame, facts, show) {
    var box = add(container, el("section", "market"));
    box.setAttribute("aria-label", "The market and the awards");
    var m = add(box, el("p", "market-row"));
    add(m, el("span", "label", "Market: "));
    frame.market.forEach(function (key) {
      add(m, chip("spellcar", (facts.spellcars[key] || {}).name || words(key), spellcarTitle(key, facts), show))
        .setAttribute("data-spellcar", key);
    });
    if (!frame.market.length) add(m, el("span", "none", "empty"));
    var a = add(box, el("p", "market-row"));
    add(a, el("span", "label", "Awards: "));
    frame.awards.forEach(function (key) {
      var about = facts.awards[key] || {};
      add(a, chip("award", about.name || words(key), (about.name || words(key)) + (about.text ? ": " + about.text : ""), show))
        .setAttribute("data-award", key);
    });
    if (!frame.awards.length) add(a, el("span", "none", "none"));
    if (frame.ending) add(box, el("p", "ending", "The end is triggered: " + frame.ending));
  }

  function draw(container, frame, options) {
    options = options || {};
    container.textContent = "";
    container.classList.add("sboard");
    var facts = factsOf(options), layout = options.battlefields || [];
    var said = B.wordsLine("hex-line", "Point at, tap or tab to a hex or a card for its words."), show = said.show;
    var wrap = add(container, el("div", "smap"));
    drawMap(wrap, frame, layout, options, show);
    add(container, said.line);
    drawMarket(container, frame, facts, show);
    var folios = el("div", "folios"), scores = {};
    (frame.scores || []).forEach(function (s) { scores[s.seat] = s; });
    frame.companies.forEach(function (f) { add(folios, drawFolio(f, scores[f.seat], frame, facts, options, show)); });
    if (options.fold) {  // the recorder: folded on a phone, so that the answers below stay in reach
      B.foldable(container, options.fold, "Each company's folio: mana, conductor, railyard, specialists", folios)
        .classList.add("folios-box");
    } else {
      add(container, folios);
    }
    add(container, legend());
  }

  var board = {draw: draw};
  (window.EmpyreanBoards = window.EmpyreanBoards || {}).steam = board;
  return board;
})();
