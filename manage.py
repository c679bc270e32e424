#!/usr/bin/env python
"""Django's command-line utility for PolicyPal."""
import os
import sys


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "policypal.settings")
    from django.core.management import execute_from_command_line
    from django.db import OperationalError

    from policypal.embedded_db import database_problem
    from policypal.library_env import library_defaults_set

    library_defaults_set()
    if sys.argv[1:2] == ["runserver"] and (problem := database_problem()):
        sys.exit(problem)  # runserver's own start-up checks would fail in a thread, with a traceback
    try:
        execute_from_command_line(sys.argv)
    except OperationalError:
        if problem := database_problem():  # no server, or no such database: one line, not a traceback
            sys.exit(problem)
        raise


if __name__ == "__main__":
    main()
