"""An exact solver of Hermit: Small crab, big wave over the known deal (SPEC §10 `solve`).

The record holds the whole deal, so from any position the rest of the game follows from the
placements alone: whether it can still be won is a search of a finite tree. The search is depth
first, placements that move Hermie first, and it remembers every position it has proven lost
(by a key that keeps all that can still matter: see `_key`). Three things keep it small, each
sound (it never calls a winnable position lost; the tests check against a plain search):

- Distinct outcomes only: placements that lead to positions of the same key are one child.
- Proven losses are remembered: a position reached again by another order of placements, or
  moved across the play area, is not searched again.
- A bound (`hopeless`): the rounds the cards still allow against the rounds Hermie needs to
  reach the Wave.

Pure: the caller says when time is up (`out_of_time`, asked at every position), so the same
position always gets the same answer and the same line, given time enough.
"""

from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass
from typing import Callable, Iterator

from referee.games.crab.bounds import (
    counts_hopeless, every_deal_hopeless, hopeless, pool_cards, standing_rounds,
)
from referee.games.crab.deck import COAST
from referee.games.crab.moves import Place, Round
from referee.games.crab.packed import (
    LOST, WON, Cards, Placement, Seat, Shared, can_draw, draw, packed_state, pattern_of, placements, put,
    round_end, unpack,
)
from referee.games.crab.position import CrabState

@dataclass(frozen=True)
class Solution:
    """What the search found: `winnable` True (with `line`, every remaining round in canonical
    notation), False (searched to the end), or None (time ran out); `searched`: the positions
    it looked at."""

    winnable: bool | None
    line: tuple[str, ...]
    searched: int


class OutOfTime(Exception):
    pass


def solve(state: CrabState, out_of_time: Callable[[], bool] = lambda: False,
          max_positions: int | None = None) -> Solution:
    """Whether the game can still be won from `state`. Raises ValueError on a finished game."""
    if state.over:
        raise ValueError("the game is over")
    search = Search(state, out_of_time, max_positions)
    try:
        line = search.run()
    except OutOfTime:
        return Solution(None, (), search.searched)
    if line is None:
        return Solution(False, (), search.searched)
    return Solution(True, tuple(line), search.searched)


def no_deal_wins(start: CrabState) -> bool:
    """True when no deal of the deck of `start`, a game's first position, can be won with its
    options (bounds.every_deal_hopeless): dunes, for one, never can with 5 cards in seat 1's
    hand and pile (R-CR2, R-CR8)."""
    shared, seats = packed_state(start)
    return every_deal_hopeless(Cards(start.deck), shared, seats, start.task)


# A budget of rounds in which Hermie stays that no game can spend: the search is then plain.
UNLIMITED = 99
# A budget of positions (the same answer on every machine) bounds the rounds looked at too, at
# this many a position: a cooperative position can offer millions of rounds, each losing at
# once. Solo deals look at 1–8 a position searched (the sample deck, seeds 0–24 of every
# task: 27,000 at most in 4,000 positions), so the bound never decides a solo answer.
WORK_PER_POSITION = 20
# SPEC §14 (within 1 GB): the positions proven lost are remembered up to this many bytes, at
# LOST_BYTES_PER_SEAT bytes an entry for each seat (measured by tracemalloc: about 450 bytes
# solo, 1,150 with 4 seats, from the start; more for play areas of many cards); past it, what
# is proven lost is not remembered, which costs time, never a wrong answer.
LOST_BYTES = 250_000_000
LOST_BYTES_PER_SEAT = 600


class Search:
    """The depth-first search, in passes: the first allows no round in which Hermie stays
    where he is, each next one a round more, the last any number (`run`). Wins are mostly
    found in an early pass; only the last one can prove a loss. What a pass proves lost is
    proven lost for every smaller budget too, so the passes share what they learn."""

    def __init__(self, state: CrabState, out_of_time: Callable[[], bool] = lambda: False,
                 max_positions: int | None = None, prune: bool = True):
        self.cards = Cards(state.deck)
        self.task, self.driftwood = state.task, state.driftwood
        self.root = packed_state(state)
        self.out_of_time, self.max_positions, self.prune = out_of_time, max_positions, prune
        self.searched = 0
        self.work = 0  # rounds and groups of rounds looked at (`_tick`)
        self.max_work = None if max_positions is None else max_positions * WORK_PER_POSITION
        self.cuts = 0  # how often this pass left rounds out for its budget
        # key → the largest budget of rounds with Hermie standing under which it is lost
        self.lost: dict[tuple, int] = {}
        self.max_lost = LOST_BYTES // (LOST_BYTES_PER_SEAT * len(self.root[1]))

    def run(self) -> list[str] | None:
        shared, seats = self.root
        budgets = range(standing_rounds(self.cards, shared, seats)) if self.prune else ()
        for budget in (*budgets, UNLIMITED):
            self.cuts = 0
            line = self._search(shared, seats, budget)
            if line is not None or not self.cuts:
                return line  # a win, or a loss the budget played no part in
        return None

    def _search(self, shared: Shared, seats: tuple[Seat, ...], budget: int) -> list[str] | None:
        """A winning line from this position (before a round) with at most `budget` rounds in
        which Hermie stays, or None when there is none."""
        self.searched += 1
        if self.out_of_time() or (self.max_positions is not None and self.searched > self.max_positions):
            raise OutOfTime
        if self.prune and hopeless(self.cards, self.task, shared, seats):
            return None
        for plays, verdict, hermie, wave in self._rounds(shared, seats, budget > 0):
            if verdict == WON:
                return [_notation(plays)]
            self._tick()
            after = tuple(put(s, p) for s, p in zip(seats, plays))
            drawn = draw(shared, hermie, wave, after)
            key = _key(self.task, *drawn)
            left = budget if hermie > shared.hermie else budget - 1
            lost = self.lost.get(key, -1)
            if lost >= left:
                self.cuts += lost < UNLIMITED  # known lost under this budget, maybe not under more
                continue
            cuts = self.cuts
            line = self._search(*drawn, left)
            if line is not None:
                return [_notation(plays), *line]
            # Lost under this budget — under any, if the budget left nothing out on the way.
            if len(self.lost) < self.max_lost or key in self.lost:
                self.lost[key] = left if self.cuts > cuts else UNLIMITED
        return None

    def _rounds(self, shared: Shared, seats: tuple[Seat, ...], standing: bool) -> Iterator[tuple]:
        """Every round from here that does not lose at once and from which a win may follow
        (`_doomed`), with its verdict, Hermie and Wave: first the rounds in which every seat
        recreates the pattern (Hermie moving nearest the Wave first), then, if `standing`
        allows them, the others, each in placement order — unless no round that leaves Hermie
        where he is can lead to a win (`_standing_hopeless`).

        In a cooperative game a round is one placement per seat, and every seat's placements
        multiplied out can run to hundreds of millions: they are never listed. What decides a
        round's verdict and order is a handful of facts about each placement (`_grouped`); each
        seat's placements are grouped by them, the groups' combinations judged once each, and
        only the rounds of the combinations that survive are made, one at a time, in the
        order a whole listing would have given them."""
        pattern = pattern_of(self.cards, shared)
        coop = len(seats) > 1
        onto = shared.hermie + 1 == shared.wave
        moving = [self._grouped(placements(self.cards, s, self.task, pattern, coop, moving_only=True), onto)
                  for s in seats]
        won = None  # the first winning round, in placement order
        first: dict[tuple, list] = {}  # (stays, Wave − Hermie, seats with 2+ caps) → groups
        for groups in itertools.product(*moving):
            self._tick()
            samples = tuple(sample for sample, _ in groups)  # one placement for each group
            verdict, hermie, wave = round_end(shared, samples, seats, self.driftwood, self.task)
            if verdict == WON:
                earliest = tuple(listed[0] for _, listed in groups)
                if won is None or [i for i, _ in earliest] < [i for i, _ in won[0]]:
                    won = earliest, hermie, wave
            elif verdict != LOST and not standing and hermie == shared.hermie:
                self.cuts += 1  # rounds the budget leaves out
            elif verdict != LOST and not self._doomed(shared, seats, samples, hermie, wave):
                caps = sum(p.caps >= 2 for p in samples)
                first.setdefault((hermie == shared.hermie, wave - hermie, caps), []).append(
                    (groups, hermie, wave))
        if won is not None:
            earliest, hermie, wave = won
            yield tuple(p for _, p in earliest), WON, hermie, wave
            return
        for order in sorted(first):
            yield from self._merged(first[order])
        if self.prune and self._standing_hopeless(shared, seats):
            return
        if not standing:
            self.cuts += 1  # the rounds the budget leaves out
            return
        # Placements that keep the hand limit at 2 first: more cards to choose from next.
        options = [self._grouped(sorted(placements(self.cards, s, self.task, pattern, coop),
                                     key=lambda p: p.caps >= 2), onto) for s in seats]
        others = []
        for groups in itertools.product(*options):
            self._tick()
            samples = tuple(sample for sample, _ in groups)  # one placement for each group
            if all(p.found for p in samples):
                continue
            verdict, hermie, wave = round_end(shared, samples, seats, self.driftwood, self.task)
            if verdict != LOST and not self._doomed(shared, seats, samples, hermie, wave):
                others.append((groups, hermie, wave))
        yield from self._merged(others)

    def _grouped(self, found: list[Placement], onto: bool) -> list[tuple[Placement, list]]:
        """A seat's placements in groups that any round treats alike, each as (its first
        placement, [(index, placement)…] in order): what R-CR5…R-CR9 and the tasks read of a
        placement (whether it recreates the pattern, with driftwood enough when Hermie would
        step onto the Wave, pools, a pair, the caps then visible, the crab dance) and whether
        its card has a pool (the bound after the round counts them)."""
        groups: dict[tuple, tuple[Placement, list]] = {}
        reserve, dance = self.task == "nature-reserve", self.task == "crab-dance"
        for index, p in enumerate(found):
            kind = (p.found, onto and p.drift >= self.driftwood, p.pools, p.same,
                    min(p.caps, 2) if reserve else p.caps >= 2, dance and p.danced,
                    self.cards.pools[p.turn.card] > 0)
            group = groups.get(kind)
            if group is None:
                group = groups[kind] = (p, [])
            group[1].append((index, p))
        return list(groups.values())

    def _merged(self, chosen: list[tuple[tuple, int, int]]) -> Iterator[tuple]:
        """The rounds of the chosen combinations of groups, one at a time, in placement order
        (a whole listing's), each with no verdict yet, Hermie and the Wave."""
        def rounds(groups: tuple, hermie: int, wave: int) -> Iterator[tuple]:
            for indexed in itertools.product(*(listed for _, listed in groups)):
                yield tuple(i for i, _ in indexed), tuple(p for _, p in indexed), hermie, wave

        for _, plays, hermie, wave in heapq.merge(*(rounds(*c) for c in chosen), key=lambda r: r[0]):
            yield plays, None, hermie, wave

    def _doomed(self, shared: Shared, seats: tuple[Seat, ...], plays: tuple[Placement, ...],
                hermie: int, wave: int) -> bool:
        """R-CR3: after this round a seat cannot draw, and the game is lost; or no win can
        follow it (by the bound)."""
        pools = sum(self.cards.pools[p.turn.card] > 0 for p in plays)
        return not can_draw(shared, hermie, plays, seats) or (
            self.prune and self._after_hopeless(shared, seats, pools, hermie, wave))

    def _tick(self) -> None:
        """Time, or the budget of work, is up: a round looked at is work too, as a cooperative
        position can offer millions of them."""
        self.work += 1
        if self.out_of_time() or (self.max_work is not None and self.work > self.max_work):
            raise OutOfTime

    def _after_hopeless(self, shared: Shared, seats: tuple[Seat, ...], placed_pools: int,
                        hermie: int, wave: int) -> bool:
        """`hopeless` of the position after this round, from counts alone (before building it):
        the draw moves cards from pile or Coast into the hand, which the bound counts alike."""
        cards = [len(s.hand) + len(s.pile) - 1 for s in seats]
        pools = pool_cards(self.cards, shared, seats) - placed_pools
        return counts_hopeless(self.task, shared.coast, hermie, wave, cards, pools)

    def _standing_hopeless(self, shared: Shared, seats: tuple[Seat, ...]) -> bool:
        """True when every round in which some seat does not recreate the pattern leads to a
        hopeless position. Hermie then stays, and the Wave moves right — or, in a cooperative
        game, left at best when a seat holds a card with a pool (R-CR9). Each seat has one card
        fewer; the bound counts the pools of every card still to come, the one placed too, and
        Coast cards are counted alike in the Coast or, once drawn, in the hand."""
        pools = any(self.cards.pools[c] for s in seats for c in s.hand)
        if len(seats) > 1 and pools:
            wave = shared.wave - 1 if shared.wave - 1 > shared.hermie else shared.wave
        else:
            wave = shared.wave + 1
        if wave > COAST:
            return True  # R-CR7
        # R-CR3: the draw right after, with Hermie where he is, needs a card when the hand is
        # emptied (with a hand limit of 2, even more).
        behind = sum(1 for c in shared.coast[:max(shared.hermie - 1, 0)] if c is not None)
        if any(len(s.hand) == 1 and not s.pile and not (i == 0 and behind) for i, s in enumerate(seats)):
            return True
        cards = [len(s.hand) + len(s.pile) - 1 for s in seats]
        return counts_hopeless(self.task, shared.coast, shared.hermie, wave, cards,
                               pool_cards(self.cards, shared, seats))


def _notation(plays: tuple[Placement, ...]) -> str:
    return str(Round(tuple(Place(p.turn.card, *unpack(p.at), p.turn.rotation) for p in plays)))


def _key(task: str, shared: Shared, seats: tuple[Seat, ...]) -> tuple:
    """What can still matter of a position before a round: Hermie, the Wave, how many Coast
    slots were drawn (always the leftmost, R-CR3), and each seat's visible cells wherever they
    lie (Seat.key), hand, what is left of its pile (always the same cards in the same order),
    and, for crab-dance alone, whether it has had 3 pools in a row. Not what lies under the top
    cards, which card is on top of which, nor the round number: no rule reads them."""
    drawn = sum(1 for c in shared.coast if c is None)
    dance = task == "crab-dance"
    return (shared.hermie, shared.wave, drawn,
            tuple((s.key(), s.hand, len(s.pile), dance and s.danced) for s in seats))
