// The dispute desk's "Resolve" form (dashboards/templates/disputes.html): posts the organiser's ruling
// to POST /api/v1/disputes/{id}/resolve with the API token typed into the page. The token is kept in
// this tab's sessionStorage (as the recorder keeps its own), never in localStorage. An error is said in
// words beside the form and nothing typed is cleared; after success the page is reloaded, and shows
// the ruling.
(function () {
  "use strict";

  var TOKEN = "empyrean.desk.token";
  var form = document.getElementById("resolve-form");
  if (!form) return;  // resolved already: the page shows the ruling
  var tokenField = document.getElementById("desk-token");
  var ruling = document.getElementById("resolution");
  var errorBox = document.getElementById("resolve-error");
  var button = document.getElementById("resolve-button");

  try { tokenField.value = window.sessionStorage.getItem(TOKEN) || ""; } catch (e) { /* storage refused */ }
  tokenField.addEventListener("input", function () {
    try { window.sessionStorage.setItem(TOKEN, tokenField.value.trim()); } catch (e) { /* kept in the field */ }
  });

  // What each refusal of the API means for the person at the desk (its own message follows).
  var LEADS = {
    400: "The ruling was not accepted",
    401: "The token was not accepted (unknown, mistyped or revoked) — enter an organiser's or admin's API token",
    403: "This token may not resolve this dispute: only the event's organiser or an admin can",
    404: "This dispute is no longer there",
    409: "The dispute could not be resolved this way",
    429: "Too many requests: wait a moment and try again"
  };

  function say(text) {
    errorBox.textContent = text;
    errorBox.hidden = false;
  }

  form.addEventListener("submit", function (event) {
    event.preventDefault();
    errorBox.hidden = true;
    var chosen = form.querySelector("input[name=counts]:checked");
    var token = tokenField.value.trim();
    if (!chosen) { say("Choose which game counts (or none of them)."); return; }
    if (!ruling.value.trim()) { say("Write the ruling: the players will read it."); ruling.focus(); return; }
    if (!token) { say("Enter your API token: only the event's organiser (or an admin) can resolve this dispute."); tokenField.focus(); return; }
    button.disabled = true;
    fetch(form.dataset.url, {
      method: "POST",
      headers: {"Content-Type": "application/json", "Authorization": "Bearer " + token},
      body: JSON.stringify({counts: chosen.value ? Number(chosen.value) : null, resolution: ruling.value})
    }).then(function (response) {
      if (response.ok) { window.location.reload(); return null; }
      return response.json().catch(function () { return {}; }).then(function (body) {
        var message = body && body.error && body.error.message;
        var lead = LEADS[response.status] || ("The service answered " + response.status);
        say(lead + (message ? ": " + String(message).replace(/\.$/, "") : "") + ".");
      });
    }).catch(function () {
      say("The service could not be reached: nothing was resolved. Try again.");
    }).then(function () { button.disabled = false; });
  });
})();
