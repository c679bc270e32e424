#!/usr/bin/env bash
# Runs the whole test suite on real components: PostgreSQL with pgvector, Redis, Celery workers,
# Chromium. Extra arguments go to pytest (e.g. scripts/test.sh tests/chunking -x).
source "$(dirname "$0")/setup.sh"
trap 'stop_started' EXIT

ensure_venv
if ! command -v chromium >/dev/null 2>&1; then
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    log "Installing Debian's chromium for the browser tests"
    (apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium) >/dev/null \
      || die "could not install chromium"
  else
    die "The browser tests need Debian's chromium: sudo apt-get install chromium"
  fi
fi
export REDIS_URL="${TEST_REDIS_URL:-redis://127.0.0.1:6379/15}"
ensure_redis
ensure_database
mkdir -p test-output
set +e
python -m pytest "$@"
status=$?
set -e
exit $status
