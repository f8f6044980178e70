// What every mode of the recorder says to the service (record.html's board mode, record_lines.html's
// lines mode): GET and POST of JSON with the service's error message kept, and the event chooser —
// a token, the events it may upload into, the event, round and table — of the setup and end screens.
//
// Every text from the service or a player is put into the page with textContent.
window.RecordApi = (function () {
  "use strict";

  var B = window.EmpyreanBoard;
  var el = B.el, add = B.add;
  var store = window.RecordStore;
  var config = JSON.parse(document.getElementById("record-config").textContent);
  var urls = config.urls;
  var game = config.game.key;  // the page's game: an event is of one game, only its events are offered

  function byId(id) { return document.getElementById(id); }

  function option(select, value, text) {
    var o = add(select, el("option", "", text));
    o.value = value;
    return o;
  }

  function getJSON(url, token) {
    var headers = {"Accept": "application/json"};
    if (token) headers.Authorization = "Bearer " + token;
    return fetch(url, {headers: headers}).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (body) {
        if (!response.ok) {
          var message = body && body.error && body.error.message ? body.error.message : "HTTP " + response.status;
          var err = new Error(message);
          err.status = response.status;
          throw err;
        }
        return body;
      });
    });
  }

  // POST a JSON body; the answer's JSON, or an Error with the service's message, status and body.
  function post(url, body, token) {
    var headers = {"Content-Type": "application/json", "Accept": "application/json"};
    if (token) headers.Authorization = "Bearer " + token;
    return fetch(url, {method: "POST", headers: headers, body: JSON.stringify(body)}).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (answer) {
        if (!response.ok) {
          var err = new Error(answer && answer.error && answer.error.message ? answer.error.message
                                                                             : "HTTP " + response.status);
          err.status = response.status;
          err.body = answer;
          throw err;
        }
        answer.httpStatus = response.status;
        return answer;
      });
    });
  }

  // ---- events: a token, the events it may upload into, the event, round and table. The setup screen
  // and the end screen each have one (ids: token, find, note, select, round, table). A token bound to
  // one event (GET /api/v1/events?for=upload says which: bound_event) can only upload into it, so the
  // choice is locked to that event: a table judge cannot file the game elsewhere by mistake.
  var NO_EVENT = "No event (a friendly game)";

  function eventPicker(ids, onChange) {
    var select = byId(ids.select), note = byId(ids.note), tokenInput = byId(ids.token);
    var lockedFor = null;  // the token the choice is locked for
    var changed = onChange || function () {};

    function optionFor(event) {
      var value = event.id ? String(event.id) : "name:" + event.name;
      var found = Array.prototype.filter.call(select.options, function (o) { return o.value === value; })[0];
      return found || option(select, value, event.name);
    }

    function value() {
      var o = select.options[select.selectedIndex];
      if (!o || !o.value) return null;
      return {id: /^[0-9]+$/.test(o.value) ? Number(o.value) : null, name: o.text};
    }

    // The event chosen (a game's own {id, name}, or null); one the list lacks is added to it.
    function set(event) {
      if (!event) { select.value = ""; return; }
      if (!event.id) {  // from a log file: the name only; the listed event of that name if there is one
        var same = Array.prototype.filter.call(select.options, function (o) {
          return o.text === event.name && /^[0-9]+$/.test(o.value);
        })[0];
        if (same) { select.value = same.value; return; }
      }
      select.value = optionFor(event).value;
    }

    function unlock() {
      if (lockedFor === null) return;
      lockedFor = null;
      select.disabled = false;
      select.removeAttribute("data-bound");
      if (!select.querySelector('option[value=""]')) select.insertBefore(el("option", "", NO_EVENT), select.firstChild);
      select.options[0].value = "";
    }

    function lock(token, event) {
      var before = value();
      Array.prototype.slice.call(select.options).forEach(function (o) { select.removeChild(o); });
      select.value = optionFor(event).value;
      select.disabled = true;
      select.setAttribute("data-bound", String(event.id));
      lockedFor = token;
      note.textContent = "This token is for " + event.name + " only: the game goes into that event.";
      return !before || before.id !== event.id;
    }

    function problem(err) {
      return err.status === 401 ? "That token is not valid (mistyped, unknown or revoked): " + err.message
                                : "Could not load the events: " + err.message;
    }

    // GET /api/v1/events?for=upload&game=<the page's game>: the events of the page's game this token
    // may upload into (a bound token's one event; an organiser's public and own unlisted ones; every
    // one for an admin); it checks the token on the way (a bad one is a 401 now, not at the end of the
    // game). Resolves to whether a bound token changed the event chosen.
    function load() {
      var token = tokenInput.value.trim();
      if (!token) {
        note.textContent = "Enter the API token first.";
        tokenInput.focus();
        return Promise.reject(new Error("no token"));
      }
      store.setToken(token);
      note.textContent = "Looking for events…";
      return getJSON(urls.events + "?for=upload&game=" + encodeURIComponent(game), token).then(function (body) {
        var bound = body.bound_event ? body.events.filter(function (e) { return e.id === body.bound_event; })[0] : null;
        if (bound) {
          var moved = lock(token, bound);
          changed();
          return moved;
        }
        unlock();
        var chosen = value();
        Array.prototype.slice.call(select.options, 1).forEach(function (o) {
          if (!o.hasAttribute("data-unlisted")) select.removeChild(o);
        });
        body.events.forEach(function (e) { optionFor(e); });
        set(chosen);
        note.textContent = body.events.length ? "The token is valid; it may upload into " + body.events.length +
                                                " event(s)."
                                              : "The token is valid; there is no event it may upload into.";
        changed();
        return false;
      }, function (err) {
        note.textContent = problem(err);
        throw err;
      });
    }

    // An unlisted event, by number: shown only to a token that may see it (its organiser's, an
    // admin's, or an uploader's bound to it).
    function findOne(id) {
      var token = tokenInput.value.trim();
      if (!token || !/^[1-9][0-9]*$/.test(id)) {
        note.textContent = "Enter the API token and the event's number.";
        return;
      }
      if (lockedFor === token) return;  // a bound token's event is already the only one
      store.setToken(token);
      getJSON(urls.event + id, token).then(function (e) {
        optionFor(e).setAttribute("data-unlisted", "true");
        select.value = String(e.id);
        note.textContent = "Event " + e.id + ": " + e.name + ".";
        changed();
      }, function (err) {
        note.textContent = err.status === 404 ? "This token sees no event " + id + "." : problem(err);
      });
    }

    byId(ids.find).addEventListener("click", function () { load().catch(function () {}); });
    select.addEventListener("change", changed);
    tokenInput.addEventListener("input", function () {
      if (lockedFor !== null && tokenInput.value.trim() !== lockedFor) {
        unlock();
        note.textContent = "Another token: press Find events to see its events.";
        changed();
      }
    });
    return {load: load, findOne: findOne, value: value, set: set,
            locked: function () { return lockedFor !== null && lockedFor === tokenInput.value.trim(); }};
  }

  // Round and table, as the form has them: the problems of a game in an event without them (one
  // match counts once: the round, the table and the players are how the service knows a match).
  function matchProblems(event, round, table) {
    var problems = [];
    if (round && !/^[1-9][0-9]{0,8}$/.test(round)) problems.push("The round is a whole number from 1.");
    if (event && !round) problems.push("A game in an event needs its round (from the pairings).");
    if (event && !table) problems.push("A game in an event needs its table (from the pairings).");
    return problems;
  }

  function markMatchFields(roundInput, tableInput, event) {
    roundInput.setAttribute("aria-invalid", String(!!event && !/^[1-9][0-9]{0,8}$/.test(roundInput.value.trim())));
    tableInput.setAttribute("aria-invalid", String(!!event && !tableInput.value.trim()));
  }

  return {getJSON: getJSON, post: post, eventPicker: eventPicker, matchProblems: matchProblems,
          markMatchFields: markMatchFields};
})();
