"""The browser tests' screenshots can be left out (``TC_SCREENSHOTS=0``, CI's throwaway
clone) without leaving out what the tests read on those pages: an unfilled "{placeholder}"
still fails the test (`test_browser.check_filled`). A page stand-in counts the screenshots,
so no browser is needed."""
from __future__ import annotations

import pytest

from tests.web import test_browser


class Page:
    """What `test_browser.shot` uses of a Playwright page."""

    def __init__(self, text: str) -> None:
        self.text, self.shots = text, []

    def evaluate(self, script: str) -> str:
        return self.text

    def screenshot(self, path: str, full_page: bool = False) -> None:
        self.shots.append(path)


@pytest.fixture
def artifacts(tmp_path, monkeypatch):
    monkeypatch.setattr(test_browser, "ARTIFACTS", tmp_path)
    return tmp_path


def test_by_default_a_shot_is_written_and_its_page_read(artifacts, monkeypatch):
    monkeypatch.delenv("TC_SCREENSHOTS", raising=False)
    page = Page("Ala plays")
    test_browser.shot(page, "one")
    assert page.shots == [str(artifacts / "one.png")]
    with pytest.raises(AssertionError, match="unfilled"):
        test_browser.shot(Page("Ala plays {card}"), "two")


def test_without_screenshots_the_page_is_still_read(artifacts, monkeypatch):
    monkeypatch.setenv("TC_SCREENSHOTS", "0")
    page = Page("Ala plays")
    test_browser.shot(page, "one")
    assert page.shots == []
    with pytest.raises(AssertionError, match="unfilled"):
        test_browser.shot(Page("Ala plays {card}"), "two")
