"""The cards of Hermit: Small crab, big wave: the symbols, a deck file's [[cards]] tables and
the deals (R-CR1, R-CR2, R-CR2a). Pure: the caller reads the file.

The published card faces are not public (R-CR1): cards come from a deck file, and the shipped
`sample` deck is a stand-in. The deal is fixed before the first round in the record's [setup]
(SPEC §3), so a replay never shuffles.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass
from typing import Any, Mapping

SHELLS = ("red", "orange", "yellow", "blue")
STAR, CAP, POOL, BLANK = "star", "cap", "pool", "."
PATTERN_SYMBOLS = SHELLS + (STAR,)  # R-CR2a: seashells and starfish make patterns
SYMBOLS = PATTERN_SYMBOLS + (CAP, POOL)
DRIFTWOOD = "*"
ROTATIONS = (0, 90, 180, 270)
COAST = 10  # Coast slots 1–10 (R-CR2)
DEAL = 16  # cards in a deck and in a deal (R-CR2)
ROWS, COLUMNS = 2, 3  # a card's footprint at rotation 0 (SPEC §5)

Point = tuple[int, int]  # (x, y): x grows right, y grows down (SPEC §5)


@dataclass(frozen=True)
class Face:
    """One cell of a card's seashell side: a symbol or BLANK, maybe on driftwood."""

    symbol: str
    drift: bool = False


@dataclass(frozen=True)
class Card:
    id: int
    beach: tuple[str, str, str]  # the pattern on the beach side, left to right
    grid: tuple[tuple[Face, ...], ...]  # ROWS rows of COLUMNS faces at rotation 0, top first

    def faces(self, rotation: int) -> dict[Point, Face]:
        """The faces by offset from the footprint's top-left cell after turning the card
        `rotation` degrees clockwise."""
        out = {}
        for r, row in enumerate(self.grid):
            for c, face in enumerate(row):
                if rotation == 0:
                    dx, dy = c, r
                elif rotation == 90:
                    dx, dy = ROWS - 1 - r, c
                elif rotation == 180:
                    dx, dy = COLUMNS - 1 - c, ROWS - 1 - r
                else:
                    dx, dy = r, COLUMNS - 1 - c
                out[(dx, dy)] = face
        return out

    def canonical_rotation(self, rotation: int) -> int:
        """The smallest rotation giving the same footprint and faces (SPEC §5)."""
        if rotation >= 180 and self.faces(rotation) == self.faces(rotation - 180):
            return rotation - 180
        return rotation


def footprint_size(rotation: int) -> tuple[int, int]:
    """A footprint's width and height at this rotation."""
    return (COLUMNS, ROWS) if rotation in (0, 180) else (ROWS, COLUMNS)


def parse_deck(cards: Any) -> dict[int, Card]:
    """The deck from its [[cards]] tables; raises ValueError naming the card and the fault."""
    if not isinstance(cards, list) or not all(isinstance(c, dict) for c in cards):
        raise ValueError("a deck is a list of [[cards]] tables")
    if len(cards) != DEAL:
        raise ValueError(f"a deck has {DEAL} cards (R-CR2: 10 on the Coast, 6 in the pile), "
                         f"this one has {len(cards)}")
    deck: dict[int, Card] = {}
    for number, table in enumerate(cards, 1):
        card = _card(table, number)
        if card.id in deck:
            raise ValueError(f"card {number}: id {card.id} is used twice")
        deck[card.id] = card
    return deck


def _card(table: Mapping[str, Any], number: int) -> Card:
    where = f"card {number}"
    unknown = [k for k in table if k not in ("id", "beach", "grid")]
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r} (a card has id, beach and grid)")
    card_id = table.get("id")
    if not isinstance(card_id, int) or isinstance(card_id, bool) or card_id < 1:
        raise ValueError(f"{where}: id must be a whole number from 1, not {card_id!r}")
    where = f"card {number} (id {card_id})"
    beach = table.get("beach")
    words = beach.split() if isinstance(beach, str) else None
    if words is None or len(words) != 3 or any(w not in PATTERN_SYMBOLS for w in words):
        raise ValueError(
            f"{where}: beach must be 3 seashells or starfish ({', '.join(PATTERN_SYMBOLS)}) "
            f"separated by spaces, not {beach!r} (R-CR2a)"
        )
    grid = table.get("grid")
    if not isinstance(grid, list) or len(grid) != ROWS or not all(isinstance(r, str) for r in grid):
        raise ValueError(f"{where}: grid must be {ROWS} strings, one per row, not {grid!r}")
    rows = []
    for r, text in enumerate(grid, 1):
        cells = text.split()
        if len(cells) != COLUMNS:
            raise ValueError(f"{where}: grid row {r} has {len(cells)} cells, a row has {COLUMNS}")
        rows.append(tuple(_face(cell, f"{where}, grid row {r}") for cell in cells))
    return Card(card_id, (words[0], words[1], words[2]), tuple(rows))


def _face(text: str, where: str) -> Face:
    drift = text.endswith(DRIFTWOOD)
    symbol = text.removesuffix(DRIFTWOOD)
    if symbol not in SYMBOLS and symbol != BLANK:
        raise ValueError(f"{where}: {text!r} is not a symbol ({', '.join(SYMBOLS)} or '.')")
    if drift and symbol not in PATTERN_SYMBOLS:
        raise ValueError(f"{where}: only a seashell or starfish lies on driftwood, not {symbol!r} (R-CR2a)")
    return Face(symbol, drift)


def check_deal(deal: Any, deck: Mapping[int, Card], where: str) -> tuple[int, ...]:
    """A deal is every card id of the deck once (SPEC §3); raises ValueError."""
    if not isinstance(deal, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in deal):
        raise ValueError(f"{where} must be a list of {DEAL} card ids")
    unknown = [i for i in deal if i not in deck]
    if unknown:
        raise ValueError(f"{where}: card {unknown[0]} is not in the deck")
    counts = Counter(deal)
    if len(deal) != DEAL or len(counts) != DEAL:
        twice = [i for i, n in counts.items() if n > 1]
        detail = f"card {min(twice)} twice" if twice else f"card {min(set(deck) - counts.keys())} missing"
        raise ValueError(f"{where} must hold each of the {DEAL} cards once ({detail})")
    return tuple(deal)


def deal_from_seed(deck: Mapping[int, Card], seats: int, seed: int) -> list[list[int]]:
    """One shuffle of the whole deck per seat, seat 1 first, all from one seed."""
    rng = random.Random(seed)
    deals = []
    for _ in range(seats):
        ids = sorted(deck)
        rng.shuffle(ids)
        deals.append(ids)
    return deals
