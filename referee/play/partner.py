"""The engine as a partner in the cooperative crab game (SPEC §11): a bot seat plays its part
of the solver's winning line whenever the solver proves the round winnable; only otherwise does
the search choose (bots.partner_round).

The player gives their seats' placements first, so the winning line the solver found from the
round's start may not be the one they chose. Three steps, each within the bot's seconds:

1. the solver's line from the round's start: where the player's placements are that line's,
   the bot seats play theirs;
2. otherwise, unless the solver proved the game lost, the bot seats' placements are tried
   with the player's (those that move Hermie first, as `moves` lists them), and the first
   round after which the solver proves the game winnable (or that wins at once) is played;
3. otherwise None, and the search chooses (bots.partner_round).

The solver is exact, so a round chosen by step 1 or 2 keeps a winnable game winnable: a player
who follows the hints wins with the bot, whatever it would have found by playouts.
"""

from __future__ import annotations

import itertools
import time
from typing import Any, Iterator, Mapping

from referee.errors import RefereeError
from referee.games.base import Game
from referee.games.crab.solver import solve

# Step 1 takes at most this part of the bot's seconds; step 2 tries rounds until this part of
# them is spent, leaving the rest to the search where neither finds a winning round.
LINE_SHARE = 0.25
TRY_SHARE = 0.5
# Step 2: one round's position looked at by the solver for at most this many positions (a
# winnable position is usually proven in a few dozen; a lost one may take the whole budget).
TRY_POSITIONS = 4_000


def winning_part(game: Game, state: Any, players: Mapping[int, Any], bots: list[int],
                 seconds: float) -> dict[int, Any] | None:
    """The bot seats' placements (seat → placement) of a round that keeps the game winnable
    with the players' placements `players` (seat → placement), where the solver proves one
    within the shares of `seconds`; None where it proves none (or the game lost)."""
    began = time.monotonic()
    line_ends = began + seconds * LINE_SHARE
    found = solve(state, lambda: time.monotonic() >= line_ends)
    if found.winnable is False:
        return None  # lost whatever anyone plays: the search makes the best try
    if found.winnable:
        first = game.parse_part(state, found.line[0])
        if all(first.get(seat) == place for seat, place in players.items()):
            return {seat: first[seat] for seat in bots}
    tries_end = began + seconds * TRY_SHARE
    for parts in _rounds(game, state, players, bots):
        if time.monotonic() >= tries_end:
            return None
        after = _after(game, state, {**players, **parts})
        if after is None:
            continue
        if after.over:
            if after.won:
                return parts
            continue
        if solve(after, lambda: time.monotonic() >= tries_end, TRY_POSITIONS).winnable:
            return parts
    return None


def _rounds(game: Game, state: Any, players: Mapping[int, Any], bots: list[int]) -> Iterator[dict[int, Any]]:
    """The bot seats' placements, combined, those that move Hermie first (as each seat's are
    listed by `moves`); made one at a time, never the whole product of 3–4 seats' at once."""
    listed = []
    for seat in bots:
        effects = game.placement_effects(state, seat)
        listed.append([game.parse_part(state, f"{seat}: {p['move']}")[seat] for p in effects])
    for combo in itertools.product(*listed):
        yield dict(zip(bots, combo))


def _after(game: Game, state: Any, parts: Mapping[int, Any]) -> Any:
    """The position after the round of `parts` (every seat's placement), or None where the
    round is not legal."""
    turn = game.begin_turn(state)
    try:
        for seat in sorted(parts):
            turn = game.act(turn, parts[seat])
    except RefereeError:
        return None
    return game.end_turn(turn)[1]
