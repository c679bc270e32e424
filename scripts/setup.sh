# Shared set-up for scripts/run.sh and scripts/test.sh (sourced, not executed).
# Creates the virtual environment, installs the pinned requirements, and makes sure Redis answers.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$ROOT"
PYTHON="${PYTHON:-python3.11}"
command -v "$PYTHON" >/dev/null 2>&1 || PYTHON=python3
VENV="$ROOT/.venv"
STARTED_PIDS=()

log() { printf '\033[1;34m==>\033[0m %s\n' "$*"; }
die() { printf '\033[1;31mError:\033[0m %s\n' "$*" >&2; exit 1; }

ensure_venv() {
  if [ ! -x "$VENV/bin/python" ]; then
    log "Creating the virtual environment in .venv"
    "$PYTHON" -m venv "$VENV" || die "could not create a virtual environment with $PYTHON (install python3.11-venv)"
  fi
  local stamp="$VENV/.requirements.sha256"
  local want
  want="$(sha256sum requirements.txt | cut -d' ' -f1)"
  if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    log "Installing pinned requirements (first run takes a few minutes)"
    "$VENV/bin/pip" install --quiet --upgrade pip
    "$VENV/bin/pip" install --quiet -r requirements.txt
    echo "$want" > "$stamp"
  fi
  # shellcheck disable=SC1091
  source "$VENV/bin/activate"
  export HF_HUB_OFFLINE=1 TRANSFORMERS_OFFLINE=1 TOKENIZERS_PARALLELISM=false
  ensure_onnx
}

ensure_onnx() {
  # The default embedding backend runs the bundled model exported to ONNX (int8): export it once,
  # from the local files, at install time rather than on the first question.
  local backend="${EMBEDDING_BACKEND:-onnx-int8}"
  local dir="${POLICYPAL_ONNX_DIR:-${POLICYPAL_VAR_DIR:-$ROOT/var}/onnx}"
  if [[ "$backend" == onnx* ]] && ! ls "$dir"/*/model_int8.onnx >/dev/null 2>&1; then
    log "Exporting the embedding model to ONNX (once, about 15 s)"
    python -m retrieval.onnx_export >/dev/null || die "could not export the embedding model to ONNX"
  fi
}

redis_answers() {
  python - "$1" <<'PY'
import socket, sys
from urllib.parse import urlparse
u = urlparse(sys.argv[1])
try:
    s = socket.create_connection((u.hostname or "127.0.0.1", u.port or 6379), timeout=1)
    s.sendall(b"PING\r\n"); ok = s.recv(16).startswith(b"+PONG")
except OSError:
    ok = False
sys.exit(0 if ok else 1)
PY
}

ensure_redis() {
  local url="${REDIS_URL:-redis://127.0.0.1:6379/0}"
  if redis_answers "$url"; then return 0; fi
  if [ -n "${REDIS_URL:-}" ] && [[ "$url" != *"127.0.0.1"* && "$url" != *"localhost"* ]]; then
    die "Redis at $REDIS_URL does not answer."
  fi
  if ! command -v redis-server >/dev/null 2>&1; then
    die "Redis is not running on 127.0.0.1:6379 and redis-server is not installed.
       Install it with:  sudo apt-get install redis-server   (Debian/Ubuntu)
                   or:  brew install redis                  (macOS)
       then run this command again."
  fi
  log "Starting redis-server on 127.0.0.1:6379"
  mkdir -p "$ROOT/var/redis"
  redis-server --bind 127.0.0.1 --port 6379 --save "" --appendonly no --dir "$ROOT/var/redis" \
    --logfile "$ROOT/var/redis/redis.log" &
  STARTED_PIDS+=($!)
  for _ in $(seq 1 50); do redis_answers "$url" && return 0; sleep 0.1; done
  die "redis-server did not start; see var/redis/redis.log"
}

database_url_shown() {
  # DATABASE_URL without its password: user@host:port/name (a socket path for host when given so).
  python - <<'PY'
import os
from urllib.parse import parse_qs, unquote, urlsplit
u = urlsplit(os.environ["DATABASE_URL"])
host = u.hostname or parse_qs(u.query).get("host", ["the default socket"])[0]
print(f"{unquote(u.username or '')}@{host}{':' + str(u.port) if u.port else ''}{unquote(u.path)}")
PY
}

ensure_database() {
  # Start the embedded PostgreSQL unless DATABASE_URL names a server, and export its URL for every
  # process started from here (the settings start nothing: they only read DATABASE_URL).
  if [ -n "${DATABASE_URL:-}" ]; then
    log "Using the PostgreSQL of DATABASE_URL ($(database_url_shown)); the embedded one is not started"
    return 0
  fi
  local data="${POLICYPAL_VAR_DIR:-$ROOT/var}/pgdata"
  if python -m policypal.embedded_db status >/dev/null; then
    log "Using the embedded PostgreSQL that is already running (data in ${data#$ROOT/})"
  else
    log "Starting the embedded PostgreSQL with pgvector (data in ${data#$ROOT/})"
    EMBEDDED_DB=1  # started here, so stopped on exit; one already running is left alone
  fi
  DATABASE_URL="$(python -m policypal.embedded_db start)" || die "could not start the embedded PostgreSQL; see ${data#$ROOT/}/log"
  export DATABASE_URL
}

ensure_secret_key() {
  # With DEBUG false (the default) the app refuses to start without a real SECRET_KEY. Unless one is
  # given, generate a random key once, keep it in var/secret_key (readable by this user only; the
  # settings read it too, for manage.py commands run in another shell) and export it.
  if [ -n "${SECRET_KEY:-}" ]; then return 0; fi
  local file="${POLICYPAL_VAR_DIR:-$ROOT/var}/secret_key"
  if [ ! -s "$file" ]; then
    log "Generating a secret key in ${file#$ROOT/} (once)"
    mkdir -p "$(dirname "$file")"
    (umask 077 && python -c 'import secrets; print(secrets.token_urlsafe(50))' > "$file")
  fi
  chmod 600 "$file"
  SECRET_KEY="$(cat "$file")"
  export SECRET_KEY
}

stop_started() {
  for pid in "${STARTED_PIDS[@]:-}"; do
    [ -n "$pid" ] && kill "$pid" 2>/dev/null || true
  done
  for pid in "${STARTED_PIDS[@]:-}"; do
    [ -n "$pid" ] && wait "$pid" 2>/dev/null || true
  done
  if [ "${EMBEDDED_DB:-0}" = 1 ]; then python -m policypal.embedded_db stop >/dev/null 2>&1 || true; fi
}
