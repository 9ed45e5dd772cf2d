"""Fixtures for the Pillars engine tests."""
from __future__ import annotations

import pytest

from tests.engine.pillars.helpers import catalog as _catalog


@pytest.fixture
def catalog():
    return _catalog()
