"""Demo data for ``empyrean up``: a simulated league (services.simulation.simulate), uploaded
through the real API as a bundle (services.cli.upload_client), so it is stored, replayed by the
workers and counted exactly like real uploads, with a few deliberately flawed games so that
verification and disputes have something to show:

- an illegal game (one decision replaced by one the rules forbid at that point),
- a game whose log claims the wrong winner (``mismatch``),
- that same match uploaded a second time, as the loser tells it (a dispute).

The league plays one round a week, so that trends show, in four divisions of 128 players (each
division an event of its own, with its own standings), 2,048 games in all: enough that the dashboards
draw every deck in colour at their default minimum sample (services.stats.filters: DEFAULT_MIN_GAMES;
tests/test_simulate.py checks it), where one league of a dozen players left every bar grey.
Divisions rather than one field of 512: the Swiss pairing's matching grows with the cube of the field
(a 512-player round takes seconds), and divisions play in processes side by side (the compiled engine
when it is built), so ``up`` is ready well within a minute and a half (docs/performance.md). Loading is
skipped when the first division already has games (a restart of ``up`` on the same data).

Beside the league, an event of each other game (``GAME_EVENTS``): **Titans of Empyrean**
(``TITANS_EVENT``) and **Elysian Battlefields** (``ELYSIAN_EVENT``), each a one-day Swiss tournament
of 64 players over 7 rounds, 224 matches, and **Spells & Steam** (``STEAM_EVENT``), 64 players over 9
rounds that seat pairs and tables of four in turn (``SimConfig.seats``: its statistics are by table
size, so both sizes have theirs), 160 + 64 tables; of each the simulator uploads a few with its flaws
(``SimConfig.flawed``: an illegal game, wrong claims, a duplicate, a dispute), so that at least 200
games count and its verdicts and disputes pages have something to show. Titans is played by the
greedy bots; Elysian and Spells & Steam by the random one (their greedy bots look ahead at every
answer and would take minutes; the random ones still play whole games). Their players are named
Player T01 …, Player E01 … and Player S01 … so that no name is also another event's. The events are
played longest first (``LONGEST_FIRST``), two processes side by side, then the divisions. They are
loaded (or skipped) with the league.
"""

from __future__ import annotations

import datetime as dt
import json
import os
from collections.abc import Callable

from engine.games import info
from engine.rng import SplitMix64
from services.cli.upload_client import ApiClient
from services.simulation.processes import process_map
from services.simulation.simulate import Bundle, SimConfig, make_illegal, simulate, wrong_result

LEAGUE = "Demo League"
DIVISIONS = "ABCD"
PLAYERS = 128  # a division's
ROUNDS = 8  # one round a week
FIRST_DAY = dt.date(2026, 9, 5)
SEED = 2026  # the same league at every `up`
JOBS = min(len(DIVISIONS), os.cpu_count() or 1)  # processes playing the divisions (the games do not depend on it)


def division_event(division: str) -> str:
    return f"{LEAGUE} {division} (simulated games)"


DEMO_EVENT = division_event(DIVISIONS[0])  # the first division; its event also holds the flawed games


TITANS = "titans"  # the game's key
TITANS_EVENT = "Titans Demo Open (simulated games)"
ELYSIAN = "elysian"
ELYSIAN_EVENT = "Elysian Demo Open (simulated games)"
STEAM = "steam"
STEAM_EVENT = "Spells & Steam Demo Open (simulated games)"
# each event's seed brings every kind of flaw and at least 200 valid games (tests/test_simulate.py)
GAME_EVENTS = {
    TITANS: SimConfig(game=TITANS, players=64, rounds=7, bot="greedy", flawed=0.04, seed=SEED + 1,
                      start=FIRST_DAY + dt.timedelta(weeks=ROUNDS), name=TITANS_EVENT),
    ELYSIAN: SimConfig(game=ELYSIAN, players=64, rounds=7, bot="random", flawed=0.04, seed=SEED + 2,
                       start=FIRST_DAY + dt.timedelta(weeks=ROUNDS, days=1), name=ELYSIAN_EVENT),
    STEAM: SimConfig(game=STEAM, players=64, rounds=9, seats=(2, 4), bot="random", flawed=0.04, seed=SEED + 3,
                     start=FIRST_DAY + dt.timedelta(weeks=ROUNDS, days=2), name=STEAM_EVENT),
}
NAME_PREFIX = {TITANS: "T", ELYSIAN: "E", STEAM: "S"}  # Player T01 …, Player E01 …, Player S01 …
LONGEST_FIRST = (STEAM, TITANS, ELYSIAN)  # the order the events are played in, so the processes end together


def _named_for(games: list[dict], prefix: str) -> list[dict]:
    """The games with their players renamed Player <prefix>… (Player 001 → Player A001)."""
    for log in games:
        meta = log["meta"]
        meta["players"] = [name.replace("Player ", f"Player {prefix}", 1) for name in meta["players"]]
    return games


def demo_division(i: int) -> list[dict]:
    """Division ``i``: a weekly Swiss league of 128 players, each with a deck of their own
    (services.simulation.simulate); its players are named for the division (Player A001 …)."""
    division = DIVISIONS[i]
    league = SimConfig(players=PLAYERS, rounds=ROUNDS, round_days=7, bot="greedy", seed=SEED + i,
                       start=FIRST_DAY, name=division_event(division))
    return _named_for(simulate(league).uploads, division)


def demo_event(game: str) -> Bundle:
    """The demo event of ``game`` (a key of GAME_EVENTS): its uploads in order, flawed ones included,
    and what the service must make of them (``Bundle.expected``); its players named for the game."""
    bundle = simulate(GAME_EVENTS[game])
    _named_for(bundle.uploads, NAME_PREFIX[game])
    return bundle


def _play(task: int | str) -> list[dict] | Bundle:
    """One task of the demo: a division by its index, or a game's event by its key."""
    return demo_division(task) if isinstance(task, int) else demo_event(task)


def demo_games(jobs: int = JOBS) -> tuple[list[list[dict]], dict[str, Bundle]]:
    """Every division's games, division by division, and each game event's bundle by the game's
    key (in GAME_EVENTS' order). The game events are played first, the longest first, and the
    divisions after them, each by the first process free."""
    done = list(process_map(_play, [*LONGEST_FIRST, *range(len(DIVISIONS))], jobs))
    events = dict(zip(LONGEST_FIRST, done[:len(LONGEST_FIRST)]))
    return done[len(LONGEST_FIRST):], {game: events[game] for game in GAME_EVENTS}


def flawed_games(games: list[dict]) -> list[dict]:
    """The extra uploads that verification must catch (see the module docstring); the flaws are
    made the way the tournament simulator makes them (services.simulation.simulate)."""
    illegal = make_illegal(games[0], SplitMix64(SEED))
    # a match of its own, so that it is judged alone rather than disputing games[0]
    illegal["meta"] = {**illegal["meta"], "table": "99", "players": ["Late Entry 1", "Late Entry 2"]}
    # uploaded as the loser remembers it: the same match as games[1], so it opens a dispute
    return [illegal, wrong_result(games[1])]


def load_demo(api_url: str, echo: Callable[[str], None] = print, token: str | None = None) -> list[dict] | None:
    """Upload the demo league through the API at ``api_url`` (the service's base URL) with
    ``token`` (an admin or organiser token: `empyrean up` makes one): each division as a bundle
    to its event, the flawed games with the first."""
    client = ApiClient(api_url, uploader="demo data", token=token)
    first = client.event(DEMO_EVENT)
    if sum(first.get("games", {}).values()):
        echo(f"demo data: already loaded ({LEAGUE})")
        return None
    divisions, events = demo_games()
    reports = []
    for i, games in enumerate(divisions):
        event = first if i == 0 else client.event(division_event(DIVISIONS[i]))
        bundle = games + flawed_games(games) if i == 0 else games
        reports.append(client.post_bundle(event["id"], (json.dumps(g).encode() for g in bundle)))
    simulated = sum(len(games) for games in divisions)
    echo(f"demo data: {sum(r['accepted'] for r in reports)} games of '{LEAGUE}' uploaded ({simulated} simulated "
         f"in {len(divisions)} divisions, plus an illegal game and a disputed result); the workers are replaying them")
    for game, bundle in events.items():
        config = GAME_EVENTS[game]
        event = client.event(config.name, game=game)
        reports.append(client.post_bundle(event["id"], (json.dumps(g).encode() for g in bundle.uploads)))
        flaws = ", ".join(f"{n} {flaw.replace('_', ' ')}" for flaw, n in bundle.flaws.items() if n)
        echo(f"demo data: {reports[-1]['accepted']} games of '{config.name}' ({info(game).name}) uploaded "
             f"({bundle.matches} simulated matches, {len(bundle.counted)} of them counted; flawed: {flaws})")
    return reports
