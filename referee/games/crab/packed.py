"""The crab game packed for an exact search (solver.py): a play area as a dict of packed cells,
each card's faces worked out once per rotation, and a placement's effect read off a few cells
around it, without building the referee's position.

The rules are those of rules.py (R-CR3…R-CR9), cell for cell; only the representation differs.
tests/test_crab_solver.py checks on random positions that both give the same placements and the
same position after every round. Pure: no clock, no I/O.
"""

from __future__ import annotations

from array import array
from dataclasses import dataclass
from typing import Iterable, Mapping

from referee.games.crab.deck import (
    BLANK, CAP, COAST, PATTERN_SYMBOLS, POOL, ROTATIONS, SYMBOLS, Card, footprint_size,
)
from referee.games.crab.position import Area, CrabState
from referee.games.crab.rules import BIG_BEACH, CRASHING_WAVES, DUNES, SANDCASTLE

# A cell (x, y) packs into one int, x in the high byte: x ± 1 is ± ROW, y ± 1 is ± 1. No play
# area comes near ±128 cells (16 cards, 3 cells each, from 0,0).
ROW, ORIGIN = 256, 128
STEPS = (1, -1, ROW, -ROW)
# A visible cell is a small int: the symbol's index, plus DRIFT when it lies on driftwood.
CODES = {symbol: i for i, symbol in enumerate(SYMBOLS)} | {BLANK: len(SYMBOLS)}
SYMBOL_MASK, DRIFT = 7, 8
CAP_CODE, POOL_CODE, BLANK_CODE = CODES[CAP], CODES[POOL], CODES[BLANK]
PATTERN_CODES = frozenset(CODES[s] for s in PATTERN_SYMBOLS)


def pack(x: int, y: int) -> int:
    return (x + ORIGIN) * ROW + y + ORIGIN


def unpack(p: int) -> tuple[int, int]:
    return p // ROW - ORIGIN, p % ROW - ORIGIN


def _offset(dx: int, dy: int) -> int:
    return dx * ROW + dy


@dataclass(frozen=True)
class Turned:
    """One card at one rotation (the smallest of those that look alike, SPEC §5): its cells by
    offset from the footprint's top-left cell, and what a placement's effect needs of them."""

    card: int
    rotation: int
    width: int
    height: int
    cells: tuple[tuple[int, int], ...]  # (offset, code)
    inside: frozenset[int]  # the offsets of its cells
    offsets: tuple[int, ...]
    caps: int
    pools: frozenset[int]  # offsets of its pools
    # R-CR6: two adjacent pools (identical pattern symbols) within the card itself; else the
    # cells just outside it that would pair with one of its pools (with its symbol).
    pool_pair: bool
    pool_out: tuple[int, ...]
    same_pair: bool
    same_out: tuple[tuple[int, int], ...]
    triples: tuple[tuple[int, int, int], ...]  # every 3 cells in a line through the card


def turned(card: Card, rotation: int) -> Turned:
    width, height = footprint_size(rotation)
    faces = card.faces(rotation)
    codes = {_offset(*d): CODES[f.symbol] + (DRIFT if f.drift else 0) for d, f in faces.items()}
    inside = set(codes)
    pools = frozenset(o for o, c in codes.items() if c == POOL_CODE)
    pool_out = tuple(sorted({o + s for o in pools for s in STEPS} - inside))
    pool_pair = any(o + s in pools for o in pools for s in STEPS)
    shells = {o: c & SYMBOL_MASK for o, c in codes.items() if c & SYMBOL_MASK in PATTERN_CODES}
    same_pair = any(shells.get(o + s) == c for o, c in shells.items() for s in STEPS)
    same_out = tuple(sorted({(o + s, c) for o, c in shells.items() for s in STEPS if o + s not in inside}))
    triples = set()
    for (dx, dy) in faces:
        for sx, sy in ((1, 0), (0, 1)):
            for back in range(3):
                x0, y0 = dx - back * sx, dy - back * sy
                triples.add(tuple(_offset(x0 + i * sx, y0 + i * sy) for i in range(3)))
    return Turned(
        card.id, rotation, width, height, tuple(sorted(codes.items())), frozenset(inside),
        tuple(sorted(inside)),
        sum(1 for c in codes.values() if c == CAP_CODE), pools, pool_pair, pool_out,
        same_pair, same_out, tuple(sorted(triples)),
    )


class Cards:
    """The deck, each card turned every distinct way, and what each turned card needs to read
    a pattern (worked out once per pattern and kept)."""

    def __init__(self, deck: Mapping[int, Card]):
        self.turns = {
            card.id: tuple(turned(card, r) for r in ROTATIONS if card.canonical_rotation(r) == r)
            for card in deck.values()
        }
        self.pools = {card.id: sum(f.symbol == POOL for row in card.grid for f in row) for card in deck.values()}
        self.patterns = {card.id: tuple(CODES[s] for s in card.beach) for card in deck.values()}
        self._needs: dict[tuple[int, int, tuple[int, ...]], tuple[Need, ...]] = {}

    def needs(self, turn: Turned, pattern: tuple[int, ...]) -> tuple[Need, ...]:
        """R-CR5: the triples through the card whose own cells read the pattern (in order or
        reversed), each with the symbols the cells outside the card must show."""
        key = (turn.card, turn.rotation, pattern)
        found = self._needs.get(key)
        if found is None:
            found = self._needs[key] = _needs(turn, pattern)
        return found


@dataclass(frozen=True)
class Need:
    outside: tuple[tuple[int, int], ...]  # (offset, symbol) for the cells outside the card
    drift: int  # the triple's driftwood on the card itself
    cells: tuple[int, int, int]  # the triple's offsets


def _needs(turn: Turned, pattern: tuple[int, ...]) -> tuple[Need, ...]:
    codes = dict(turn.cells)
    out = []
    for triple in turn.triples:
        for reading in {pattern, pattern[::-1]}:
            outside, drift = [], 0
            for offset, symbol in zip(triple, reading):
                code = codes.get(offset)
                if code is None:
                    outside.append((offset, symbol))
                elif code & SYMBOL_MASK != symbol:
                    break
                else:
                    drift += code >> 3
            else:
                out.append(Need(tuple(outside), drift, triple))
    return tuple(out)


class Seat:
    """One seat's cards, packed: visible cells, hand (sorted), pile (top first), the visible
    caps, whether 3 pools were ever in a row (crab-dance), and the cells' bounds (sandcastle)."""

    __slots__ = ("cells", "hand", "pile", "caps", "danced", "box")

    def __init__(self, cells: dict[int, int], hand: tuple[int, ...], pile: tuple[int, ...],
                 caps: int, danced: bool, box: tuple[int, int, int, int]):
        self.cells, self.hand, self.pile = cells, hand, pile
        self.caps, self.danced, self.box = caps, danced, box

    @classmethod
    def of(cls, area: Area) -> Seat:
        cells = {pack(x, y): CODES[c.symbol] + (DRIFT if c.drift else 0) for (x, y), c in area.visible.items()}
        xs = [x for x, _ in area.visible]
        ys = [y for _, y in area.visible]
        return cls(cells, tuple(sorted(area.hand)), tuple(area.pile), area.caps(), area.pools_in_row,
                   (min(xs), min(ys), max(xs), max(ys)))

    def key(self) -> bytes:
        """The visible cells, moved so that the smallest x and y are 0 (only where cells lie
        relative to each other matters to any rule: touching, lines, pairs, the 6×6 square),
        in order, 4 bytes a cell."""
        shift = self.box[0] * ROW + self.box[1]
        return array("I", sorted((p - shift) * 16 + c for p, c in self.cells.items())).tobytes()


@dataclass(frozen=True)
class Placement:
    """One legal placement for one seat and what it does: whether it recreates the pattern
    (`found`), with how much driftwood at best, whether it puts two pools side by side, two
    identical shells or starfish side by side (in coop: in its recreated pattern), the caps
    then visible, and whether 3 pools were in a row by then."""

    turn: Turned
    at: int  # the packed top-left cell
    found: bool
    drift: int
    pools: bool
    same: bool
    caps: int
    danced: bool

    def text(self) -> str:
        x, y = unpack(self.at)
        return f"{self.turn.card} {x},{y} {self.turn.rotation}"


def placements(cards: Cards, seat: Seat, task: str, pattern: tuple[int, ...], coop: bool,
               moving_only: bool = False) -> list[Placement]:
    """Every legal placement of the seat (R-CR4, R-CR8), card by card, rotation, then cell;
    with `moving_only`, only those that recreate the pattern (R-CR5)."""
    cells = seat.cells
    frontier: set[int] = set()  # the cells a card must cover one of: the cards and beside them
    by_symbol: dict[int, list[int]] = {}
    for p, code in cells.items():
        by_symbol.setdefault(code & SYMBOL_MASK, []).append(p)
    out = []
    for card in seat.hand:
        for turn in cards.turns[card]:
            needs = cards.needs(turn, pattern)
            if moving_only and not needs:
                continue
            hits, everywhere = _recreations(cells, by_symbol, needs)
            if moving_only and not everywhere:
                spots = set(hits)  # each touches the cards: its line runs on through them
            else:
                if not frontier:
                    frontier.update(cells)
                    for p in cells:
                        frontier.update((p + 1, p - 1, p + ROW, p - ROW))
                spots = {f - o for f in frontier for o in turn.offsets}
            for at in sorted(spots):
                hit = hits.get(at, everywhere)
                if moving_only and hit is None:
                    continue
                placed = _place(seat, turn, at, hit, task, coop)
                if placed is not None:
                    out.append(placed)
    return out


Hit = tuple[int, frozenset[int]]  # a recreation's driftwood at best, and every cell it uses


def _recreations(cells: Mapping[int, int], by_symbol: Mapping[int, list[int]],
                 needs: tuple[Need, ...]) -> tuple[dict[int, Hit], Hit | None]:
    """R-CR5: where the card recreates the pattern, by top-left cell, and what it does wherever
    it lies (a line on the card alone), or None. A line that needs cells outside the card shows
    the first of their symbols on a visible cell: only those are tried."""
    everywhere: Hit | None = None
    hits: dict[int, Hit] = {}
    for need in needs:
        if not need.outside:
            everywhere = _merge(everywhere, need.drift, need.cells)
            continue
        first, symbol = need.outside[0]
        for p in by_symbol.get(symbol, ()):
            at = p - first
            drift = need.drift
            for o, wanted in need.outside:
                code = cells.get(at + o, BLANK_CODE)
                if code & SYMBOL_MASK != wanted:
                    break
                drift += code >> 3
            else:
                hits[at] = _merge(hits.get(at), drift, need.cells)
    if everywhere is not None:
        hits = {at: _merge(hit, *everywhere) for at, hit in hits.items()}
    return hits, everywhere


def _merge(hit: Hit | None, drift: int, cells: Iterable[int]) -> Hit:
    if hit is None:
        return drift, frozenset(cells)
    return max(hit[0], drift), hit[1] | frozenset(cells)


def _place(seat: Seat, turn: Turned, at: int, hit: Hit | None, task: str, coop: bool) -> Placement | None:
    """The placement, with what it does (R-CR5, R-CR6, R-CR9), or None when a task forbids it
    (R-CR8). `hit`: its recreation of the pattern, if any."""
    cells = seat.cells
    caps = symbols = 0
    for o in turn.offsets:
        old = cells.get(at + o)
        if old is not None:
            symbol = old & SYMBOL_MASK
            caps += symbol == CAP_CODE
            symbols += symbol != BLANK_CODE
    if task == "garbage" and caps:
        return None
    if task == "big-beach" and symbols > BIG_BEACH:
        return None
    if task == "sandcastle":
        x, y = unpack(at)
        x0, y0, x1, y1 = seat.box
        if max(x1, x + turn.width - 1) - min(x0, x) >= SANDCASTLE or max(y1, y + turn.height - 1) - min(y0, y) >= SANDCASTLE:
            return None
    # R-CR6, R-CR9: pools and pairs count only with the pattern recreated.
    found, drift, pools, same = hit is not None, -1, False, False
    if hit is not None:
        drift = hit[0]
        pools = turn.pool_pair or any(cells.get(at + o, BLANK_CODE) == POOL_CODE for o in turn.pool_out)
        if coop:
            # R-CR9: the pair's symbol on the new card must be in a recreated pattern.
            same = _same_in(turn, at, cells, hit[1])
        else:
            same = turn.same_pair or any(cells.get(at + o, BLANK_CODE) & SYMBOL_MASK == s for o, s in turn.same_out)
    danced = seat.danced or (task == "crab-dance" and bool(turn.pools) and _three_pools(seat, turn, at))
    return Placement(turn, at, found, drift, pools, same, seat.caps - caps + turn.caps, danced)


def _same_in(turn: Turned, at: int, cells: Mapping[int, int], pattern: frozenset[int]) -> bool:
    codes = dict(turn.cells)
    for o in pattern:
        code = codes.get(o)
        if code is None or code & SYMBOL_MASK not in PATTERN_CODES:
            continue
        for s in STEPS:
            other = codes.get(o + s)
            if other is None:
                other = cells.get(at + o + s, BLANK_CODE)
            if other & SYMBOL_MASK == code & SYMBOL_MASK:
                return True
    return False


def _three_pools(seat: Seat, turn: Turned, at: int) -> bool:
    """R-CR8 crab-dance: 3 visible pools in a row through one of the new card's pools (a line
    of 3 that none of its cells joins was there before, and counted then)."""
    def pool(o: int) -> bool:
        if o in turn.inside:
            return o in turn.pools
        return seat.cells.get(at + o, BLANK_CODE) == POOL_CODE
    for o in turn.pools:
        for s in (1, ROW):
            if any(all(pool(o + (k - back) * s) for k in range(3)) for back in range(3)):
                return True
    return False


def put(seat: Seat, placed: Placement) -> Seat:
    """The seat after the placement, before Phase 1 draws."""
    cells = dict(seat.cells)
    at, turn = placed.at, placed.turn
    for o, code in turn.cells:
        cells[at + o] = code
    x, y = unpack(at)
    x0, y0, x1, y1 = seat.box
    box = (min(x0, x), min(y0, y), max(x1, x + turn.width - 1), max(y1, y + turn.height - 1))
    hand = tuple(c for c in seat.hand if c != turn.card)
    return Seat(cells, hand, seat.pile, placed.caps, placed.danced, box)


# -- a round -------------------------------------------------------------------------------------

WON, LOST = "won", "lost"


@dataclass(frozen=True)
class Shared:
    """What the seats share: the Coast (None where drawn), Hermie and the Wave."""

    coast: tuple[int | None, ...]
    hermie: int
    wave: int


def pattern_of(cards: Cards, shared: Shared) -> tuple[int, ...]:
    return cards.patterns[shared.coast[shared.hermie]]


def round_end(shared: Shared, plays: tuple[Placement, ...], seats: tuple[Seat, ...], driftwood: int,
              task: str) -> tuple[str | None, int, int]:
    """Phases 3 and 4 (R-CR5…R-CR9): (WON, LOST or None, Hermie, the Wave) — before the draw."""
    hermie, wave = shared.hermie, shared.wave
    onto = hermie + 1 == wave
    recreated = all(p.found for p in plays)
    moves = recreated and (not onto or all(p.drift >= driftwood for p in plays))
    if moves:
        hermie += 1
        if onto:
            return (WON if _tasks_met(shared, plays, seats, task) else LOST), hermie, wave
    if len(plays) == 1:
        pools = moves and plays[0].pools
        same = moves and plays[0].same
    else:
        pools = any(p.found and p.pools for p in plays)
        same = moves and any(p.same for p in plays)
    if pools:
        wave = wave if wave - 1 == hermie else wave - 1
    elif not same:
        wave += 1
    return (LOST if wave > COAST else None), hermie, wave


def _tasks_met(shared: Shared, plays: tuple[Placement, ...], seats: tuple[Seat, ...], task: str) -> bool:
    """R-CR8's end tasks, when Hermie reaches the Wave."""
    if task == "dunes":
        return all(len(s.hand) - 1 + len(s.pile) >= DUNES for s in seats)
    if task == "crab-dance":
        return all(p.danced for p in plays)
    if task == "nature-reserve":
        return all(p.caps == 0 for p in plays)
    if task == "crashing-waves":
        return COAST - shared.wave >= CRASHING_WAVES
    return True


def draw(shared: Shared, hermie: int, wave: int, seats: tuple[Seat, ...]) -> tuple[Shared, tuple[Seat, ...]] | None:
    """Phase 1 (R-CR3, R-CR9) after the placements `seats` hold; None when a seat cannot draw."""
    limit = 1 if any(s.caps >= 2 for s in seats) else 2
    coast = list(shared.coast)
    out = []
    for index, seat in enumerate(seats):
        need = max(limit - len(seat.hand), 0) if limit == 2 else (0 if seat.hand else 1)
        took = seat.pile[:need]
        hand = seat.hand + took
        pile = seat.pile[len(took):]
        need -= len(took)
        if index == 0:
            for slot in range(hermie - 1):
                if need and coast[slot] is not None:
                    hand += (coast[slot],)
                    coast[slot] = None
                    need -= 1
        if need:
            return None
        out.append(Seat(seat.cells, tuple(sorted(hand)), pile, seat.caps, seat.danced, seat.box))
    return Shared(tuple(coast), hermie, wave), tuple(out)


def can_draw(shared: Shared, hermie: int, plays: tuple[Placement, ...], seats: tuple[Seat, ...]) -> bool:
    """Whether Phase 1 after these placements finds the cards it needs (as `draw`, counting)."""
    limit = 1 if any(p.caps >= 2 for p in plays) else 2
    for index, seat in enumerate(seats):
        held = len(seat.hand) - 1
        need = max(limit - held, 0) if limit == 2 else (0 if held else 1)
        have = len(seat.pile)
        if index == 0:
            have += sum(1 for c in shared.coast[:max(hermie - 1, 0)] if c is not None)
        if have < need:
            return False
    return True


def packed_state(state: CrabState) -> tuple[Shared, tuple[Seat, ...]]:
    return Shared(tuple(state.coast), state.hermie, state.wave), tuple(Seat.of(a) for a in state.areas)
