"""Gunicorn settings for production (read automatically from the working directory, or pass
``-c gunicorn.conf.py``). Start: ``gunicorn hkk_tournament.wsgi`` — see docs/production.md.

Environment (all optional):

- ``GUNICORN_BIND`` (default ``127.0.0.1:8000``): address to listen on; keep it on the
  loopback behind a reverse proxy (nginx, Caddy) that terminates TLS and buffers slow clients.
- ``WEB_CONCURRENCY`` (default ``2 × CPU cores + 1``, at most 9): worker processes;
  ``GUNICORN_THREADS`` (default 2): threads per worker (the threads of one worker share its
  interpreter lock, so more of them queue behind each other's page rendering: with 4, the
  slowest percent of a 200 req/s public load on 2 cores took twice as long as with 2). Each
  thread may hold one PostgreSQL connection (``CONN_MAX_AGE`` 60 s): workers × threads must
  stay below the server's ``max_connections``.
- ``GUNICORN_TIMEOUT`` (default 30 s): a worker whose main loop has not reported to the
  arbiter for that long (hung, not merely busy) is killed and restarted. With the threaded
  ``gthread`` workers used here this does NOT limit a request: the main loop keeps reporting
  while a thread is still working on a slow request. The enforced limit is PostgreSQL's
  ``statement_timeout`` (``HKK_DB_STATEMENT_TIMEOUT``, default 30 s, set in
  ``hkk_tournament/settings.py``): a statement (or a wait for a lock) running longer is
  cancelled, the request answers 503 ``statement_timeout`` and its transaction rolls back; time
  spent in Python between statements is not bounded, which is why slow work (pairing,
  standings) goes to Celery and the import preview is bounded by its queries.
  ``GUNICORN_GRACEFUL_TIMEOUT`` (default 30 s): how long a restart waits for running requests.
- ``GUNICORN_LOG_LEVEL`` (default ``info``); ``GUNICORN_ACCESS_LOG`` (default ``-`` = stdout, one
  JSON object per line, ``hkk_tournament.gunicorn_logging``; empty = off, Django's own request
  line still has every request).
- Each worker is warmed before it takes requests (``post_worker_init`` below,
  ``hkk_tournament.web.warmup``), also when ``max_requests`` recycles it. A recycled worker does
  not re-parse the standings: public pages and API answers, the snapshot rows and the name
  index live in the shared cache (``HKK_CACHE_URL``), rendered once for all workers.
- At an event run two pools from this file, a public one (reads) and a staff one (writes), each
  with its own ``GUNICORN_BIND`` and ``WEB_CONCURRENCY``; the reverse proxy routes by method
  and stamps ``X-Request-Start`` so that reads which waited too long are shed (docs/
  production.md, "Reverse proxy").
- ``GUNICORN_NICE`` (default empty: unchanged): the pool's CPU niceness, -20 (first) to 19
  (last), applied by the master before it forks (``on_starting`` below), so every worker,
  recycled ones included, inherits it (``hkk_tournament.priority``). At an event give the
  public pool ``10`` and leave the staff pool at 0: on a busy machine the judges' writes then
  get the CPU first and public reads queue and are shed. An invalid value stops the start with
  a message naming it; a value below the current niceness needs root (systemd ``Nice=`` or
  ``CPUWeight=`` are the unit-file equivalents, docs/production.md).
- ``FORWARDED_ALLOW_IPS`` (Gunicorn's own variable, default ``127.0.0.1,::1``): the proxies whose
  ``X-Forwarded-Proto`` Gunicorn believes. Leave the default when the proxy runs on the same
  machine; never set ``*`` while the port can be reached from outside. Django uses
  ``DJANGO_SECURE_PROXY_SSL_HEADER`` for HTTPS detection and ``HKK_TRUSTED_PROXY_COUNT`` for the
  client address (login lockout, throttles): Gunicorn does not rewrite ``REMOTE_ADDR``.
"""

import multiprocessing
import os

from hkk_tournament.priority import apply_niceness, niceness_from_environment

wsgi_app = "hkk_tournament.wsgi:application"
bind = [os.environ.get("GUNICORN_BIND", "127.0.0.1:8000")]
workers = int(os.environ.get("WEB_CONCURRENCY", min(2 * multiprocessing.cpu_count() + 1, 9)))
threads = int(os.environ.get("GUNICORN_THREADS", "2"))
worker_class = "gthread"
timeout = int(os.environ.get("GUNICORN_TIMEOUT", "30"))
graceful_timeout = int(os.environ.get("GUNICORN_GRACEFUL_TIMEOUT", "30"))
keepalive = 5
# Recycle workers now and then (a slow leak cannot grow for ever); jitter avoids all at once.
# At 200 req/s over 5 workers, 20,000 requests is about 8 minutes per worker (2,000 recycled
# each worker every ~50 s, each time re-paying its warm-up and first page renders).
max_requests = 20000
max_requests_jitter = 2000
# Request line and header limits (Gunicorn's defaults, stated): bigger requests answer 400.
limit_request_line = 4094
limit_request_fields = 100
limit_request_field_size = 8190

loglevel = os.environ.get("GUNICORN_LOG_LEVEL", "info")
errorlog = "-"
accesslog = os.environ.get("GUNICORN_ACCESS_LOG", "-") or None
logger_class = "hkk_tournament.gunicorn_logging.JsonAccessLogger"
# X-Forwarded-Proto from these addresses sets the request scheme (see the docstring).
forwarded_allow_ips = os.environ.get("FORWARDED_ALLOW_IPS", "127.0.0.1,::1")
proc_name = "hkk-tournament"
# Gunicorn's control socket ($HOME/.gunicorn/gunicorn.ctl) is not used: signals and systemd are.
control_socket_disable = True
# Read now, so a mistyped value stops the start before anything listens (NicenessError).
NICE = niceness_from_environment("GUNICORN_NICE")


def on_starting(server):
    """In the master, before the first worker is forked: set the pool's niceness
    (``GUNICORN_NICE``, the docstring), which every worker inherits."""
    if NICE is not None:
        server.log.info("niceness %d (GUNICORN_NICE)", apply_niceness("GUNICORN_NICE", NICE))


def post_worker_init(worker):
    """Warm every new (or recycled) worker before it accepts a connection: URL patterns,
    languages and templates (``hkk_tournament.web.warmup``), so its first visitors do not wait;
    then freeze the loaded objects out of the garbage collector (``gc.freeze``)."""
    import gc

    from hkk_tournament.web.warmup import warm

    worker.log.info("worker %s warmed: %d templates", worker.pid, warm())
    # What is loaded now (Django, URL patterns, templates) lives as long as the worker: move it
    # out of the cyclic collector's reach, so full collections during requests stay short.
    gc.freeze()
