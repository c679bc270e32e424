import os
import sys

from django.core.wsgi import get_wsgi_application

from policypal.embedded_db import database_problem
from policypal.library_env import library_defaults_set

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "policypal.settings")
library_defaults_set()
application = get_wsgi_application()

# A web process without its database would answer every request with an error: say why in one line
# and stop. Exit status 3 is gunicorn's "worker failed to boot", on which it stops rather than
# starting the worker again and again.
if problem := database_problem():
    print(problem, file=sys.stderr)
    sys.exit(3)
