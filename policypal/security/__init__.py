"""Defences against hostile use: login lockouts and per-user rate limits (counters in Django's
cache), the Content-Security-Policy header, a request-size cap enforced before the body is read,
and the SECRET_KEY rule shared by the settings and `manage.py check --deploy`."""
