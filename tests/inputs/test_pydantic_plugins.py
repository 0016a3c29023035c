"""The command line runs pydantic without third-party plugins unless the user says otherwise."""

from __future__ import annotations

import os

import pytest

from licheck.cli import quiet_plugins


def test_plugins_off_by_default(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PYDANTIC_DISABLE_PLUGINS", raising=False)
    quiet_plugins()
    assert os.environ["PYDANTIC_DISABLE_PLUGINS"] == "__all__"


def test_users_setting_wins(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PYDANTIC_DISABLE_PLUGINS", "")
    quiet_plugins()
    assert os.environ["PYDANTIC_DISABLE_PLUGINS"] == ""
