// The recorder's setup screen (dashboards/templates/record.html): mode, players and decks (premade,
// searched by name, or a mash-up pasted or picked card by card and checked against the deck
// template), battlefields (by name, or drawn at random and confirmed), the first player, who is
// recording, the event, round and table (record_api.js's event chooser). Also the catalog (GET /api/v1/catalog/{version}), which the game
// screen uses to show each card's cost, might and text.
//
// Every text from the catalog, a log or a player is put into the page with textContent.
window.RecordSetup = (function () {
  "use strict";

  var B = window.EmpyreanBoard;
  var el = B.el, add = B.add;
  var store = window.RecordStore, api = window.RecordApi;
  var getJSON = api.getJSON;
  var urls = JSON.parse(document.getElementById("record-config").textContent).urls;
  var form = document.getElementById("setup-form");
  var catalogs = {};  // version -> Promise of the catalog's data
  var current = null;  // the chosen version's data
  var onStart = null;
  var MASHUP = "(mash-up)";  // the deck select's value for "a mash-up of my own"

  function byId(id) { return document.getElementById(id); }

  function catalog(version) {
    if (!catalogs[version]) {
      catalogs[version] = getJSON(urls.catalog + "/" + encodeURIComponent(version)).then(function (data) {
        data.cardsByName = {};
        data.cards.forEach(function (c) { data.cardsByName[c.name] = c; });
        return data;
      });
      catalogs[version].catch(function () { delete catalogs[version]; });  // a failure may be retried
    }
    return catalogs[version];
  }

  // ------------------------------------------------------------------ the form's parts
  function mode() { return form.querySelector("input[name=mode]:checked").value; }
  function players() { return mode() === "3p" ? 3 : 2; }
  function battlefieldCount() { return mode() === "3p" ? 4 : 3; }

  function option(select, value, text) {
    var o = add(select, el("option", "", text));
    o.value = value;
    return o;
  }

  function seatBox(seat) {
    var box = el("div", "seat-box seat-" + seat);
    box.setAttribute("data-seat", seat);
    var head = add(box, el("h2"));  // under the page's h1: each seat is a section of the form
    add(head, el("span", "seat seat-" + seat, "P" + seat));
    var fields = add(box, el("div", "fields"));
    var nameLabel = add(fields, el("label", "", "Name "));
    var name = add(nameLabel, el("input", "player-name"));
    name.type = "text";
    name.maxLength = 100;
    name.autocomplete = "off";
    name.id = "player-" + seat;
    var searchLabel = add(fields, el("label", "", "Find a deck "));
    var search = add(searchLabel, el("input", "deck-search"));
    search.type = "search";
    search.id = "deck-search-" + seat;
    search.placeholder = "Search by name";
    var deckLabel = add(fields, el("label", "wide", "Deck "));
    var select = add(deckLabel, el("select", "deck-select"));
    select.id = "deck-" + seat;
    add(box, mashupEditor(seat));
    name.addEventListener("input", seatLabels);
    search.addEventListener("input", function () { fillDecks(select, search.value); });
    select.addEventListener("change", function () { showMashup(box); });
    return box;
  }

  function fillDecks(select, filter) {
    var chosen = select.value;
    var words = filter.toLowerCase().split(/\s+/).filter(Boolean);
    select.textContent = "";
    var decks = current ? current.decks : [];
    var shown = decks.filter(function (d) {
      var name = d.name.toLowerCase();
      return words.every(function (w) { return name.indexOf(w) >= 0; });
    });
    option(select, "", !current ? "Loading the decks…" : shown.length ? "Choose a deck (" + shown.length + ")"
                                 : "No premade deck matches “" + filter + "”");
    shown.forEach(function (d) { option(select, d.name, d.name); });
    option(select, MASHUP, "Mash-up: my own 24 cards…");
    var keep = shown.some(function (d) { return d.name === chosen; }) || chosen === MASHUP;
    // a search that leaves one deck chooses it; else the choice stays, or waits for one
    select.value = keep ? chosen : (shown.length === 1 && words.length ? shown[0].name : "");
    showMashup(select.closest(".seat-box"));
  }

  // ---- mash-up decks: the pasted text is the list; picking a card adds a line to it
  function mashupEditor(seat) {
    var box = el("div", "mashup");
    box.hidden = true;
    var fields = add(box, el("div", "fields"));
    var nameLabel = add(fields, el("label", "wide", "Name of the mash-up "));
    var name = add(nameLabel, el("input", "mashup-name"));
    name.type = "text";
    name.maxLength = 100;
    name.value = "Mash-up of P" + seat;
    var pasteLabel = add(box, el("label", "wide", "Its 24 cards, one a line (“2 Horse Archers” for two copies) "));
    var paste = add(pasteLabel, el("textarea", "mashup-paste"));
    paste.rows = 6;
    paste.spellcheck = false;
    var searchLabel = add(box, el("label", "wide", "Add a card "));
    var search = add(searchLabel, el("input", "mashup-search"));
    search.type = "search";
    search.placeholder = "Search the catalog's cards";
    var found = add(box, el("div", "mashup-found"));
    var cards = add(box, el("ul", "mashup-list"));
    cards.setAttribute("aria-label", "Cards of the mash-up");
    var check = add(box, el("p", "mashup-check"));
    check.setAttribute("role", "status");
    paste.addEventListener("input", function () { drawMashup(box); });
    search.addEventListener("input", function () { drawFound(box); });
    return box;
  }

  // {name: copies} of a pasted list, and the lines that could not be read
  function parseList(text) {
    var counts = {}, order = [], bad = [];
    text.split(/\r?\n/).forEach(function (raw) {
      var line = raw.trim();
      if (!line) return;
      var m = /^(\d+)\s*[x×]?\s+(.+)$/i.exec(line) || null;
      var n = 1, name = line;
      if (m) { n = Number(m[1]); name = m[2]; } else {
        m = /^(.+?)\s+[x×]\s*(\d+)$/i.exec(line);
        if (m) { name = m[1]; n = Number(m[2]); }
      }
      name = name.trim();
      if (!(n >= 1 && n <= 24)) { bad.push(line); return; }
      if (!(name in counts)) { counts[name] = 0; order.push(name); }
      counts[name] += n;
    });
    return {counts: counts, order: order, bad: bad};
  }

  function writeList(box, parsed) {
    box.querySelector(".mashup-paste").value = parsed.order.filter(function (n) { return parsed.counts[n] > 0; })
      .map(function (n) { return parsed.counts[n] + " " + n; }).join("\n");
    drawMashup(box);
  }

  function changeCopies(box, name, delta) {
    var parsed = parseList(box.querySelector(".mashup-paste").value);
    if (!(name in parsed.counts)) { parsed.counts[name] = 0; parsed.order.push(name); }
    parsed.counts[name] = Math.max(0, parsed.counts[name] + delta);
    writeList(box, parsed);
  }

  function drawFound(box) {
    var found = box.querySelector(".mashup-found");
    found.textContent = "";
    var words = box.querySelector(".mashup-search").value.toLowerCase().split(/\s+/).filter(Boolean);
    if (!words.length || !current) return;
    var hits = current.cards.filter(function (c) {
      var name = c.name.toLowerCase();
      return words.every(function (w) { return name.indexOf(w) >= 0; });
    });
    hits.slice(0, 8).forEach(function (c) {
      var b = add(found, el("button", "pick-card", "+ " + c.name + " · cost " + c.cost));
      b.type = "button";
      b.setAttribute("data-card", c.name);
      b.addEventListener("click", function () { changeCopies(box, c.name, 1); });
    });
    if (hits.length > 8) add(found, el("span", "note", (hits.length - 8) + " more: type more of the name"));
    if (!hits.length) add(found, el("span", "note", "No card matches"));
  }

  // The template check of a mash-up: {ok, cards, problems}
  function checkMashup(box) {
    var parsed = parseList(box.querySelector(".mashup-paste").value);
    var problems = parsed.bad.map(function (line) { return "cannot read the line “" + line + "”"; });
    var cards = [];
    parsed.order.forEach(function (n) { for (var k = 0; k < parsed.counts[n]; k++) cards.push(n); });
    if (!current) return {ok: false, cards: cards, problems: ["the catalog is not loaded yet"], parsed: parsed};
    var unknown = parsed.order.filter(function (n) { return parsed.counts[n] && !current.cardsByName[n]; });
    unknown.forEach(function (n) { problems.push("no card called “" + n + "” in catalog " + current.version); });
    var size = current.template.deck_size;
    if (cards.length !== size) problems.push("a deck has " + size + " cards; this one has " + cards.length);
    var byCost = {};
    cards.forEach(function (n) {
      var c = current.cardsByName[n];
      if (c) byCost[c.cost] = (byCost[c.cost] || 0) + 1;
    });
    var costs = current.template.costs;
    var rows = Object.keys(costs).map(function (cost) {
      var have = byCost[cost] || 0, want = costs[cost];
      if (have !== want) problems.push("cost " + cost + ": the template needs " + want + ", found " + have);
      return {cost: cost, have: have, want: want};
    });
    return {ok: problems.length === 0, cards: cards, problems: problems, rows: rows, parsed: parsed};
  }

  function drawMashup(box) {
    var result = checkMashup(box);
    var list = box.querySelector(".mashup-list");
    list.textContent = "";
    result.parsed.order.forEach(function (n) {
      var copies = result.parsed.counts[n];
      if (!copies) return;
      var c = current && current.cardsByName[n];
      var li = add(list, el("li", c ? "" : "unknown"));
      add(li, el("span", "copies", copies + " ×"));
      add(li, el("span", "name", n));
      add(li, el("span", "note", c ? "cost " + c.cost : "not in the catalog"));
      var minus = add(li, el("button", "secondary small", "−"));
      minus.type = "button";
      minus.setAttribute("aria-label", "One " + n + " fewer");
      minus.addEventListener("click", function () { changeCopies(box, n, -1); });
    });
    var check = box.querySelector(".mashup-check");
    check.textContent = "";
    if (result.rows) {
      var costs = add(check, el("span", "costs"));
      result.rows.forEach(function (r) {
        add(costs, el("span", r.have === r.want ? "cost ok" : "cost off",
                      "cost " + r.cost + ": " + r.have + "/" + r.want + (r.have === r.want ? " ✓" : " ✗")));
      });
    }
    add(check, el("strong", result.ok ? "ok" : "off", result.ok ? "Keeps the deck template."
                                                                  : result.problems.slice(0, 3).join("; ")));
  }

  function showMashup(box) {
    if (!box) return;
    var on = box.querySelector(".deck-select").value === MASHUP;
    var editor = box.querySelector(".mashup");
    editor.hidden = !on;
    if (on) drawMashup(editor);
  }

  // ---- battlefields
  function fillBattlefields() {
    var picks = byId("battlefield-picks");
    var before = Array.prototype.map.call(picks.querySelectorAll("select"), function (s) { return s.value; });
    picks.textContent = "";
    for (var b = 0; b < battlefieldCount(); b++) {
      var label = add(picks, el("label", "", "B" + (b + 1) + " "));
      var select = add(label, el("select", "bf-select"));
      select.id = "battlefield-" + (b + 1);
      option(select, "", "choose…");
      (current ? current.battlefields : []).forEach(function (bf) { option(select, bf.name, bf.name); });
      if (before[b] && current && current.battlefields.some(function (bf) { return bf.name === before[b]; })) {
        select.value = before[b];
      }
    }
  }

  // An unbiased whole number below n, from the browser's cryptographic generator.
  function below(n) {
    var limit = Math.floor(4294967296 / n) * n, x = new Uint32Array(1);
    do { window.crypto.getRandomValues(x); } while (x[0] >= limit);
    return x[0] % n;
  }

  var drawn = [];
  function drawAtRandom() {
    if (!current) return;
    var pool = current.battlefields.map(function (bf) { return bf.name; });
    drawn = [];
    for (var k = 0; k < battlefieldCount(); k++) drawn.push(pool.splice(below(pool.length), 1)[0]);
    var list = byId("drawn-list");
    list.textContent = "";
    drawn.forEach(function (name, b) {
      if (b) add(list, document.createTextNode(", "));
      add(list, el("strong", "", "B" + (b + 1) + " " + name));
    });
    byId("drawn").hidden = false;
    byId("use-drawn").focus();
  }

  function useDrawn() {
    form.querySelectorAll(".bf-select").forEach(function (select, b) { select.value = drawn[b] || ""; });
    byId("drawn").hidden = true;
  }

  // ---- seats, first player, recording seat
  function nameOf(seat) {
    var input = byId("player-" + seat);
    return input && input.value.trim() ? input.value.trim() : "";
  }

  function radios(container, name, entries, checked) {
    container.textContent = "";
    entries.forEach(function (e) {
      var label = add(container, el("label", "toggle"));
      var input = add(label, el("input"));
      input.type = "radio";
      input.name = name;
      input.value = e.value;
      input.checked = String(e.value) === String(checked);
      add(label, document.createTextNode(" " + e.text));
    });
  }

  function seatLabels() {
    var first = form.querySelector("input[name=first-player]:checked");
    var seatNow = form.querySelector("input[name=recording]:checked");
    var n = players(), entries = [], seats = [{value: "", text: "A judge, or the players together: every card seen"}];
    for (var s = 1; s <= n; s++) {
      var who = "P" + s + (nameOf(s) ? " " + nameOf(s) : "");
      entries.push({value: s, text: who});
      seats.push({value: s, text: who + "'s seat only: the cards " + (nameOf(s) || "P" + s) + " sees"});
    }
    radios(byId("first-player"), "first-player", entries, first && Number(first.value) <= n ? first.value : 1);
    radios(byId("recording-seat"), "recording", seats,
           seatNow && (seatNow.value === "" || Number(seatNow.value) <= n) ? seatNow.value : "");
  }

  function layout() {
    var seats = byId("seats");
    var n = players();
    while (seats.children.length < n) {
      var box = add(seats, seatBox(seats.children.length + 1));
      fillDecks(box.querySelector(".deck-select"), "");
    }
    while (seats.children.length > n) seats.removeChild(seats.lastChild);
    fillBattlefields();
    seatLabels();
  }

  function useCatalog(version) {
    byId("catalog-note").textContent = "Loading catalog " + version + "…";
    return catalog(version).then(function (data) {
      current = data;
      byId("catalog-note").textContent = data.title + (data.notice ? " — " + data.notice : "");
      form.querySelectorAll(".seat-box").forEach(function (box) {
        fillDecks(box.querySelector(".deck-select"), box.querySelector(".deck-search").value);
      });
      fillBattlefields();
    }, function (err) {
      byId("catalog-note").textContent = "The catalog could not be loaded: " + err.message + ". Reload to try again.";
    });
  }

  var setupEvents = null;

  // ------------------------------------------------------------------ reading the form
  var errorsBox = window.RecordSteps.setupErrors;

  function read() {
    var problems = [];
    var n = players();
    var setup = {catalog: byId("catalog").value, mode: mode(), players: [], battlefields: [],
                 first_player: Number(form.querySelector("input[name=first-player]:checked").value),
                 view: null, date: byId("date").value, event: null,
                 round: byId("event-round").value.trim(), table: byId("event-table").value.trim()};
    var rec = form.querySelector("input[name=recording]:checked");
    setup.view = rec && rec.value ? Number(rec.value) : null;
    for (var s = 1; s <= n; s++) {
      var box = form.querySelector('.seat-box[data-seat="' + s + '"]');
      var name = nameOf(s);
      if (!name) problems.push("P" + s + " needs a name.");
      var deck = box.querySelector(".deck-select").value;
      if (deck === MASHUP) {
        var editor = box.querySelector(".mashup");
        var check = checkMashup(editor);
        var title = editor.querySelector(".mashup-name").value.trim();
        if (!title) problems.push("P" + s + "'s mash-up needs a name.");
        if (!check.ok) problems.push("P" + s + "'s mash-up: " + check.problems.join("; ") + ".");
        deck = {name: title, cards: check.cards};
      } else if (!deck) {
        problems.push("P" + s + " needs a deck.");
      }
      setup.players.push({name: name, deck: deck});
    }
    form.querySelectorAll(".bf-select").forEach(function (select, b) {
      if (!select.value) problems.push("Choose battlefield B" + (b + 1) + ", or draw them at random.");
      else if (setup.battlefields.indexOf(select.value) >= 0) problems.push(select.value + " is chosen twice.");
      setup.battlefields.push(select.value);
    });
    setup.event = setupEvents.value();
    problems = problems.concat(api.matchProblems(setup.event, setup.round, setup.table));
    api.markMatchFields(byId("event-round"), byId("event-table"), setup.event);
    if (!setup.date) problems.push("Give the date of the game.");
    return {setup: setup, problems: problems};
  }

  // Problems the engine found in a setup (a malformed verdict's errors, with their JSON pointers)
  function engineProblems(errors) {
    errorsBox(errors.map(function (e) { return (e.path ? e.path + ": " : "") + e.message; }));
  }

  function today() {
    var d = new Date();
    return d.getFullYear() + "-" + String(d.getMonth() + 1).padStart(2, "0") + "-" + String(d.getDate()).padStart(2, "0");
  }

  // ------------------------------------------------------------------ games on this device
  function drawSaved() { store.drawSaved("bfe"); }

  // ------------------------------------------------------------------ start
  function init(start) {
    onStart = start;
    byId("date").value = today();
    byId("token").value = store.token();
    form.querySelectorAll("input[name=mode]").forEach(function (r) { r.addEventListener("change", layout); });
    byId("catalog").addEventListener("change", function () { useCatalog(byId("catalog").value); });
    byId("draw-battlefields").addEventListener("click", drawAtRandom);
    byId("redraw").addEventListener("click", drawAtRandom);
    byId("use-drawn").addEventListener("click", useDrawn);
    setupEvents = api.eventPicker({token: "token", find: "find-events", note: "events-note", select: "event",
                               round: "event-round", table: "event-table"});
    byId("find-event").addEventListener("click", function () { setupEvents.findOne(byId("event-id").value.trim()); });
    if (byId("token").value) setupEvents.load().catch(function () {});  // a token kept in this tab: its events
    byId("open-log").addEventListener("change", function (ev) {
      if (ev.target.files && ev.target.files[0]) store.openFile(ev.target.files[0], onStart);
    });
    form.addEventListener("submit", function (ev) {
      ev.preventDefault();
      var got = read();
      errorsBox(got.problems);
      if (got.problems.length) return;
      if (byId("token").value.trim()) store.setToken(byId("token").value.trim());
      onStart(store.create(got.setup, []));
    });
    layout();
    drawSaved();
    return getJSON(urls.catalog).then(function (body) {
      var select = byId("catalog");
      body.versions.forEach(function (v) { option(select, v, v); });
      select.value = body["default"];
      return useCatalog(select.value);
    }, function (err) {
      byId("catalog-note").textContent = "The catalog could not be loaded: " + err.message + ". Reload to try again.";
    });
  }

  return {init: init, catalog: catalog, errors: engineProblems, drawSaved: drawSaved};
})();
