"""Positions of the crab game from which no win can follow, told from counts alone: the cards
left against the rounds Hermie needs, and the end tasks (R-CR8) that can no longer be met. The
solver (solver.py) searches no further from them. Each bound only ever says "lost" of a lost
position; why is written beside it, and tests/test_crab_solver.py checks the solver against a
plain search that uses none of them.
"""

from __future__ import annotations

from referee.games.crab.deck import COAST
from referee.games.crab.packed import POOL_CODE, Cards, Seat, Shared
from referee.games.crab.rules import CRASHING_WAVES, DUNES

# Hermie stands left of the Wave, which never passes slot 10, at every Phase 1: the Coast cards
# still to be drawn lie on slots 1–8 (R-CR3: strictly left of him).
LAST_DRAWN_SLOT = COAST - 2
POOLS_IN_A_ROW = 3  # crab-dance (R-CR8)


def pool_cards(cards: Cards, shared: Shared, seats: tuple[Seat, ...]) -> int:
    """The cards with a pool that may still be placed: in a hand, a pile, or on a Coast slot
    that may still be drawn."""
    held = sum(cards.pools[c] > 0 for s in seats for c in (*s.hand, *s.pile))
    return held + sum(cards.pools[c] > 0 for c in shared.coast[:LAST_DRAWN_SLOT] if c is not None)


def hopeless(cards: Cards, task: str, shared: Shared, seats: tuple[Seat, ...]) -> bool:
    """True when no win can follow this position (before a round)."""
    counts = [len(s.hand) + len(s.pile) for s in seats]
    if counts_hopeless(task, shared.coast, shared.hermie, shared.wave, counts,
                       pool_cards(cards, shared, seats)):
        return True
    if task == "crab-dance":
        # The 3 pools in a row a seat has not yet shown must all be visible at once, and each
        # pool not yet visible comes on a card still to be placed.
        for index, seat in enumerate(seats):
            if seat.danced:
                continue
            pools = sum(1 for code in seat.cells.values() if code == POOL_CODE)
            pools += sum(cards.pools[c] for c in (*seat.hand, *seat.pile))
            if index == 0:
                pools += sum(cards.pools[c] for c in shared.coast[:LAST_DRAWN_SLOT] if c is not None)
            if pools < POOLS_IN_A_ROW:
                return True
    return False


def counts_hopeless(task: str, coast: tuple[int | None, ...], hermie: int, wave: int,
                    counts: list[int], pools: int) -> bool:
    """True when the cards left cannot last the rounds Hermie needs to reach the Wave, or an
    end task cannot be met. `counts`: each seat's cards in hand and pile; `pools`: the cards
    with a pool still to come (`pool_cards`).

    Needed: each round brings Hermie at most 1 slot nearer the Wave (he steps, the Wave stays),
    or 2 when the Wave also moves left — which needs a pool on a card just placed (R-CR6,
    R-CR9), so at most once per card with a pool. The last round is Hermie's step onto the
    Wave from the slot next to it, and the Wave never moves left onto him: the rounds before
    it close the distance d to 1. So at least 1 + max(d − 1 − pools, ⌈(d − 1) / 2⌉) rounds.

    Possible: every round places a card from the hand, which came from the hand now, the pile,
    or the Coast slots behind Hermie — and after k more rounds Hermie stands at most k slots
    further on. A seat other than seat 1 has only its hand and pile (R-CR9).
    """
    d = wave - hermie
    needed = 1 + max(d - 1 - pools, d // 2)  # ⌈(d − 1) / 2⌉ = ⌊d / 2⌋
    if task == "dunes":
        # 2 cards left in pile and hand at the win: the pile must still hold a card then (a
        # hand holds at most 2, one of which was just placed), so nothing was drawn from the
        # Coast, and every round used up one of the cards in hand and pile now.
        return min(counts) - DUNES < needed
    if task == "crashing-waves" and wave - pools > COAST - CRASHING_WAVES:
        return True  # the Wave must end on slot 6 or left of it, moving left once per pool
    if len(counts) > 1 and min(counts[1:]) < needed:
        return True
    return rounds_possible(coast, hermie, counts[0]) < needed


def rounds_possible(coast: tuple[int | None, ...], hermie: int, cards: int) -> int:
    """The most rounds seat 1 can still play with `cards` in hand and pile: the Coast slots
    left of Hermie may be drawn from the next Phase 1 on, and after k more rounds he stands at
    most k slots further on, drawing only from the slots left of him."""
    rounds = 0
    counted = 0  # the Coast slots (1-based) counted so far
    reach = min(hermie - 1, LAST_DRAWN_SLOT)
    while True:
        while counted < reach:
            counted += 1
            cards += coast[counted - 1] is not None
        if cards <= 0:
            return rounds
        cards -= 1
        rounds += 1
        reach = min(hermie + rounds - 1, LAST_DRAWN_SLOT)  # drawable after this round


def standing_rounds(cards: Cards, shared: Shared, seats: tuple[Seat, ...]) -> int:
    """At least as many rounds with Hermie standing still as a game from here can have: each
    moves the Wave right, and it may not pass slot 10 (R-CR7), unless a pool moves it left —
    at most once per card with a pool, which may also give back a step right made while
    Hermie moved; in a cooperative game a pool can keep such a round from moving it at all."""
    return COAST - shared.wave + 2 * pool_cards(cards, shared, seats)


def every_deal_hopeless(cards: Cards, shared: Shared, seats: tuple[Seat, ...], task: str) -> bool:
    """True when no deal of this deck, with these options, can be won: `hopeless` from the
    start (`shared`, `seats`: any one deal's) with what every deal has alike — each seat's
    cards in hand and pile (those not on the Coast nor opening the play area), Hermie, the Wave
    and a full Coast — and the most pools any deal could bring: every card with a pool, in
    every seat's deck."""
    counts = [len(s.hand) + len(s.pile) for s in seats]
    pools = len(seats) * sum(1 for n in cards.pools.values() if n)
    return counts_hopeless(task, shared.coast, shared.hermie, shared.wave, counts, pools)
