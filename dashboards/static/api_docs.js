// The API reference page (dashboards/templates/api_docs.html): Swagger UI over the service's own
// OpenAPI document. Started here rather than inline: the site's Content-Security-Policy allows no
// inline script. validatorUrl null: Swagger UI would otherwise ask swagger.io to validate the document.
// For people using a screen reader or reading low contrast (docs/dashboards.md, "Accessibility"):
// deepLinking off, since it puts a link inside each operation's unfold button (axe-core's
// nested-interactive: a screen reader announces the button without the link, or the other way
// round); the examples drawn in the "arta" theme, whose colours read at 6:1 or more on its
// background (the default "agate" draws numbers at 3.4:1).
(function () {
  "use strict";
  var root = document.getElementById("swagger-ui");
  if (!root || typeof window.SwaggerUIBundle !== "function") return;
  window.SwaggerUIBundle({
    url: root.getAttribute("data-spec-url"),
    domNode: root,
    deepLinking: false,
    syntaxHighlight: {activated: true, theme: "arta"},
    validatorUrl: null,
    tryItOutEnabled: false
  });
})();
