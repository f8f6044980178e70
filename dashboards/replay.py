"""The replay viewer: step through one stored game, decision by decision, and see the board.

- ``GET /games/<id>/replay`` — the page (``?step=N`` opens it after N decisions; an illegal game
  opens at the decision that broke the rules, with the reason and the legal alternatives; a mismatch
  game at its final board, with the log's claims the rules do not bear out; a disputed game links
  to its dispute and the match's other uploads, and shows the ruling once there is one).
- ``GET /games/<id>/timeline.json`` — the same timeline as JSON (engine.timeline, plus the game's
  stored facts).

The timeline is rebuilt from the stored raw log on each request (services.games.views.replay_of:
the log is read once, for the frames and the meta shown beside them), so the page always shows
what this engine makes of the log — while the header shows the stored status and verdict from the
pipeline (services.games.views.game_view, the same read as GET /api/v1/games/{id}).

Decisions are numbered as people count the log's decision lines, from 1 (engine.words.decision_number):
the page adds those numbers and the stepper's labels to the timeline here, once, so the red box, the
stepper, the line under it and the decision list (and replay.js) all name the same number.
"""

from __future__ import annotations

from typing import Any

from flask import Blueprint, current_app, jsonify, render_template, request, url_for

from engine import games
from engine.bfe.catalog import load_catalog
from engine.words import decision_number
from services.api.access import current_token, may_read_game
from services.games import views

from .games import set_page_game

blueprint = Blueprint("replay", __name__, template_folder="templates")

DB_TIMEOUT_S = 5.0


def _load_replay(game_id: int) -> tuple[views.ReplayView, views.DisputeSummary | None] | None:
    """The stored game and its log read into a timeline, with its match's dispute (None: there is
    none); None when there is no such game, or it is unlisted (or of an unlisted event) and the
    request has no token that may see it (browsers send none: unlisted games have no replay page for
    them; docs/security.md, "Visibility")."""
    if game_id > views.MAX_ID:
        return None
    with current_app.extensions["empyrean"].db_pool.connection(timeout=DB_TIMEOUT_S) as conn:
        game = views.game_view(conn, game_id, log=True)
        if game is None or not may_read_game(current_token(), game):
            return None
        dispute = views.dispute_summary(conn, game.dispute_id) if game.dispute_id is not None else None
    return views.replay_of(game), dispute  # the connection is back in the pool


def _game_facts(replay: views.ReplayView) -> dict[str, Any]:
    game, verdict = replay.game, replay.game.verdict
    return {
        "id": game.id,
        "title": replay.title,  # "R3 · T14 · Ada vs Bo" (engine.words.game_title)
        "status": str(game.status),
        "pending": game.pending,
        "message": game.status_message,
        "verdict_status": verdict["status"] if verdict else None,
        "verdict_message": verdict["message"] if verdict else None,
        "event": replay.event,
        "date": replay.date,
        "uploaded_by": game.uploaded_by,  # the API token that uploaded it (owner, name, role)
        "uploader_label": game.uploader,  # the X-Uploader header: the uploader's own words
        "uploader": game.uploader,  # the label's old name
        "received_at": game.received_at.isoformat(),
        "status_url": url_for("api_v1.games.get_game", game_id=game.id),
        "log_url": url_for("api_v1.games.get_log", game_id=game.id),
        "timeline_url": url_for("replay.timeline_json", game_id=game.id),
    }


def _dispute_facts(dispute: views.DisputeSummary | None, game_id: int) -> dict[str, Any] | None:
    """The game's match's dispute as the page shows it: its page, its state and ruling, and the
    match's other uploads with their replays."""
    if dispute is None:
        return None
    return {
        "id": dispute.id, "url": f"/disputes/{dispute.id}",  # the dispute desk (dashboards/disputes.py)
        "status": dispute.status, "reason": dispute.reason, "resolution": dispute.resolution,
        "counts_game_id": dispute.counts_game_id,
        "others": [{"id": g, "status": st, "url": url_for("replay.replay_page", game_id=g)}
                   for g, st in zip(dispute.games, dispute.statuses) if g != game_id],
    }


def _numbered(tl: dict[str, Any]) -> dict[str, Any]:
    """The timeline with the numbers people read (engine.words.decision_number) added: each
    frame's ``number`` (the decision just applied) and stepper ``label``, the failure's ``number``,
    and ``rows``, the decision list: each line's number, text and the step that shows it (the step
    after it; the illegal one's: the step before it; None: never applied)."""
    frames, total = tl["frames"], len(tl["decisions"])
    for frame in frames:
        line = frame["line"]
        frame["number"] = decision_number(line) if line is not None else None
        if frame["index"] == 0:
            frame["label"] = "Setup"
        elif line is not None:
            frame["label"] = f"After decision {frame['number']} of {total}"
        else:  # the frame after the last line when time was called
            frame["label"] = f"Time called, after all {total} decisions"
    failure = tl["failure"]
    if failure is not None:
        failure["number"] = decision_number(failure["index"]) if failure["index"] is not None else None
    rows = []
    for k, (text, line) in enumerate(zip(tl["decisions"], tl["lines"])):
        applied = k + 1 < len(frames) and frames[k + 1]["line"] == line
        illegal = not applied and failure is not None and failure["index"] == line
        rows.append({"number": decision_number(line), "text": text,
                     "step": k + 1 if applied else tl["failing_frame"] if illegal else None,
                     "state": "applied" if applied else "illegal" if illegal else "unplayed"})
    tl["rows"] = rows
    return tl


def _card_facts(tl: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Cost, might, type, deck and text of every card the frames show, from the log's catalog (what
    a card shows on hover or tap)."""
    if not tl["frames"]:
        return {}
    names: set[str] = set()
    for frame in tl["frames"]:
        for p in frame["players"]:
            for pile in ("hand", "discard", "destroyed", "banished"):
                names.update(p[pile])
        for bf in frame["battlefields"]:
            for side in bf["sides"]:
                for z in side["zones"]:
                    names.add(z["card"])
                    names.update(z["under"])
    cards = load_catalog(tl["catalog"]).cards
    return {n: {"cost": c.cost, "might": c.might, "max_might": c.max_might, "type": c.type, "deck": c.deck,
                "text": c.text} for n in sorted(names) if (c := cards.get(n)) is not None}


def _maneuver_facts(tl: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Name, kind and text of every maneuver the frames of a Titans game name (active ones, and the
    stack and reserve cards the log's seat knows), from the log's catalog (what a face-up card shows
    on hover, focus or tap: titans_board.js)."""
    if not tl["frames"]:
        return {}
    keys: set[str] = set()
    for frame in tl["frames"]:
        for t in frame["titans"]:
            keys.update(k for k in [t["active"], *t["known"]] if k)
        for known in frame["reserve_known"]:
            keys.update(k for k in known if k)
    maneuvers = games.rules_for("titans").catalog_data(tl["catalog"])["maneuvers"]
    return {m["key"]: {"name": m["name"], "kind": m["kind"], "text": m["text"]} for m in maneuvers if m["key"] in keys}


def _elysian_facts(tl: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The names of the tiles laid and of the heroes chosen, and name, kind and text of every card the
    frames of an Elysian game show in play (upgrades and items), from the log's catalog (what the
    board names, and shows on hover, focus or tap: elysian_board.js). Hands are counted, never named."""
    if not tl["frames"]:
        return {}
    cat = games.rules_for("elysian").catalog_data(tl["catalog"])
    tiles = {h["tile"] for h in tl["battlefields"]}
    heroes = {p["hero"] for f in tl["frames"] for p in f["players"] if p["hero"]}
    shown = {k for f in tl["frames"] for p in f["players"] for k in [*p["upgrades"], *p["items"]]}
    return {"tiles": {t["key"]: t["name"] for t in cat["tiles"] if t["key"] in tiles},
            "heroes": {h["key"]: {"name": h["name"], "ability": h["ability"], "text": h["text"]}
                       for h in cat["heroes"] if h["key"] in heroes},
            "cards": {c["key"]: {"name": c["name"], "kind": c["kind"], "text": c["text"]}
                      for c in cat["cards"] if c["key"] in shown}}


def _steam_facts(tl: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Name, cost and text of every spellcar, and name, kind and text of every specialist and award,
    the frames of a Spells & Steam game show (the market, the railyards, the folios' specialists),
    from the log's catalog (what steam_board.js names, and shows on hover, focus or tap)."""
    if not tl["frames"]:
        return {}
    cat = games.rules_for("steam").catalog_data(tl["catalog"])
    spellcars, specialists, awards = set(), set(), set()
    for f in tl["frames"]:
        spellcars.update(f["market"])
        awards.update(f["awards"])
        for c in f["companies"]:
            spellcars.update(s["spellcar"] for s in c["railyard"])
            specialists.update(s["key"] for s in c["specialists"].values())
            specialists.update(c["extra"])
    people = [s for kind in ("captains", "engineers", "surveyors", "station_masters") for s in cat[kind]]
    return {"spellcars": {c["key"]: {"name": c["name"], "cost": c["cost"], "text": c["text"]}
                          for c in cat["spellcars"] if c["key"] in spellcars},
            "specialists": {s["key"]: {"name": s["name"], "kind": s["kind"], "text": s["text"]}
                            for s in people if s["key"] in specialists},
            "awards": {a["key"]: {"name": a["name"], "text": a["text"]} for a in cat["awards"] if a["key"] in awards}}


def _start_step(tl: dict[str, Any]) -> int:
    """``?step=N`` if given (clamped to the frames there are); else the failing frame of an illegal
    game, the final board of a mismatch game (whose claims are about the end), else the start."""
    last = max(0, len(tl["frames"]) - 1)
    raw = request.args.get("step", "")
    if raw.strip().isdigit():
        return min(int(raw), last)
    if tl["failing_frame"] is not None:
        return tl["failing_frame"]
    return last if tl["verdict"]["status"] == "mismatch" else 0


# The games whose board the viewer and the recorder draw, each with its renderer in static/: <name>.js
# (registered in ``EmpyreanBoards`` under the game's key) and <name>.css; any other game's replay
# lists its lines.
BOARDS = {games.DEFAULT_GAME: "board", "titans": "titans_board", "elysian": "elysian_board", "steam": "steam_board"}
# What the cards a game's board shows say on hover or tap, from the log's catalog (the page's #card-data).
CARD_FACTS = {games.DEFAULT_GAME: _card_facts, "titans": _maneuver_facts, "elysian": _elysian_facts,
              "steam": _steam_facts}


def _not_found(game_id: int):
    return render_template("replay_missing.html", game_id=game_id), 404


@blueprint.get("/games/<int:game_id>/replay")
def replay_page(game_id: int):
    loaded = _load_replay(game_id)
    if loaded is None:
        return _not_found(game_id)
    replay, dispute = loaded
    set_page_game(replay.game.game)  # its switcher and navigation are its game's
    tl = _numbered(replay.timeline.to_dict())
    if replay.game.game not in BOARDS:  # a game whose board the viewer cannot draw yet: its lines
        return render_template("replay_lines.html", game=_game_facts(replay), tl=tl, info=games.info(replay.game.game),
                               dispute=_dispute_facts(dispute, game_id),
                               page_title=f"{replay.title} — game {game_id}" if replay.title else f"Game {game_id}")
    key = replay.game.game
    return render_template("replay.html", game=_game_facts(replay), tl=tl, step=_start_step(tl),
                           key=key, board_script=BOARDS[key],
                           dispute=_dispute_facts(dispute, game_id),
                           cards=CARD_FACTS[key](tl),
                           page_title=f"{replay.title} — game {game_id}" if replay.title else f"Game {game_id}")


@blueprint.get("/games/<int:game_id>/timeline.json")
def timeline_json(game_id: int):
    loaded = _load_replay(game_id)
    if loaded is None:
        # JSON for a JSON URL, in the API's error shape
        response = jsonify({"error": {"status": 404, "title": "Not Found",
                                      "message": f"there is no game {game_id}"}})
        response.status_code = 404
        return response
    replay, dispute = loaded
    return jsonify({"game": {**_game_facts(replay), "dispute": _dispute_facts(dispute, game_id)},
                    **_numbered(replay.timeline.to_dict())})
