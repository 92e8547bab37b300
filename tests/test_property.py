"""Any text offered as a move, to any game, is played or refused with a referee error that
leaves the game as it was. (Whole random games of every game, and their records read back,
are in test_every_game.py.)"""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.errors import RefereeError
from referee.games import GAMES
from referee.record.values import Record
from referee.play.replay import start

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(st.sampled_from(sorted(GAMES)), st.text(max_size=30), st.integers(0, 10**6))
def test_any_move_text_is_played_or_refused_with_a_referee_error(game_id, text, seed):
    play = start(Record(game_id))
    rng = random.Random(seed)
    for _ in range(rng.randrange(5)):
        play.push(str(rng.choice(play.game.legal_moves(play.state))))
    plies = play.plies
    try:
        play.push(text)
    except RefereeError as exc:
        assert str(exc)
        # A refused move leaves the game as it was.
        assert play.plies == plies and len(play.line) == plies + 1 and play.ended is None
