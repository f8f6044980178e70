"""services.platform.csv_cells: how every CSV the service writes spells a cell."""

from __future__ import annotations

import datetime as dt

import pytest

from services.platform.csv_cells import csv_cell


@pytest.mark.parametrize("text", ['=HYPERLINK("http://evil","x")', "+cmd|calc", "-2+3", "@SUM(1+1)",
                                  "\tTable 1", "\rRow"])
def test_text_a_spreadsheet_would_run_is_written_behind_an_apostrophe(text):
    assert csv_cell(text) == "'" + text


def test_every_other_value_is_written_as_it_reads_back():
    assert csv_cell(None) == ""
    assert csv_cell(["The Oasis, West", "=x"]) == '["The Oasis, West", "=x"]'  # a JSON array starts with [
    assert (csv_cell(True), csv_cell(False)) == ("true", "false")
    assert csv_cell(-3) == -3 and csv_cell(0) == 0  # numbers are numbers to a spreadsheet
    assert csv_cell(dt.date(2026, 11, 3)) == dt.date(2026, 11, 3)
    assert csv_cell("Ana = Bo") == "Ana = Bo"  # only the first character matters
