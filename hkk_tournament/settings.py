"""The one settings module of the project.

Everything that differs between machines comes from environment variables:

- ``DJANGO_DEBUG`` (default on), ``DJANGO_SECRET_KEY`` (required when debug is off),
  ``DJANGO_ALLOWED_HOSTS`` (comma separated).
- ``DATABASE_URL``: unset means a SQLite file under ``var/``; ``postgres://…`` selects PostgreSQL
  (psycopg 3).
- ``CELERY_BROKER_URL``: unset means tasks run in-process (eager); set it to use a real worker.
- ``HKK_CACHE_URL``: unset means a per-process memory cache; ``redis://…`` shares the cache (and so
  the API throttle counters) between all app server processes; pages survive its outage
  (``hkk_tournament.web.cache``).
- Throttle rates ``HKK_THROTTLE_*``, JSON body limits ``HKK_JSON_MAX_DEPTH``, page sizes
  ``HKK_API_*``, logging ``HKK_LOG_FORMAT`` / ``DJANGO_LOG_LEVEL``: see their sections below and
  docs/production.md.
- ``EMAIL_URL``-style settings are not used: ``EMAIL_HOST`` etc. switch to SMTP when set.

Transactions: ``ATOMIC_REQUESTS`` is off; services own their transactions explicitly.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import dj_database_url
from csp.constants import NONCE, NONE, SELF
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

from hkk_tournament.env import env_bool, env_int, env_list, env_str

BASE_DIR = Path(__file__).resolve().parent.parent
VAR_DIR = Path(env_str("HKK_VAR_DIR", str(BASE_DIR / "var")))

DEBUG = env_bool("DJANGO_DEBUG", True)
SECRET_KEY = env_str("DJANGO_SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("DJANGO_SECRET_KEY must be set when DJANGO_DEBUG is off.")
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "axes",  # login rate limiting
    "csp",  # Content-Security-Policy header (django-csp)
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from our own static files (CSP: 'self')
    "django_filters",
    "accounts",
    "decks",
    "tournaments",
]

MIDDLEWARE = [
    "hkk_tournament.request_log.RequestLogMiddleware",  # X-Request-ID, one JSON log line each
    "hkk_tournament.web.health.HealthCheckMiddleware",  # /healthz/, /readyz/ before host checks
    # gzip for pages and JSON (static files: WhiteNoise's precompressed copies). BREACH: the
    # CSRF token is masked anew on every response and Django adds random padding to each
    # compressed body (Django ≥ 4.2), so compressing pages with a token is safe
    # (docs/production.md, "Reverse proxy").
    "django.middleware.gzip.GZipMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "hkk_tournament.web.middleware.SecurityHeadersMiddleware",  # Permissions-Policy
    "csp.middleware.CSPMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    # Anonymous reads of shared public pages from their stored rendering (no view, no query);
    # inside the language choice, outside everything that reads the session or the database.
    "hkk_tournament.web.fast_path.FastPathMiddleware",
    "hkk_tournament.web.shedding.LoadSheddingMiddleware",  # 503 for reads that waited too long
    "hkk_tournament.web.middleware.ApiBodyLimitMiddleware",  # 413 JSON on /api/
    "hkk_tournament.web.middleware.PageUploadLimitMiddleware",  # 413 page before a form reads
    "hkk_tournament.web.middleware.ApplicationErrorMiddleware",  # JSON on /api/, error pages
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # keep last
]

ROOT_URLCONF = "hkk_tournament.urls"
WSGI_APPLICATION = "hkk_tournament.wsgi.application"
ASGI_APPLICATION = "hkk_tournament.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
_database_url = env_str("DATABASE_URL")
if _database_url:
    if not _database_url.startswith(("postgres://", "postgresql://", "sqlite://")):
        raise ImproperlyConfigured(
            f"DATABASE_URL={_database_url!r}: only postgres:// and sqlite:// URLs are supported."
        )
    DATABASES = {"default": dj_database_url.parse(_database_url, conn_max_age=60)}
    if DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
        # A database that does not answer fails /readyz/ and requests in seconds, not minutes.
        DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
            "connect_timeout", env_int("HKK_DB_CONNECT_TIMEOUT", 5)
        )
        # The enforced time limit: PostgreSQL cancels any statement (a lock wait included) that
        # runs longer than HKK_DB_STATEMENT_TIMEOUT seconds (default 30; 0 = none; set 0 for a
        # long maintenance command). Gunicorn's threaded workers never stop a slow request.
        _statement_ms = env_int("HKK_DB_STATEMENT_TIMEOUT", 30) * 1000
        if _statement_ms > 0:
            DATABASES["default"]["OPTIONS"].setdefault(
                "options", f"-c statement_timeout={_statement_ms}"
            )
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": str(VAR_DIR / "db.sqlite3"),
            "OPTIONS": {"timeout": 20},
        }
    }
ATOMIC_REQUESTS = False
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Auth -----------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# --- Accounts and login rate limiting -------------------------------------------------------
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = None  # None: LogoutView renders templates/registration/logged_out.html
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# django-axes with accounts.security.VenueSafeLockoutHandler (docs/production.md, "Rate limits and
# lockout"): HKK_LOGIN_FAILURE_LIMIT failed logins of one username (from any address) lock that
# username for HKK_LOGIN_BACKOFF_SECONDS, doubling with every further failure up to
# HKK_LOGIN_BACKOFF_MAX_MINUTES; HKK_LOGIN_IP_FAILURE_LIMIT failures from one address within
# HKK_LOGIN_COOLOFF_MINUTES (all usernames together: password spraying) lock the address for that
# long. The address limit is high because a venue puts thousands of players behind one address.
# A device where the user logged in before (signed cookie HKK_KNOWN_DEVICE_COOKIE) skips both
# locks for that user until it fails HKK_LOGIN_FAILURE_LIMIT times itself.
# HKK_TRUSTED_PROXY_COUNT = number of reverse proxies in front of Django that append to
# X-Forwarded-For (0: use REMOTE_ADDR); the API throttles use the same count.
AXES_ENABLED = env_bool("HKK_AXES_ENABLED", True)
AXES_HANDLER = "accounts.security.VenueSafeLockoutHandler"
AXES_FAILURE_LIMIT = env_int("HKK_LOGIN_FAILURE_LIMIT", 5)
HKK_LOGIN_BACKOFF_BASE = timedelta(seconds=env_int("HKK_LOGIN_BACKOFF_SECONDS", 60))
HKK_LOGIN_BACKOFF_MAX = timedelta(minutes=env_int("HKK_LOGIN_BACKOFF_MAX_MINUTES", 60))
HKK_LOGIN_IP_FAILURE_LIMIT = env_int("HKK_LOGIN_IP_FAILURE_LIMIT", 500)
HKK_LOGIN_IP_COOLOFF = timedelta(minutes=env_int("HKK_LOGIN_COOLOFF_MINUTES", 15))
# How long failures are remembered after the last one (at least the longest back-off).
AXES_COOLOFF_TIME = max(
    timedelta(hours=env_int("HKK_LOGIN_FAILURE_MEMORY_HOURS", 24)),
    HKK_LOGIN_BACKOFF_MAX,
    HKK_LOGIN_IP_COOLOFF,
)
AXES_LOCKOUT_PARAMETERS = ["username", "ip_address"]
AXES_RESET_ON_SUCCESS = True
# Attempts refused during a lockout are not failures: they never restart or lengthen the wait.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_HTTP_RESPONSE_CODE = 429
AXES_LOCKOUT_CALLABLE = "accounts.security.lockout_response"
AXES_CLIENT_IP_CALLABLE = "accounts.security.client_ip"
HKK_KNOWN_DEVICE_COOKIE = "hkk_device"
HKK_KNOWN_DEVICE_AGE = timedelta(days=env_int("HKK_KNOWN_DEVICE_DAYS", 365))
HKK_TRUSTED_PROXY_COUNT = env_int("HKK_TRUSTED_PROXY_COUNT", 0)

# --- i18n: Hungarian first, English second --------------------------------------------------
LANGUAGE_CODE = "hu"
LANGUAGES = [("hu", _("Hungarian")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
# Language: the switch's cookie, else the browser's Accept-Language (hu or en), else hu.
#: The home game's slug (listed first) and the format the deck-check page starts with.
HKK_PRIMARY_GAME = env_str("HKK_PRIMARY_GAME") or "hkk"
HKK_DEFAULT_FORMAT = env_str("HKK_DEFAULT_FORMAT") or "hkk-hagyomanyos"
USE_I18N = True
USE_TZ = True
TIME_ZONE = "Europe/Budapest"

# --- Static files ---------------------------------------------------------------------------
STATIC_URL = "static/"
STATIC_ROOT = VAR_DIR / "static"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns on every request without it
WHITENOISE_USE_FINDERS = DEBUG  # serve app static files without collectstatic while developing
STATICFILES_DIRS = [BASE_DIR / "hkk_tournament" / "static"]
if not DEBUG:
    # Production: `manage.py collectstatic` writes hashed, pre-compressed copies that WhiteNoise
    # serves with far-future cache headers (a page naming a file missing from the manifest fails
    # loudly instead of linking a stale file).
    STORAGES = {
        "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
        "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"},
    }

# --- Cache ----------------------------------------------------------------------------------
# The API throttles count in this cache: with several app server processes set HKK_CACHE_URL
# (e.g. redis://127.0.0.1:6379/1) so that they share one count. An unreachable Redis never
# fails a request (hkk_tournament.web.cache): pages render without it after HKK_CACHE_TIMEOUT
# seconds, throttles fail open, and Redis is left alone for HKK_CACHE_RETRY_SECONDS.
_cache_url = env_str("HKK_CACHE_URL")
HKK_CACHE_TIMEOUT = env_int("HKK_CACHE_TIMEOUT", 1)
if _cache_url:
    if not _cache_url.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(f"HKK_CACHE_URL={_cache_url!r}: use a redis:// URL.")
    CACHES = {
        "default": {
            "BACKEND": "hkk_tournament.web.cache.FailSafeRedisCache",
            "LOCATION": _cache_url,
            "OPTIONS": {
                "socket_connect_timeout": HKK_CACHE_TIMEOUT,
                "socket_timeout": HKK_CACHE_TIMEOUT,
            },
            "RETRY_SECONDS": env_int("HKK_CACHE_RETRY_SECONDS", 5),
        }
    }
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

# --- REST framework -------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "hkk_tournament.web.schema.ErrorAwareAutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    # JSON with a nesting limit and strict UTF-8 (hkk_tournament.web.parsers); forms stay accepted.
    # Any other Content-Type answers 415.
    "DEFAULT_PARSER_CLASSES": [
        "hkk_tournament.web.parsers.SafeJSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    # ?limit= is clamped to HKK_API_MAX_PAGE_SIZE; ?offset= above HKK_API_MAX_OFFSET answers 400.
    "DEFAULT_PAGINATION_CLASS": "hkk_tournament.web.pagination.BoundedLimitOffsetPagination",
    "PAGE_SIZE": 50,
    # Only views that name a throttle_scope are throttled, and only their writes (POST, PUT,
    # PATCH, DELETE): reads — public pages, live pairings, standings — never are. Signed-in
    # callers are counted per user, anonymous ones per client IP (HKK_TRUSTED_PROXY_COUNT).
    "DEFAULT_THROTTLE_CLASSES": ["hkk_tournament.web.throttling.ScopedWriteRateThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        # POST /api/auth/token/ (per IP, venue-sized: the lockout guards the passwords themselves).
        "login": env_str("HKK_THROTTLE_LOGIN", "300/min"),
        # POST /accounts/signup/ (per IP: a venue's sign-up rush behind one address fits).
        "signup": env_str("HKK_THROTTLE_SIGNUP", "30/min"),
        # POST /api/decks/validate/ (per user; the deck page re-validates as the player types).
        "deck_validation": env_str("HKK_THROTTLE_DECK_VALIDATION", "120/min"),
        # Players' result reports and confirmations (per user).
        "result_report": env_str("HKK_THROTTLE_RESULT_REPORT", "60/min"),
        # Failed claim-code attempts (page and API), per user and per address: guessing a code.
        "claim": env_str("HKK_THROTTLE_CLAIM", "10/hour"),
        "claim_address": env_str("HKK_THROTTLE_CLAIM_ADDRESS", "100/hour"),
        # Invitation e-mails an organiser sends, per user and per address.
        "invite": env_str("HKK_THROTTLE_INVITE", "100/hour"),
        "invite_address": env_str("HKK_THROTTLE_INVITE_ADDRESS", "200/hour"),
        # Password-reset requests, per target e-mail address and per client address.
        "password_reset_email": env_str("HKK_THROTTLE_PASSWORD_RESET_EMAIL", "3/hour"),
        "password_reset_address": env_str("HKK_THROTTLE_PASSWORD_RESET_ADDRESS", "30/hour"),
    },
    "NUM_PROXIES": env_int("HKK_TRUSTED_PROXY_COUNT", 0),
}
#: Deepest JSON nesting an API body may have (a deck list needs 3 levels).
HKK_JSON_MAX_DEPTH = env_int("HKK_JSON_MAX_DEPTH", 32)
#: Largest ?limit= a list endpoint serves (larger values are clamped to it).
HKK_API_MAX_PAGE_SIZE = env_int("HKK_API_MAX_PAGE_SIZE", 500)
#: Largest ?offset= accepted (larger values answer 400 ``invalid`` on ``offset``).
HKK_API_MAX_OFFSET = env_int("HKK_API_MAX_OFFSET", 1_000_000)
SPECTACULAR_SETTINGS = {
    "TITLE": "HKK Tournament API",
    "DESCRIPTION": "Deck validation and Swiss tournaments for HKK, WoW TCG and Blue Moon.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI from drf-spectacular-sidecar's static files, not a CDN (CSP: 'self' only).
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    # The bounded path converters (hkk_tournament.web.converters) are integers in the schema.
    "PATH_CONVERTER_OVERRIDES": {"id": int, "userid": int, "small": int},
    # Choice sets shared by fields of the same name get one schema name each.
    "ENUM_NAME_OVERRIDES": {
        "DeckVerdictEnum": ["legal", "illegal", "unverified"],
        "EntryDeckStatusEnum": ["legal", "override", "unverified", "illegal", "missing"],
    },
}
# Upload and body limits (bytes): a deck list is small; anything larger is rejected.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("HKK_MAX_BODY_BYTES", 512 * 1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = DATA_UPLOAD_MAX_MEMORY_SIZE
# Largest page request (bytes, files included; DATA_UPLOAD_MAX_MEMORY_SIZE leaves files out):
# the player-list import takes a 2,000,000-byte file plus the form's other fields. A bigger
# body is refused by its Content-Length before anything reads it (413).
HKK_MAX_UPLOAD_BYTES = env_int("HKK_MAX_UPLOAD_BYTES", 2_100_000)

# One place maps errors to HTTP for the API: {"error": {"code", "message", "fields", "params"}}.
REST_FRAMEWORK["EXCEPTION_HANDLER"] = "hkk_tournament.web.exceptions.api_exception_handler"

# --- Security headers (always on) -----------------------------------------------------------
# Content-Security-Policy (django-csp): everything from our own origin; no inline scripts, event
# handler attributes or style attributes. A template that truly needs an inline <script> or
# <style> gives it nonce="{{ request.csp_nonce }}" (templates/drf_spectacular/swagger_ui.html).
# HKK_CSP_REPORT_ONLY=1 sends the same policy as Content-Security-Policy-Report-Only instead (to
# trial a change without breaking pages).
_csp_policy = {
    "DIRECTIVES": {
        "default-src": [SELF],
        "script-src": [SELF, NONCE],
        "style-src": [SELF, NONCE],
        "img-src": [SELF, "data:"],
        "font-src": [SELF],
        "connect-src": [SELF],
        "object-src": [NONE],
        "base-uri": [SELF],
        "form-action": [SELF],
        "frame-ancestors": [NONE],
    }
}
if env_bool("HKK_CSP_REPORT_ONLY", False):
    CONTENT_SECURITY_POLICY_REPORT_ONLY = _csp_policy
else:
    CONTENT_SECURITY_POLICY = _csp_policy
SECURE_REFERRER_POLICY = "same-origin"
#: Sent on every response by hkk_tournament.web.middleware.SecurityHeadersMiddleware.
HKK_PERMISSIONS_POLICY = (
    "camera=(), microphone=(), geolocation=(), payment=(), usb=(), serial=(), "
    "magnetometer=(), gyroscope=(), accelerometer=(), display-capture=()"
)
# The health checks answer plain HTTP probes on the loopback address too.
SECURE_REDIRECT_EXEMPT = [r"^healthz/$", r"^readyz/$"]

# --- Production hardening -------------------------------------------------------------------
# On whenever DJANGO_DEBUG is off (`manage.py check --deploy` is clean).
# HSTS: browsers remember it for DJANGO_SECURE_HSTS_SECONDS (default one year) and, with preload,
# the domain may be baked into browsers: a site that later drops HTTPS becomes unreachable. For a
# first deployment set DJANGO_SECURE_HSTS_SECONDS=3600, raise it once HTTPS is known to work;
# DJANGO_SECURE_HSTS_PRELOAD=0 / DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS=0 opt out (check --deploy
# then warns). Behind a TLS-terminating proxy set DJANGO_SECURE_PROXY_SSL_HEADER, e.g.
# "HTTP_X_FORWARDED_PROTO,https" (only if the proxy always sets/overwrites that header).
if not DEBUG:
    SECURE_SSL_REDIRECT = env_bool("DJANGO_SECURE_SSL_REDIRECT", True)
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True
    SECURE_HSTS_SECONDS = env_int("DJANGO_SECURE_HSTS_SECONDS", 31536000)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_SECURE_HSTS_INCLUDE_SUBDOMAINS", True)
    SECURE_HSTS_PRELOAD = env_bool("DJANGO_SECURE_HSTS_PRELOAD", True)
    SECURE_CONTENT_TYPE_NOSNIFF = True
    X_FRAME_OPTIONS = "DENY"
    _proxy_ssl_header = env_list("DJANGO_SECURE_PROXY_SSL_HEADER", [])
    if _proxy_ssl_header:
        if len(_proxy_ssl_header) != 2 or not _proxy_ssl_header[0].startswith("HTTP_"):
            raise ImproperlyConfigured(
                "DJANGO_SECURE_PROXY_SSL_HEADER must look like 'HTTP_X_FORWARDED_PROTO,https'."
            )
        SECURE_PROXY_SSL_HEADER = (_proxy_ssl_header[0], _proxy_ssl_header[1])

# --- Celery ---------------------------------------------------------------------------------
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL")
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND") or (CELERY_BROKER_URL or None)
# Embedded default: no broker configured means tasks run in-process, synchronously.
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 300)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 240)
# Jobs survive a dead worker or broker (docs/production.md, Background jobs): ack late, Redis
# redelivers after the visibility timeout; a publish gives up fast (jobs.send runs it here).
CELERY_TASK_ACKS_LATE = CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
HKK_BROKER_VISIBILITY_TIMEOUT = env_int("HKK_BROKER_VISIBILITY_TIMEOUT", 600)
HKK_BROKER_PUBLISH_TIMEOUT = env_int("HKK_BROKER_PUBLISH_TIMEOUT", 1)
HKK_BROKER_RESTORE_INTERVAL = env_int("HKK_BROKER_RESTORE_INTERVAL", 30)
CELERY_BROKER_TRANSPORT_OPTIONS = dict(
    visibility_timeout=HKK_BROKER_VISIBILITY_TIMEOUT, unacked_restore_throttle=1,
    unacked_restore_interval=HKK_BROKER_RESTORE_INTERVAL, socket_timeout=5,
    socket_connect_timeout=HKK_BROKER_PUBLISH_TIMEOUT, max_retries=1,
    interval_start=0.2, interval_step=0.2, interval_max=0.2,
)  # fmt: skip
CELERY_BROKER_CONNECTION_TIMEOUT = CELERY_REDIS_SOCKET_CONNECT_TIMEOUT = HKK_BROKER_PUBLISH_TIMEOUT
CELERY_RESULT_BACKEND_TRANSPORT_OPTIONS = {"visibility_timeout": HKK_BROKER_VISIBILITY_TIMEOUT}
CELERY_REDIS_SOCKET_TIMEOUT = 5
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
#: Seconds /readyz/ waits for the broker before calling it unavailable.
HKK_BROKER_CHECK_TIMEOUT = env_int("HKK_BROKER_CHECK_TIMEOUT", 2)
#: Public reads (GET, HEAD) that waited longer than this in the queue (X-Request-Start, set by
#: the reverse proxy) answer 503 at once (hkk_tournament.web.shedding); 0 = never shed.
# Seconds between two refreshes of one shared rendering handed to a worker: a stale page is
# answered for at most this long (+ the queue wait and one rendering) after it went stale
# (hkk_tournament.web.page_cache).
HKK_PAGE_REFRESH_SECONDS = env_int("HKK_PAGE_REFRESH_SECONDS", 15)
# Seconds the reverse proxy may keep a shared public answer and give it to the same URL's next
# visitors (``X-Accel-Expires``, deploy/nginx/hkk-tournament.conf; hkk_tournament.web.page_cache
# .mark_shared); 0 = the header is not sent and the proxy keeps nothing.
HKK_PROXY_CACHE_SECONDS = env_int("HKK_PROXY_CACHE_SECONDS", 1)
HKK_SHED_AFTER_MS = env_int("HKK_SHED_AFTER_MS", 1000)
#: Seconds a shed client is told to wait (Retry-After).
HKK_SHED_RETRY_AFTER = env_int("HKK_SHED_RETRY_AFTER", 5)
#: Whether an unreachable cache makes /readyz/ answer 503 (default) or only "degraded" (one
#: Redis shared by every node: its outage would otherwise take every node out of rotation).
HKK_READYZ_CACHE_REQUIRED = env_bool("HKK_READYZ_CACHE_REQUIRED", True)

# --- E-mail ---------------------------------------------------------------------------------
EMAIL_HOST = env_str("EMAIL_HOST")
if EMAIL_HOST:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_PORT = env_int("EMAIL_PORT", 587)
    EMAIL_HOST_USER = env_str("EMAIL_HOST_USER")
    EMAIL_HOST_PASSWORD = env_str("EMAIL_HOST_PASSWORD")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", True)
else:
    EMAIL_BACKEND = "django.core.mail.backends.console.EmailBackend"
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "verseny@localhost")
if not EMAIL_HOST and not DEBUG:
    # Production without a mail server: nothing is sent and nothing is printed (invitation codes
    # and reset links never reach the log). The pages say so instead of "sent"
    # (hkk_tournament.mail.mail_delivers); check accounts.E001 refuses the console backend.
    EMAIL_BACKEND = "django.core.mail.backends.dummy.EmailBackend"

# --- Claim codes ----------------------------------------------------------------------------
#: How long an organiser's claim code (printed or e-mailed) stays valid after it is made.
HKK_CLAIM_CODE_LIFETIME = timedelta(days=env_int("HKK_CLAIM_CODE_DAYS", 30))

# --- Project --------------------------------------------------------------------------------
# Where the bundled catalogues live (shipped inside the project, see decks/data/README.md).
HKK_CATALOGUE_DIR = BASE_DIR / "decks" / "data"

# --- Logging --------------------------------------------------------------------------------
# One JSON object per line on standard output (HKK_LOG_FORMAT=text for a human-readable console).
# Every record made while a request runs carries its ``request_id`` (X-Request-ID), and
# hkk_tournament.request_log writes one line per request (logger ``hkk_tournament.request``,
# level HKK_REQUEST_LOG_LEVEL, INFO by default; WARNING silences it).
_log_format = env_str("HKK_LOG_FORMAT", "json")
if _log_format not in {"json", "text"}:
    raise ImproperlyConfigured(f"HKK_LOG_FORMAT={_log_format!r}: use json or text.")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {"request_id": {"()": "hkk_tournament.request_log.RequestIdFilter"}},
    "formatters": {
        "json": {
            "()": "pythonjsonlogger.json.JsonFormatter",
            "format": "%(asctime)s %(levelname)s %(name)s %(message)s",
            "datefmt": "%Y-%m-%dT%H:%M:%S%z",
            "rename_fields": {"asctime": "time", "levelname": "level", "name": "logger"},
        },
        "text": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "stream": "ext://sys.stdout",
            "formatter": _log_format,
            "filters": ["request_id"],
        }
    },
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "WARNING")},
    "loggers": {
        "hkk_tournament.request": {"level": env_str("HKK_REQUEST_LOG_LEVEL", "INFO")},
    },
}

# --- Live push (Server-Sent Events) -----------------------------------------------------------
# Pages hold /tournaments/<id>/events/ open on the ASGI server (uvicorn, docs/production.md) and
# receive new pairings, results, standings versions and clock changes (tournaments.services.push,
# tournaments.pages.live_push). HKK_PUSH_REDIS_URL (default: HKK_CACHE_URL) fans every event out
# through Redis to every app server process and node, the Celery worker's included; without it
# Channels' in-process layer reaches the pages of the same process (the embedded default).
_push_url = env_str("HKK_PUSH_REDIS_URL") or _cache_url
if _push_url:
    if not _push_url.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured(f"HKK_PUSH_REDIS_URL={_push_url!r}: use a redis:// URL.")
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
            "CONFIG": {
                "hosts": [{"address": _push_url, "socket_connect_timeout": 1}],
                "prefix": "hkk",
            },
        }
    }
else:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
#: Seconds between keep-alive comments on an open event stream (proxies close idle ones).
HKK_PUSH_KEEPALIVE_SECONDS = env_int("HKK_PUSH_KEEPALIVE_SECONDS", 15)

# Meta statistics (docs/rules.md §20 (Meta statistics)): a list is "top" when its entry's final
# rank is within the best HKK_META_TOP_COUNT (0: no such cap) or HKK_META_TOP_PERCENT % of its
# event's field, whichever is smaller; a win rate is shown from HKK_META_MIN_MATCHES matches on.
HKK_META_TOP_COUNT = env_int("HKK_META_TOP_COUNT", 8)
HKK_META_TOP_PERCENT = env_int("HKK_META_TOP_PERCENT", 25)
HKK_META_MIN_MATCHES = env_int("HKK_META_MIN_MATCHES", 20)
