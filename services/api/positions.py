"""The positions API: the engine at a decision point, over HTTP, stateless (issue 17).

- ``POST /api/v1/positions`` — body: one game log, usually unfinished (``Content-Type:
  application/json``). Answers, for the point after its last line, engine.position's
  Position: ``status`` ("in progress", or the verdict's status when the log is finished or broken),
  who decides and every legal next line, the board, essence, might and totals. Public (no token),
  rate-limited per client address (EMPYREAN_RATE_LIMIT_POSITIONS); nothing is stored.

Bodies are read as uploads read them (services/api/bodies.py, services.games.store.read_log), so a
body an upload refuses is refused here with the same 4xx answer. A JSON object that is not a valid
log is a 200 whose status is ``malformed`` with the engine's errors: that is the position's verdict,
the same one an upload of it would get, and a recorder reads every answer the same way.
"""

from __future__ import annotations

from flask import Blueprint, current_app, jsonify

from engine.position import malformed_position, position
from services.games.store import NotAnObject, read_log

from .access import public
from .bodies import read_log_body
from .errors import error_response

blueprint = Blueprint("positions", __name__)


@blueprint.post("/positions")
@public("a question about the body only: nothing is stored or changed")
def post_position():
    config = current_app.extensions["empyrean"].config
    raw, err = read_log_body(config.max_upload_bytes)
    if err:
        return err
    try:
        log, errors, _ = read_log(raw)
    except NotAnObject as exc:
        return error_response(400, "Bad Request", str(exc), pointer="")
    answer = position(log) if log is not None else malformed_position(errors)
    response = jsonify(answer.to_dict())
    response.cache_control.no_store = True  # an answer about this body only
    return response
