"""The games the referee knows, by id: one registration line a game (`REGISTRY`).

  base.py     the one shape every game has (`Game`) and the values it speaks in
  picture.py  plain data that says what a diagram shows: games fill it in, drawers draw it
  odd/ (odd and dustin), hermit/, harmijan/, hermetica/, crab/: one package a game

Rules are pure: no file, no printing, no clock. May import: referee.geometry, referee.errors.
Adding a game is its package here, its drawer in referee/render/drawers/ if it brings a new
kind of board, one line below, its tests and its samples (docs/development.md).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping

from referee.games.base import Game, Move, Option, Outcome, Pass, TurnSoFar


# A command imports the rules of the one game it plays: the six games' rules together take
# longer to import than the rest of a command's start-up (README, Performance), so each line
# names a function that imports its game when it is first asked for.

def _odd() -> Game:
    from referee.games.odd import Odd
    return Odd()


def _dustin() -> Game:
    from referee.games.odd import Dustin
    return Dustin()


def _hermit() -> Game:
    from referee.games.hermit import Hermit
    return Hermit()


def _crab() -> Game:
    from referee.games.crab import Crab
    return Crab()


def _harmijan() -> Game:
    from referee.games.harmijan import Harmijan
    return Harmijan()


def _hermetica() -> Game:
    from referee.games.hermetica import Hermetica
    return Hermetica()


REGISTRY: dict[str, Callable[[], Game]] = {
    "odd": _odd,
    "dustin": _dustin,
    "hermit": _hermit,
    "crab": _crab,
    "harmijan": _harmijan,
    "hermetica": _hermetica,
}


class _Games(Mapping[str, Game]):
    """Game id → game object, in registry order; each made once, when first asked for."""

    def __init__(self) -> None:
        self._made: dict[str, Game] = {}

    def __getitem__(self, game_id: str) -> Game:
        game = self._made.get(game_id)
        if game is None:
            game = self._made[game_id] = REGISTRY[game_id]()  # KeyError for an unknown id
        return game

    def __iter__(self) -> Iterator[str]:
        return iter(REGISTRY)

    def __len__(self) -> int:
        return len(REGISTRY)

    def __contains__(self, game_id: object) -> bool:
        return game_id in REGISTRY

    def __repr__(self) -> str:
        return f"GAMES({', '.join(REGISTRY)})"


GAMES: Mapping[str, Game] = _Games()

__all__ = ["GAMES", "REGISTRY", "Game", "Move", "Option", "Outcome", "Pass", "TurnSoFar"]
