"""The cells of every CSV file the service writes (the API's export, the dashboards' downloads),
written one way, so that each file opens the same in a spreadsheet and none of them runs a formula.

Names in these files are typed by players and organisers (players, tables, decks, events). A cell a
spreadsheet would take for a formula (it starts with ``=``, ``+``, ``-``, ``@``, a tab or a carriage
return: OWASP's "CSV injection") gets a leading apostrophe, which spreadsheets show as text and do
not run; docs/export.md says so for readers of the file.
"""

from __future__ import annotations

import json

FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value):
    """A value as a CSV cell: nothing as an empty cell; a list as a JSON array (names may hold
    commas, and a JSON array reads back the same); a bool as true/false; text that a spreadsheet
    would run as a formula behind an apostrophe; anything else (numbers, dates) as it is."""
    if value is None:
        return ""
    if isinstance(value, list):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value
