// The recorder's end screen (dashboards/templates/record_end.html, docs/recording.md), the same in
// every mode: the result the players claim, filled in from the rules until they change it, and its
// verdict (the positions API on the finished log with that result); the event, round and table,
// which may be chosen or changed here; then the upload (POST /api/v1/games with the recorder's
// token, followed until the worker has judged it), the download, the replay link. The game screen
// (record.js, the board mode; record_lines.js, the lines mode) shows it when a game is over and hands
// it what it needs (init), with what is the game's own: how the game ended in words, its final
// tally, and the result a log of it claims.
//
// Every text from a log, the catalog or a player is put into the page with textContent.
window.RecordEnd = (function () {
  "use strict";

  var B = window.EmpyreanBoard, store = window.RecordStore;
  var el = B.el, add = B.add;
  var FINAL = ["valid", "illegal", "mismatch", "malformed", "error"];
  // The game screen: game(), position(), save(), post(url, body, token), positionOf(result),
  // who(seat), show(screen), ask(), takeBackEnd(), urls, and end: the game's own part of this screen,
  //   claim(outcome)          the result the log claims, as the rules have it (null: the log of this
  //                           game claims none the page can fill in: it is uploaded without one)
  //   how(outcome, position)  how the game ended, in words
  //   tally(box, outcome, position)  the final counts, drawn into the box
  //   ruled                   what marks the winner the rules give ("the tally")
  //   viewer                  whether the replay viewer draws this game (its link is offered)
  var app = null;
  var checked = 0;  // the number of the last check, so that a late answer to an older one is ignored

  function byId(id) { return document.getElementById(id); }

  // "valid: player 2 wins …" after a "valid" badge reads "player 2 wins …"
  function words(status, message) {
    var text = message || "";
    return text.indexOf(status + ": ") === 0 ? text.slice(status.length + 2) : text;
  }

  // The end screen: the result claimed (from the tally until the players change it), its verdict.
  function show() {
    var game = app.game(), pos = app.position();
    app.show("end");
    byId("record").setAttribute("data-count", String(game.decisions.length));
    var outcome = pos.outcome;
    if (!game.result) {
      game.result = app.end.claim(outcome) || {};  // {}: finished, with nothing to claim
      app.save();
    }
    byId("end-how").textContent = app.end.how(outcome, pos);
    var tallyBox = byId("end-tally");
    tallyBox.textContent = "";
    app.end.tally(tallyBox, outcome, pos);
    var claims = "winner" in game.result;
    byId("result-form").hidden = !claims;
    var choice = byId("winner-choice");
    choice.textContent = "";
    if (claims) {
      var options = game.setup.players.map(function (p, i) {
        return {value: String(i + 1), text: app.who(i + 1) + " wins"};
      });
      options.push({value: "draw", text: "A draw"});
      options.forEach(function (o) {
        var l = add(choice, el("label", "toggle"));
        var input = add(l, el("input"));
        input.type = "radio";
        input.name = "winner";
        input.value = o.value;
        input.checked = o.value === (game.result.winner === null ? "draw" : String(game.result.winner));
        var rules = outcome.winner === null ? "draw" : String(outcome.winner);
        add(l, document.createTextNode(" " + o.text + (o.value === rules ? " (" + app.end.ruled + ")" : "")));
      });
    }
    drawUploadTarget();
    check();
  }

  function check() {
    var game = app.game();
    var chosen = document.querySelector("input[name=winner]:checked");
    if ("winner" in game.result) game.result.winner = !chosen || chosen.value === "draw" ? null : Number(chosen.value);
    app.save();
    drawUploaded();
    var box = byId("verdict");
    box.textContent = "Checking…";
    box.removeAttribute("data-status");
    var mine = ++checked;
    app.positionOf(game.result).then(function (answer) {
      if (mine !== checked) return;
      var v = answer.verdict || {status: answer.status, message: answer.status};
      box.textContent = "";
      box.setAttribute("data-status", v.status);
      add(box, el("span", "status status-" + v.status, v.status));
      add(box, el("span", "", " " + words(v.status, v.message)));
      if (v.status === "mismatch") {
        add(box, el("p", "note", "Uploaded like this, the game is a mismatch: the organiser sees the " +
                               "disagreement and the claimed result is not counted until it is settled."));
      }
    }, function (err) {
      if (mine !== checked) return;
      box.textContent = "Could not check the result: " + err.message + ". The game is kept on this device.";
    });
  }

  // The event, round and table the upload files the game under: chosen at the setup, and changed
  // here if need be (they are the log's meta, so a change is a changed log).
  function drawUploadTarget() {
    var s = app.game().setup;
    events.set(s.event);
    byId("upload-round").value = s.round || "";
    byId("upload-table").value = s.table || "";
    byId("upload-token").value = store.token();
    drawTarget();
    drawUploaded();
    if (byId("upload-token").value && !events.locked()) events.load().catch(function () {});
  }

  function drawTarget() {
    var s = app.game().setup;
    byId("upload-target").textContent = s.event ? "Uploads into " + s.event.name +
      (s.round ? ", round " + s.round : "") + (s.table ? ", table " + s.table : "") + "."
      : "No event: the game is uploaded on its own.";
    RecordApi.markMatchFields(byId("upload-round"), byId("upload-table"), s.event);
  }

  // The fields changed: the game's setup (and so its log's meta) follows them.
  function targetChanged() {
    var game = app.game();
    if (!game) return;
    game.setup.event = events.value();
    game.setup.round = byId("upload-round").value.trim();
    game.setup.table = byId("upload-table").value.trim();
    app.save();
    drawTarget();
    drawUploaded();
  }

  function upload() {
    var token = byId("upload-token").value.trim();
    var status = byId("upload-status");
    if (!token) {
      status.textContent = "An upload needs the API token the organiser gave you.";
      byId("upload-token").focus();
      return;
    }
    status.textContent = "Checking the token…";
    byId("upload").disabled = true;
    // the token's events first: a token bound to an event uploads into that one only
    events.load().then(function (moved) {
      var s = app.game().setup;
      byId("upload").disabled = false;
      if (moved) {
        status.textContent = "This token is for " + s.event.name + " only, so the game now goes there. " +
                             "Check the round and table, then upload.";
        return;
      }
      var problems = RecordApi.matchProblems(s.event, s.round, s.table);
      if (problems.length) {
        status.textContent = "Not uploaded: " + problems.join(" ");
        byId(s.round && /^[1-9][0-9]{0,8}$/.test(s.round) ? "upload-table" : "upload-round").focus();
        return;
      }
      send(token);
    }, function (err) {
      byId("upload").disabled = false;
      status.textContent = "Not uploaded: " + (err.message === "no token" ? "the API token is missing." :
                                                byId("upload-events-note").textContent);
    });
  }

  function send(token) {
    var game = app.game();
    var status = byId("upload-status");
    status.textContent = "Uploading…";
    byId("upload").disabled = true;
    var sent = store.log(game, game.result);
    app.post(app.urls.games, sent, token).then(function (answer) {
      game.uploaded = {id: answer.id, status: answer.status, status_url: answer.status_url,
                       replay_url: app.urls.replay.replace("{id}", String(answer.id)), duplicate: !!answer.duplicate,
                       sent: JSON.stringify(sent)};
      game.replaced = null;  // decisions replaced after going back are kept until the game is uploaded
      app.save();
      drawUploaded();
      follow(answer.status_url, token, 0);
    }, function (err) {
      byId("upload").disabled = false;
      status.textContent = "Not uploaded (" + (err.status || "no answer") + "): " + err.message;
    });
  }

  // The uploaded game's status until the service has judged it (the normal verification path).
  function follow(url, token, tries) {
    var game = app.game();
    fetch(url, {headers: {"Accept": "application/json", "Authorization": "Bearer " + token}})
      .then(function (r) { return r.json(); })
      .then(function (body) {
        if (app.game() !== game || !game.uploaded || game.uploaded.status_url !== url) return;
        game.uploaded.status = body.status;
        game.uploaded.message = body.message;
        game.uploaded.event = body.event;
        app.save();
        drawUploaded();
        if (FINAL.indexOf(body.status) < 0 && tries < 120) {
          window.setTimeout(function () { follow(url, token, tries + 1); }, 1000);
        }
      }, function () {
        if (tries < 120) window.setTimeout(function () { follow(url, token, tries + 1); }, 2000);
      });
  }

  function drawUploaded() {
    var game = app.game();
    var up = game.uploaded;
    var status = byId("upload-status");
    // a log changed since its upload (a decision undone, another result claimed) is another log:
    // it may be uploaded too (for the same match, the service then opens a dispute)
    var changed = !!up && up.sent !== JSON.stringify(store.log(game, game.result));
    byId("replay-row").hidden = !up || !app.end.viewer;
    byId("upload").disabled = !!up && !changed;
    byId("upload").textContent = changed ? "Upload the changed log" : "Upload";
    status.textContent = "";
    if (!up) return;
    status.setAttribute("data-status", up.status);
    add(status, el("span", "", (up.duplicate ? "Already uploaded: game " : "Uploaded: game ") + up.id + " — "));
    add(status, el("span", "status status-" + up.status, up.status));
    if (up.message) add(status, el("span", "", " " + words(up.status, up.message)));
    if (up.event) add(status, el("span", "", " · event " + up.event));
    if (changed) add(status, el("p", "note", "The log has changed since that upload."));
    var link = new URL(up.replay_url, window.location.href).toString();
    byId("replay-link").value = link;
    byId("open-replay").href = up.replay_url;
  }

  function copyLink() {
    var input = byId("replay-link");
    var done = function () { byId("copy-link").textContent = "Copied"; };
    if (navigator.clipboard && navigator.clipboard.writeText) {
      navigator.clipboard.writeText(input.value).then(done, function () { input.select(); });
    } else {
      input.select();
    }
  }

  // The log as a file: at the end (with the claimed result), or at any moment of the game (the log so far).
  function download() {
    var game = app.game();
    var text = JSON.stringify(store.log(game, game.result), null, 2) + "\n";
    var blob = new Blob([text], {type: "application/json"});
    var a = document.createElement("a");
    var names = game.setup.players.map(function (p) { return p.name; }).join("-").replace(/[^A-Za-z0-9_-]+/g, "_");
    a.href = URL.createObjectURL(blob);
    a.download = "empyrean-" + game.setup.date + "-" + (names || "game") + ".json";
    document.body.appendChild(a);
    a.click();
    document.body.removeChild(a);
    window.setTimeout(function () { URL.revokeObjectURL(a.href); }, 10000);
  }

  function backToGame() {
    var game = app.game();
    game.result = null;
    if (game.end) {
      game.end = null;
      app.save();
      app.ask();
    } else {
      app.takeBackEnd();  // the concession, or the last decision of the game
    }
  }

  var events = null;  // the event chooser (RecordApi.eventPicker)

  function init(gameScreen) {
    app = gameScreen;
    events = RecordApi.eventPicker({token: "upload-token", find: "upload-find-events", note: "upload-events-note",
                                      select: "upload-event", round: "upload-round", table: "upload-table"},
                                     targetChanged);
    byId("upload-round").addEventListener("input", targetChanged);
    byId("upload-table").addEventListener("input", targetChanged);
    byId("result-form").addEventListener("submit", function (ev) { ev.preventDefault(); check(); });
    byId("upload").addEventListener("click", upload);
    byId("download").addEventListener("click", download);
    byId("copy-link").addEventListener("click", copyLink);
    byId("back-to-game").addEventListener("click", backToGame);
  }

  return {init: init, show: show, download: download};
})();
