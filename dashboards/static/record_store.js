// The recorder's memory (dashboards/templates/record.html, record_lines.html): every game being recorded
// lives in the browser's localStorage, written after every change, so a reload, a closed tab or a phone
// that went to sleep loses nothing; the game log (docs/log-format.md) made from it; and the list of the
// games kept on this device, each page showing its own game's.
//
// A game is kept as {id, created, updated, setup, decisions, redo, replaced, held, conceded_at, end, result,
// uploaded}:
//   setup      the board mode's (Battle for Empyrean): {catalog, mode, players: [{name, deck}], battlefields,
//               first_player, view, date, event: {id, name} | null, round, table}; a deck is a premade deck's
//               name or a mash-up {name, cards: [24 names]}
//              the lines mode's (any game, record_lines.js): {game: its key, catalog, setup: the log's setup
//               as the game writes it, players: [{name}], view, date, event, round, table}
//   decisions  the log's lines so far, as written (forced answers are left out: the engine takes them)
//   redo       lines undone, the next one to redo last
//   replaced   null, or {decisions: the whole log before an answer replaced undone decisions, count: how
//              many it replaced, held: the held deploys it took along, or null}: what "Restore" brings
//              back; dropped once the game is uploaded
//   held       null, or the seat's own deploys entered before the others' face-down ones are revealed,
//              not yet in the log: {round, at, lines, done, start} (record_held.js)
//   conceded_at  where the lines a concession wrote begin (the points left out before it, then the
//              concession), so that going back from the end takes them all back
//   end        null, or {reason: "time", time_rule} once time was called
//   result     the claimed result once the players confirmed it
//   uploaded   {id, status, status_url, replay_url} once uploaded
// The API token is never put in localStorage: it stays in this tab's sessionStorage.
window.RecordStore = (function () {
  "use strict";

  var PREFIX = "empyrean.record.";
  var INDEX = PREFIX + "index";
  var TOKEN = PREFIX + "token";
  var BOARD_GAME = "bfe";  // the game of the board mode (record.js); every other game is recorded in lines

  function readJSON(key, fallback) {
    try {
      var text = window.localStorage.getItem(key);
      return text ? JSON.parse(text) : fallback;
    } catch (e) {
      return fallback;  // storage refused (private mode) or a damaged entry: start afresh
    }
  }

  // Throws when the browser refuses to keep it (storage full, or disabled): the page says so.
  function writeJSON(key, value) {
    window.localStorage.setItem(key, JSON.stringify(value));
  }

  function newId() {
    var bytes = new Uint8Array(6);
    window.crypto.getRandomValues(bytes);
    return Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
  }

  function title(game) {
    var names = game.setup.players.map(function (p) { return p.name; }).join(" vs ");
    return names + (game.setup.event ? " · " + game.setup.event.name : "") + " · " + game.setup.date;
  }

  // The game a kept game is of: its key (a game of the board mode, kept before games had keys, is bfe).
  function gameOf(game) { return game.setup.game || BOARD_GAME; }

  // The games kept on this device, the last changed first; ``game``: only those of that game.
  function list(game) {
    return readJSON(INDEX, []).filter(function (entry) {
      return entry && typeof entry.id === "string" && (!game || (entry.game || BOARD_GAME) === game);
    });
  }

  function key(id) { return PREFIX + "game." + id; }

  function load(id) {
    var game = readJSON(key(id), null);
    return game && game.setup && Array.isArray(game.decisions) ? game : null;
  }

  function save(game) {
    game.updated = new Date().toISOString();
    writeJSON(key(game.id), game);
    var index = list().filter(function (entry) { return entry.id !== game.id; });
    index.unshift({id: game.id, game: gameOf(game), title: title(game), updated: game.updated,
                   decisions: game.decisions.length,
                   finished: !!game.result, uploaded: game.uploaded ? game.uploaded.id : null});
    writeJSON(INDEX, index);
  }

  function remove(id) {
    window.localStorage.removeItem(key(id));
    writeJSON(INDEX, list().filter(function (entry) { return entry.id !== id; }));
  }

  function create(setup, decisions) {
    var now = new Date().toISOString();
    return {id: newId(), created: now, updated: now, setup: setup, decisions: decisions || [], redo: [],
            replaced: null, held: null, conceded_at: null, end: null, result: null, uploaded: null};
  }

  // ------------------------------------------------------------------ the log
  function tableValue(text) {
    return /^[1-9][0-9]{0,8}$/.test(text) ? Number(text) : text;
  }

  // The log's meta and chance of a game's setup: the same for every game.
  function meta(s) {
    var out = {players: s.players.map(function (p) { return p.name; })};
    if (s.date) out.date = s.date;
    if (s.event) out.event = s.event.name;
    if (s.round) out.round = Number(s.round);
    if (s.table) out.table = tableValue(String(s.table));
    return out;
  }
  function chanceOf(s) {
    var chance = {type: "recorded"};
    if (s.view) chance.view = s.view;
    return chance;
  }

  // The game log (format version 1) of a game; ``result``: the claimed result to add, if any.
  function log(game, result) {
    var s = game.setup;
    if (s.game) {  // the lines mode: the game's own setup, as the person gave it
      var own = {format: "empyrean-log", version: 1, game: s.game, catalog: s.catalog, meta: meta(s),
                 setup: JSON.parse(JSON.stringify(s.setup)), chance: chanceOf(s), decisions: game.decisions.slice()};
      if (result && Object.keys(result).length) own.result = result;  // {}: a game whose result is not claimed
      return own;
    }
    var out = {
      format: "empyrean-log",
      version: 1,
      catalog: s.catalog,
      meta: meta(s),
      setup: {mode: s.mode, decks: s.players.map(function (p) { return p.deck; }),
              battlefields: s.battlefields.slice(), first_player: s.first_player},
      chance: chanceOf(s),
      decisions: game.decisions.slice()
    };
    if (result) out.result = result;
    return out;
  }

  // A game from a log file (the recorder's own download, or any recorded log); ``game``: the key of
  // the game the page records, which the log must be of.
  function fromLog(data, game) {
    if (!data || data.format !== "empyrean-log" || !data.setup || !Array.isArray(data.decisions)) {
      throw new Error("this file is not a game log (docs/log-format.md): it has no format, setup or decisions");
    }
    if (!data.chance || data.chance.type !== "recorded") {
      throw new Error("this log has seeded chance: it was played digitally, there is nothing to record");
    }
    var key = typeof data.game === "string" ? data.game : BOARD_GAME;
    if (game && key !== game) {
      throw new Error("it is a log of another game (“" + key + "”): open it in that game's recorder");
    }
    var meta = data.meta || {};
    var names = Array.isArray(meta.players) ? meta.players : [];
    var common = {
      catalog: data.catalog, view: data.chance.view || null, date: meta.date || "",
      event: typeof meta.event === "string" ? {id: null, name: meta.event} : null,
      round: meta.round || "", table: meta.table === undefined ? "" : String(meta.table)
    };
    function name(i) { return typeof names[i] === "string" ? names[i] : "Player " + (i + 1); }
    var setup;
    if (key === BOARD_GAME) {
      setup = Object.assign(common, {
        mode: data.setup.mode,
        players: (data.setup.decks || []).map(function (deck, i) { return {name: name(i), deck: deck}; }),
        battlefields: (data.setup.battlefields || []).slice(), first_player: data.setup.first_player
      });
    } else {
      setup = Object.assign(common, {game: key, setup: data.setup,
                                     players: names.map(function (n, i) { return {name: name(i)}; })});
    }
    var made = create(setup, data.decisions.filter(function (d) { return typeof d === "string"; }));
    var result = data.result;
    if (result && typeof result === "object") {
      made.result = result;  // the claim as the file makes it, checked at the end like any other
      if (result.reason === "time") made.end = {reason: "time", time_rule: result.time_rule};
    }
    return made;
  }

  // ------------------------------------------------------------------ the games on this device, shown
  var B = window.EmpyreanBoard;

  function byId(id) { return document.getElementById(id); }

  // "Games on this device" (#saved, #saved-list): the games of ``game`` kept here, each to resume
  // (#game=<id>) or to delete (a second tap deletes: no browser dialog).
  function drawSaved(game) {
    var saved = list(game);
    var box = byId("saved-list");
    box.textContent = "";
    byId("saved").hidden = !saved.length;
    saved.slice(0, 20).forEach(function (entry) {
      var li = B.add(box, B.el("li"));
      var a = B.add(li, B.el("a", "resume", entry.title));
      a.href = "#game=" + encodeURIComponent(entry.id);
      var state = entry.uploaded ? "uploaded as game " + entry.uploaded
                                 : entry.finished ? "finished" : entry.decisions + " decisions";
      B.add(li, B.el("span", "note", " · " + state + " · " + entry.updated.slice(0, 16).replace("T", " ")));
      var del = B.add(li, B.el("button", "secondary small", "Delete"));
      del.type = "button";
      del.setAttribute("aria-label", "Delete the saved game " + entry.title);
      del.addEventListener("click", function () {
        if (del.getAttribute("data-armed") !== "true") {
          del.setAttribute("data-armed", "true");
          del.textContent = "Tap again to delete";
          return;
        }
        remove(entry.id);
        drawSaved(game);
      });
    });
  }

  // "Open a saved log": the file read into a game of ``game`` handed to ``onGame``; what is wrong with
  // it said in #open-error.
  function openFile(file, onGame, game) {
    var reader = new FileReader();
    byId("open-error").textContent = "";
    reader.onload = function () {
      var made;
      try {
        made = fromLog(JSON.parse(String(reader.result)), game || BOARD_GAME);
      } catch (e) {
        byId("open-error").textContent = "Cannot open " + file.name + ": " + e.message;
        return;
      }
      onGame(made);
    };
    reader.onerror = function () { byId("open-error").textContent = "Cannot read " + file.name + "."; };
    reader.readAsText(file);
  }

  function token() {
    try { return window.sessionStorage.getItem(TOKEN) || ""; } catch (e) { return ""; }
  }
  function setToken(text) {
    try { window.sessionStorage.setItem(TOKEN, text); } catch (e) { /* kept in the field only */ }
  }

  return {key: key, list: list, load: load, save: save, remove: remove, create: create, log: log, fromLog: fromLog,
          gameOf: gameOf, drawSaved: drawSaved, openFile: openFile, token: token, setToken: setToken};
})();
