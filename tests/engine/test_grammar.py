"""engine.grammar: "a" or "an", as the words sound."""

from __future__ import annotations

import pytest

from engine.grammar import with_article


@pytest.mark.parametrize(("words", "said"), [
    ("anchor token", "an anchor token"), ("uploader", "an uploader"), ("organiser", "an organiser"),
    ("Ashigaru", "an Ashigaru"), ("stop token", "a stop token"), ("Ronin", "a Ronin"),
    ("2nd Ashigaru", "a 2nd Ashigaru"), ("8th Ashigaru", "an 8th Ashigaru"), ("11th", "an 11th"),
    ("18th", "an 18th"), ("111th", "a 111th"), ("83rd", "an 83rd"), ("3rd", "a 3rd"),
])
def test_a_or_an_by_the_sound_of_the_first_word(words, said):
    assert with_article(words) == said
