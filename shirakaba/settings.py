"""Settings for the Shirakaba score book: one file, driven by the environment.

Environment variables (all optional for local use):

- ``DATABASE_URL``: e.g. ``postgres://user@127.0.0.1:5432/shirakaba``. Default: an SQLite
  file ``data/db.sqlite3`` (WAL mode, immediate transactions, a busy timeout).
- ``SECRET_KEY``: from the environment (set it in production); otherwise a key is generated
  once into ``data/secret_key`` and kept there (git ignores ``data/``).
- ``DEBUG``: ``1``/``true`` to turn debugging on. Off unless asked.
- ``ALLOWED_HOSTS``: comma-separated. Default ``127.0.0.1,localhost``.
- ``STANDINGS_PUBLIC``: ``1`` opens the standings page read-only to visitors. Off by default.
- ``SHIRAKABA_SIGNUP``: ``1`` lets a club's organizer give a member an invitation code with which
  the member makes their own login (``/signup/``, docs/clubs.md). Off by default: the site's
  administrator makes the logins.
- ``SHIRAKABA_DATA_DIR``: where the SQLite file, the generated key, collected static files and
  uploads waiting for confirmation live. Default ``data/``.
- ``SHIRAKABA_REPORTS_DIR``: where made reports are kept. Default ``DATA_DIR/reports``.
- ``SHIRAKABA_REPORTS_STORAGE``: the Django storage backend that keeps made reports (the
  ``reports`` entry of ``STORAGES``), for example ``storages.backends.s3.S3Storage`` from
  django-storages. Default the file system under ``SHIRAKABA_REPORTS_DIR``.
- ``SHIRAKABA_REPORTS_STORAGE_OPTIONS``: that backend's options, as a JSON object. Default
  ``{"location": REPORTS_DIR}`` for the default backend, ``{}`` for another.
- ``SHIRAKABA_REPORTS_PER_PERSON``: how many reports one person may have waiting at once.
  Default 3.
- ``SHIRAKABA_REPORTS_MAX_MB``: the kept reports' files at most this many MB in all. Default 500.
- ``SHIRAKABA_BACKUP_DIR``: where ``manage.py backup --nightly`` writes the nightly backups
  (the last seven kept). Default ``DATA_DIR/backups``.
- ``SHIRAKABA_BACKUP_COPY_DIR``: a second place each nightly backup is copied to (a USB disk,
  a mounted folder; the last seven kept there). Default none.
- ``SESSION_IDLE_MINUTES``: a session ends after this long without a request. Default 120.
- ``SHIRAKABA_CACHE_URL``: the cache (drawn charts): ``redis://host:6379/0`` (Django's Redis
  backend; needs ``pip install redis``), ``locmem://`` (each process its own), or
  ``file:///path``. Default a file cache under ``DATA_DIR/cache``, shared by the processes
  of one machine.

Production (see docs/running.md's "Run in production"):

- ``HTTPS``: ``1`` when the site is served over HTTPS: secure cookies, HSTS and the redirect
  from http. ``SSL_REDIRECT``: ``0`` leaves the redirect to the proxy in front;
  ``HSTS_SECONDS`` (default one year), ``HSTS_INCLUDE_SUBDOMAINS`` and ``HSTS_PRELOAD``
  (default on) tune HSTS.
- ``PROXY_COUNT``: how many reverse proxies stand in front (default 0). With 1 or more, the
  scheme comes from ``X-Forwarded-Proto`` and the client's address (for the sign-in lock)
  is the ``PROXY_COUNT``-th entry from the right of ``X-Forwarded-For``: the one the
  outermost proxy saw, never one the client wrote itself.
- ``MAIL_BACKEND``: a real mailer for production (the console one is for development).
- ``STATICFILES_BACKEND``: the static files storage. Default whitenoise's compressed manifest
  storage, which needs ``collectstatic`` first.
- ``LOG_LEVEL``: the root logger's level (to the console). Default ``WARNING``.

These are all the variables this file reads. The development tools (``shirakaba/devtools``)
are installed by what is importable, not by a variable: see ``DEVTOOLS``.
"""

import importlib.util
import json
import os
import secrets
from datetime import timedelta
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP
from django.utils.translation import gettext_lazy as _
from whitenoise.compress import Compressor

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    value = os.environ.get(name)
    if value is None:
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_list(name: str, default: str) -> list[str]:
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def importable(*modules: str) -> bool:
    """Whether every one of these modules can be found here (without importing them)."""
    return all(importlib.util.find_spec(module) is not None for module in modules)


DATA_DIR = Path(os.environ.get("SHIRAKABA_DATA_DIR", BASE_DIR / "data"))


def read_or_create_secret_key(path: Path) -> str:
    """Return the local secret key, generating it once (kept out of git under data/)."""
    if path.exists():
        return path.read_text().strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    key = secrets.token_urlsafe(50)
    path.write_text(key)
    path.chmod(0o600)
    return key


DEBUG = env_bool("DEBUG")
SECRET_KEY = os.environ.get("SECRET_KEY") or read_or_create_secret_key(DATA_DIR / "secret_key")
ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", "127.0.0.1,localhost")
# Open the standings page read-only to visitors who have not signed in (off by default).
STANDINGS_PUBLIC = env_bool("STANDINGS_PUBLIC")

INSTALLED_APPS = [
    "shirakaba.apps.ClubAdminConfig",  # Django's admin, every ModelAdmin guarded (admin.py)
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.humanize",
    "django_htmx",
    "simple_history",
    "axes",
    "members",
    # Before django_tasks_db: scoring's db_worker (which also sweeps for reports whose worker
    # died) stands in for django-tasks-db's own.
    "scoring",
    "django_tasks_db",
]
# The development tools (benchmarks and the load test, shirakaba/devtools/) are installed only
# where their dependencies are (requirements-dev.txt, which brings httpx): a production install
# from requirements.txt lists no command it cannot run.
DEVTOOLS = importable("shirakaba.devtools", "httpx")
if DEVTOOLS:
    INSTALLED_APPS.append("shirakaba.devtools")

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "shirakaba.middleware.ChosenLanguageMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Every request in its club's scope (members/scopes.py); after the user is known: the
    # site's admin, for a superuser, is in none.
    "members.scopes.ClubScopeMiddleware",
    "shirakaba.middleware.PrivateAnswersMiddleware",
    # Before any view reads the path or the query: a NUL is a 400. After the
    # user is known: the 400 page shows who is signed in.
    "shirakaba.middleware.RefuseNulMiddleware",
    "django.contrib.auth.middleware.LoginRequiredMiddleware",
    "members.roles.ClubRoleRequiredMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "simple_history.middleware.HistoryRequestMiddleware",
    # Last, as django-axes asks: turns a locked-out sign-in into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "shirakaba.urls"
WSGI_APPLICATION = "shirakaba.wsgi.application"

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
                "members.context_processors.roles",
                "members.context_processors.session_time",
                "members.context_processors.display",
            ],
        },
    },
]

# Database: SQLite by default (a file under data/), PostgreSQL through DATABASE_URL.
SQLITE_OPTIONS = {
    "transaction_mode": "IMMEDIATE",
    "timeout": 20,
    "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL",
}
DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{DATA_DIR / 'db.sqlite3'}", conn_max_age=60, conn_health_checks=True
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"].setdefault("OPTIONS", {}).update(SQLITE_OPTIONS)
    # Tests use a file, not memory: the browser tests' live server answers several requests
    # at once (a page and its charts), and one in-memory connection shared between threads
    # fails under that ("bad parameter or other API misuse").
    DATABASES["default"]["TEST"] = {"NAME": str(DATA_DIR / "test.sqlite3")}
    DATA_DIR.mkdir(parents=True, exist_ok=True)

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Sign-in throttling (django-axes with the club's rule, members/locks.py): 5 failures for a
# login name from one address lock that name there; 30 from one address, whatever the names
# (each name counting at most 5), lock the address. Locks last 15 minutes; the organizer
# lifts them on the members page (members.views.locks) or with `manage.py unlock`.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "members.backends.ClubRoleBackend",
]
# Sign-up by an invitation code a club's organizer gives (members.views.sign_up).
SIGNUP_BY_INVITATION = env_bool("SHIRAKABA_SIGNUP")
INVITATION_DAYS = 14  # how long a new invitation code is valid, unless the organizer says
AXES_FAILURE_LIMIT = 5
SIGNIN_ADDRESS_LIMIT = 30
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]  # the address's own limit: the handler
AXES_HANDLER = "members.locks.LockHandler"
# The address the trusted proxy saw (PROXY_COUNT), never one the client wrote.
AXES_CLIENT_IP_CALLABLE = "members.locks.client_address"
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_TEMPLATE = "registration/locked.html"
AXES_VERBOSE = False

# Sessions end after a configurable idle time: each request pushes the expiry forward.
SESSION_COOKIE_AGE = int(os.environ.get("SESSION_IDLE_MINUTES", "120")) * 60
SESSION_SAVE_EVERY_REQUEST = True
SESSION_COOKIE_HTTPONLY = True

# The nightly backup (manage.py backup --nightly) and its copy in a second place the club
# chooses (scoring/backups.py::nightly_backup).
BACKUP_DIR = Path(os.environ.get("SHIRAKABA_BACKUP_DIR", DATA_DIR / "backups"))
BACKUP_COPY_DIR = os.environ.get("SHIRAKABA_BACKUP_COPY_DIR", "")

# An uploaded record sheet waits here between its preview and its confirmation.
PENDING_IMPORTS_DIR = DATA_DIR / "pending-imports"

# Reports are tasks of Django's tasks framework, queued in the database and made by
# `manage.py db_worker` (scoring/reports/making.py); the files are kept here by digest.
TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
REPORTS_DIR = Path(os.environ.get("SHIRAKABA_REPORTS_DIR", DATA_DIR / "reports"))
# The files go through Django's storage API (``STORAGES["reports"]``, below): by default the
# file system under REPORTS_DIR, where existing installs keep them; any other backend (an
# S3-compatible bucket through django-storages) lets several machines share them
# (docs/several-machines.md).
FILE_SYSTEM_STORAGE = "django.core.files.storage.FileSystemStorage"
REPORTS_STORAGE = os.environ.get("SHIRAKABA_REPORTS_STORAGE", FILE_SYSTEM_STORAGE)
REPORTS_STORAGE_OPTIONS: dict[str, Any] = json.loads(
    os.environ.get("SHIRAKABA_REPORTS_STORAGE_OPTIONS") or "null"
) or ({"location": REPORTS_DIR} if REPORTS_STORAGE == FILE_SYSTEM_STORAGE else {})
# At most this many reports of one person queued or being made at once (those a finalise
# queues are no one's), and the kept files at most this big in all (the least recently
# used go first; files in use stay even beyond it).
REPORTS_PER_PERSON = int(os.environ.get("SHIRAKABA_REPORTS_PER_PERSON", "3"))
REPORTS_MAX_BYTES = int(os.environ.get("SHIRAKABA_REPORTS_MAX_MB", "500")) * 1024 * 1024


# Behind reverse proxies: trust their X-Forwarded-Proto and X-Forwarded-For headers.
PROXY_COUNT = int(os.environ.get("PROXY_COUNT", "0"))
# The client's address is the PROXY_COUNT-th entry from the right of X-Forwarded-For
# (members.locks.client_address; django-ipware, which axes would use if it were installed, counts the
# proxies' own addresses into that header, which nginx does not write).
if PROXY_COUNT:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# HTTPS: secure cookies, HSTS and the http → https redirect (`manage.py check --deploy`).
HTTPS = env_bool("HTTPS")
SESSION_COOKIE_SECURE = CSRF_COOKIE_SECURE = HTTPS
SECURE_SSL_REDIRECT = HTTPS and env_bool("SSL_REDIRECT", True)
SECURE_HSTS_SECONDS = int(os.environ.get("HSTS_SECONDS", 365 * 24 * 3600)) if HTTPS else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", True)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
if HTTPS and not SECURE_SSL_REDIRECT:
    # The proxy in front redirects http to https (SSL_REDIRECT=0 says so).
    SILENCED_SYSTEM_CHECKS = ["security.W008"]

# Content Security Policy (Django's own): nothing inline, nothing from elsewhere. htmx is
# served from our static files and told not to inject its indicator style (base.html).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "font-src": [CSP.SELF],
    "connect-src": [CSP.SELF],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "login"

# Japanese by default; English available. Source strings are English.
LANGUAGE_CODE = "ja"
LANGUAGES = [("ja", _("Japanese")), ("en", _("English"))]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = "Asia/Tokyo"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = DATA_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": FILE_SYSTEM_STORAGE},
    "reports": {"BACKEND": REPORTS_STORAGE, "OPTIONS": REPORTS_STORAGE_OPTIONS},
    "staticfiles": {
        "BACKEND": os.environ.get(
            "STATICFILES_BACKEND",
            "whitenoise.storage.CompressedManifestStaticFilesStorage",
        )
    },
}

# The bundled TrueType font is read from disk by WeasyPrint and matplotlib, never sent to a
# browser: compressing its 6 MB took collectstatic 20 of its 25 seconds.
WHITENOISE_SKIP_COMPRESS_EXTENSIONS = [*Compressor.SKIP_COMPRESS_EXTENSIONS, "ttf"]

# Drawn charts (scoring/reports/charts.py) are cached. The default is a file cache under the
# data directory, not Django's LocMem: every process of one machine (gunicorn's workers)
# shares it, whereas with a cache in each process's memory a member's chart was drawn again by
# each worker that served it (the chart was the slowest page under load). Several
# machines share a Redis cache instead (SHIRAKABA_CACHE_URL, docs/several-machines.md).
CHART_ENTRIES = 2_000


def cache_from_url(url: str, data_dir: Path) -> dict[str, Any]:
    """The cache ``SHIRAKABA_CACHE_URL`` names: ``redis://`` or ``rediss://`` (Django's own
    Redis backend, which needs the ``redis`` package; several URLs, comma-separated, are a
    primary and its replicas), ``locmem://`` (each process its own) or ``file:///path``; an
    empty URL is the file cache under ``data_dir``."""
    scheme = urlsplit(url).scheme
    if scheme in {"redis", "rediss"}:
        if not importable("redis"):
            raise ImproperlyConfigured(
                "SHIRAKABA_CACHE_URL names a Redis cache: install its client (pip install redis)"
            )
        return {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": url}
    if scheme == "locmem":
        return {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "OPTIONS": {"MAX_ENTRIES": CHART_ENTRIES},
        }
    if (scheme == "file" and urlsplit(url).path) or not url:
        return {
            "BACKEND": "django.core.cache.backends.filebased.FileBasedCache",
            "LOCATION": Path(urlsplit(url).path) if url else data_dir / "cache",
            "OPTIONS": {"MAX_ENTRIES": CHART_ENTRIES},
        }
    raise ImproperlyConfigured(
        f"SHIRAKABA_CACHE_URL {url!r}: redis://, rediss://, locmem:// or file:/// expected"
    )


CACHES = {"default": cache_from_url(os.environ.get("SHIRAKABA_CACHE_URL", ""), DATA_DIR)}

# The app sends no mail yet; a production mailer is configured through MAIL_BACKEND.
MAILERS = {
    "default": {
        "BACKEND": os.environ.get("MAIL_BACKEND", "django.core.mail.backends.console.EmailBackend")
    }
}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": os.environ.get("LOG_LEVEL", "WARNING")},
}
