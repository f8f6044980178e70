"""How gunicorn serves the API, wherever it runs: ``gunicorn --config python:services.platform.gunicorn_conf``
is on the command line of `empyrean up` (services.platform.launcher.api_command) and of the container
image (infra/container-entrypoint.sh, which compose and the Kubernetes manifests run). The bind
address and the number of worker processes are given there; everything else is here, once.

Slow clients (docs/security.md, docs/operations.md "Slow clients"): the workers are gevent's, so a
connection is a greenlet, not a thread. A client that trickles its request holds a few kilobytes of
memory, not one of a handful of threads (the gthread workers used before, 2 x 4 threads, stopped
answering anyone at 8 such connections). psycopg 3 (since 3.1.14) waits cooperatively under gevent
by itself, and the Celery producer (kombu, redis-py) uses the patched sockets.

This module is read by gunicorn's master process before any worker forks and before gevent patches
anything: it must import nothing but the standard library.
"""

worker_class = "gevent"
# Connections each worker process serves at once (gunicorn's default): slow ones included. Beyond
# that a worker stops accepting until one closes; the listen backlog holds the rest.
worker_connections = 1000
# With the gevent worker, gunicorn waits for a request's line and headers (the first request of a
# connection too) at most this long, then closes the connection: a client trickling its headers is
# cut off after 5 s. The same bound covers draining the unread body of a request already answered
# (an anonymous upload refused with a 401). Also the idle keep-alive time.
keepalive = 5
# Workers silent this long are killed and replaced (gunicorn's --timeout; a gevent worker reports
# from its event loop every second, so only a request hogging the CPU that long trips it).
timeout = 30
graceful_timeout = 10
accesslog = "-"
# gunicorn's largest bounded request line: URLs over services.api.errors.MAX_URL_BYTES (4 KB) reach the
# app and get its JSON 414 rather than gunicorn's HTML page.
limit_request_line = 8190
# gunicorn's control socket lives at one fixed path in $HOME: two services would collide.
control_socket_disable = True
