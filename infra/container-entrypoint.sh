#!/bin/sh
# Entrypoint of the container image (infra/Dockerfile): which part of the service this container
# runs. The command lines are those `empyrean up` uses (services/platform/launcher.py api_command,
# workers/celery_app.py worker_command), through the entry points that choose the engine build
# (services/platform/entrypoints.py), with two differences for containers:
#   - beat is its own process (`celery beat`), not embedded in a worker (`worker --beat`): any number
#     of worker containers may run, and exactly one beat (the sweeper must not run twice);
#   - gunicorn's worker count comes from WEB_CONCURRENCY (gunicorn's own variable; default 2).
# Everything else of gunicorn's (gevent workers, keep-alive, access log) is in one file both use,
# services/platform/gunicorn_conf.py.
# Configuration: environment variables only (services/platform/config.py).
set -eu

role="${1:-api}"
case "$role" in
  api)
    shift || true
    # gevent workers and their bounds (slow clients): services/platform/gunicorn_conf.py
    exec python -m gunicorn \
      --config python:services.platform.gunicorn_conf \
      --bind "${EMPYREAN_API_HOST:-0.0.0.0}:${EMPYREAN_API_PORT:-8000}" \
      --workers "${WEB_CONCURRENCY:-2}" \
      "$@" \
      'services.platform.entrypoints:api_app()'
    ;;
  worker)
    shift
    # --hostname empyrean@%h: %h is the container's host name, unique per container/pod, so the
    # worker name is unique too (Flower and `celery inspect ping -d empyrean@$HOSTNAME` use it).
    exec python -m celery -A workers.celery_app:app worker \
      --queues interactive,bulk \
      --concurrency "${EMPYREAN_WORKER_CONCURRENCY:-2}" \
      --hostname 'empyrean@%h' \
      --loglevel INFO \
      --without-mingle --without-gossip \
      "$@"
    ;;
  beat)
    shift
    exec python -m celery -A workers.celery_app:app beat \
      --schedule "${EMPYREAN_DATA_DIR:-/var/lib/empyrean}/celerybeat-schedule" \
      --loglevel INFO \
      "$@"
    ;;
  migrate)
    shift
    # One-shot: apply the schema migrations (Alembic), then exit 0. Idempotent.
    exec empyrean db upgrade "$@"
    ;;
  *)
    # Anything else runs as given, e.g. `empyrean token create --role admin`, `bash`.
    exec "$@"
    ;;
esac
