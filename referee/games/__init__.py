"""The games the referee knows, by id. Adding a game is its module plus one line here."""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from importlib import import_module

from referee.games.base import Game, Move, Option, Outcome, Pass

# id → (module in referee.games, class). A command imports only the game it plays: the rules
# modules are most of the start-up time of a command that needs one game (README, Performance).
REGISTRY: dict[str, tuple[str, str]] = {
    "odd": ("odd", "Odd"),
    "dustin": ("odd", "Dustin"),
    "hermit": ("hermit", "Hermit"),
    "crab": ("crab", "Crab"),
    "harmijan": ("harmijan", "Harmijan"),
    "hermetica": ("hermetica", "Hermetica"),
}


class _Games(Mapping[str, Game]):
    """Game id → game object, in registry order; a game's module is imported when first asked
    for, and its object made once."""

    def __init__(self) -> None:
        self._made: dict[str, Game] = {}

    def __getitem__(self, game_id: str) -> Game:
        game = self._made.get(game_id)
        if game is None:
            module, cls = REGISTRY[game_id]  # KeyError for an unknown id, as a dict would
            game = self._made[game_id] = getattr(import_module(f"referee.games.{module}"), cls)()
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

__all__ = ["GAMES", "REGISTRY", "Game", "Move", "Option", "Outcome", "Pass"]
