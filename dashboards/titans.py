"""Titans of Empyrean's statistics pages under ``/titans/`` (issue 28): species and their matchups,
titans, maneuvers, and how games go (endings and length, initiative, mixed squads). Each reads
services.stats.titans on one snapshot (dashboards.pages.render_stats: the filter form, a bad
filter a 400 naming it), shows n on every figure and table and greys thin rows, and links its CSV
(dashboards.datasets: ``titans-*``). Linked from the game's index and navigation (dashboards/games.py)."""

from __future__ import annotations

from functools import cache

from flask import Blueprint

from engine.titans.catalog import load
from engine.titans.rules import RULES
from services.stats import titans as stats
from services.stats.filters import Filters
from services.stats.significance import matchup_evidence

from . import titans_figures
from .figures import percent
from .game_figures import game_lengths, rate_bars
from .pages import render_stats
from .panels import Panel, Table, evidence_cell, number, rate_cell

KEY = stats.KEY
blueprint = Blueprint("titans", __name__, url_prefix=f"/{KEY}", template_folder="templates")

# Its pages in the navigation and on its index, in order
NAV = [("titans.species", "Species"), ("titans.titans", "Titans"), ("titans.maneuvers", "Maneuvers"),
       ("titans.games", "Endings, initiative & squads")]

# how each end reads (engine.titans.game.End)
END_WORDS = {"eliminated": "eliminated", "fled": "fled", "last titan": "last titan",
             "round limit": "round limit", "concession": "concession", "time": "time"}


@cache
def _names() -> dict[str, str]:
    """Species, titans and maneuvers by key, as the newest catalog names them (a key it does not
    know, from an older version, is shown as it is)."""
    cat = load(RULES.catalog_versions()[-1])
    return {**{k: s.name for k, s in cat.species.items()}, **{k: t.name for k, t in cat.titans.items()},
            **{k: m.name for k, m in cat.maneuvers.items()}}


def name(key: str | None) -> str:
    return "–" if key is None else _names().get(key, key)


def _render(title: str, intro: str, compute):
    return render_stats(title, intro, compute, game=KEY, refuse=stats.refuse_filters_not_taken)


@blueprint.get("/species")
def species():
    def compute(conn, f: Filters) -> list[Panel]:
        rows = stats.species_stats(conn, f)
        table = Table(["species", "games", "wins", "draws", "win rate (95% CI)", "share"],
                      [[name(r["species"]), r["games"], r["wins"], r["draws"], rate_cell(r["win_rate"]),
                        percent(r["share"])] for r in rows],
                      thin=[r["thin"] for r in rows], numeric={1, 2, 3}, secondary={2, 3})
        pairs = stats.matchup_stats(conn, f)
        evidence = matchup_evidence(pairs)
        pair_table = Table(["species", "opponent", "games", "wins", "draws", "win rate (95% CI)",
                            "clearly not 50%? (adjusted p)"],
                           [[name(r["species"]), name(r["opponent_species"]), r["games"], r["wins"], r["draws"],
                             rate_cell(r["win_rate"]), evidence_cell(e)] for r, e in zip(pairs, evidence)],
                           thin=[r["thin"] for r in pairs], numeric={2, 3, 4}, secondary={3, 4})
        return [
            Panel("species-win-rates", "Species win rates",
                  rate_bars(rows, lambda r: name(r["species"]), "win_rate", "games",
                                    f"Species win rates — grey: fewer than {f.min_games} games",
                                    "win rate, 95% interval"), table, "titans-species",
                  note="Seat-games: a mirror match counts twice. Sorted by the interval's lower bound."),
            Panel("species-matchups", "Species matchups",
                  titans_figures.species_matchups(pairs, f.min_games, evidence, name), pair_table, "titans-matchups"),
        ]
    return _render("Titans: species", "Which species win, and against which.", compute)


@blueprint.get("/titans")
def titans():
    def compute(conn, f: Filters) -> list[Panel]:
        rows = stats.titan_stats(conn, f)
        table = Table(["titan", "species", "picked", "win rate when picked (95% CI)", "survived (95% CI)",
                       "damage dealt", "damage taken"],
                      [[name(r["titan"]), name(r["species"]), r["picks"], rate_cell(r["win_rate"]),
                        rate_cell(r["survival"]), number(r["damage_dealt_mean"]), number(r["damage_taken_mean"])]
                       for r in rows], thin=[r["thin"] for r in rows], numeric={2, 5, 6}, secondary={1, 5, 6})
        by_survival = sorted(rows, key=lambda r: (-(r["survival"]["low"] or 0), r["titan"]))
        return [
            Panel("titan-win-rates", "Win rate when picked",
                  rate_bars(rows, lambda r: name(r["titan"]), "win_rate", "picks",
                                    f"Win rate when picked — grey: fewer than {f.min_games} picks",
                                    "its side's win rate, 95% interval"), table, "titans-titans",
                  note="A pick is a seat-game with the titan in the squad. Damage is the mean per game: dealt by "
                       "its attacks and abilities, taken from anything (collisions and hazards too)."),
            Panel("titan-survival", "Survival",
                  rate_bars(by_survival, lambda r: name(r["titan"]), "survival", "picks",
                                    f"Alive at the end — grey: fewer than {f.min_games} picks",
                                    "survival, 95% interval", even=None), dataset="titans-titans"),
        ]
    return _render("Titans: titans", "Each titan: how often it is picked, how its side does, whether it lives.",
                   compute)


@blueprint.get("/maneuvers")
def maneuvers():
    def compute(conn, f: Filters) -> list[Panel]:
        seat_games, rows = stats.maneuver_stats(conn, f)
        table = Table(["maneuver", "games played in", "win rate when played (95% CI)", "played in (95% CI)",
                       "plays", "plays a game"],
                      [[name(r["maneuver"]), r["played_games"], rate_cell(r["win_rate"]), rate_cell(r["played_in"]),
                        r["plays"], number(r["plays_mean"])] for r in rows],
                      thin=[r["thin"] for r in rows], numeric={1, 4, 5}, secondary={3, 4, 5})
        return [Panel("maneuver-win-rates", "Win rate when played",
                      rate_bars(rows, lambda r: name(r["maneuver"]), "win_rate", "played_games",
                                        f"Win rate when played — grey: played in fewer than {f.min_games} games",
                                        "win rate, 95% interval"), table, "titans-maneuvers",
                      note=f"Of {seat_games} seat-games: the games a side played the maneuver in at least once, "
                           "and how that side did.")]
    return _render("Titans: maneuvers", "Which maneuvers are played, and how their players do.", compute)


@blueprint.get("/games")
def games():
    def compute(conn, f: Filters) -> list[Panel]:
        summary, ends, lengths = stats.ending_stats(conn, f)
        end_table = Table(["ended by", "games", "share (95% CI)", "draws", "mean rounds"],
                          [[END_WORDS.get(r["end_reason"], r["end_reason"]), r["games"], rate_cell(r["share"]),
                            r["draws"], number(r["rounds_mean"])] for r in ends],
                          thin=[r["thin"] for r in ends], numeric={1, 3, 4}, secondary={3})
        ini = stats.initiative_stats(conn, f)
        initiative = [{"what": "one side alone held the highest initiative: it won", "rate": ini["top_alone"],
                       "thin": ini["top_alone"]["n"] < f.min_games},
                      {"what": "the side whose titan acted first in round 1 won", "rate": ini["first_to_act"],
                       "thin": ini["thin"]}]
        ini_table = Table(["whose wins", "n", "won (95% CI)"], [[r["what"], r["rate"]["n"], rate_cell(r["rate"])]
                                                      for r in initiative],
                          thin=[r["thin"] for r in initiative], numeric={1})
        kinds, squads = stats.squad_stats(conn, f)
        squad_table = Table(["species", "ally", "games", "wins", "draws", "win rate (95% CI)"],
                            [[name(r["species"]), name(r["ally"]) if r["mixed"] else "(one species)", r["games"],
                              r["wins"], r["draws"], rate_cell(r["win_rate"])] for r in squads],
                            thin=[r["thin"] for r in squads], numeric={2, 3, 4}, secondary={3, 4})
        return [
            Panel("endings", "How games end",
                  rate_bars(ends, lambda r: END_WORDS.get(r["end_reason"], r["end_reason"]), "share", "games",
                                    f"How games end — share of the {summary['games']} games; grey: fewer than "
                                    f"{f.min_games}", "share of games, 95% interval", even=None),
                  end_table, "titans-endings"),
            Panel("lengths", "Game length", game_lengths(lengths, summary["games"],
                                                                 lambda e: END_WORDS.get(e, e)),
                  dataset="titans-endings", note=f"Mean length: {number(summary['rounds_mean'])} rounds."),
            Panel("initiative", "Does the highest initiative give an edge?",
                  rate_bars([{**r, "n": r["rate"]["n"]} for r in initiative], lambda r: r["what"], "rate",
                                    "n", f"Highest initiative — grey: fewer than {f.min_games} games",
                                    "win rate, 95% interval"),
                  ini_table, "titans-initiative",
                  note="Draws count as not won. Where every species' best titan has the same initiative, no side "
                       "holds it alone, and round 1's first titan is decided by rule C1 (P1 in odd rounds)."),
            Panel("squads", "Mixed squads",
                  rate_bars(kinds, lambda r: "mixed squads" if r["squad"] == "mixed" else "one species",
                                    "win_rate", "games", f"Mixed squads — grey: fewer than {f.min_games} games",
                                    "win rate, 95% interval"), squad_table, "titans-squads",
                  note="A mixed squad is three titans of its species and one of an ally's (the book's variant)."),
        ]
    return _render("Titans: endings, initiative & squads", "How games end and how long they last, whether the "
                   "highest initiative wins, and how mixed squads do.", compute)
