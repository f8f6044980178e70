"""``GET /api/v1/games/registry``: the games this service knows (engine.games), each as its
description says it (``GameInfo.to_dict()``: key, name, players, outcome, faction, teams, chance
kinds …) with the URL of its statistics (null for a game that has none yet).

Not ``/api/v1/games/{id}``: game ids are whole numbers (the ``int`` converter), so the word
``registry`` never reaches that route. Read when asked, so a game registered while the process runs
is listed.
"""

from __future__ import annotations

from flask import Blueprint, jsonify

from engine import games

from .stats import described

blueprint = Blueprint("registry", __name__)

REGISTRY_MAX_AGE_S = 300  # games are registered when a process starts: a few minutes' cache is right


@blueprint.get("/games/registry")
def game_registry():
    response = jsonify({"default": games.DEFAULT_GAME, "games": [described(info) for info in games.known()]})
    response.cache_control.public = True
    response.cache_control.max_age = REGISTRY_MAX_AGE_S
    return response
