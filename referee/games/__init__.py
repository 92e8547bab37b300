"""The games the referee knows, by id. Adding a game is its module (or package), its drawer
(referee/render/), and one line here."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module
from typing import NamedTuple

from referee.games.base import Game, Move, Option, Outcome, Pass


class Registered(NamedTuple):
    """Where a game lives: its rules (a module or package of referee.games and the class in
    it) and its drawer (a module of referee.render: see render/diagram.py)."""

    module: str
    cls: str
    drawer: str


# A command imports only the game it plays, and draws with only that game's drawer: the rules
# modules are most of the start-up time of a command that needs one game (README, Performance).
REGISTRY: dict[str, Registered] = {
    "odd": Registered("odd", "Odd", "grid"),
    "dustin": Registered("odd", "Dustin", "grid"),
    "hermit": Registered("hermit", "Hermit", "grid"),
    "crab": Registered("crab", "Crab", "crab"),
    "harmijan": Registered("harmijan", "Harmijan", "grid"),
    "hermetica": Registered("hermetica", "Hermetica", "hermetica"),
}


class _Games(Mapping[str, Game]):
    """Game id → game object, in registry order; a game's module is imported when first asked
    for, and its object made once."""

    def __init__(self) -> None:
        self._made: dict[str, Game] = {}

    def __getitem__(self, game_id: str) -> Game:
        game = self._made.get(game_id)
        if game is None:
            entry = REGISTRY[game_id]  # KeyError for an unknown id, as a dict would
            module = import_module(f"referee.games.{entry.module}")
            game = self._made[game_id] = getattr(module, entry.cls)()
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

__all__ = ["GAMES", "REGISTRY", "Registered", "Game", "Move", "Option", "Outcome", "Pass"]
