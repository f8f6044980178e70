// The API reference page (dashboards/templates/api_docs.html): Swagger UI over the service's own
// OpenAPI document. Started here rather than inline: the site's Content-Security-Policy allows no
// inline script. validatorUrl null: Swagger UI would otherwise ask swagger.io to validate the document.
(function () {
  "use strict";
  var root = document.getElementById("swagger-ui");
  if (!root || typeof window.SwaggerUIBundle !== "function") return;
  window.SwaggerUIBundle({
    url: root.getAttribute("data-spec-url"),
    domNode: root,
    deepLinking: true,
    validatorUrl: null,
    tryItOutEnabled: false
  });
})();
