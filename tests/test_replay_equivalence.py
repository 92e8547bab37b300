"""The speed work (README: Performance) changed no verdict, message or output.

tests/data/replay_equivalence.json holds, for every case of equivalence_support.py, a digest of
everything a player sees of it as the referee printed it before that work (commit f9cf997):
every sample record and damaged copies of it (validate, status, show, moves, history), and
random games of every game with what the referee says after each ply. Today's code must give
the same digests — but for a case whose verdict a later rule changed on purpose, whose digest
was written again with that rule (a damaged copy whose forced pass now carries a stamp of its
own, refused under SPEC §9). The samples and the first random games of each game run in the quick suite;
1,000 random games in the full one, and all of them (4,700) with REFEREE_EQUIVALENCE=all:

    REFEREE_EQUIVALENCE=all python -m pytest tests/test_replay_equivalence.py
"""

from __future__ import annotations

import json
import os

import pytest

from equivalence_support import FIXTURE, NOW, RANDOM_GAMES, digest, random_game_cases, sample_cases

EXPECTED = json.loads(FIXTURE.read_text(encoding="utf-8"))
QUICK_GAMES = 10  # random games per game in the quick suite
# Random games per game in the full suite: 1,000 in all, fewer of the slow games (Harmijan's and
# Hermetica's take about a second each).
FULL_GAMES = {"odd": 200, "dustin": 200, "hermit": 200, "crab": 200, "harmijan": 150, "hermetica": 50}
if os.environ.get("REFEREE_EQUIVALENCE") == "all":
    FULL_GAMES = RANDOM_GAMES


@pytest.fixture(autouse=True)
def fixed_now(monkeypatch):
    monkeypatch.setenv("REFEREE_NOW", NOW)


def changed(cases) -> list[str]:
    return [case for case, outputs in cases if digest(outputs()) != EXPECTED[case]]


def test_the_fixture_covers_every_case():
    cases = [case for case, _ in sample_cases()]
    cases += [case for game_id, count in RANDOM_GAMES.items() for case, _ in random_game_cases(game_id, count)]
    assert sorted(cases) == sorted(EXPECTED)


def test_samples_and_their_damaged_copies_read_as_before():
    assert changed(sample_cases()) == []


@pytest.mark.parametrize("game_id", sorted(RANDOM_GAMES))
def test_the_first_random_games_play_as_before(game_id):
    assert changed(random_game_cases(game_id, QUICK_GAMES)) == []


@pytest.mark.slow
@pytest.mark.parametrize("game_id", sorted(RANDOM_GAMES))
def test_every_random_game_plays_as_before(game_id):
    cases = list(random_game_cases(game_id, FULL_GAMES[game_id]))[QUICK_GAMES:]
    assert changed(cases) == []
