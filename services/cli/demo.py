"""Demo data for ``empyrean up``: a small simulated tournament (services.simulation.simulate),
uploaded through the real API as a bundle (services.cli.upload_client), so it is stored, replayed
by the workers and counted exactly like real uploads, with a few deliberately flawed games so that
verification and disputes have something to show:

- an illegal game (one decision replaced by one the rules forbid at that point),
- a game whose log claims the wrong winner (``mismatch``),
- that same match uploaded a second time, as the loser tells it (a dispute).

The league plays one round a week, so that trends show. Loading is skipped when the demo event
already has games (a restart of ``up`` on the same data).
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable

from engine.rng import SplitMix64
from services.cli.upload_client import ApiClient
from services.simulation.simulate import SimConfig, make_illegal, simulate, wrong_result

DEMO_EVENT = "Demo League (simulated games)"
PLAYERS = 12
ROUNDS = 8  # one round a week
FIRST_DAY = dt.date(2026, 9, 5)
SEED = 2026  # the same league at every `up`


def demo_games() -> list[dict]:
    """A weekly Swiss league of 12 players, each with a deck of their own (services.simulation.simulate)."""
    league = SimConfig(players=PLAYERS, rounds=ROUNDS, round_days=7, bot="greedy", seed=SEED,
                       start=FIRST_DAY, name=DEMO_EVENT)
    return simulate(league).uploads


def flawed_games(games: list[dict]) -> list[dict]:
    """The extra uploads that verification must catch (see the module docstring); the flaws are
    made the way the tournament simulator makes them (services.simulation.simulate)."""
    illegal = make_illegal(games[0], SplitMix64(SEED))
    # a match of its own, so that it is judged alone rather than disputing games[0]
    illegal["meta"] = {**illegal["meta"], "table": "99", "players": ["Late Entry 1", "Late Entry 2"]}
    # uploaded as the loser remembers it: the same match as games[1], so it opens a dispute
    return [illegal, wrong_result(games[1])]


def load_demo(api_url: str, echo: Callable[[str], None] = print, token: str | None = None) -> dict | None:
    """Upload the demo league through the API at ``api_url`` (the service's base URL) with
    ``token`` (an admin or organiser token: `empyrean up` makes one)."""
    client = ApiClient(api_url, uploader="demo data", token=token)
    event = client.event(DEMO_EVENT)
    if sum(event.get("games", {}).values()):
        echo(f"demo data: already loaded ({DEMO_EVENT})")
        return None
    games = demo_games()
    bundle = games + flawed_games(games)
    report = client.post_bundle(event["id"], (json.dumps(g).encode() for g in bundle))
    echo(f"demo data: {report['accepted']} games of '{DEMO_EVENT}' uploaded "
         f"({len(games)} simulated, plus an illegal game and a disputed result); the workers are replaying them")
    return report
