// The dashboards' one script: draws every figure of the page from the JSON the server embedded
// beside it (with a deck picker where the figure offers one), makes every table sortable by its
// headers, and keeps the filter form's URLs clean. No inline script: the page's CSP allows none.
(function () {
  "use strict";
  var config = {responsive: true, displaylogo: false,
                modeBarButtonsToRemove: ["lasso2d", "select2d"], toImageButtonOptions: {format: "png"}};

  // --- figures ---------------------------------------------------------------------------------

  // A figure whose layout.meta.picker lists decks (dashboards/figures.py, trend_win_rates) gets a
  // row of checkbox chips under it: ticking one shows that deck's traces (its line and band, one
  // legendgroup), unticking hides them. The chips are the legend: each has the deck's colour.
  function addPicker(el, figure) {
    var picker = figure.layout.meta && figure.layout.meta.picker;
    if (!picker || !picker.length) { return; }
    var box = document.createElement("fieldset");
    box.className = "picker chips";
    box.id = el.id + "-picker";
    var legend = document.createElement("legend");
    legend.textContent = "Decks drawn";
    box.appendChild(legend);
    picker.forEach(function (item) {
      var chip = document.createElement("label");
      chip.className = "chip";
      var input = document.createElement("input");
      input.type = "checkbox";
      input.value = item.deck;
      input.checked = item.shown;
      var swatch = document.createElement("span");
      swatch.className = "swatch";
      swatch.style.background = item.colour;
      var name = document.createElement("span");
      name.className = "full";
      name.textContent = item.deck;
      var short = document.createElement("span");
      short.className = "short";  // shown instead of the full name on a phone (app.css)
      short.textContent = item.short;
      var games = document.createElement("span");
      games.className = "count";
      games.textContent = " " + item.games;
      chip.title = item.deck + ": " + item.games + " seat-games in these filters";
      chip.append(input, swatch, name);
      if (item.short !== item.deck) { chip.appendChild(short); }
      chip.appendChild(games);
      input.addEventListener("change", function () {
        var indexes = [];
        el.data.forEach(function (trace, i) { if (trace.legendgroup === item.deck) { indexes.push(i); } });
        Plotly.restyle(el, {visible: input.checked}, indexes);
      });
      box.appendChild(chip);
    });
    el.insertAdjacentElement("afterend", box);
  }

  // On a phone a figure takes the changes its layout.meta.narrow lists (dashboards/figures.py:
  // short deck names, no text in heatmap cells, the title's detail wrapped), and no mode bar,
  // which would cover the title.
  var NARROW = 600;

  function narrowed(el, figure) {
    var narrow = figure.layout.meta && figure.layout.meta.narrow;
    if (!narrow || el.clientWidth >= NARROW) { return Promise.resolve(); }
    el.setAttribute("data-narrow", "true");
    var steps = (narrow.restyle || []).map(function (step) {
      return function () { return Plotly.restyle(el, step.update, step.traces); };
    });
    steps.push(function () { return Plotly.relayout(el, narrow.layout || {}); });
    return steps.reduce(function (done, step) { return done.then(step); }, Promise.resolve());
  }

  document.querySelectorAll("[data-figure]").forEach(function (el) {
    var source = document.getElementById(el.getAttribute("data-figure"));
    if (!source || typeof Plotly === "undefined") { return; }
    var figure = JSON.parse(source.textContent);
    var options = Object.assign({}, config, el.clientWidth < NARROW ? {displayModeBar: false} : {});
    Plotly.newPlot(el, figure.data, figure.layout, options).then(function () {
      return narrowed(el, figure);
    }).then(function () {
      addPicker(el, figure);
      el.setAttribute("data-rendered", "true");
    });
  });

  // --- sortable tables -------------------------------------------------------------------------

  // A cell that reads as a number: "12", "-3.5", "53.1%", "+4.2 pts", "53.1% (48.2–58.0%)" (a rate
  // sorts by the rate). Anything else ("2026-W10", "3–0–1", a name) sorts as text, digits in
  // number order. "–" (no value) and empty cells go last whichever way a column is sorted.
  var NUMBER = /^([+\-\u2212]?\d+(?:\.\d+)?)(?:%| pts)?(?:\s*\(.*\))?$/;
  var collator = new Intl.Collator(undefined, {numeric: true, sensitivity: "base"});

  function cellText(row, column) {
    var cell = row.cells[column];
    return cell ? cell.textContent.trim() : "";
  }

  function isEmpty(text) { return text === "" || text === "\u2013"; }

  function numericColumn(rows, column) {
    var seen = false;
    for (var i = 0; i < rows.length; i++) {
      var text = cellText(rows[i], column);
      if (isEmpty(text)) { continue; }
      if (!NUMBER.test(text)) { return false; }
      seen = true;
    }
    return seen;
  }

  function sortTable(table, column, header) {
    var body = table.tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var numeric = numericColumn(rows, column);
    var current = header.getAttribute("aria-sort");
    // first click: numbers highest first, text A to Z; a second click reverses
    var direction = current ? (current === "ascending" ? "descending" : "ascending")
                            : (numeric ? "descending" : "ascending");
    var sign = direction === "ascending" ? 1 : -1;
    var keyed = rows.map(function (row, index) {
      var text = cellText(row, column);
      var key = isEmpty(text) ? null
        : numeric ? parseFloat(NUMBER.exec(text)[1].replace("\u2212", "-")) : text;
      return {row: row, key: key, index: index};
    });
    keyed.sort(function (a, b) {
      if (a.key === null || b.key === null) {
        return a.key === b.key ? a.index - b.index : (a.key === null ? 1 : -1);
      }
      var order = numeric ? a.key - b.key : collator.compare(a.key, b.key);
      return order === 0 ? a.index - b.index : sign * order;
    });
    keyed.forEach(function (item) { body.appendChild(item.row); });
    table.querySelectorAll("thead th").forEach(function (th) { th.removeAttribute("aria-sort"); });
    header.setAttribute("aria-sort", direction);
  }

  document.querySelectorAll("table.sortable").forEach(function (table) {
    table.querySelectorAll("thead th").forEach(function (th, column) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "sort";
      while (th.firstChild) { button.appendChild(th.firstChild); }
      th.appendChild(button);
      button.addEventListener("click", function () { sortTable(table, column, th); });
    });
  });

  // --- filters ---------------------------------------------------------------------------------

  // Every filter applies the same way: change any of them, then Apply (one page load for several
  // changes). The Apply button says when the form differs from the page shown.
  var form = document.getElementById("filters");
  if (form) {
    form.addEventListener("submit", function () {
      form.querySelectorAll("input, select").forEach(function (field) {
        if (field.value === "" && field.type !== "checkbox") { field.disabled = true; }
      });
    });
    var onChange = function () { form.setAttribute("data-changed", "true"); };
    form.addEventListener("input", onChange);
    form.addEventListener("change", onChange);
    var clear = form.querySelector("[data-clear-decks]");
    if (clear) {
      clear.addEventListener("click", function () {
        form.querySelectorAll("input[name=deck]").forEach(function (box) { box.checked = false; });
        onChange();
      });
    }
  }

  // --- the game switcher (base.html) ----------------------------------------------------------

  // A <details> opens and closes by itself; a list left open over the page would hide it, so a tap
  // elsewhere or Escape closes it too (Escape puts the focus back on the button).
  var switcher = document.getElementById("game-switcher");
  if (switcher) {
    document.addEventListener("click", function (ev) {
      if (switcher.open && !switcher.contains(ev.target)) { switcher.open = false; }
    });
    switcher.addEventListener("keydown", function (ev) {
      if (ev.key === "Escape" && switcher.open) {
        switcher.open = false;
        switcher.querySelector("summary").focus();
      }
    });
  }
})();
