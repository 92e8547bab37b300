"""`referee rules GAME`: a game's rules in the referee's own words — how it plays them, the
rulings (R-…) that settle what the official rules leave open, the move notation with examples,
and where the official rules are found.

The texts are package data, one file a game in referee/data/rules/, read through
importlib.resources so that an installed referee has them without its checkout. They are
written anew, not copied from the publishers' rule books, and kept to what a terminal or a mail
shows whole: at most 48 lines of at most 78 columns. Every example move in them stands in
backquotes, and tests/test_rules_text.py plays each one where it is legal, so a text cannot
drift from the way the referee judges.
"""

from __future__ import annotations

from referee.games import Game

# Odd and Dustin are one game under two names (R-OD1): one text serves both ids.
SHARED_TEXT = {"dustin": "odd"}


def rules_text(game: Game) -> str:
    """The rules text of `game`, as the package ships it."""
    # Imported here, as in referee/data: importlib.resources costs start-up time that only
    # this command needs.
    from importlib import resources

    name = SHARED_TEXT.get(game.id, game.id)
    return resources.files("referee.data").joinpath("rules", f"{name}.txt").read_text(encoding="utf-8")
