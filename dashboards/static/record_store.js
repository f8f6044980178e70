// The recorder's memory (dashboards/templates/record.html): every game being recorded lives in the
// browser's localStorage, written after every change, so a reload, a closed tab or a phone that went
// to sleep loses nothing; and the game log (docs/log-format.md) made from it.
//
// A game is kept as {id, created, updated, setup, decisions, redo, replaced, held, conceded_at, end, result,
// uploaded}:
//   setup      {catalog, mode, players: [{name, deck}], battlefields, first_player, view, date,
//               event: {id, name} | null, round, table}; a deck is a premade deck's name or a
//               mash-up {name, cards: [24 names]}
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

  function list() {
    return readJSON(INDEX, []).filter(function (entry) { return entry && typeof entry.id === "string"; });
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
    index.unshift({id: game.id, title: title(game), updated: game.updated, decisions: game.decisions.length,
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

  // The game log (format version 1) of a game; ``result``: the claimed result to add, if any.
  function log(game, result) {
    var s = game.setup;
    var meta = {players: s.players.map(function (p) { return p.name; })};
    if (s.date) meta.date = s.date;
    if (s.event) meta.event = s.event.name;
    if (s.round) meta.round = Number(s.round);
    if (s.table) meta.table = tableValue(String(s.table));
    var chance = {type: "recorded"};
    if (s.view) chance.view = s.view;
    var out = {
      format: "empyrean-log",
      version: 1,
      catalog: s.catalog,
      meta: meta,
      setup: {mode: s.mode, decks: s.players.map(function (p) { return p.deck; }),
              battlefields: s.battlefields.slice(), first_player: s.first_player},
      chance: chance,
      decisions: game.decisions.slice()
    };
    if (result) out.result = result;
    return out;
  }

  // A game from a log file (the recorder's own download, or any recorded log).
  function fromLog(data) {
    if (!data || data.format !== "empyrean-log" || !data.setup || !Array.isArray(data.decisions)) {
      throw new Error("this file is not a game log (docs/log-format.md): it has no format, setup or decisions");
    }
    if (!data.chance || data.chance.type !== "recorded") {
      throw new Error("this log has seeded chance: it was played digitally, there is nothing to record");
    }
    var meta = data.meta || {};
    var names = Array.isArray(meta.players) ? meta.players : [];
    var setup = {
      catalog: data.catalog, mode: data.setup.mode,
      players: (data.setup.decks || []).map(function (deck, i) {
        return {name: typeof names[i] === "string" ? names[i] : "Player " + (i + 1), deck: deck};
      }),
      battlefields: (data.setup.battlefields || []).slice(), first_player: data.setup.first_player,
      view: data.chance.view || null, date: meta.date || "",
      event: typeof meta.event === "string" ? {id: null, name: meta.event} : null,
      round: meta.round || "", table: meta.table === undefined ? "" : String(meta.table)
    };
    var game = create(setup, data.decisions.filter(function (d) { return typeof d === "string"; }));
    var result = data.result;
    if (result && typeof result === "object") {
      game.result = result;  // the claim as the file makes it, checked at the end like any other
      if (result.reason === "time") game.end = {reason: "time", time_rule: result.time_rule};
    }
    return game;
  }

  function token() {
    try { return window.sessionStorage.getItem(TOKEN) || ""; } catch (e) { return ""; }
  }
  function setToken(text) {
    try { window.sessionStorage.setItem(TOKEN, text); } catch (e) { /* kept in the field only */ }
  }

  return {key: key, list: list, load: load, save: save, remove: remove, create: create, log: log, fromLog: fromLog,
          token: token, setToken: setToken};
})();
