"""Statistics over the aggregate tables (agg_*): the read side of the meta dashboards.

- ``services.stats.intervals``: rates with their n and 95% Wilson score interval, shares, means —
  the one place these numbers are computed (the API and the dashboards both use it).
- ``services.stats.filters``: the filters every statistic takes (date range, events, table size,
  decks, min_games) and their parsing from query parameters.
- ``services.stats.queries``: the SQL (aggregate tables only) and the rows each statistic returns.
"""
