"""SARIF's driver and rules as code scanning shows them: `informationUri` only ever the
repository the package's metadata names (the project owns no other address), and each rule's
default level what its results mean at worst (`tests/outputs/test_formats_agree.py` holds the
levels to generated reports)."""

from __future__ import annotations

import json
import tomllib
from email.message import Message
from importlib import metadata

import pytest

from licheck.api import check
from licheck.outputs import Format, render, sarif
from tests.conftest import PRODUCTS, ROOT


def _metadata(*urls: str) -> Message:
    message = Message()
    for url in urls:
        message["Project-URL"] = url
    return message


def _driver() -> dict[str, object]:
    log = json.loads(render(check([PRODUCTS / "composer2.yaml"]), Format.SARIF))
    driver: dict[str, object] = log["runs"][0]["tool"]["driver"]
    return driver


@pytest.mark.parametrize(
    ("urls", "expected"),
    [
        ((), None),
        (("Homepage, https://somewhere.test/licheck",), None),  # not the repository
        (("Repository, http://github.com/o/licheck",), None),  # not https
        (
            ("Documentation, https://o.test/docs", "Repository, https://github.com/o/licheck"),
            "https://github.com/o/licheck",
        ),
    ],
)
def test_information_uri_is_the_repository_the_package_names(
    monkeypatch: pytest.MonkeyPatch, urls: tuple[str, ...], expected: str | None
) -> None:
    monkeypatch.setattr(metadata, "metadata", lambda name: _metadata(*urls))
    driver = _driver()
    assert driver.get("informationUri") == expected
    assert ("informationUri" in driver) == (expected is not None)


def test_information_uri_follows_pyproject() -> None:
    """What the installed package says, as pyproject.toml states it (none yet: no address)."""
    project = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]
    repository = project.get("urls", {}).get("Repository")
    assert _driver().get("informationUri") == repository


def test_a_missing_package_names_no_uri(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing(name: str) -> Message:
        raise metadata.PackageNotFoundError(name)

    monkeypatch.setattr(metadata, "metadata", missing)
    assert "informationUri" not in _driver()


def test_worse_is_the_more_severe_level() -> None:
    levels = list(sarif.SEVERITY)
    for first in [None, *levels]:
        for second in levels:
            got = sarif._worse(first, second)  # one of the two, at least as severe as each
            assert got in (first, second)
            assert levels.index(got) >= levels.index(second)
            assert first is None or levels.index(got) >= levels.index(first)
