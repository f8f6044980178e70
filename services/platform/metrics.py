"""Prometheus metrics at ``GET /metrics``: read at scrape time from the shared state in PostgreSQL
and Redis, so the numbers are the whole service's — every API process and host, every worker —
not one gunicorn worker's memory (no multiprocess directory to manage, nothing lost on restart).

    empyrean_games{status}              games by pipeline status (agg_event_games, kept by triggers)
    empyrean_games_stored_total         every game ever stored (uploads that were not duplicates)
    empyrean_queue_messages{queue}      messages waiting in each Celery queue (all priority levels)
    empyrean_queue_unacked              messages a worker has taken and not yet acknowledged
    empyrean_replay_seconds{quantile}   received → verdict, games finished in the last 5 minutes
    empyrean_replays_recent             how many games that is
    empyrean_games_uncounted            games replayed and waiting for the fold to count them
    empyrean_metrics_errors{source}     1 when a source could not be read (the rest still answer)
"""

from __future__ import annotations

import logging

import psycopg
import redis
from flask import Blueprint, Response, current_app
from kombu.transport.redis import PRIORITY_STEPS, Channel
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily

from services.games.queues import QUEUES

log = logging.getLogger(__name__)

RECENT = "5 minutes"
QUANTILES = (0.5, 0.95, 0.99)


def _queue_keys(queue: str) -> list[str]:
    """The Redis lists kombu keeps one queue in (priority strategy: one list per priority step)."""
    return [queue] + [f"{queue}{Channel.sep}{step}" for step in PRIORITY_STEPS if step]


class ServiceCollector:
    """Collects on every scrape; each source (PostgreSQL, Redis) fails on its own."""

    def __init__(self, pool, redis_client: redis.Redis) -> None:
        self.pool = pool
        self.redis = redis_client

    def collect(self):
        errors = GaugeMetricFamily("empyrean_metrics_errors", "1 when a source could not be read", labels=["source"])
        for source, read, failures in (("postgres", self._database, (psycopg.Error, OSError)),
                                       ("redis", self._broker, (redis.RedisError, OSError))):
            try:
                yield from read()
                errors.add_metric([source], 0)
            except failures as exc:
                log.warning("metrics: %s not readable: %s", source, exc)
                errors.add_metric([source], 1)
        yield errors

    def _database(self):
        with self.pool.connection(timeout=2) as conn:
            by_status = conn.execute(
                "SELECT status, sum(games)::bigint FROM agg_event_games GROUP BY status ORDER BY status").fetchall()
            recent = conn.execute(
                f"""SELECT count(*), {", ".join(f"percentile_cont({q}) WITHIN GROUP (ORDER BY seconds)"
                                              for q in QUANTILES)}
                    FROM (SELECT extract(epoch FROM finished_at - received_at) AS seconds FROM games
                          WHERE finished_at > now() - interval '{RECENT}') recent""").fetchone()
            uncounted = conn.execute("SELECT count(*) FROM game_records WHERE pending").fetchone()[0]
        games = GaugeMetricFamily("empyrean_games", "Games by pipeline status", labels=["status"])
        for status, n in by_status:
            games.add_metric([status], n)
        yield games
        stored = CounterMetricFamily("empyrean_games_stored", "Games stored (uploads that were not duplicates)")
        stored.add_metric([], sum(n for _, n in by_status))
        yield stored
        latency = GaugeMetricFamily("empyrean_replay_seconds", f"Seconds from upload to verdict, games finished "
                                    f"in the last {RECENT}", labels=["quantile"])
        for q, value in zip(QUANTILES, recent[1:]):
            if value is not None:
                latency.add_metric([str(q)], float(value))
        yield latency
        yield GaugeMetricFamily("empyrean_replays_recent", f"Games finished in the last {RECENT}", value=recent[0])
        # growing while workers are busy: the fold (one at a time) is behind; docs/scaling.md
        yield GaugeMetricFamily("empyrean_games_uncounted", "Games replayed and waiting to be added to the "
                                "statistics (status replaying)", value=uncounted)

    def _broker(self):
        pipe = self.redis.pipeline()
        for queue in QUEUES:
            for key in _queue_keys(queue):
                pipe.llen(key)
        pipe.hlen(Channel.unacked_key)
        lengths = pipe.execute()
        waiting = GaugeMetricFamily("empyrean_queue_messages", "Messages waiting in a Celery queue", labels=["queue"])
        per_queue = len(_queue_keys(QUEUES[0]))
        for i, queue in enumerate(QUEUES):
            waiting.add_metric([queue], sum(lengths[i * per_queue:(i + 1) * per_queue]))
        yield waiting
        yield GaugeMetricFamily("empyrean_queue_unacked", "Messages taken by a worker and not yet acknowledged",
                                value=lengths[-1])


def render(pool, redis_client: redis.Redis) -> bytes:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(ServiceCollector(pool, redis_client))
    return generate_latest(registry)


# --- the endpoint ------------------------------------------------------------------------------

blueprint = Blueprint("metrics", __name__)


@blueprint.get("/metrics")
def metrics():
    """Prometheus text format. Public like the statistics (counts, no player data); outside
    /api/v1, so no rate limit applies to the scraper."""
    resources = current_app.extensions["empyrean"]
    return Response(render(resources.db_pool, resources.redis), mimetype="text/plain; version=0.0.4")
