"""Lines played, refused and listed through a game's own ``check`` and ``answer`` (the path a log's
lines take), for the rule tests of any game played one decision at a time: each game's helpers bind
these to its line grammar (``LineChecks(parse_line, format_line)``)."""

from __future__ import annotations

from typing import Any, Callable


class LineChecks:
    def __init__(self, parse_line: Callable[[str], Any], format_line: Callable[[Any], str]) -> None:
        self.parse_line, self.format_line = parse_line, format_line

    def play(self, g: Any, *texts: str) -> Any:
        """Each line checked (it must be legal) and answered; the game back."""
        for text in texts:
            d = self.parse_line(text)
            why = g.check(d)
            assert why is None, f"{text!r}: {why}"
            g.answer(d)
        return g

    def refused(self, g: Any, text: str) -> str:
        """Why the game refuses ``text`` (it must be refused; the refusal never raises)."""
        why = g.check(self.parse_line(text))
        assert why is not None, f"{text!r} was allowed"
        return why

    def legal(self, g: Any) -> list[str]:
        return [self.format_line(d) for d in g.legal_decisions()]
