"""Elysian Battlefields' statistics pages under ``/elysian/`` (issue 29): heroes, how games are won
(and how long they take), turn order and eliminations, cards, and the dice audit. Each is at one table
size (the form's *Players*, 2 to 5), reads services.stats.elysian on one snapshot
(dashboards.pages.render_stats: the filter form, a bad filter a 400 naming it), shows n on every
figure and table and greys thin rows, and links its CSV (dashboards.datasets: ``elysian-*``). Linked
from the game's index and navigation (dashboards/games.py)."""

from __future__ import annotations

from functools import cache

from flask import Blueprint

from engine.elysian.catalog import DEFAULT_VERSION, load
from engine.elysian.game import End
from services.stats import elysian as stats
from services.stats.dice_audit import FLAG_BELOW, MIN_DICE, RAVAGE_CHANCE, REPEL_CHANCE
from services.stats.filters import Filters

from . import elysian_figures as figures
from .elysian_figures import FLAG_WORD
from .figures import percent
from .game_figures import game_lengths, ordinal, rate_bars
from .pages import render_stats
from .panels import Panel, Table, number, rate_cell

KEY = stats.KEY
blueprint = Blueprint("elysian", __name__, url_prefix=f"/{KEY}", template_folder="templates")

# Its pages in the navigation and on its index, in order
NAV = [("elysian.heroes", "Heroes"), ("elysian.victories", "Victories & length"),
       ("elysian.seats", "Turn order & eliminations"), ("elysian.cards", "Cards"), ("elysian.dice", "Dice audit")]
TEST_WORDS = {"faces": "faces", "repelled": "repels", "ravaged": "ravages"}


@cache
def _catalog():
    return load(DEFAULT_VERSION)


def name(key: str | None) -> str:
    """A hero or card as the catalog names it (a key it does not know, from another version, as it is)."""
    cat = _catalog()
    known = cat.heroes.get(key) or cat.cards.get(key)
    return "–" if key is None else known.name if known else key


def end_words(end: str) -> str:
    """How a game ended, in words ("Conquer (15 conquest points)")."""
    try:
        return End(end).words
    except ValueError:
        return end


def _render(title: str, intro: str, compute):
    return render_stats(title, intro, compute, game=KEY, refuse=stats.refuse_filters_not_taken)


def _at(f: Filters) -> str:
    return f"{f.players}-player games"


@blueprint.get("/heroes")
def heroes():
    def compute(conn, f: Filters) -> list[Panel]:
        summary, rows = stats.hero_stats(conn, f)
        table = Table(["hero", "picked", "wins", "win rate (95% CI)", "pick rate (95% CI)", "mean rank",
                       "mean conquest points", "eliminated (95% CI)"],
                      [[name(r["hero"]), r["games"], r["wins"], rate_cell(r["win_rate"]), rate_cell(r["pick_rate"]),
                        number(r["rank_mean"]), number(r["conquest_mean"]), rate_cell(r["eliminated"])]
                       for r in rows], thin=[r["thin"] for r in rows], numeric={1, 2, 5, 6}, secondary={2, 5, 6, 7})
        # n of a pick rate: every game at this table size (a hero is picked once a game at most)
        by_picks = sorted(({**r, "n": r["pick_rate"]["n"]} for r in rows), key=lambda r: (-r["games"], r["hero"]))
        return [
            Panel("hero-win-rates", "Win rate when picked",
                  rate_bars(rows, lambda r: name(r["hero"]), "win_rate", "games",
                            f"Hero win rates, {_at(f)} — grey: fewer than {f.min_games} picks; dotted: "
                            f"1 in {f.players}", "win rate, 95% interval", even=summary["even"]),
                  table, "elysian-heroes",
                  note=f"{summary['games']} games of {f.players} players. A pick is a seat-game; a hero with no "
                       f"edge wins 1 in {f.players} (the dotted line). Sorted by the interval's lower bound."),
            Panel("hero-picks", "How often each hero is picked",
                  rate_bars(by_picks, lambda r: name(r["hero"]), "pick_rate", "n",
                            f"Pick rate — share of the {summary['games']} games with the hero at the table",
                            "pick rate, 95% interval", even=None), dataset="elysian-heroes"),
        ]
    return _render("Elysian: heroes", "Which heroes are picked and which win, at one table size.", compute)


@blueprint.get("/victories")
def victories():
    def compute(conn, f: Filters) -> list[Panel]:
        overall, per_hero = stats.victory_stats(conn, f)
        summary, per_end, lengths = stats.length_stats(conn, f)
        end_table = Table(["won by", "games", "share (95% CI)"],
                          [[end_words(r["end_reason"]), r["games"], rate_cell(r["share"])] for r in overall],
                          thin=[r["thin"] for r in overall], numeric={1})
        hero_table = Table(["hero", "won by", "wins", "share of its wins (95% CI)"],
                           [[name(r["hero"]), end_words(r["end_reason"]), r["wins"], rate_cell(r["share_of_wins"])]
                            for r in per_hero], thin=[r["thin"] for r in per_hero], numeric={2})
        length_table = Table(["ended by", "games", "mean rounds"],
                             [[end_words(r["end_reason"]), r["games"], number(r["rounds_mean"])] for r in per_end],
                             thin=[r["thin"] for r in per_end], numeric={1, 2})
        return [
            Panel("victory-types", "How games are won",
                  rate_bars(overall, lambda r: end_words(r["end_reason"]), "share", "games",
                            f"How games end, {_at(f)} — share of the {summary['games']} games; grey: fewer than "
                            f"{f.min_games}", "share of games, 95% interval", even=None),
                  end_table, "elysian-victories"),
            Panel("hero-victories", "How each hero wins",
                  figures.wins_by_end(per_hero, name, end_words, f.min_games), hero_table,
                  "elysian-hero-victories", note="Each hero's wins by the way they were won; n: the hero's wins."),
            Panel("lengths", "Rounds to win", game_lengths(lengths, summary["games"], end_words), length_table,
                  "elysian-length",
                  note=f"Mean rounds to win: {number(summary['rounds_to_win_mean'])} over the "
                       f"{summary['won_games']} games with a winner; {number(summary['rounds_mean'])} over every "
                       "game."),
        ]
    return _render("Elysian: victories & length", "How games are won — Conquer, Rule or Reign — overall and by "
                   "each hero, and how many rounds it takes.", compute)


@blueprint.get("/seats")
def seats():
    def compute(conn, f: Filters) -> list[Panel]:
        summary, rows = stats.seat_stats(conn, f)
        out_summary, outs, places = stats.elimination_stats(conn, f)
        table = Table(["position", "seat-games", "wins", "win rate (95% CI)", "mean rank"],
                      [[ordinal(r["position"]), r["games"], r["wins"], rate_cell(r["win_rate"]),
                        number(r["rank_mean"])] for r in rows],
                      thin=[r["thin"] for r in rows], numeric={1, 2, 4}, secondary={2})
        out_table = Table(["position", "seat-games", "first out (95% CI)", "eliminated (95% CI)"],
                          [[ordinal(r["position"]), r["games"], rate_cell(r["out_first"]), rate_cell(r["eliminated"])]
                           for r in outs], thin=[r["thin"] for r in outs], numeric={1})
        first_out = [{**r, "n": r["out_first"]["n"], "thin": out_summary["thin"]} for r in outs]
        return [
            Panel("turn-order", "Does going first give an edge?",
                  rate_bars(rows, lambda r: f"{ordinal(r['position'])} to play", "win_rate", "games",
                            f"Win rate by turn-order position, {_at(f)} — grey: fewer than {f.min_games} games; "
                            f"dotted: 1 in {f.players}", "win rate, 95% interval", even=summary["even"]),
                  table, "elysian-seats",
                  note="The 1st position took the first turn; the others follow clockwise, as the book orders "
                       "them. A game that ended before any turn has no positions."),
            Panel("first-out", "Who goes out first?",
                  rate_bars(first_out, lambda r: f"{ordinal(r['position'])} to play", "out_first", "n",
                            f"First out, by position — of the {out_summary['games_with_elimination']} games with an "
                            f"elimination; dotted: 1 in {f.players}", "first out, 95% interval",
                            even=out_summary["even"]),
                  out_table, "elysian-eliminations",
                  note="Eliminated: of the position's seat-games, how many ended with its player out."),
            Panel("order-out", "Order out", figures.elimination_order(places, f.players),
                  dataset="elysian-elimination-order"),
        ]
    return _render("Elysian: turn order & eliminations", "Whether a place in the turn order wins more, and who "
                   "is eliminated first.", compute)


@blueprint.get("/cards")
def cards():
    def compute(conn, f: Filters) -> list[Panel]:
        seat_games, rows = stats.card_stats(conn, f)
        cat = _catalog()
        table = Table(["card", "deck", "games played in", "win rate when played (95% CI)", "played in (95% CI)",
                       "plays", "plays a game"],
                      [[name(r["card"]), cat.cards[r["card"]].deck if r["card"] in cat.cards else "–",
                        r["played_games"], rate_cell(r["win_rate"]), rate_cell(r["played_in"]), r["plays"],
                        number(r["plays_mean"])] for r in rows],
                      thin=[r["thin"] for r in rows], numeric={2, 5, 6}, secondary={1, 4, 5, 6})
        return [Panel("card-win-rates", "Win rate when played",
                      rate_bars(rows, lambda r: name(r["card"]), "win_rate", "played_games",
                                f"Win rate when played, {_at(f)} — grey: played in fewer than {f.min_games} games; "
                                f"dotted: 1 in {f.players}", "win rate, 95% interval", even=1 / f.players),
                      table, "elysian-cards",
                      note=f"Of {seat_games} seat-games: the games a player played the card in at least once (an "
                           "order, upgrade, item or effect), and how that player did.")]
    return _render("Elysian: cards", "Which cards are played, and how their players do.", compute)


def audit_words(row: dict) -> str:
    """A dice audit row's verdict in words: which tests flag it, or that none does, or why it is not tested."""
    if not row["tested"]:
        return f"not tested: {row['dice']} dice, fewer than {MIN_DICE}"
    if row["flagged"]:
        return f"{FLAG_WORD}: " + ", ".join(TEST_WORDS[t] for t, v in row["tests"].items() if v["flagged"])
    return "not flagged"


def _p(test: dict) -> str:
    return "–" if test["p_adjusted"] is None else f"{test['p_adjusted']:.2g}"


def _dice_table(rows: list[dict], who: str, name_of) -> Table:
    return Table([who, "audit", "games", "dice", "faces 1 · 2 · 3 · 4 · 5 · 6", "faces: adjusted p", "sets of 3",
                  f"repelled (95% CI; fair {percent(float(REPEL_CHANCE))})", "repels: adjusted p",
                  f"ravaged (95% CI; fair {percent(float(RAVAGE_CHANCE))})", "ravages: adjusted p"],
                 [[name_of(r), audit_words(r), r["games"], r["dice"], " · ".join(map(str, r["faces"])),
                   _p(r["tests"]["faces"]), r["sets"], rate_cell(r["repel_rate"]), _p(r["tests"]["repelled"]),
                   rate_cell(r["ravage_rate"]), _p(r["tests"]["ravaged"])] for r in rows],
                 thin=[r["thin"] for r in rows], flagged=[r["flagged"] for r in rows],
                 numeric={2, 3, 5, 6, 8, 10}, secondary={2, 4, 6, 8, 10}, phrase={0, 1})


def _flag_note(rows: list[dict], name_of, what: str) -> str:
    flagged = [name_of(r) for r in rows if r["flagged"]]
    tested = sum(r["tested"] for r in rows)
    if not flagged:
        return f"No {what} flagged ({tested} of {len(rows)} tested)."
    return f"{FLAG_WORD} — {len(flagged)} of {tested} {what}s tested: {', '.join(flagged)}."


@blueprint.get("/dice")
def dice():
    def compute(conn, f: Filters) -> list[Panel]:
        audit = stats.dice_audit(conn, f)
        players, events = audit["rows"], audit["events"]

        def player(r):
            return r["player"] or "(unnamed)"

        def event(r):
            return r["event"] or "(no event)"

        return [
            Panel("dice-players", "Each player's dice",
                  figures.dice_faces(players, player, f"Faces by player, {_at(f)} — share of each face; a fair die "
                                                      "rolls each 1 in 6 (white); faded: not tested or thin"),
                  _dice_table(players, "player", player), "elysian-dice-players",
                  note=_flag_note(players, player, "player")),
            Panel("dice-events", "Each event's dice",
                  figures.dice_faces(events, event, f"Faces by event, {_at(f)} — share of each face; a fair die "
                                                    "rolls each 1 in 6 (white); faded: not tested or thin"),
                  _dice_table(events, "event", event), "elysian-dice-events",
                  note=_flag_note(events, event, "event")),
        ]
    return _render("Elysian: dice audit",
                   f"Are a player's or an event's recorded attack dice those of a fair die? Three tests a row: the "
                   f"faces (chi-square), sets of three blocks that repel an attack (fair: 1 in 27) and sets of three "
                   f"sixes that ravage (1 in 216), each two-sided. A table's p-values are corrected together (Holm), "
                   f"and a row is {FLAG_WORD} when one is below {FLAG_BELOW:g}: among tables of fair dice, at most 1 "
                   f"in 100 shows a flag at all. Rows with fewer than {MIN_DICE} dice are not tested.", compute)
