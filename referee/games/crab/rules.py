"""The rules of Hermit: Small crab, big wave as pure helpers on a CrabState: putting a card
down (R-CR4), the patterns (R-CR5), the draw (R-CR3), the Wave (R-CR6, R-CR7), the tasks
(R-CR8) and the cooperative game (R-CR9). Each returns a new state; none changes one.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Mapping

from referee.games.base import count
from referee.games.crab.deck import BLANK, CAP, COAST, PATTERN_SYMBOLS, POOL, Card, Face, Point
from referee.games.crab.moves import Place
from referee.games.crab.position import Area, Cell, CrabState

TASKS = ("base", "garbage", "sandcastle", "big-beach", "dunes", "crab-dance", "nature-reserve",
         "crashing-waves")
SANDCASTLE = 6  # R-CR8: every footprint inside one 6×6 square
BIG_BEACH = 2  # R-CR8: never cover more than 2 symbols in one placement
DUNES = 2  # R-CR8: 2+ cards left in pile and hand
CRASHING_WAVES = 4  # R-CR8: 4+ Coast slots right of the Wave


def footprint(card: Card, place: Place) -> dict[Point, Face]:
    """The play-area cells the placed card covers, with its face on each."""
    return {(place.x + dx, place.y + dy): face for (dx, dy), face in card.faces(place.rotation).items()}


def neighbours(p: Point) -> tuple[Point, ...]:
    """The four cells sharing an edge with `p`."""
    x, y = p
    return ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))


def opening_area(deck: Mapping[int, Card], pile: tuple[int, ...]) -> Area:
    """R-CR2, R-CR9: the top card of the pile starts the play area at 0,0 rotation 0."""
    start = Place(pile[0], 0, 0, 0)
    return put(deck, Area((), {}, (start.card,), tuple(pile[1:])), start)


def put(deck: Mapping[int, Card], area: Area, place: Place) -> Area:
    """The area with the card from the hand on top at `place` (checked beforehand: refusal)."""
    layer = len(area.placed)
    visible = dict(area.visible)
    cells = footprint(deck[place.card], place)
    for point, face in cells.items():
        visible[point] = Cell(face.symbol, face.drift, layer)
    hand = tuple(c for c in area.hand if c != place.card)
    return replace(
        area,
        placed=area.placed + (place,),
        visible=visible,
        newest=tuple(p for p in visible if p in cells),  # in the order of `visible`
        hand=hand,
        pools_in_row=area.pools_in_row or _three_pools(visible),
        recreated=(),
    )


def _three_pools(visible: Mapping[Point, Cell]) -> bool:
    """R-CR8 crab-dance: 3 visible pools consecutive in a row or column."""
    pools = {p for p, cell in visible.items() if cell.symbol == POOL}
    return any(
        (x + dx, y + dy) in pools and (x + 2 * dx, y + 2 * dy) in pools
        for x, y in pools for dx, dy in ((1, 0), (0, 1))
    )


def _triples(area: Area) -> list[tuple[Point, Point, Point]]:
    """Every three orthogonally consecutive cells with at least one on the newest card."""
    found: dict[tuple[Point, Point, Point], None] = {}  # a dict: each triple once, in order
    for x, y in area.newest:
        for dx, dy in ((1, 0), (0, 1)):
            for back in range(3):
                fx, fy = x - back * dx, y - back * dy
                found[(fx, fy), (fx + dx, fy + dy), (fx + 2 * dx, fy + 2 * dy)] = None
    return list(found)


def recreations(area: Area, pattern: tuple[str, str, str]) -> list[tuple[Point, Point, Point]]:
    """R-CR5: the triples that read the pattern, in order or reversed, with at least one symbol
    on the card just placed."""
    visible = area.visible
    ends = ((pattern[0], pattern[2]), (pattern[2], pattern[0]))  # in order or reversed
    matches = []
    for first, middle, last in _triples(area):
        # The middle symbol reads alike both ways: asked first, it rules out most triples.
        b = visible.get(middle)
        if b is None or b.symbol != pattern[1]:
            continue
        a, c = visible.get(first), visible.get(last)
        if a is not None and c is not None and (a.symbol, c.symbol) in ends:
            matches.append((first, middle, last))
    return matches


def _on_driftwood(area: Area, triple: tuple[Point, ...]) -> int:
    return sum(1 for p in triple if area.visible[p].drift)


def _adjacent_pair(area: Area, symbols: tuple[str, ...], only: set[Point] | None = None) -> bool:
    """Two orthogonally adjacent visible cells showing the same symbol from `symbols`, one of
    them on the newest card (and, when `only` is given, that one among `only`)."""
    for point in area.newest:
        cell = area.visible[point]
        if cell.symbol not in symbols:
            continue
        if only is not None and point not in only:
            continue
        for n in neighbours(point):
            other = area.visible.get(n)
            if other is not None and other.symbol == cell.symbol:
                return True
    return False


def hand_limit(state: CrabState) -> int:
    """R-CR3, R-CR9: 2, or 1 when a play area shows 2 or more bottle caps."""
    return 1 if any(a.caps() >= 2 for a in state.areas) else 2


def refusal(state: CrabState, seat: int, place: Place) -> str | None:
    """Why `seat` may not make this placement (R-CR4, R-CR8), or None when it may."""
    area = state.areas[seat - 1]
    where = "" if len(state.areas) == 1 else f"seat {seat}: "
    if place.card not in area.hand:
        held = ", ".join(map(str, area.hand)) or "nothing"
        return f"{where}card {place.card} is not in the hand (the hand holds {held})"
    cells = footprint(state.deck[place.card], place)
    occupied = area.visible
    touches = any(c in occupied for c in cells) or any(
        n in occupied for c in cells for n in neighbours(c)
    )
    if not touches:
        return (f"{where}{place} neither covers nor touches an edge of a card in the play area "
                f"(R-CR4)")
    covered = [occupied[c] for c in cells if c in occupied]
    if state.task == "garbage" and any(cell.symbol == CAP for cell in covered):
        return f"{where}{place} covers a bottle cap, and the task is garbage (R-CR8)"
    if state.task == "big-beach":
        symbols = sum(1 for cell in covered if cell.symbol != BLANK)
        if symbols > BIG_BEACH:
            return (f"{where}{place} covers {symbols} symbols, and the task big-beach allows "
                    f"{BIG_BEACH} (R-CR8)")
    if state.task == "sandcastle":
        xs = [p[0] for p in (*occupied, *cells)]
        ys = [p[1] for p in (*occupied, *cells)]
        width, height = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
        if width > SANDCASTLE or height > SANDCASTLE:
            return (f"{where}{place} makes the play area {width}×{height}, and the task "
                    f"sandcastle keeps it inside {SANDCASTLE}×{SANDCASTLE} (R-CR8)")
    return None


def draw_cards(state: CrabState) -> CrabState:
    """Phase 1 (R-CR3, R-CR9): fill the hands; the game is lost when a seat cannot draw enough."""
    limit = hand_limit(state)
    coast = list(state.coast)
    areas = []
    short = []
    for seat, area in enumerate(state.areas, 1):
        need = limit - len(area.hand) if limit == 2 else (1 if not area.hand else 0)
        need = max(need, 0)
        pile = list(area.pile)
        hand = list(area.hand)
        while need and pile:
            hand.append(pile.pop(0))
            need -= 1
        if seat == 1:
            # R-CR3: then from the Coast slots strictly left of Hermie, leftmost first.
            for slot in range(state.hermie - 1):
                if need and coast[slot] is not None:
                    hand.append(coast[slot])
                    coast[slot] = None
                    need -= 1
        if need:
            short.append(seat)
        areas.append(replace(area, hand=tuple(hand), pile=tuple(pile)))
    state = replace(state, areas=tuple(areas), coast=tuple(coast))
    if short:
        who = "you" if len(state.areas) == 1 else f"seat {short[0]}"
        return replace(state, won=False,
                       reason=f"{who} could not draw enough cards in Phase 1 (R-CR3)")
    return state


def after_placing(state: CrabState) -> CrabState:
    """Phases 3 and 4 of a round, then Phase 1 of the next (R-CR5…R-CR7, R-CR9)."""
    solo = len(state.areas) == 1
    pattern = state.pattern
    target = state.hermie + 1
    onto_wave = target == state.wave
    found = [recreations(area, pattern) for area in state.areas]
    # One triple must meet every condition at once (R-CR5): prefer the one with most driftwood.
    best = [max(m, key=lambda t: _on_driftwood(a, t)) if m else () for a, m in zip(state.areas, found)]
    areas = tuple(replace(a, recreated=t) for a, t in zip(state.areas, best))
    events = []
    recreated = [bool(m) for m in found]
    moves = all(recreated) and (
        not onto_wave or all(_on_driftwood(a, t) >= state.driftwood for a, t in zip(areas, best))
    )
    state = replace(state, areas=areas)
    if all(recreated) and not moves:
        events.append(f"Pattern recreated, but Hermie may not step onto the Wave: fewer than "
                      f"{count(state.driftwood, 'symbol')} of it on driftwood (R-CR5)")
    elif any(recreated) and not moves:
        missing = ", ".join(str(s) for s, r in enumerate(recreated, 1) if not r)
        events.append(f"Hermie stays: not every seat recreated the pattern (seat {missing}; R-CR9)")
    elif not moves:
        events.append("Pattern not recreated: Hermie stays (R-CR5)")
    if moves:
        state = replace(state, hermie=target)
        events.append(f"Pattern recreated: Hermie moves to slot {target} (R-CR5)")
        if onto_wave:
            return _won(replace(state, events=tuple(events)))
    # Phase 4 (R-CR6; cooperative R-CR9).
    if solo:
        pools = moves and _adjacent_pair(areas[0], (POOL,))
        same = moves and _adjacent_pair(areas[0], PATTERN_SYMBOLS)
    else:
        pools = any(r and _adjacent_pair(a, (POOL,)) for a, r in zip(areas, recreated))
        # The symbol on the new card must be in the seat's recreated pattern: any triple that
        # recreated it will do.
        same = moves and any(
            _adjacent_pair(a, PATTERN_SYMBOLS, {p for t in m for p in t}) for a, m in zip(areas, found)
        )
    wave = state.wave
    if pools and wave - 1 == state.hermie:
        events.append("Two pools side by side, but the Wave may not land on Hermie: it stays (R-CR6)")
    elif pools:
        wave -= 1
        events.append(f"Two pools side by side: the Wave moves left to slot {wave} (R-CR6)")
    elif same:
        events.append("Two identical symbols side by side: the Wave stays (R-CR6)")
    else:
        wave += 1
        events.append(f"The Wave moves right to {slot_words(wave)} (R-CR6)")
    state = replace(state, wave=wave, events=tuple(events))
    if wave > COAST:
        return replace(state, won=False, reason="the Wave left the rightmost card (R-CR7)")
    return draw_cards(state)


def _won(state: CrabState) -> CrabState:
    """R-CR7, R-CR8: Hermie reached the Wave; an unmet end task turns the win into a loss."""
    unmet = _unmet_task(state)
    if unmet:
        return replace(state, won=False, reason=f"Hermie reached the Wave, but {unmet} (R-CR8)")
    return replace(state, won=True, reason=f"Hermie reached the Wave on slot {state.wave} (R-CR7)")


def _unmet_task(state: CrabState) -> str | None:
    task = state.task
    if task == "dunes":
        short = [s for s, a in enumerate(state.areas, 1) if len(a.pile) + len(a.hand) < DUNES]
        if short:
            return f"the task dunes needs {DUNES} unused cards in pile and hand{_seats(state, short)}"
    if task == "crab-dance":
        short = [s for s, a in enumerate(state.areas, 1) if not a.pools_in_row]
        if short:
            return f"the task crab-dance needs 3 pools in a row at some moment{_seats(state, short)}"
    if task == "nature-reserve":
        short = [s for s, a in enumerate(state.areas, 1) if a.caps()]
        if short:
            return f"the task nature-reserve allows no visible bottle cap at the end{_seats(state, short)}"
    if task == "crashing-waves" and COAST - state.wave < CRASHING_WAVES:
        return (f"the task crashing-waves needs {CRASHING_WAVES} Coast slots right of the Wave, "
                f"not {COAST - state.wave}")
    return None


def _seats(state: CrabState, seats: list[int]) -> str:
    if len(state.areas) == 1:
        return ""
    return f" (not met by seat {', '.join(map(str, seats))})"


def slot_words(slot: int) -> str:
    if slot == 0:
        return "the shore left of slot 1"
    if slot > COAST:
        return "no slot: it has left the Coast"
    return f"slot {slot}"
