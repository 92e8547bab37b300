"""The crab game's move and its notation: one entry per round, a placement per seat,
`<card> <x>,<y> <rotation>` (SPEC §5)."""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Mapping

from referee.errors import NotationError
from referee.games.base import Move
from referee.games.crab.deck import ROTATIONS, Card

# [0-9], not \d: a move is written in ASCII digits ("٣" is a digit to Python's \d).
_PLACE = r"([0-9]+)\s+(-?[0-9]+)\s*,\s*(-?[0-9]+)\s+([0-9]+)"
_SOLO = re.compile(rf"\s*(?:1\s*:\s*)?{_PLACE}\s*")
_SEAT = re.compile(rf"\s*([0-9]+)\s*:\s*{_PLACE}\s*")
MAX_DIGITS = 6  # no card id, grid position or rotation comes near a million


@dataclass(frozen=True)
class Place:
    """One card put into a play area."""

    card: int
    x: int
    y: int
    rotation: int

    def __str__(self) -> str:
        return f"{self.card} {self.x},{self.y} {self.rotation}"


@dataclass(frozen=True)
class Round(Move):
    """One entry: a placement per seat, in seat order (SPEC §5)."""

    places: tuple[Place, ...]

    def __str__(self) -> str:
        if len(self.places) == 1:
            return str(self.places[0])
        return " | ".join(f"{seat}: {p}" for seat, p in enumerate(self.places, 1))


def parse_round(deck: Mapping[int, Card], seats: int, text: str) -> Round:
    """One entry: a placement, or one per seat in seat order `1: … | 2: …` (SPEC §5, R-CR9);
    raises NotationError."""
    if seats == 1:
        match = _SOLO.fullmatch(text)
        if not match:
            raise NotationError("expected '<card> <x>,<y> <rotation>', e.g. '7 2,0 90'")
        return Round((_place(deck, *match.groups()),))
    parts = text.split("|")
    places = []
    for seat, part in enumerate(parts, 1):
        match = _SEAT.fullmatch(part)
        if not match:
            raise NotationError(
                f"expected one placement per seat, '1: <card> <x>,<y> <rotation> | 2: …', "
                f"e.g. '1: 7 2,0 90 | 2: 3 0,1 0'; part {seat} is {part.strip()!r}"
            )
        if len(match[1]) > MAX_DIGITS or int(match[1]) != seat:
            raise NotationError(f"placements go in seat order: part {seat} is for seat {match[1]} (R-CR9)")
        places.append(_place(deck, *match.groups()[1:]))
    if len(places) != seats:
        raise NotationError(f"this game has {seats} seats: give one placement for each (R-CR9)")
    return Round(tuple(places))

def parse_parts(deck: Mapping[int, Card], seats: int, text: str) -> dict[int, Place]:
    """Some seats' placements, `1: … | 3: …`, in seat order, for a round whose other seats the
    engine places (SPEC §10); raises NotationError."""
    places: dict[int, Place] = {}
    for part in text.split("|"):
        match = _SEAT.fullmatch(part) or (_SOLO.fullmatch(part) if seats == 1 else None)
        if not match:
            raise NotationError(f"expected '<seat>: <card> <x>,<y> <rotation>', e.g. '1: 7 2,0 90'; "
                                f"not {part.strip()!r}")
        seat = 1 if seats == 1 and len(match.groups()) == 4 else int(match[1][:MAX_DIGITS + 1])
        if not 1 <= seat <= seats or (places and seat <= max(places)):
            raise NotationError(f"placements go in seat order, one each, for seats 1–{seats}: not {seat} (R-CR9)")
        places[seat] = _place(deck, *match.groups()[-4:])
    return places


def _place(deck: Mapping[int, Card], card: str, x: str, y: str, rotation: str) -> Place:
    # Python refuses to read a number of thousands of digits; refuse it first, and clearly.
    if any(len(n.lstrip("-")) > MAX_DIGITS for n in (card, x, y, rotation)):
        raise NotationError(f"a number of more than {MAX_DIGITS} digits: no card, position "
                            f"or rotation is that large")
    card_id, turn = int(card), int(rotation)
    if card_id not in deck:
        raise NotationError(f"the deck has no card {card_id} (cards {min(deck)}–{max(deck)})")
    if turn not in ROTATIONS:
        raise NotationError(f"rotation is 0, 90, 180 or 270 degrees clockwise, not {turn}")
    return Place(card_id, int(x), int(y), deck[card_id].canonical_rotation(turn))
