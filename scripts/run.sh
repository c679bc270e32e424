#!/usr/bin/env bash
# Runs the whole app: database, broker, Celery worker, web server, demo users and sample policies.
# Ctrl-C stops every process it started. Running it again reuses the data in var/.
source "$(dirname "$0")/setup.sh"

PORT="${PORT:-8000}"
HOST="${HOST:-127.0.0.1}"
trap 'echo; log "Stopping"; stop_started; exit 0' INT TERM
trap 'stop_started' EXIT

ensure_venv
ensure_secret_key
ensure_redis
ensure_database
log "Applying database migrations"
python manage.py migrate --noinput >/dev/null
mkdir -p var/log
log "Starting the Celery worker (log: var/log/worker.log)"
celery -A policypal worker -Q "${CELERY_QUEUE:-policypal}" --concurrency "${WORKER_CONCURRENCY:-1}" \
  --loglevel INFO >var/log/worker.log 2>&1 &
STARTED_PIDS+=($!)
log "Starting the web server (log: var/log/web.log)"
# one embedding thread per question: the web serves several questions at once on few cores
EMBEDDING_THREADS="${WEB_EMBEDDING_THREADS:-1}" gunicorn policypal.wsgi:application --bind "$HOST:$PORT" --workers "${WEB_WORKERS:-2}" --threads 4 \
  --timeout 120 --keep-alive 30 --access-logfile var/log/web.log --error-logfile var/log/web.log &
STARTED_PIDS+=($!)
python manage.py seed_demo
echo
log "PolicyPal is running at http://$HOST:$PORT/  (Ctrl-C stops everything)"
log "Sample policies are processed in the background: watch them at http://$HOST:$PORT/manage/"
wait -n "${STARTED_PIDS[@]}" || true
log "A process stopped unexpectedly; see var/log/. Stopping the rest."
