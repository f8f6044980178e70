"""services.platform.sql.Where: optional filters make a WHERE clause whose values are all bound."""

from services.platform.sql import Where


def test_conditions_and_their_parameters_are_kept_in_order():
    where = Where("a = %(a)s", params={"a": 1})
    where.add("b = ANY(%(b)s)", b=[2, 3])
    assert where.sql() == "a = %(a)s AND b = ANY(%(b)s)"
    assert where.params == {"a": 1, "b": [2, 3]}


def test_a_filter_left_out_adds_nothing():
    where = Where()
    where.when_set("x = %(x)s", x=None)
    where.when_set("y = %(y)s", y=0)  # falsy but set: a filter all the same
    where.when_set("z BETWEEN %(lo)s AND %(hi)s", lo=1, hi=None)  # half a range: left out
    assert where.conditions == ["y = %(y)s"]
    assert where.params == {"y": 0}


def test_no_condition_reads_as_every_row_or_as_none_of_the_alternatives():
    assert Where().sql() == "true"
    assert Where().any_sql() == "false"
    assert Where("p", "q").any_sql() == "(p OR q)"
