"""Small rules of English that every message of the service follows, written once: "an anchor
token", "an uploader token", "a Stop token", "an 8th Ashigaru"."""

from __future__ import annotations

import re

# Numbers said with a vowel sound first: eight, eleven, eighteen, eighty-…, eight hundred …
_VOWEL_NUMBER = re.compile(r"^(8|11(?!\d)|18(?!\d)|8\d(?!\d))")


def with_article(words: str) -> str:
    """``words`` after "a" or "an", chosen by how the first word sounds (by its first letter, or
    for a number by how it is said); a word that starts with a capital vowel gets "an" too."""
    first = words[:1].lower()
    vowel = first in "aeiou" if first.isalpha() else _VOWEL_NUMBER.match(words) is not None
    return ("an " if vowel else "a ") + words
