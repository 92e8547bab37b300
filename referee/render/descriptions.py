"""The words a screen reader reads for a picture (SPEC §8b): every SVG carries a `<title>` (the
game, the ply, who is to move) and a `<desc>`, the position in words, every piece and its cell.

The words are made from the view model a game's `picture` hook returns, the same data the
drawer draws from, so the words and the picture cannot disagree. The templates escape them.
"""

from __future__ import annotations

from typing import Iterable

from referee.games.picture import Picture
from referee.play.words import Header


def title(head: Header) -> str:
    """The picture's title: the game and its options, the ply, and who is to move (or the
    result)."""
    when = "the start" if head.ply == 0 else f"after ply {head.ply}"
    return f"{head.title} · {when} · {head.result}"


def listed(names: Iterable[str], none: str = "none") -> str:
    names = list(names)
    return ", ".join(names) if names else none


# -- the grid games ---------------------------------------------------------------------------


def grid_words(picture: Picture) -> str:
    """A grid board in words: each kind of stone with its cells, the empty cells counted, and
    what the last move did (its cells, where a stone went, what it took, the numbers written
    on stones)."""
    grid = picture.grid
    sentences = []
    for kind in picture.kinds:
        cells = [grid.name(cell) for cell in grid if picture.pieces.get(cell) == kind.key]
        stones = "stone" if len(cells) == 1 else "stones"
        sentences.append(f"{kind.label.capitalize()} ({kind.glyph}), {len(cells)} {stones}: {listed(cells)}.")
    empty = len(grid) - len(picture.pieces)
    sentences.append(f"{empty} of {len(grid)} cells empty.")
    if len(picture.path) >= 2:
        sentences.append(f"The last move took a stone from {grid.name(picture.path[0])} "
                         f"to {grid.name(picture.path[-1])}.")
    if picture.marks:
        sentences.append(f"Cells of the last move: {listed(grid.name(c) for c in sorted(picture.marks))}.")
    if picture.bites:
        sentences.append(f"Bitten: {listed(grid.name(c) for c in sorted(picture.bites))}.")
    if picture.tags:
        numbers = (f"{grid.name(cell)} {tag}" for cell, tag in sorted(picture.tags.items()))
        sentences.append(f"Numbers on stones (scoring classes): {listed(numbers)}.")
    return " ".join(sentences)


# -- Hermetica --------------------------------------------------------------------------------


def hermetica_words(picture, actions: list[str]) -> str:
    """The mat in words: each side's units with their hexes, the Shields, the Walls, the
    Horizons and Primes, and the last ply action by action (`actions`, as the drawer writes
    them under the board)."""
    board = picture.board
    side = {kind.seat: kind.label for kind in picture.kinds}  # 1: Sun, 2: Moon
    order = {"A": 0, "F": 1, "E": 2, "W": 3}
    sentences = []
    for seat, looks in ((1, "circles, upper case"), (2, "diamonds, lower case")):
        units = sorted(((unit, cell) for cell, unit in picture.units.items() if unit.seat == seat),
                       key=lambda item: (order.get(item[0].kind, 9), board.name(item[1])))
        words = (f"{unit.name} {board.name(cell)}" for unit, cell in units)
        sentences.append(f"{side[seat]} ({looks}), {len(units)} units: {listed(words)}.")
    shields = [f"{side[seat]}'s on {board.name(cell)}" for seat, cell in sorted(picture.shields.items())
               if cell is not None]
    sentences.append(f"Shields: {listed(shields)}.")
    sentences.append(f"Walls: {listed(board.name(c) for c in sorted(picture.walls, key=lambda c: board.grid.coords[c]))}.")
    for seat in (1, 2):
        horizon = sorted(board.horizons[seat], key=lambda c: board.grid.coords[c])
        sentences.append(f"{side[seat]}'s Horizon: {listed(board.name(c) for c in horizon)}; "
                         f"{side[seat]}'s Prime: {board.name(board.primes[seat])}.")
    if actions:
        sentences.append("Last ply: " + " ".join(line.strip() for line in actions))
    return " ".join(sentences)


# -- crab -------------------------------------------------------------------------------------

SYMBOL_WORDS = {"red": "red shell", "orange": "orange shell", "yellow": "yellow shell", "blue": "blue shell",
                "star": "starfish", "cap": "bottle cap", "pool": "pool", ".": "no symbol"}


def crab_words(picture) -> str:
    """The Coast and every play area and hand in words: each card's cells with their symbols,
    Hermie, the Wave, the card placed this round and the recreated pattern."""
    sentences = []
    coast = []
    for slot in picture.coast:
        if slot.card is None:
            coast.append(f"slot {slot.slot} drawn")
            continue
        marks = [m for m, on in (("Hermie", slot.hermie), ("the Wave", slot.wave),
                                 ("the pattern to recreate", slot.target)) if on]
        pattern = ", ".join(SYMBOL_WORDS[s] for s in slot.beach or ())
        coast.append(f"slot {slot.slot} card {slot.card} ({pattern})" + (f", {' and '.join(marks)}" if marks else ""))
    ashore = " Hermie is ashore, left of slot 1." if picture.hermie_ashore else ""
    gone = " The Wave has left the Coast." if picture.wave_gone else ""
    sentences.append(f"Coast: {'; '.join(coast)}.{ashore}{gone}")
    for area in picture.areas:
        who = "Play area" if len(picture.areas) == 1 else f"Seat {area.seat}, play area"
        cells = []
        for cell in area.cells:
            words = SYMBOL_WORDS.get(cell.symbol, cell.symbol)
            extra = [w for w, on in (("on driftwood", cell.drift), ("recreated pattern", cell.pattern)) if on]
            cells.append(f"{cell.x},{cell.y} {words}" + (f" ({', '.join(extra)})" if extra else ""))
        sentences.append(f"{who} (x across, y down): {listed(cells, 'empty')}.")
        if area.new_card:
            card, x, y, width, height = area.new_card
            sentences.append(f"Card {card} placed this round, {width} by {height} cells from {x},{y}.")
        hand = []
        for card in area.hand_cards:
            rows = " / ".join(", ".join(SYMBOL_WORDS[s] + (" on driftwood" if d else "") for s, d in row)
                              for row in card.rows)
            hand.append(f"card {card.card}: {rows}; beach {', '.join(SYMBOL_WORDS[s] for s in card.beach)}")
        sentences.append(f"Hand: {listed(hand, 'empty')}.")
    return " ".join(sentences)
