"""Environment defaults for the libraries, set by each entry point (manage.py, policypal/wsgi.py,
policypal/celery.py, the tests' conftest.py) before Django loads. The settings only read the
environment; Hugging Face and tokenizers read these variables themselves, when first imported."""
import os

LIBRARY_DEFAULTS = {
    "HF_HUB_OFFLINE": "1",  # the embedding model ships inside a package: nothing is downloaded at run time
    "TRANSFORMERS_OFFLINE": "1",
    "TOKENIZERS_PARALLELISM": "false",  # the conversion child is forked from a process that tokenised
    "TRANSFORMERS_VERBOSITY": "error",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",
}


def library_defaults_set() -> None:
    """Set each variable of LIBRARY_DEFAULTS that the environment does not set already."""
    for name, value in LIBRARY_DEFAULTS.items():
        os.environ.setdefault(name, value)
