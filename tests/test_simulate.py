"""The tournament simulator (services/simulation/simulate.py, `empyrean simulate`): Swiss pairings, events over
weeks, deliberately flawed uploads whose verification counts are known in advance."""

from __future__ import annotations

import datetime as dt
import gzip
import json
from collections import Counter, defaultdict

import pytest
from click.testing import CliRunner

from engine.bfe.selfplay import self_play
from engine.replay import replay
from engine.rng import SplitMix64
from services.cli import main as cli
from services.simulation.simulate import SimConfig, make_illegal, simulate, swiss_pairs


def test_a_64_player_6_round_event_verifies_with_the_expected_counts(tmp_path):
    out, expected = tmp_path / "open.ndjson.gz", tmp_path / "expected.json"
    result = CliRunner().invoke(cli, ["simulate", "--players", "64", "--rounds", "6", "--bot", "random",
                                      "--flawed", "0.25", "--seed", "5", "--out", str(out),
                                      "--expected", str(expected)])
    assert result.exit_code == 0, result.output
    want = json.loads(expected.read_text())
    assert want["matches"] == 64 // 2 * 6
    assert all(want["flaws"][kind] > 0 for kind in ("illegal", "wrong_result", "duplicate", "dispute"))
    verify = CliRunner().invoke(cli, ["verify", "--json", str(out)])
    assert verify.exit_code == 1  # some games are not valid, on purpose
    verdicts = [json.loads(line) for line in verify.output.splitlines() if line.startswith("{")]
    assert len(verdicts) == want["uploads"]
    assert dict(Counter(v["status"] for v in verdicts)) == {k: n for k, n in want["verify"].items() if n}
    # every illegal game names the decision at fault and the rule it breaks
    assert all(v["index"] is not None and v["rule"] for v in verdicts if v["status"] == "illegal")


def _bundle(**kw):
    return simulate(SimConfig(**{"players": 16, "rounds": 4, "bot": "random", "seed": 9, **kw}))


def test_swiss_rounds_pair_everyone_once_with_no_rematch_and_equal_scores_on_top():
    logs = _bundle().uploads
    by_round = defaultdict(list)
    for log in logs:
        by_round[log["meta"]["round"]].append(log["meta"]["players"])
    met = set()
    scores = Counter()
    for rnd in sorted(by_round):
        pairs = by_round[rnd]
        seated = [p for pair in pairs for p in pair]
        assert sorted(seated) == sorted(set(seated)) and len(seated) == 16  # each player once
        for pair in pairs:
            assert frozenset(pair) not in met, f"rematch in round {rnd}: {pair}"
            met.add(frozenset(pair))
        if rnd == 2:  # after one round: winners meet winners wherever the count allows
            gaps = [abs(scores[a] - scores[b]) for a, b in pairs]
            assert sum(g > 0 for g in gaps) <= 1
        for log, (a, b) in zip([lg for lg in logs if lg["meta"]["round"] == rnd], pairs):
            w = log["result"]["winner"]
            scores[a] += 1 if w == 1 else 0.5 if w is None else 0
            scores[b] += 1 if w == 2 else 0.5 if w is None else 0


def test_an_odd_player_gets_a_bye_and_it_goes_to_the_lowest_placed():
    standings = {"A": 2.0, "B": 2.0, "C": 1.0, "D": 0.0, "E": 1.0}
    pairs, bye = swiss_pairs(standings, set(), SplitMix64(1))
    assert bye == "D" and len(pairs) == 2
    assert sorted(p for pair in pairs for p in pair) == ["A", "B", "C", "E"]
    assert ("A", "B") in pairs  # the two leaders meet


def test_events_are_a_week_apart_and_the_simulation_is_deterministic():
    first = _bundle(events=3, players=8, rounds=2, start=dt.date(2026, 1, 3))
    dates = sorted({(log["meta"]["event"], log["meta"]["date"]) for log in first.uploads})
    assert dates == [("Simulated Open #1", "2026-01-03"), ("Simulated Open #2", "2026-01-10"),
                     ("Simulated Open #3", "2026-01-17")]
    again = _bundle(events=3, players=8, rounds=2, start=dt.date(2026, 1, 3))
    assert again.uploads == first.uploads
    assert _bundle(events=3, players=8, rounds=2, seed=10).uploads != first.uploads


def test_a_league_plays_one_round_a_week():
    league = _bundle(players=6, rounds=3, round_days=7, start=dt.date(2026, 3, 2))
    assert sorted({(log["meta"]["round"], log["meta"]["date"]) for log in league.uploads}) == [
        (1, "2026-03-02"), (2, "2026-03-09"), (3, "2026-03-16")]


def test_each_flaw_gives_the_verdict_it_promises():
    bundle = _bundle(flawed=1.0, players=12, rounds=3)
    statuses = Counter(replay(log, record=False).verdict.status for log in bundle.uploads)
    want = bundle.expected()["verify"]
    assert statuses == Counter({k: n for k, n in want.items() if n})
    hashes = Counter(json.dumps(log, sort_keys=True) for log in bundle.uploads)
    assert sum(n - 1 for n in hashes.values()) == bundle.flaws["duplicate"]


def test_a_flawed_game_is_illegal_at_the_decision_that_was_replaced():
    """Forced answers may be written or left out, so a decision the game refuses at a point may still
    be read as legal there (a 'P2 pass' just after P2's forced pass is that pass written out). Games
    1-3 have such points; every flawed game must fail exactly where its decision was replaced."""
    for seed in (1, 2, 3):
        log = self_play(seed)
        for stream in range(12):
            bad = make_illegal(log, SplitMix64(stream))
            changed = [i for i, (a, b) in enumerate(zip(log["decisions"], bad["decisions"])) if a != b]
            assert len(changed) == 1 and len(bad["decisions"]) == len(log["decisions"])
            verdict = replay(bad, record=False).verdict
            assert (verdict.status, verdict.index) == ("illegal", changed[0]), (seed, stream, verdict.message)


def test_the_bundle_is_written_as_a_json_array_too(tmp_path):
    out = tmp_path / "b.json"
    result = CliRunner().invoke(cli, ["simulate", "--players", "4", "--rounds", "1", "--bot", "random",
                                      "--out", str(out)])
    assert result.exit_code == 0, result.output
    assert len(json.loads(out.read_text())) == 2


def test_simulate_refuses_unknown_decks_naming_them(tmp_path):
    result = CliRunner().invoke(cli, ["simulate", "--deck", "Gnomes of Nowhere", "--out", str(tmp_path / "x.json")])
    assert result.exit_code == 2 and "Gnomes of Nowhere" in result.output


def test_verify_reads_gzip_and_reports_a_broken_gzip_file(tmp_path):
    good = tmp_path / "g.ndjson.gz"
    good.write_bytes(gzip.compress((json.dumps(_bundle(players=2, rounds=1).uploads[0]) + "\n").encode()))
    assert CliRunner().invoke(cli, ["verify", str(good)]).exit_code == 0
    broken = tmp_path / "b.ndjson.gz"
    broken.write_bytes(good.read_bytes()[:30])
    result = CliRunner().invoke(cli, ["verify", str(broken)])
    assert result.exit_code == 1 and "cannot be decompressed" in result.output


# --- the players' decks and the bot reach the games (issue 18: they sat in a comment, unseen by any test)
def _decks_by_player(uploads: list[dict]) -> dict[tuple[str, str], set[str]]:
    """(event, player) -> the decks that player's seats had in that event's games."""
    out: dict[tuple[str, str], set[str]] = defaultdict(set)
    for log in uploads:
        for name, deck in zip(log["meta"]["players"], log["setup"]["decks"]):
            out[(log["meta"]["event"], name)].add(deck)
    return out


def test_each_player_keeps_one_deck_from_the_pool_through_an_event():
    pool = ["Vikings of Valhalla", "Zulus of the Mfecane"]
    bundle = _bundle(decks=pool, events=3)
    decks = _decks_by_player(bundle.uploads)
    assert len(decks) == 16 * 3
    assert all(len(held) == 1 for held in decks.values()), {k: v for k, v in decks.items() if len(v) > 1}
    assert set().union(*decks.values()) == set(pool)


def test_every_game_is_the_bot_asked_for_playing_the_players_decks():
    for bot in ("random", "greedy"):
        bundle = simulate(SimConfig(players=4, rounds=2, bot=bot, seed=3))
        for log in bundle.uploads:
            again = self_play(log["chance"]["seed"], decks=log["setup"]["decks"], bot=bot,
                              battlefields=log["setup"]["battlefields"], catalog=log["catalog"], meta=log["meta"])
            assert again == log
    other = simulate(SimConfig(players=4, rounds=2, bot="random", seed=3)).uploads
    assert [g["decisions"] for g in bundle.uploads] != [g["decisions"] for g in other]


@pytest.fixture(scope="module")
def demo():
    """What `empyrean up` uploads: the league's divisions and each game event's bundle."""
    from services.cli.demo import demo_games

    return demo_games()


@pytest.fixture(scope="module")
def demo_divisions(demo):
    return demo[0]


@pytest.fixture(scope="module")
def event_bundles(demo):
    return demo[1]


def test_the_demo_leagues_deck_shares_are_its_players_decks(demo_divisions):
    from services.cli.demo import DIVISIONS, PLAYERS, ROUNDS, division_event

    assert [{log["meta"]["event"] for log in games} for games in demo_divisions] == \
        [{division_event(d)} for d in DIVISIONS]
    games = [log for division in demo_divisions for log in division]
    decks = _decks_by_player(games)
    # every player is in one division and keeps one deck; no name is in two divisions
    assert len(decks) == len(DIVISIONS) * PLAYERS and all(len(held) == 1 for held in decks.values())
    assert len({name for _, name in decks}) == len(decks)
    players_per_deck = Counter(next(iter(held)) for held in decks.values())
    seats_per_deck = Counter(deck for log in games for deck in log["setup"]["decks"])
    # an even league has no byes: every player sits once in every round, so a deck's share of the
    # seats is its share of the players
    assert len(games) == len(DIVISIONS) * PLAYERS // 2 * ROUNDS
    assert {d: n / (2 * len(games)) for d, n in seats_per_deck.items()} == \
        {d: n / len(decks) for d, n in players_per_deck.items()}


def test_the_demo_league_colours_the_meta_page_at_its_default_minimum(demo_divisions):
    """What /meta draws for the demo data (services.stats.queries.deck_stats over every counted
    game): one bar per deck that has games, grey when its seat-games (a game counts once for each
    seat: a mirror twice) are fewer than the default minimum. The games that count are the
    simulated ones but the disputed match's (an open dispute counts neither upload); the illegal
    game and the wrong claim never count. At least 2,000 games and 80% of the decks in colour."""
    from services.cli.demo import flawed_games
    from services.stats.filters import DEFAULT_MIN_GAMES

    first = demo_divisions[0]
    illegal, wrong = flawed_games(first)
    disputed = first[1]
    assert wrong["meta"] == disputed["meta"]  # the same match: a dispute
    assert illegal["meta"]["players"] != first[0]["meta"]["players"]  # a match of its own, judged alone
    counted = [log for games in demo_divisions for log in games if log is not disputed]
    assert len(counted) >= 2000
    seat_games = Counter(deck for log in counted for deck in log["setup"]["decks"])
    coloured = [deck for deck, n in seat_games.items() if n >= DEFAULT_MIN_GAMES]
    assert len(coloured) >= 0.8 * len(seat_games), seat_games


def test_the_demo_league_is_the_same_at_every_up(demo_divisions, event_bundles):
    from services.cli.demo import demo_division, demo_event

    assert demo_division(3) == demo_divisions[3]  # played here, in one process: the same games
    assert demo_event("titans") == event_bundles["titans"]


@pytest.mark.parametrize("game", ["titans", "elysian", "steam"])
def test_each_game_demo_event_has_200_valid_games_and_every_kind_of_flaw(demo_divisions, event_bundles, game):
    """A game's event `up` loads: every upload a game of that event, judged by the engine as the
    bundle expects, at least 200 of them valid; an illegal game, a wrong claim, a duplicate and a
    dispute for the verdicts and disputes pages; its players in no division and no other event."""
    from services.cli.demo import GAME_EVENTS, NAME_PREFIX

    bundle = event_bundles[game]
    assert {(log["game"], log["meta"]["event"]) for log in bundle.uploads} == {(game, GAME_EVENTS[game].name)}
    want = bundle.expected()
    verdicts = Counter(replay(log, record=False).verdict.status.value for log in bundle.uploads)
    assert verdicts == {k: n for k, n in want["verify"].items() if n}
    assert want["service"]["valid"] >= 200 and all(bundle.flaws.values()), bundle.flaws
    assert len(bundle.counted) == want["service"]["valid"] - want["service"]["disputes"]
    players = {name for log in bundle.uploads for name in log["meta"]["players"]}
    prefix = f"Player {NAME_PREFIX[game]}"
    assert all(name.startswith(prefix) and name[len(prefix):].isdigit() for name in players), players
    others = {name for games in demo_divisions for log in games for name in log["meta"]["players"]}
    others |= {name for key, b in event_bundles.items() if key != game for log in b.uploads
               for name in log["meta"]["players"]}
    assert not players & others


@pytest.mark.parametrize(("game", "sizes"), [("titans", {2}), ("elysian", {2}), ("steam", {2, 4})])
def test_each_game_demo_event_colours_its_factions_at_the_default_minimum(event_bundles, game, sizes):
    """/api/v1/stats/<game>/factions over the event's counted games, at each table size the event
    seats (the statistics never mix sizes; Spells & Steam's event seats pairs and fours): every
    faction (species, hero, company) has games, and at least 80% of them reach the default minimum of
    seat-games (the others are drawn grey)."""
    from engine.games import rules_for
    from engine.log import parse_log
    from services.stats.filters import DEFAULT_MIN_GAMES

    rules = rules_for(game)
    by_size: dict[int, Counter] = defaultdict(Counter)
    for log in event_bundles[game].counted:
        by_size[len(log["meta"]["players"])].update(rules.factions(parse_log(log)))
    assert set(by_size) == sizes
    for size, seat_games in by_size.items():
        assert set(seat_games) == set(rules.faction_choices()), size
        coloured = [faction for faction, n in seat_games.items() if n >= DEFAULT_MIN_GAMES]
        assert len(coloured) >= 0.8 * len(seat_games), (size, seat_games)


def test_progress_wraps_the_matches_and_sees_each_one_played():
    seen: list[int] = []

    def progress(matches):
        total = len(matches)  # a progress bar knows its total before the first game
        for i in matches:
            seen.append(total)
            yield i

    bundle = simulate(SimConfig(players=5, rounds=2, seed=3), progress=progress)
    assert seen == [2 * (5 // 2)] * 4  # two tables a round (one bye), every match passed through
    assert len(bundle.uploads) == 4
