"""Where the browser tests keep what a person should look at: test-artifacts/screenshots/ (kept
after the run). A module of its own so test modules can import it (``conftest`` by name would find
tests/services' conftest when the whole suite is collected)."""

from __future__ import annotations

from pathlib import Path

SCREENSHOTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "screenshots"
