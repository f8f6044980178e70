// Draws every figure of the page from the JSON the server embedded beside it, and keeps the
// filter URLs clean (empty fields are left out of the query string).
(function () {
  "use strict";
  var config = {responsive: true, displaylogo: false,
                modeBarButtonsToRemove: ["lasso2d", "select2d"], toImageButtonOptions: {format: "png"}};
  document.querySelectorAll("[data-figure]").forEach(function (el) {
    var source = document.getElementById(el.getAttribute("data-figure"));
    if (!source || typeof Plotly === "undefined") { return; }
    var figure = JSON.parse(source.textContent);
    Plotly.newPlot(el, figure.data, figure.layout, config).then(function () {
      el.setAttribute("data-rendered", "true");
    });
  });
  var form = document.getElementById("filters");
  if (form) {
    form.addEventListener("submit", function () {
      form.querySelectorAll("input, select").forEach(function (field) {
        if (field.value === "" && !field.multiple) { field.disabled = true; }
      });
    });
    // a choice in a select applies at once, like the rest of the web's dashboards
    form.querySelectorAll("select").forEach(function (select) {
      select.addEventListener("change", function () {
        if (!select.multiple) { form.requestSubmit(); }
      });
    });
  }
})();
