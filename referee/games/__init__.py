"""The games the referee knows, by id. Adding a game is its module plus one line here."""

from __future__ import annotations

from referee.games.base import Game, Move, Option, Outcome, Pass
from referee.games.crab import Crab
from referee.games.harmijan import Harmijan
from referee.games.hermetica import Hermetica
from referee.games.hermit import Hermit
from referee.games.odd import Dustin, Odd

GAMES: dict[str, Game] = {game.id: game for game in (Odd(), Dustin(), Hermit(), Crab(), Harmijan(), Hermetica())}

__all__ = ["GAMES", "Game", "Move", "Option", "Outcome", "Pass"]
