"""Text that PostgreSQL can store. ``text`` and ``jsonb`` cannot hold the NUL character, and jsonb
refuses lone UTF-16 surrogates; both can reach a verdict message or error list when the engine
quotes what a broken log contains (a key named "\\u0000", a string with "\\ud800"). They are
replaced by U+FFFD, the replacement character, so the message is stored and still says where."""

from __future__ import annotations

import re
from typing import Any

_UNSTORABLE = re.compile("[\x00\ud800-\udfff]")


def storable(value: Any) -> Any:
    """``value`` (a string, or lists and dicts of them) with every NUL and lone surrogate replaced."""
    if isinstance(value, str):
        return _UNSTORABLE.sub("\ufffd", value) if _UNSTORABLE.search(value) else value
    if isinstance(value, list):
        return [storable(v) for v in value]
    if isinstance(value, dict):
        return {storable(k): storable(v) for k, v in value.items()}
    return value
