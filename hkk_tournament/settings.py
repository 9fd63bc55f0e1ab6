"""The one settings module of the project (../shared/STYLE.md §5.8).

Everything that differs between machines comes from environment variables:

- ``DJANGO_DEBUG`` (default on), ``DJANGO_SECRET_KEY`` (required when debug is off),
  ``DJANGO_ALLOWED_HOSTS`` (comma separated).
- ``DATABASE_URL``: unset means a SQLite file under ``var/``; ``postgres://…`` selects PostgreSQL
  (psycopg 3).
- ``CELERY_BROKER_URL``: unset means tasks run in-process (eager); set it to use a real worker.
- ``EMAIL_URL``-style settings are not used: ``EMAIL_HOST`` etc. switch to SMTP when set.

Transactions: ``ATOMIC_REQUESTS`` is off; services own their transactions explicitly.
"""

from __future__ import annotations

from datetime import timedelta  # accounts/security (h8)
from pathlib import Path

import dj_database_url
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
    SECRET_KEY = "dev-only-insecure-key-do-not-use-in-production"  # noqa: S105
ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["127.0.0.1", "localhost", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "axes",  # accounts/security (h8): login rate limiting
    "rest_framework",
    "rest_framework.authtoken",
    "drf_spectacular",
    "django_filters",
    "decks",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "hkk_tournament.middleware.ApiBodyLimitMiddleware",  # accounts/security (h8): 413 on /api/
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "axes.middleware.AxesMiddleware",  # accounts/security (h8): keep last
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
else:
    VAR_DIR.mkdir(parents=True, exist_ok=True)
    DATABASES = {
        "default": {
            "ENGINE": "django.db.backends.sqlite3",
            "NAME": VAR_DIR / "db.sqlite3",
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
# >>> accounts/security (h8) ------------------------------------------------------------------
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "/"
LOGOUT_REDIRECT_URL = None  # None: LogoutView renders templates/registration/logged_out.html
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
# django-axes: lock a (username, IP) pair out after HKK_LOGIN_FAILURE_LIMIT failed logins for
# HKK_LOGIN_COOLOFF_MINUTES; HKK_TRUSTED_PROXY_COUNT = number of reverse proxies in front of
# Django that append to X-Forwarded-For (0: use REMOTE_ADDR).
AXES_ENABLED = env_bool("HKK_AXES_ENABLED", True)
AXES_FAILURE_LIMIT = env_int("HKK_LOGIN_FAILURE_LIMIT", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("HKK_LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_HTTP_RESPONSE_CODE = 429
AXES_LOCKOUT_CALLABLE = "hkk_tournament.accounts.lockout_response"
AXES_CLIENT_IP_CALLABLE = "hkk_tournament.accounts.client_ip"
HKK_TRUSTED_PROXY_COUNT = env_int("HKK_TRUSTED_PROXY_COUNT", 0)
# <<< accounts/security (h8) ------------------------------------------------------------------

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

# --- REST framework -------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.AllowAny"],
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.LimitOffsetPagination",
    "PAGE_SIZE": 50,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "HKK Tournament API",
    "DESCRIPTION": "Deck validation and Swiss tournaments for HKK, WoW TCG and Blue Moon.",
    "VERSION": "0.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
}
# Upload and body limits (bytes): a deck list is small; anything larger is rejected.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("HKK_MAX_BODY_BYTES", 512 * 1024)
FILE_UPLOAD_MAX_MEMORY_SIZE = DATA_UPLOAD_MAX_MEMORY_SIZE

# >>> accounts/security (h8) ------------------------------------------------------------------
# One place maps errors to HTTP for the API (oversized bodies -> 413 JSON).
REST_FRAMEWORK["EXCEPTION_HANDLER"] = "hkk_tournament.exceptions.api_exception_handler"

# Production hardening, on whenever DJANGO_DEBUG is off (`manage.py check --deploy` is clean).
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
# <<< accounts/security (h8) ------------------------------------------------------------------

# --- Celery ---------------------------------------------------------------------------------
CELERY_BROKER_URL = env_str("CELERY_BROKER_URL")
CELERY_RESULT_BACKEND = env_str("CELERY_RESULT_BACKEND") or (CELERY_BROKER_URL or None)
# Embedded default: no broker configured means tasks run in-process, synchronously.
CELERY_TASK_ALWAYS_EAGER = not CELERY_BROKER_URL
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_TIME_LIMIT = env_int("CELERY_TASK_TIME_LIMIT", 300)
CELERY_TASK_SOFT_TIME_LIMIT = env_int("CELERY_TASK_SOFT_TIME_LIMIT", 240)
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

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

# --- Project --------------------------------------------------------------------------------
# Where the bundled catalogues live (shipped inside the project, see decks/data/README.md).
HKK_CATALOGUE_DIR = BASE_DIR / "decks" / "data"

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env_str("DJANGO_LOG_LEVEL", "WARNING")},
}
