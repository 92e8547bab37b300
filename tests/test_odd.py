"""Odd and Dustin (R-OD1…R-OD3, R-G2; SPEC §1, §2, §4, §5 "odd, dustin").

Most positions are on the hex-hex board of side 3 (19 cells). SPEC §2 names its cells so; drawn
with row 1 at the bottom, cells that touch in the drawing are neighbours:

        c5 d5 e5
      b4 c4 d4 e4
    a3 b3 c3 d3 e3
      a2 b2 c2 d2
        a1 b1 c1
"""

from __future__ import annotations

import pytest

from referee.errors import IllegalMoveError, NotationError, RecordError
from referee.games import GAMES
from referee.games.base import Pass
from referee.games.odd import Dustin, Odd
from referee.geometry import hexhex_grid
from referee.record.values import Record
from referee.record.reading import parse_record
from referee.play.replay import RESIGN, Ending, replay, start

ROWS_3 = [
    ["a1", "b1", "c1"],
    ["a2", "b2", "c2", "d2"],
    ["a3", "b3", "c3", "d3", "e3"],
    ["b4", "c4", "d4", "e4"],
    ["c5", "d5", "e5"],
]
CELLS_3 = [cell for row in ROWS_3 for cell in row]  # row by row; all 19 cells


def new(game="odd", **options):
    return start(Record(game, options))


def play_board(board: dict[str, str], game="odd", min_group=2, order=CELLS_3):
    """Fill a size-3 board, cell by cell in `order`, with the colours of `board` ("b"/"w")."""
    play = new(game, size=3, min_group=min_group)
    for cell in order:
        play.push(f"{board[cell]} {cell}")
    return play


# -- an independent group counter (SPEC §2 neighbours), used as an oracle for R-OD3 ----------


def _coords(name: str) -> tuple[int, int]:
    return ord(name[0]) - ord("a"), int(name[1:]) - 1


def count_groups(stones: dict[str, str], min_group: int) -> int:
    """Groups of either colour with at least `min_group` stones; `stones` maps cell → b/w."""
    at = {_coords(c): colour for c, colour in stones.items()}
    seen, count = set(), 0
    for start_cell, colour in at.items():
        if start_cell in seen:
            continue
        seen.add(start_cell)
        stack, size = [start_cell], 0
        while stack:
            q, r = stack.pop()
            size += 1
            for dq, dr in ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1)):
                nb = (q + dq, r + dr)
                if nb not in seen and at.get(nb) == colour:
                    seen.add(nb)
                    stack.append(nb)
        count += size >= min_group
    return count


# -- hand-built full boards on size 3 --------------------------------------------------------

# Board A: rows alternate colours, so every row is its own group.
#         b b b            row 5: black, 3
#        w w w w           row 4: white, 4
#       b b b b b          row 3: black, 5
#        w w w w           row 2: white, 4
#         b b b            row 1: black, 3
# Group sizes 3, 4, 5, 4, 3 (five groups).
BOARD_A = {cell: "b" if r % 2 == 0 else "w" for r, row in enumerate(ROWS_3) for cell in row}

# Board B: board A with c1 white. c1 touches b1, c2 and d2 only, so it joins the white row 2
# (4 + 1 = 5) and leaves {a1, b1} a black group of exactly 2.
#         b b b            row 5: black, 3
#        w w w w           row 4: white, 4
#       b b b b b          row 3: black, 5
#        w w w w           row 2 + c1: white, 5
#         b b w            {a1, b1}: black, 2
# Group sizes 2, 5, 5, 4, 3.
BOARD_B = {**BOARD_A, "c1": "w"}

# Board C: all black but a white pair {a1, b1} and two lone white stones e3 and c5.
#         w b b            c5 white alone (neighbours b4, c4, d5 black)
#        b b b b
#       b b b b w          e3 white alone (neighbours d2, d3, e4 black)
#        b b b b
#         w w b            {a1, b1} white, 2
# The 15 black stones form one group (c1 reaches c2, d5 reaches d4, e5 reaches e4).
# Group sizes 15, 2, 1, 1.
BOARD_C = {**{cell: "b" for cell in CELLS_3}, "a1": "w", "b1": "w", "e3": "w", "c5": "w"}


@pytest.mark.parametrize(
    "board, min_group, groups, winner",
    [
        (BOARD_A, 2, 5, 1),
        (BOARD_A, 3, 5, 1),  # the two 3-groups count: a group of exactly min_group counts
        (BOARD_A, 4, 3, 1),  # the 3-groups no longer count
        (BOARD_A, 5, 1, 1),
        (BOARD_A, 6, 0, 2),  # no group at all: zero is even
        (BOARD_B, 2, 5, 1),  # the black pair {a1, b1} counts at min_group 2 …
        (BOARD_B, 3, 4, 2),  # … but not at 3, while row 5 (exactly 3) still counts: even
        (BOARD_B, 5, 2, 2),
        (BOARD_C, 2, 2, 2),  # the 15 and the pair; lone stones never count: even
        (BOARD_C, 3, 1, 1),  # only the 15: odd
    ],
)
def test_full_board_parity_decides_the_winner_R_OD2(board, min_group, groups, winner):
    play = play_board(board, min_group=min_group)
    assert count_groups(board, min_group) == groups  # the oracle agrees with the hand count
    parity = "odd" if groups % 2 else "even"
    assert play.game.score(play.state) == {"groups": groups, "parity": parity}
    outcome = play.outcome()
    assert outcome is not None
    assert outcome.winners == (winner,)
    assert play.to_move() is None


def test_groups_of_both_colours_are_added_R_OD2():
    # Board B at min_group 5: one white group (row 2 + c1) and one black (row 3) of 5 stones.
    # Counting one colour only would give 1 (odd, seat 1); both colours give 2 (even, seat 2).
    play = play_board(BOARD_B, min_group=5)
    assert play.game.score(play.state)["groups"] == 2
    assert play.outcome().winners == (2,)


def test_game_ends_when_the_board_is_full_and_only_then_R_OD2():
    play = new(size=3, min_group=2)
    for ply, cell in enumerate(CELLS_3, 1):
        assert play.outcome() is None
        assert play.to_move() == (1 if ply % 2 else 2)  # turns alternate, seat 1 first
        play.push(f"{BOARD_A[cell]} {cell}")
    assert play.plies == 19
    assert play.outcome() is not None and play.to_move() is None
    assert play.game.legal_moves(play.state) == []


def test_last_empty_cell_keeps_the_game_going_R_OD2():
    # 18 of 19 cells filled (all but e5): the game goes on, seat 1 makes ply 19.
    play = new(size=3, min_group=2)
    for cell in CELLS_3[:-1]:
        play.push(f"{BOARD_A[cell]} {cell}")
    assert play.outcome() is None
    assert play.to_move() == 1
    assert sorted(str(m) for m in play.game.legal_moves(play.state)) == ["b e5", "w e5"]
    play.push("w e5")  # the last cell, in the "wrong" colour: row 5 is now {c5, d5} black
    # Board A but e5 white: e5 touches d5 (black), d4 and e4 (white), so it joins row 4 (5).
    # Groups: row 1 (3), row 2 (4), row 3 (5), row 4 + e5 (5), {c5, d5} (2).
    assert play.game.score(play.state) == {"groups": 5, "parity": "odd"}
    assert play.outcome().winners == (1,)


# -- notation (SPEC §5) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("b e5", "b e5"),
        ("w a1", "w a1"),
        ("B  E5", "b e5"),
        ("  W   i9 ", "w i9"),
        ("b\tE1", "b e1"),
    ],
)
def test_notation_is_case_and_space_tolerant_and_stored_canonically(text, canonical):
    play = new()  # default board: side 5, a1 … i9
    move = play.push(text)
    assert str(move) == canonical
    assert play.entries == [canonical]


@pytest.mark.parametrize(
    "text",
    ["e5", "b", "be5", "x e5", "black e5", "b e5 f5", "b-e5", "", "   ", "pass", "b 5e", "e5 b"],
)
def test_bad_notation_is_a_notation_error(text):
    play = new()
    with pytest.raises(NotationError):
        play.push(text)
    assert play.plies == 0 and play.to_move() == 1


@pytest.mark.parametrize(
    "size, text",
    [
        (5, "b a6"),  # |q − r| = 5 > 4: outside the hexagon
        (5, "w i4"),
        (5, "b j5"),  # no column j on side 5
        (5, "b e0"),
        (5, "b e10"),
        (3, "b e1"),  # side 3: row 1 is a1 … c1
        (3, "w a4"),
        (3, "b c6"),
    ],
)
def test_unknown_cell_is_a_notation_error_R_OD1(size, text):
    play = new(size=size, min_group=2)
    with pytest.raises(NotationError):
        play.push(text)
    assert play.plies == 0


def test_board_corners_and_centre_exist_SPEC_2():
    # Side 5: row 1 is a1 … e1, row 5 a5 … i5, row 9 e9 … i9; 61 cells.
    play = new()
    for text in ("b a1", "w e1", "b a5", "w i5", "b e9", "w i9", "b e5"):
        play.push(text)
    assert play.plies == 7
    assert len(play.game.legal_moves(play.state)) == 2 * (61 - 7)


# -- placing ---------------------------------------------------------------------------------


@pytest.mark.parametrize("second", ["b e5", "w e5", "W E5"])
def test_placement_on_an_occupied_cell_is_illegal_R_OD2(second):
    play = new()
    play.push("b e5")
    with pytest.raises(IllegalMoveError):
        play.push(second)
    # the refused move changes nothing
    assert play.plies == 1 and play.to_move() == 2
    assert play.entries == ["b e5"]


def test_either_seat_places_either_colour_R_OD2():
    # size 3, min_group 2. Seat 1 and seat 2 each play black, then each play white:
    #   ply 1 seat 1 b a1, ply 2 seat 2 b b1   -> black pair {a1, b1}          : 1 group
    #   ply 3 seat 1 w a3, ply 4 seat 2 w a2   -> white pair {a2, a3} (a2 touches a1 but
    #                                             that is black)                : 2 groups
    #   ply 5 seat 1 w c1 (touches b1 black, c2, d2 empty): a lone white        : 2 groups
    play = new(size=3, min_group=2)
    expected = [0, 1, 1, 2, 2]
    for ply, (text, groups) in enumerate(zip(["b a1", "b b1", "w a3", "w a2", "w c1"], expected), 1):
        assert play.to_move() == (1 if ply % 2 else 2)
        play.push(text)
        assert play.movers[-1] == (1 if ply % 2 else 2)
        assert play.game.score(play.state)["groups"] == groups
    picture = play.game.picture(play.state, None)
    named = {play.state.grid.name(c): k for c, k in picture.pieces.items()}
    assert named == {"a1": "b", "b1": "b", "a3": "w", "a2": "w", "c1": "w"}


def test_turns_alternate_from_seat_1_R_OD2():
    play = new()
    seats = []
    for text in ("b a1", "b b1", "w c1", "w d1", "b e1", "w a2"):
        seats.append(play.to_move())
        play.push(text)
    assert seats == [1, 2, 1, 2, 1, 2]
    assert play.movers == [1, 2, 1, 2, 1, 2]
    assert play.to_move() == 1


# -- the running count (R-OD3) ---------------------------------------------------------------


def test_score_gives_count_and_parity_after_every_ply_R_OD3():
    # size 3, min_group 2:
    #   b a1            a lone stone                              0 even
    #   b b1            {a1, b1}                                  1 odd
    #   b d2            d2 alone (touches c1, c2, d3, e3 only)    1 odd
    #   b d3            {d2, d3}                                  2 even
    #   b c2            c2 touches b1 and d2 (and d3): one group
    #                   {a1, b1, c2, d2, d3} of 5                 1 odd
    play = new(size=3, min_group=2)
    assert play.game.score(play.state) == {"groups": 0, "parity": "even"}
    steps = [("b a1", 0), ("b b1", 1), ("b d2", 1), ("b d3", 2), ("b c2", 1)]
    for text, groups in steps:
        play.push(text)
        parity = "odd" if groups % 2 else "even"
        assert play.game.score(play.state) == {"groups": groups, "parity": parity}
        # and the text under the diagram states them too
        said = " ".join(play.game.status_lines(play.state)).lower()
        other = "even" if groups % 2 else "odd"
        assert parity in said and other not in said


@pytest.mark.parametrize("board, min_group", [(BOARD_B, 2), (BOARD_B, 3), (BOARD_C, 2), (BOARD_C, 3)])
def test_score_after_every_ply_matches_an_independent_count_R_OD3(board, min_group):
    # Fill in a scattered order so that groups grow, split counts and merge along the way.
    order = CELLS_3[::2] + CELLS_3[1::2]
    play = new(size=3, min_group=min_group)
    placed: dict[str, str] = {}
    for cell in order:
        play.push(f"{board[cell]} {cell}")
        placed[cell] = board[cell]
        n = count_groups(placed, min_group)
        assert play.game.score(play.state) == {"groups": n, "parity": "odd" if n % 2 else "even"}


# -- legal moves -----------------------------------------------------------------------------


def test_legal_moves_are_both_colours_on_every_empty_cell():
    play = new()
    moves = [str(m) for m in play.game.legal_moves(play.state)]
    assert len(moves) == 2 * 61 == len(set(moves))
    assert "b e5" in moves and "w e5" in moves and "b a1" in moves and "w i9" in moves
    play.push("b e5")
    play.push("w a1")
    moves = {str(m) for m in play.game.legal_moves(play.state)}
    assert len(moves) == 2 * 59
    assert not {"b e5", "w e5", "b a1", "w a1"} & moves


def test_legal_moves_on_small_board_list_exactly_the_empty_cells():
    play = new(size=3, min_group=3)
    for text in ("b a1", "w c3", "b e5"):
        play.push(text)
    empty = [c for c in CELLS_3 if c not in ("a1", "c3", "e5")]
    moves = {str(m) for m in play.game.legal_moves(play.state)}
    assert moves == {f"{colour} {cell}" for colour in "bw" for cell in empty}


# -- options (R-OD1, SPEC §1) ----------------------------------------------------------------


@pytest.mark.parametrize("game_id", ["odd", "dustin"])
def test_option_defaults_R_OD1(game_id):
    assert GAMES[game_id].resolve_options({}) == {"size": 5, "min_group": 5}
    play = new(game_id)
    assert len(play.game.legal_moves(play.state)) == 2 * 61  # hex-hex side 5: 61 cells


@pytest.mark.parametrize("game_id", ["odd", "dustin"])
@pytest.mark.parametrize(
    "options",
    [
        {"size": 3},
        {"size": 12},
        {"min_group": 2},
        {"min_group": 12},
        {"size": 3, "min_group": 12},
    ],
)
def test_option_range_limits_are_accepted_R_OD1(game_id, options):
    resolved = GAMES[game_id].resolve_options(options)
    assert resolved == {"size": 5, "min_group": 5, **options}


@pytest.mark.parametrize("game_id", ["odd", "dustin"])
@pytest.mark.parametrize(
    "options",
    [
        {"size": 2},
        {"size": 13},
        {"size": 0},
        {"min_group": 1},
        {"min_group": 13},
        {"size": "5"},
        {"size": True},
        {"size": 5.0},
        {"colour": "red"},
    ],
)
def test_option_out_of_range_or_unknown_is_a_value_error_R_OD1(game_id, options):
    with pytest.raises(ValueError):
        GAMES[game_id].resolve_options(options)


def test_option_out_of_range_in_a_record_is_a_record_error_R_OD1():
    with pytest.raises(RecordError):
        start(Record("odd", {"size": 13}))
    with pytest.raises(RecordError):
        start(Record("odd", {"min_group": 1}))


def test_size_12_board_has_397_cells_R_OD1():
    play = new(size=12, min_group=12)
    # 3·12·11 + 1 = 397 cells; the far corner of side 12 is w23 (q = r = 22).
    assert len(play.game.legal_moves(play.state)) == 2 * 397
    assert str(play.push("W W23")) == "w w23"


# -- Dustin (R-OD1) --------------------------------------------------------------------------


def test_dustin_is_the_same_engine_under_its_own_id_and_name_R_OD1():
    odd, dustin = GAMES["odd"], GAMES["dustin"]
    assert (odd.id, odd.name) == ("odd", "Odd")
    assert (dustin.id, dustin.name) == ("dustin", "Dustin")
    assert isinstance(odd, Odd) and isinstance(dustin, Dustin) and isinstance(dustin, Odd)
    assert [o.name for o in dustin.options] == [o.name for o in odd.options] == ["size", "min_group"]


@pytest.mark.parametrize("board, min_group", [(BOARD_A, 3), (BOARD_B, 3), (BOARD_C, 2)])
def test_dustin_plays_and_scores_like_odd_R_OD1(board, min_group):
    a = play_board(board, "odd", min_group)
    b = play_board(board, "dustin", min_group)
    assert b.game.id == "dustin"
    assert b.outcome().winners == a.outcome().winners
    assert b.game.score(b.state) == a.game.score(a.state)
    assert b.entries == a.entries


# -- resignation and the end (R-G2) ----------------------------------------------------------


@pytest.mark.parametrize("game_id", ["odd", "dustin"])
@pytest.mark.parametrize("before, resigner, winner", [([], 1, 2), (["b e5"], 2, 1), (["b e5", "w a1"], 1, 2)])
def test_resign_by_the_side_to_move_gives_the_other_seat_the_win_R_G2(game_id, before, resigner, winner):
    play = new(game_id)
    for text in before:
        play.push(text)
    assert play.to_move() == resigner
    play.push("Resign")
    assert str(play.last_move()) == "resign"
    assert play.movers[-1] == resigner
    outcome = play.outcome()
    assert outcome is not None and outcome.winners == (winner,)
    assert play.to_move() is None
    with pytest.raises(IllegalMoveError):
        play.push("b a1")


@pytest.mark.parametrize("after", ["b a1", "w i9", "resign", "pass"])
def test_nothing_may_follow_a_resignation_R_G2(after):
    play = new()
    play.push("resign")
    with pytest.raises((IllegalMoveError, NotationError)):
        play.push(after)
    assert play.plies == 1 and play.outcome().winners == (2,)


@pytest.mark.parametrize("after", ["b a1", "w e5", "resign"])
def test_nothing_may_follow_the_full_board_R_OD2(after):
    play = play_board(BOARD_A, min_group=3)
    assert play.outcome().winners == (1,)
    with pytest.raises(IllegalMoveError):
        play.push(after)
    assert play.plies == 19 and play.outcome().winners == (1,)


def _toml(moves: list[str], result: list[int] | None = None, game="odd", min_group=3) -> bytes:
    text = f'format = 1\ngame = "{game}"\nmoves = [{", ".join(repr(m).replace(chr(39), chr(34)) for m in moves)}]\n'
    text += f"[options]\nsize = 3\nmin_group = {min_group}\n"
    if result is not None:
        text += f"[result]\nwinners = {result}\n"
    return text.encode()


def test_record_of_a_full_board_replays_with_its_result_R_OD2():
    moves = [f"{BOARD_B[c].upper()}  {c.upper()}" for c in CELLS_3]  # sloppy spelling on purpose
    play = replay(parse_record(_toml(moves, [2])))  # board B, min_group 3: 4 groups, even
    assert play.outcome().winners == (2,)
    assert play.entries == [f"{BOARD_B[c]} {c}" for c in CELLS_3]
    with pytest.raises(RecordError):
        replay(parse_record(_toml(moves, [1])))


def test_record_with_a_move_after_the_full_board_is_refused_R_OD2():
    moves = [f"{BOARD_A[c]} {c}" for c in CELLS_3] + ["resign"]
    with pytest.raises(IllegalMoveError) as info:
        replay(parse_record(_toml(moves)))
    assert info.value.ply == 20


def test_record_with_a_move_after_resignation_is_refused_R_G2():
    with pytest.raises(IllegalMoveError) as info:
        replay(parse_record(_toml(["b a1", "resign", "w b1"])))
    assert info.value.ply == 3
    play = replay(parse_record(_toml(["b a1", "resign"], [1])))
    assert play.outcome().winners == (1,)


def test_moves_are_values_however_they_were_typed():
    """One move typed two ways is one move: equal, one hash, one canonical text (conditional
    replies and listings compare moves); a different colour, cell or kind of move is not."""
    odd, state = GAMES["odd"], new().state
    move = odd.parse(state, "b e5")
    assert move == odd.parse(state, "  B   E5 ") and hash(move) == hash(odd.parse(state, "B E5"))
    assert str(move) == "b e5" and "e5" in repr(move)
    assert move != odd.parse(state, "w e5") and move != odd.parse(state, "b e4")
    resign = lambda seat: Ending(RESIGN, seat)  # noqa: E731
    assert len({move, odd.parse(state, "B E5"), Pass(), Pass(), resign(1), resign(1), resign(2)}) == 4
    assert Pass() != resign(1) and move != "b e5"


def test_odd_and_dustin_share_one_board_per_size_R_OD1():
    """The board graph is built once per size and shared by games, positions and drawings."""
    a, b = new("odd", size=4).state, new("dustin", size=4).state
    assert a.grid is b.grid is hexhex_grid(4)
    assert GAMES["odd"].blank_picture({"size": 4, "min_group": 5}, {}).grid is a.grid
