"""Fuzzing, short profile: hostile structure for the chunker, broken files for the converters.

The cases and the contract are in fuzz_cases.py; bench/fuzz_long.py runs the same cases by
the ten thousand. Here a few hundred, a few seconds.
"""
from __future__ import annotations

from hypothesis import HealthCheck, given, settings

from tests.chunking.fuzz_cases import broken_files, check_chunking, check_conversion, configs, documents

HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]


@settings(max_examples=200, deadline=None, suppress_health_check=HEALTH)
@given(document=documents(), config=configs)
def test_chunker_survives_hostile_structure(counter, document, config):
    check_chunking(document, config, counter)


@settings(max_examples=150, deadline=None, suppress_health_check=HEALTH)
@given(case=broken_files())
def test_converters_fail_only_with_documented_errors(case):
    name, data = case
    check_conversion(name, data)
