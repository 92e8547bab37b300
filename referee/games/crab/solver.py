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

import itertools
from dataclasses import dataclass
from typing import Callable, Iterator

from referee.games.crab.bounds import counts_hopeless, hopeless, pool_cards, standing_rounds
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


# A budget of rounds in which Hermie stays that no game can spend: the search is then plain.
UNLIMITED = 99


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
        self.cuts = 0  # how often this pass left rounds out for its budget
        # key → the largest budget of rounds with Hermie standing under which it is lost
        self.lost: dict[tuple, int] = {}

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
        doomed: dict[tuple, bool] = {}  # what the next two checks depend on → their verdict
        for plays, verdict, hermie, wave in self._rounds(shared, seats, budget > 0):
            if verdict == WON:
                return [_notation(plays)]
            pools = sum(self.cards.pools[p.turn.card] > 0 for p in plays)
            case = (hermie, wave, any(p.caps >= 2 for p in plays), pools)
            if case not in doomed:
                # R-CR3: a seat cannot draw, lost; or no win can follow.
                doomed[case] = not can_draw(shared, hermie, plays, seats) or (
                    self.prune and self._after_hopeless(shared, seats, pools, hermie, wave))
            if doomed[case]:
                continue
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
            self.lost[key] = left if self.cuts > cuts else UNLIMITED
        return None

    def _rounds(self, shared: Shared, seats: tuple[Seat, ...], standing: bool) -> Iterator[tuple]:
        """Every round from here that does not lose at once, with its verdict, Hermie and Wave:
        first the rounds in which every seat recreates the pattern (Hermie moving nearest the
        Wave first), then, if `standing` allows them, the others, each in placement order —
        unless no round that leaves Hermie where he is can lead to a win (`_standing_hopeless`)."""
        pattern = pattern_of(self.cards, shared)
        coop = len(seats) > 1
        found = [placements(self.cards, s, self.task, pattern, coop, moving_only=True) for s in seats]
        first = []
        for plays in itertools.product(*found):
            verdict, hermie, wave = round_end(shared, plays, seats, self.driftwood, self.task)
            if verdict == WON:
                yield plays, verdict, hermie, wave
                return
            if verdict != LOST and not standing and hermie == shared.hermie:
                self.cuts += 1  # a round the budget leaves out
            elif verdict != LOST:
                caps = sum(p.caps >= 2 for p in plays)
                first.append((hermie == shared.hermie, wave - hermie, caps, len(first), plays, hermie, wave))
        first.sort(key=lambda t: t[:4])
        for *_, plays, hermie, wave in first:
            yield plays, None, hermie, wave
        if self.prune and self._standing_hopeless(shared, seats):
            return
        if not standing:
            self.cuts += 1  # the rounds the budget leaves out
            return
        # Placements that keep the hand limit at 2 first: more cards to choose from next.
        options = [sorted(placements(self.cards, s, self.task, pattern, coop), key=lambda p: p.caps >= 2)
                   for s in seats]
        for plays in itertools.product(*options):
            if all(p.found for p in plays):
                continue
            verdict, hermie, wave = round_end(shared, plays, seats, self.driftwood, self.task)
            if verdict != LOST:
                yield plays, verdict, hermie, wave

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
