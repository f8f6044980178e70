"""A WHERE clause put together from optional filters, each condition binding its own parameters
(always bound by psycopg, never formatted into the SQL text)."""

from __future__ import annotations


class Where:
    """Conditions and the parameters they bind: all of them must hold (``sql``), or one (``any_sql``)."""

    def __init__(self, *conditions: str, params: dict | None = None):
        self.conditions = list(conditions)
        self.params = dict(params or {})

    def add(self, condition: str, **params) -> None:
        self.conditions.append(condition)
        self.params.update(params)

    def when_set(self, condition: str, **params) -> None:
        """Adds ``condition`` only if every parameter it binds is set (not None): a filter left out."""
        if all(value is not None for value in params.values()):
            self.add(condition, **params)

    def sql(self) -> str:
        return " AND ".join(self.conditions) if self.conditions else "true"

    def any_sql(self) -> str:
        return "(" + " OR ".join(self.conditions) + ")" if self.conditions else "false"
