"""Hermit (R-HE1…R-HE5, R-G2, R-G3; SPEC §1, §2, §4 "Turns and passes", §5 "hermit").

Diagrams: X is seat 1, O is seat 2, `.` empty. Square boards have a1 at the bottom left and
orthogonal neighbours. The hex-hex board of side 3 (19 cells, centre c3) is drawn as SPEC §2
lays it out, row 1 at the bottom; cells that touch in the drawing are neighbours:

        c5 d5 e5
      b4 c4 d4 e4
    a3 b3 c3 d3 e3
      a2 b2 c2 d2
        a1 b1 c1
"""

from __future__ import annotations

from pathlib import Path

import pytest

from referee.errors import IllegalMoveError, NotationError, RecordError
from referee.games import GAMES
from referee.geometry import hexhex_grid, square_grid
from referee.record.values import Record
from referee.record.reading import parse_record
from referee.play.replay import replay, start

HERMIT = GAMES["hermit"]


def new(**options):
    return start(Record("hermit", options))


def referee_play(moves, **options):
    """Play placements as the referee does: after each one, write the forced passes (R-G3)."""
    play = new(**options)
    for text in moves:
        play.push(text)
        play.push_forced_passes()
    return play


def hand_play(entries, **options):
    """Push the entries exactly as written, with no automatic passes."""
    play = new(**options)
    for text in entries:
        play.push(text)
    return play


def legal_names(play):
    return {str(m) for m in play.game.legal_moves(play.state)}


def pieces(play):
    """The stones on the board by cell name: 'b' for seat 1, 'w' for seat 2."""
    picture = play.game.picture(play.state, None)
    return {picture.grid.name(c): k for c, k in picture.pieces.items()}


def counts(groups, hermits, threes, fives):
    return {"groups": groups, "hermits": hermits, "threes": threes, "fives": fives}


# -- options and boards (R-HE1, SPEC §1) -----------------------------------------------------


def test_option_defaults_R_HE1():
    assert HERMIT.resolve_options({}) == {"board": "square", "size": 7, "stones": 30}
    assert HERMIT.resolve_options({"board": "hex"}) == {"board": "hex", "size": 5, "stones": 30}
    assert HERMIT.resolve_options({"board": "square"})["size"] == 7


@pytest.mark.parametrize(
    "options",
    [
        {"board": "square", "size": 5},
        {"board": "square", "size": 9},
        {"size": 5},
        {"board": "hex", "size": 3},
        {"board": "hex", "size": 7},
        {"stones": 1},
        {"stones": 200},
    ],
)
def test_options_in_range_are_accepted_R_HE1(options):
    resolved = HERMIT.resolve_options(options)
    for key, value in options.items():
        assert resolved[key] == value


@pytest.mark.parametrize(
    "options",
    [
        {"board": "square", "size": 4},
        {"board": "square", "size": 10},
        {"size": 3},  # square is the default board: 3 is a hex size only
        {"board": "hex", "size": 2},
        {"board": "hex", "size": 8},
        {"board": "hex", "size": 9},  # a square size, not a hex one
        {"stones": 0},
        {"stones": 201},
        {"stones": -1},
        {"board": "triangle"},
        {"size": "7"},
        {"stones": True},
        {"colour": "red"},
    ],
)
def test_options_out_of_range_are_a_value_error_R_HE1(options):
    with pytest.raises(ValueError):
        HERMIT.resolve_options(options)


def test_option_out_of_range_in_a_record_is_a_record_error_R_HE1():
    with pytest.raises(RecordError):
        new(board="hex", size=8)


@pytest.mark.parametrize(
    "options, cells",
    [
        ({}, 49),
        ({"size": 5}, 25),
        ({"size": 9}, 81),
        ({"board": "hex"}, 61),
        ({"board": "hex", "size": 3}, 19),
        ({"board": "hex", "size": 7}, 127),
    ],
)
def test_board_sizes_first_stone_anywhere_but_the_centre_R_HE1_R_HE2(options, cells):
    play = new(**options)
    assert len(legal_names(play)) == cells - 1


def test_square_board_names_a1_to_g7_SPEC_2():
    play = new()
    play.push("a1")
    play.push("G7")
    assert play.entries == ["a1", "g7"]
    for bad in ("h1", "a8", "a0"):
        with pytest.raises(NotationError):
            play.push(bad)


@pytest.mark.parametrize("text, canonical", [("C5", "c5"), ("  a1 ", "a1"), ("\tG7", "g7"), ("I9", "i9")])
def test_notation_is_a_cell_case_and_space_tolerant_SPEC_5(text, canonical):
    play = new(size=9)
    assert str(play.push(text)) == canonical
    assert play.entries == [canonical]


@pytest.mark.parametrize("text", ["b e5", "e", "55", "e5 f5", "x9", "", "e5-f5", "j1", "pas"])
def test_bad_notation_is_a_notation_error_SPEC_5(text):
    play = new(size=9)
    with pytest.raises(NotationError):
        play.push(text)
    assert play.plies == 0


def test_hex_cells_outside_the_hexagon_are_notation_errors_SPEC_2():
    play = new(board="hex", size=3)
    for bad in ("a4", "e1", "d1", "a5", "f3"):
        with pytest.raises(NotationError):
            play.push(bad)
    play.push("e5")  # a corner that does exist
    assert play.plies == 1


# -- the first stone (R-HE2) -----------------------------------------------------------------


@pytest.mark.parametrize(
    "options, centre",
    [
        ({}, "d4"),
        ({"size": 5}, "c3"),
        ({"size": 9}, "e5"),
        ({"board": "hex"}, "e5"),
        ({"board": "hex", "size": 3}, "c3"),
        ({"board": "hex", "size": 7}, "g7"),
    ],
)
def test_first_stone_not_on_centre_R_HE2(options, centre):
    play = new(**options)
    assert centre not in legal_names(play)
    with pytest.raises(IllegalMoveError) as info:
        play.push(centre)
    assert "R-HE2" in str(info.value)
    assert play.plies == 0 and play.to_move() == 1


@pytest.mark.parametrize("size, middle", [(6, ["c3", "c4", "d3", "d4"]), (8, ["d4", "d5", "e4", "e5"])])
def test_even_square_board_has_no_centre_restriction_R_HE2(size, middle):
    play = new(size=size)
    assert len(legal_names(play)) == size * size
    assert set(middle) <= legal_names(play)
    for cell in middle:
        fresh = new(size=size)
        fresh.push(cell)
        assert fresh.plies == 1


@pytest.mark.parametrize(
    "options, centre",
    [({}, "d4"), ({"board": "hex"}, "e5"), ({"board": "hex", "size": 3}, "c3")],
)
def test_later_stones_may_use_the_centre_R_HE2(options, centre):
    # Seat 2's first stone is not the first stone of the game.
    play = new(**options)
    play.push("a1")
    assert centre in legal_names(play)
    play.push(centre)
    assert pieces(play) == {"a1": "b", centre: "w"}
    # And seat 1 may take the centre with its second stone.
    play = new(**options)
    play.push("a1")
    play.push("a2" if options.get("board") != "hex" else "c1")
    play.push(centre)
    assert pieces(play)[centre] == "b"


# -- group sizes (R-HE3) ---------------------------------------------------------------------


def refuse(play, cell):
    """`cell` is refused for R-HE3, is not among the legal moves, and nothing changes."""
    before = (play.plies, play.to_move(), pieces(play))
    assert cell not in legal_names(play)
    with pytest.raises(IllegalMoveError) as info:
        play.push(cell)
    assert "R-HE3" in str(info.value)
    assert (play.plies, play.to_move(), pieces(play)) == before


def test_group_sizes_1_3_5_only_R_HE3():
    # 7×7. Seat 2 drops lone stones on the right and top (never touching each other); seat 1
    # builds on the left. Final position (b5, a6 and d2-before-d3 were refused on the way):
    #
    #   7  O . O . O . O
    #   6  . . . . . . .
    #   5  X . X . O . O
    #   4  X . . . . . .
    #   3  X . . X O . O
    #   2  X . X X X . .
    #   1  X . . X O . O
    #      a b c d e f g
    play = new()
    play.push("a1")
    play.push("g1")
    refuse(play, "a2")  # touches the hermit a1: a group of 2
    play.push("a3")
    play.push("g3")
    assert "a2" in legal_names(play)
    play.push("a2")  # joins two hermits a1 + a3: 3
    assert play.game.score(play.state)["1"] == counts(1, 0, 1, 0)
    play.push("g5")
    refuse(play, "a4")  # touches the three: 4
    play.push("a5")
    play.push("g7")
    play.push("a4")  # joins the three and the hermit a5: 5
    assert play.game.score(play.state)["1"] == counts(1, 0, 0, 1)
    play.push("e1")
    refuse(play, "a6")  # touches the five: 6
    play.push("c5")
    play.push("e3")
    refuse(play, "b5")  # joins the five (a5) and the hermit c5: 7
    play.push("c2")
    play.push("e5")
    play.push("e2")  # between seat 2's e1 and e3: opposing stones may touch
    play.push("e7")
    play.push("d1")  # touches seat 2's e1 only
    play.push("c7")
    refuse(play, "d2")  # joins three hermits c2, e2, d1: 4
    play.push("d3")
    play.push("a7")
    play.push("d2")  # joins four hermits c2, e2, d1, d3: 5
    assert play.plies == 21
    assert play.game.score(play.state) == {"1": counts(3, 1, 0, 2), "2": counts(10, 10, 0, 0)}


def test_joining_two_threes_makes_seven_and_is_refused_R_HE3():
    # 7×7, seat 1 builds {a1, a2, a3} and {c1, c2, c3}; b2 would join them: 3 + 3 + 1 = 7.
    # Seat 2 plays lone stones on row 7.
    play = new()
    for x, o in [("a1", "a7"), ("a3", "c7"), ("a2", "e7"), ("c1", "g7"), ("c3", "g5"), ("c2", "g3")]:
        play.push(x)
        play.push(o)
    assert play.game.score(play.state)["1"] == counts(2, 0, 2, 0)
    refuse(play, "b2")
    refuse(play, "b1")  # touches a1 and c1, both in threes: 7
    play.push("e1")
    assert play.outcome() is None


def test_hex_adjacency_has_six_neighbours_R_HE1_R_HE3():
    # On the hex board a1 (q0 r0) and b2 (q1 r1) are neighbours, on the square board they are not.
    hexp = new(board="hex")
    hexp.push("a1")
    hexp.push("i9")
    refuse(hexp, "b2")  # a group of 2
    hexp.push("c1")  # c1 touches b1, d1, c2, d2: a hermit
    hexp.push("e9")
    hexp.push("b1")  # joins a1 and c1: 3
    assert hexp.game.score(hexp.state)["1"] == counts(1, 0, 1, 0)

    square = new()
    square.push("a1")
    square.push("g7")
    square.push("b2")  # diagonal on a square board: two hermits
    assert square.game.score(square.state)["1"] == counts(2, 2, 0, 0)


def test_opposing_stones_may_touch_and_stay_apart_R_HE3():
    # 5×5, a checkerboard block:   2  O X
    #                              1  X O
    #                                 a b
    play = new(size=5)
    for cell in ("a1", "a2", "b2", "b1"):
        play.push(cell)
    assert pieces(play) == {"a1": "b", "a2": "w", "b2": "b", "b1": "w"}
    assert play.game.score(play.state) == {"1": counts(2, 2, 0, 0), "2": counts(2, 2, 0, 0)}


# -- passes, stones in hand, the end (R-HE1, R-HE4, R-G3) ------------------------------------


@pytest.mark.parametrize("text", ["pass", "PASS", " Pass "])
def test_pass_is_refused_while_the_seat_can_place_R_HE4(text):
    play = new()
    with pytest.raises(IllegalMoveError):
        play.push(text)
    play.push("a1")
    with pytest.raises(IllegalMoveError):
        play.push(text)
    assert play.plies == 1 and play.to_move() == 2


def test_seat_without_stones_cannot_place_R_HE1():
    # 5×5, 2 stones each: after seat 1's second stone it has none left, seat 2 places its last,
    # and then nobody can place although the board is nearly empty (c3 would be a hermit).
    play = new(size=5, stones=2)
    for cell in ("a1", "e5", "c1"):
        play.push(cell)
    assert play.to_move() == 2 and play.outcome() is None
    play.push("e3")
    assert play.outcome() is not None and play.to_move() is None
    assert play.game.legal_moves(play.state) == []
    with pytest.raises(IllegalMoveError):
        play.push("c3")


def test_one_stone_each_R_HE1():
    play = new(stones=1)
    play.push("a1")
    assert play.to_move() == 2
    play.push("g7")
    assert play.outcome() is not None


# Game T (hex side 3, 6 stones each). After ply 9 (b1) seat 2 cannot place with 2 stones in
# hand, so seat 1 places again (d4) and then has no stones left: the game is over.
#
#   after b1:               at the end:
#       .  O  .                 .  O  .
#     X  X  .  X              X  X  X  X
#    X  .  .  .  .           X  .  .  .  .
#     .  O  O  O              .  O  O  O
#       .  X  .                 .  X  .
#
# Why seat 2 is stuck after b1: its groups are the three {b2, c2, d2} and the hermit d5.
# c5, d4, e5 touch d5 only (a group of 2); a1, a2, b3, c1, c3, d3, e3 touch the three only
# (a group of 4). Seat 1 then has {a3, b4, c4} (a3–b4 and b4–c4 touch), e4 and b1; d4 joins
# c4's three and the hermit e4: 5.
GAME_T = ["c4", "b2", "a3", "d2", "b4", "d5", "e4", "c2", "b1", "d4"]
GAME_T_REFEREE = GAME_T[:9] + ["pass", "d4"]

# Game H (hex side 3, 6 stones each). After ply 8 (d5) seat 1 is stuck with 2 stones in hand:
# each of its 4 hermits e5, d2, a2, c5 is alone, and every empty cell touches exactly one of
# them (a group of 2). Seat 2 places twice more (e4, then b2 joining b1 and c3) and is out.
#
#   after d5:               at the end:
#       X  O  X                 X  O  X
#     O  .  .  .              O  .  .  O
#    .  .  O  .  .           .  .  O  .  .
#     X  .  .  X              X  O  .  X
#       .  O  .                 .  O  .
GAME_H = ["e5", "b1", "d2", "b4", "a2", "c3", "c5", "d5", "e4", "b2"]
GAME_H_REFEREE = GAME_H[:8] + ["pass", "e4", "pass", "b2"]

HEX3 = {"board": "hex", "size": 3, "stones": 6}


@pytest.mark.parametrize(
    "moves, written, passes_after",
    [(GAME_T, GAME_T_REFEREE, {9}), (GAME_H, GAME_H_REFEREE, {8, 9})],
)
def test_referee_appends_explicit_passes_R_G3(moves, written, passes_after):
    play = new(**HEX3)
    for number, text in enumerate(moves, 1):
        play.push(text)
        passes = play.push_forced_passes()
        assert [str(p) for p in passes] == (["pass"] if number in passes_after else [])
    assert play.entries == written
    assert play.outcome() is not None
    assert play.push_forced_passes() == []  # no pass after the end


def test_pass_is_made_by_the_seat_that_cannot_place_R_G3():
    play = referee_play(GAME_T, **HEX3)
    assert play.movers == [1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1]  # ply 10, the pass, is seat 2's
    play = referee_play(GAME_H, **HEX3)
    assert play.movers == [1, 2, 1, 2, 1, 2, 1, 2, 1, 2, 1, 2]  # plies 9 and 11 are seat 1's


def test_to_move_is_always_a_seat_that_can_act_SPEC_4():
    # Game T: after b1 (ply 9) seat 2 cannot place, so seat 1 is to move, before and after
    # the written pass. Game H: from ply 8 on seat 1 cannot place, so seat 2 is to move.
    expected = {
        "T": [1, 2, 1, 2, 1, 2, 1, 2, 1, 1, 1, None],
        "H": [1, 2, 1, 2, 1, 2, 1, 2, 2, 2, 2, 2, None],
    }
    for key, written in (("T", GAME_T_REFEREE), ("H", GAME_H_REFEREE)):
        play = new(**HEX3)
        seen = [play.to_move()]
        for text in written:
            play.push(text)
            seen.append(play.to_move())
            if seen[-1] is not None:
                assert play.game.legal_moves(play.state)  # the seat to move has a placement
        assert seen == expected[key]


def test_implied_and_explicit_passes_replay_to_the_same_game_R_G3():
    for moves, written, winner in ((GAME_T, GAME_T_REFEREE, 2), (GAME_H, GAME_H_REFEREE, 1)):
        explicit = hand_play(written, **HEX3)
        implied = hand_play(moves, **HEX3)
        assert explicit.plies == len(written) and implied.plies == len(moves)
        assert pieces(explicit) == pieces(implied)
        assert explicit.game.score(explicit.state) == implied.game.score(implied.state)
        assert explicit.outcome() == implied.outcome()
        assert explicit.outcome().winners == (winner,)
        # In the implied record the placement after the silent pass is the other seat's.
        if moves is GAME_T:
            assert implied.movers[-1] == 1 and pieces(implied)["d4"] == "b"
        else:
            assert implied.movers[-2:] == [2, 2] and pieces(implied)["e4"] == "w"
            assert pieces(implied)["b2"] == "w"


def test_mixed_explicit_and_implied_passes_R_G3():
    # Game H with the first pass written and the second left implied.
    play = hand_play(GAME_H[:8] + ["pass", "e4", "b2"], **HEX3)
    assert play.outcome().winners == (1,)
    assert pieces(play) == pieces(hand_play(GAME_H, **HEX3))


def _record(moves, winners=None) -> bytes:
    listed = ", ".join(f'"{m}"' for m in moves)
    text = f'format = 1\ngame = "hermit"\nmoves = [{listed}]\n'
    text += '[options]\nboard = "hex"\nsize = 3\nstones = 6\n'
    if winners is not None:
        text += f"[result]\nwinners = {winners}\n"
    return text.encode()


def test_hand_written_records_with_and_without_passes_R_G3():
    for moves in (GAME_H, GAME_H_REFEREE):
        play = replay(parse_record(_record(moves, [1])))
        assert play.outcome().winners == (1,)
        assert play.game.score(play.state) == {"1": counts(4, 4, 0, 0), "2": counts(4, 3, 1, 0)}
        with pytest.raises(RecordError):
            replay(parse_record(_record(moves, [2])))


def test_pass_where_the_seat_can_place_is_refused_in_a_record_R_G3():
    # Game T: at ply 9 seat 1 can still place (b1), so a pass there is wrong.
    with pytest.raises(IllegalMoveError) as info:
        replay(parse_record(_record(GAME_T[:8] + ["pass"])))
    assert info.value.ply == 9
    # Game H: after seat 1's written pass, seat 2 can place, so a second pass is wrong.
    with pytest.raises(IllegalMoveError) as info:
        replay(parse_record(_record(GAME_H[:8] + ["pass", "pass"])))
    assert info.value.ply == 10


def test_game_ends_only_when_neither_seat_can_place_R_HE4():
    play = new(**HEX3)
    for text in GAME_H[:8]:
        play.push(text)
    # Seat 1 is stuck but seat 2 can place: not over.
    assert play.game.legal_moves(play.state)
    assert play.outcome() is None and play.to_move() == 2
    play.push("e4")
    assert play.outcome() is None and play.to_move() == 2
    play.push("b2")
    # Seat 1 stuck, seat 2 out of stones: over, although seat 1 still holds 2 stones.
    assert play.outcome() is not None and play.to_move() is None
    for after in ("a1", "pass"):
        with pytest.raises(IllegalMoveError):
            play.push(after)


# -- the winner (R-HE5) ----------------------------------------------------------------------


def test_most_groups_wins_R_HE5():
    # 5×5, 3 stones each. Seat 1: three hermits a1, c1, e1 (3 groups). Seat 2: a5 and c5, then
    # b5 joins them into one three (1 group). Seat 2 has more threes and placed the last stone,
    # but seat 1 has more groups.
    #   5  O O O . .
    #   1  X . X . X
    play = hand_play(["a1", "a5", "c1", "c5", "e1", "b5"], size=5, stones=3)
    assert play.game.score(play.state) == {"1": counts(3, 3, 0, 0), "2": counts(1, 0, 1, 0)}
    assert play.outcome().winners == (1,)


def test_most_groups_wins_over_more_hermits_R_HE5():
    # Hex side 3, 9 stones each. After ply 8 seat 1 is stuck (5 stones in hand) and seat 2
    # places its 5 remaining stones.
    #
    #       X  .  O          seat 1: {b2, c2, d3} (c2 touches b2 and d3): a three; c5 a hermit
    #     .  .  .  O         seat 2: {a1, b1, c1}, {a3, b3, c3}, {e3, e4, e5}: three threes
    #    O  O  O  X  O
    #     .  X  X  .         Seat 1: 2 groups, 1 hermit. Seat 2: 3 groups, 0 hermits.
    #       O  O  O          Seat 2 wins on groups although seat 1 has more hermits.
    #
    # Seat 1 stuck after a1: b1, c1, a2, d2, b3, c3, d4, e4 touch its three only (4); b4, c4,
    # d5 touch c5 only (2).
    moves = ["d3", "e5", "c5", "a3", "b2", "e3", "c2", "a1", "c3", "c1", "e4", "b1", "b3"]
    play = referee_play(moves, board="hex", size=3, stones=9)
    assert play.entries == moves[:8] + ["pass"] + moves[8:9] + ["pass"] + moves[9:10] \
        + ["pass"] + moves[10:11] + ["pass"] + moves[11:12] + ["pass"] + moves[12:]
    assert play.game.score(play.state) == {"1": counts(2, 1, 1, 0), "2": counts(3, 0, 3, 0)}
    assert play.outcome().winners == (2,)


def test_equal_groups_most_hermits_wins_R_HE5():
    # Game H: 4 groups each. Seat 1: 4 hermits. Seat 2: {b1, b2, c3} a three (b2 touches b1
    # and c3), and hermits b4, d5, e4. Seat 2 has more threes and placed the last stone, but
    # seat 1 has more hermits (4 to 3).
    play = hand_play(GAME_H, **HEX3)
    assert play.game.score(play.state) == {"1": counts(4, 4, 0, 0), "2": counts(4, 3, 1, 0)}
    assert play.outcome().winners == (1,)


def test_equal_groups_and_hermits_most_threes_wins_R_HE5():
    # Game T: seat 1 has the five {a3, b4, c4, d4, e4} and the hermit b1; seat 2 the three
    # {b2, c2, d2} and the hermit d5. 2 groups and 1 hermit each; seat 2 has 1 three to 0 and
    # wins, although seat 1 placed the last stone (d4).
    play = hand_play(GAME_T, **HEX3)
    assert play.game.score(play.state) == {"1": counts(2, 1, 0, 1), "2": counts(2, 1, 1, 0)}
    assert play.movers[-1] == 1
    assert play.outcome().winners == (2,)


def test_all_equal_the_last_stone_wins_R_HE5():
    # 5×5, 2 stones each: two hermits each, seat 2 placed the last stone (e3).
    #   5  . . . . O
    #   3  . . . . O
    #   1  X . X . .
    play = hand_play(["a1", "e5", "c1", "e3"], size=5, stones=2)
    assert play.game.score(play.state) == {"1": counts(2, 2, 0, 0), "2": counts(2, 2, 0, 0)}
    assert play.outcome().winners == (2,)


def test_all_equal_on_hex_the_last_stone_wins_R_HE5():
    # Hex side 3, 2 stones each: e3 and (later, allowed) the centre c3 for seat 1, c5 and d2 for
    # seat 2; nobody touches a friend. Seat 2 placed last.
    play = hand_play(["e3", "c5", "c3", "d2"], board="hex", size=3, stones=2)
    assert play.game.score(play.state) == {"1": counts(2, 2, 0, 0), "2": counts(2, 2, 0, 0)}
    assert play.outcome().winners == (2,)


def test_score_before_any_stone_R_HE5():
    play = new()
    assert play.game.score(play.state) == {"1": counts(0, 0, 0, 0), "2": counts(0, 0, 0, 0)}


# -- resignation (R-G2) ----------------------------------------------------------------------


def test_resign_by_the_side_to_move_R_G2():
    play = new()
    play.push("resign")
    assert play.outcome().winners == (2,) and play.to_move() is None
    with pytest.raises(IllegalMoveError):
        play.push("a1")

    play = new()
    play.push("a1")
    play.push("Resign")
    assert play.movers[-1] == 2 and play.outcome().winners == (1,)


def test_resign_when_the_other_seat_is_stuck_R_G2():
    # Game T after b1: seat 2 cannot place, seat 1 is to move; a resignation now is seat 1's.
    play = hand_play(GAME_T[:9], **HEX3)
    assert play.to_move() == 1
    play.push("resign")
    assert play.movers[-1] == 1
    assert play.outcome().winners == (2,)


@pytest.mark.parametrize("options, board", [
    ({"board": "square", "size": 7}, lambda: square_grid(7)),
    ({"board": "hex", "size": 5}, lambda: hexhex_grid(5)),
])
def test_games_share_one_board_per_kind_and_size_R_HE1(options, board):
    assert new(**options).state.grid is new(**options).state.grid is board()


@pytest.mark.parametrize("folder", ["hermit-square", "hermit-hex"])
def test_group_counts_agree_with_a_recount_of_the_board_R_HE5(folder):
    samples = Path(__file__).resolve().parent.parent / "sample_games" / folder
    for path in sorted(samples.glob("*.toml")):
        for state in (ply.position for ply in replay(parse_record(path.read_bytes(), str(path))).line):
            groups = state.grid.components(state.stones)
            for seat in (1, 2):
                sizes = [len(cells) for owner, cells in groups if owner == seat]
                assert state.group_counts(seat) == {
                    "groups": len(sizes),
                    "hermits": sizes.count(1),
                    "threes": sizes.count(3),
                    "fives": sizes.count(5),
                }
                for cell in state.grid:
                    if state.stones[cell] == 0:
                        joined = {
                            i for i, (owner, cells) in enumerate(groups) if owner == seat
                            and any(nb in cells for nb in state.grid.neighbours[cell])
                        }
                        assert state.size_after(seat, cell) == 1 + sum(len(groups[i][1]) for i in joined)


@pytest.mark.parametrize("options", [{"board": "square", "size": 7, "stones": 12},
                                     {"board": "hex", "size": 4, "stones": 8}])
def test_the_quick_drop_check_agrees_with_the_worded_one_R_HE1_R_HE3(options):
    """`broken_rule` (the search's quick check) and `why_not` (the reason a player reads) judge
    every cell alike, every refusal has its words, and `can_place` and the listing agree with
    them, in every position of random games played to the end."""
    import random

    game = HERMIT
    for seed in range(8):
        rng, state = random.Random(seed), new(**options).state
        while True:
            for seat in (1, 2):
                verdicts = [state.why_not(seat, cell) is None for cell in state.grid]
                assert [state.broken_rule(seat, cell) is None for cell in state.grid] == verdicts
                assert state.legal_cells(seat) == [cell for cell in state.grid if verdicts[cell]]
                assert state.can_place[seat] == any(verdicts)
            if game.to_move(state) is None:
                break
            state = game.apply(state, game.random_move(state, rng))
