"""Fixtures for the World Without End engine tests: the shipped catalog and game helpers."""
from __future__ import annotations

import copy

import pytest

from companion.box.catalog import load_catalog


@pytest.fixture(scope="session")
def shipped_catalog():
    return load_catalog("wwe")


@pytest.fixture
def catalog(shipped_catalog):
    """A private deep copy so a test may tweak catalog facts for its scenario."""
    return copy.deepcopy(shipped_catalog)
