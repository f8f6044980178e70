"""Fault tests: each gets a ``Rig`` (fault_rig.py) of its own — its own embedded PostgreSQL and
Redis, a real worker, the API over real HTTP — and breaks it on purpose."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(1, str(Path(__file__).resolve().parents[1] / "services"))

from fault_rig import Rig  # noqa: E402
from service_fixtures import *  # noqa: E402,F401,F403  (the shared fixtures; a rig does not use the shared servers)


@pytest.fixture
def make_rig(tmp_path):
    rigs: list[Rig] = []

    def make(**settings) -> Rig:
        rigs.append(Rig(tmp_path, **settings))
        return rigs[-1]

    yield make
    for rig in rigs:
        rig.close()
