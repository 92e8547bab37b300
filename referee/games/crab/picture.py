"""The position of Hermit: Small crab, big wave as plain data for the diagrams: the play
areas cell by cell and the Coast strip, drawn by referee/render/drawers/crab.py; and the Coast in one
line of words for the status lines."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from referee.games.crab.deck import BLANK, CAP, COAST, COLUMNS, POOL, STAR, Card, footprint_size
from referee.games.crab.moves import Round
from referee.games.crab.position import CrabState

# What the drawer (referee/render/drawers/crab.py) reads: the view models and the symbols' names.
__all__ = ["BLANK", "CAP", "COAST", "COLUMNS", "POOL", "STAR", "AreaView", "CardView", "CellView",
           "CrabPicture", "SlotView", "coast_line", "crab_picture"]


@dataclass(frozen=True)
class CellView:
    x: int
    y: int
    symbol: str  # a symbol or BLANK
    drift: bool
    new: bool  # on the card placed this round
    pattern: bool  # in the triple that recreated the pattern this round


@dataclass(frozen=True)
class CardView:
    """A card in a hand, face up as a player holds it: its id, its beach pattern and its
    ROWS × COLUMNS seashell side at rotation 0, each cell a (symbol, on driftwood) pair."""

    card: int
    beach: tuple[str, str, str]
    rows: tuple[tuple[tuple[str, bool], ...], ...]


@dataclass(frozen=True)
class AreaView:
    seat: int
    cells: tuple[CellView, ...]
    new_card: tuple[int, int, int, int, int] | None  # card id, x, y, width, height
    hand: tuple[int, ...]
    pile: int
    caps: int
    hand_cards: tuple[CardView, ...] = ()
    # Every card in the play area as (card id, x, y, width, height), the first placed first:
    # a later card lies on top of an earlier one where they overlap.
    cards: tuple[tuple[int, int, int, int, int], ...] = ()


@dataclass(frozen=True)
class SlotView:
    slot: int
    card: int | None  # None once drawn
    beach: tuple[str, str, str] | None
    hermie: bool
    wave: bool
    target: bool  # the card whose pattern is to be recreated


@dataclass(frozen=True)
class CrabPicture:
    """The play areas and the Coast strip; drawn by referee/render/drawers/crab.py."""

    style: ClassVar[str] = "crab"  # the board style, which names the drawer (render/diagram.py)
    areas: tuple[AreaView, ...]
    coast: tuple[SlotView, ...]
    hermie_ashore: bool  # Hermie still left of slot 1
    wave_gone: bool  # the Wave has left the Coast
    deck: str


def crab_picture(state: CrabState, last: Round | None) -> CrabPicture:
    areas = []
    for seat, area in enumerate(state.areas, 1):
        newest = len(area.placed) - 1 if last is not None else None
        pattern = set(area.recreated)
        cells = tuple(
            CellView(x, y, cell.symbol, cell.drift, cell.layer == newest, (x, y) in pattern)
            for (x, y), cell in sorted(area.visible.items(), key=lambda item: (item[0][1], item[0][0]))
        )
        new_card = None
        if newest is not None:
            place = area.placed[newest]
            new_card = (place.card, place.x, place.y, *footprint_size(place.rotation))
        hand = tuple(_card_view(state.deck[card]) for card in area.hand)
        cards = tuple((p.card, p.x, p.y, *footprint_size(p.rotation)) for p in area.placed)
        areas.append(AreaView(seat, cells, new_card, area.hand, len(area.pile), area.caps(), hand, cards))
    coast = tuple(
        SlotView(
            slot,
            card,
            None if card is None else state.deck[card].beach,
            state.hermie == slot,
            state.wave == slot,
            not state.over and slot == state.hermie + 1,
        )
        for slot, card in enumerate(state.coast, 1)
    )
    return CrabPicture(tuple(areas), coast, state.hermie == 0, state.wave > COAST, state.deck_name)


def coast_line(state: CrabState) -> str:
    """The Coast in one line: card ids by slot, '-' for a drawn slot, H for Hermie, W the Wave
    (a lone H before slot 1 while Hermie is ashore, a lone W after slot 10 once it has left)."""
    words = ["H"] if state.hermie == 0 else []
    for slot, card in enumerate(state.coast, 1):
        word = "-" if card is None else str(card)
        marks = ("H" if state.hermie == slot else "") + ("W" if state.wave == slot else "")
        words.append(f"{word}{'(' + marks + ')' if marks else ''}")
    if state.wave > COAST:
        words.append("W")
    return " ".join(words)


def _card_view(card: Card) -> CardView:
    rows = tuple(tuple((face.symbol, face.drift) for face in row) for row in card.grid)
    return CardView(card.id, card.beach, rows)
