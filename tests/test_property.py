"""Properties over random legal games of every game: nothing crashes, `to_move` can always
act, and a record written by the referee reads back as the same game."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.errors import RefereeError
from referee.games import GAMES
from referee.record import Entry, Record, parse_record
from referee.render.diagram import svg_diagram, text_diagram
from referee.replay import replay, start

GAME_OPTIONS = st.one_of(
    st.builds(lambda g, s, m: (g, {"size": s, "min_group": m}),
              st.sampled_from(["odd", "dustin"]), st.integers(3, 7), st.integers(2, 6)),
    st.builds(lambda s, n: ("hermit", {"board": "square", "size": s, "stones": n}),
              st.integers(5, 9), st.integers(1, 40)),
    st.builds(lambda s, n: ("hermit", {"board": "hex", "size": s, "stones": n}),
              st.integers(3, 6), st.integers(1, 40)),
)
SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def random_game(game_id, options, seed, resign_at=None):
    rng = random.Random(seed)
    play = start(Record(game_id, options))
    while play.outcome() is None:
        seat = play.to_move()
        moves = play.game.legal_moves(play.state)
        # SPEC §4: to_move is always a seat that can act.
        assert seat is not None and moves
        if play.plies == resign_at:
            play.push("resign")
            break
        play.push(str(rng.choice(moves)))
        play.push_forced_passes()
    return play


@SETTINGS
@given(GAME_OPTIONS, st.integers(0, 10**6), st.one_of(st.none(), st.integers(0, 30)))
def test_random_legal_games_end_and_round_trip_through_the_record(game_options, seed, resign_at):
    game_id, options = game_options
    play = random_game(game_id, options, seed, resign_at)
    outcome = play.outcome()
    assert outcome is not None and play.to_move() is None
    assert text_diagram(play) and svg_diagram(play)

    record = Record(game_id, options, {1: {"name": "Ann"}, 2: {"name": "Bo"}},
                    moves=[Entry(str(m)) for m in play.played],
                    result={"winners": list(outcome.winners), "reason": outcome.reason})
    again = replay(parse_record(record.to_toml().encode()))
    assert again.entries == play.entries
    assert again.outcome() == outcome
    assert again.game.score(again.state) == play.game.score(play.state)


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
        assert play.plies == plies and len(play.states) == plies + 1 and play.ended is None
