"""Schemathesis against the served OpenAPI document (GET /api/v1/openapi.json): generated requests
for every operation, valid and invalid, through the real app, Postgres and Redis. No server error,
and every answer matches its documented status, content type and schema. Bounded for CI.

(Driven through Hypothesis directly rather than schemathesis' pytest plugin, which does not run
under pytest 9 yet.)"""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis.checks import (
    content_type_conformance,
    not_a_server_error,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)
from service_helpers import make_token

from services.api.openapi import document

EXAMPLES_PER_OPERATION = 30
# What is checked: no server error, no answer outside its documented status, type, headers and
# schema. (Whether a documented parameter pattern is exactly as strict as the parser behind it —
# schemathesis' positive/negative data checks — is left out: the parser's own tests pin that down.)
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance]
OPERATIONS = [result.ok().label for result in schemathesis.openapi.from_dict(document()).get_all_operations()]


@pytest.fixture(scope="module")
def served_schema(app):
    return schemathesis.openapi.from_wsgi("/api/v1/openapi.json", app)


@pytest.fixture(scope="module")
def admin(app) -> dict:
    """An admin token, so the generated writes reach the handlers rather than stop at a 401."""
    return {"Authorization": f"Bearer {make_token(app, 'admin', name='schemathesis')}"}


@pytest.mark.parametrize("label", OPERATIONS)
def test_the_api_keeps_its_documented_contract(served_schema, admin, label):
    operation = served_schema.find_operation_by_label(label)

    @settings(max_examples=EXAMPLES_PER_OPERATION, deadline=None, suppress_health_check=list(HealthCheck))
    @given(operation.as_strategy())
    def call(case):
        case.call_and_validate(headers=admin, checks=CHECKS)

    call()
