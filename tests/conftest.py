"""Shared fixtures: a temporary folder per test and the command line driven in-process."""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from referee.cli import app


@pytest.fixture
def cli(tmp_path, monkeypatch):
    """Run `referee ARGS…` in-process inside tmp_path; returns the CliRunner result."""
    monkeypatch.chdir(tmp_path)
    runner = CliRunner()

    def run(*args: str):
        return runner.invoke(app, [str(a) for a in args])

    return run


@pytest.fixture
def at(monkeypatch):
    """Set the time the referee takes for now (SPEC §6: REFEREE_NOW)."""
    def set_now(moment: str) -> None:
        monkeypatch.setenv("REFEREE_NOW", moment)
    return set_now
