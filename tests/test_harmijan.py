"""Harmijan (R-HJ1…R-HJ8, R-G3; SPEC §1, §2, §4, §5 "harmijan").

Positions are given as the cells of each colour; a turn is checked by the game's own hooks
(`parse`, then `apply`), the way the replay does, on the hex-hex board of side 7 (SPEC §2):
rows 1…13, row 1 is a1…g1, row 7 is a7…m7, column c runs c1…c9. Neighbours of (q, r): (q±1, r), (q, r±1),
(q+1, r+1), (q−1, r−1); e.g. c4's neighbours are b4 d4 c3 c5 b3 d5. The six straight lines
through a cell keep the letter, keep the number, or step both up (or down) together.
"""

from __future__ import annotations

import gc
import json
import random
import statistics
import sys
import time
from collections import Counter
from itertools import product
from pathlib import Path

import pytest

from referee.errors import IllegalMoveError, NotationError
from referee.games import GAMES
from referee.games.harmijan import movement
from referee.games.harmijan.creatures import EMPTY, lifted
from referee.games.harmijan.position import HarmijanState
from referee.games.harmijan.scoring import BLACK, WHITE, ShapeClass, compare, shape_form, symmetries
from referee.record.values import Record
from referee.record.reading import parse_record, read_record
from referee.render.drawing import svg_diagram, text_diagram
from referee.play.replay import replay, start
from referee.play.turn import take_turn

GAME = GAMES["harmijan"]
SAMPLES = Path(__file__).resolve().parent.parent / "sample_games" / "harmijan"


def position(black=(), white=(), turn=BLACK, size=7, black_seat=1) -> HarmijanState:
    """A position in play with stones on the named cells; seat 1 plays black unless told."""
    grid = GAME.start({"size": size}, {}).grid
    stones = [EMPTY] * len(grid)
    for colour, names in ((BLACK, black), (WHITE, white)):
        for name in names:
            stones[grid.cell(name)] = colour
    return HarmijanState(grid, tuple(stones), set_up=True, black_seat=black_seat, turn=turn)


def turn(state, text):
    return GAME.apply(state, GAME.parse(state, text))


def refused(state, text) -> str:
    """The reason `text` is refused; also checks that the listing agrees."""
    assert text not in {str(m) for m in GAME.legal_moves(state)}
    with pytest.raises(IllegalMoveError) as info:
        turn(state, text)
    return info.value.reason


def cells_of(state, colour):
    return {state.grid.name(c) for c, v in enumerate(state.stones) if v == colour}


def new_play(size=5):
    return start(Record("harmijan", {"size": size}))


def random_game(seed, size=5, stop=None):
    """A game of random legal turns, written the way `referee move` writes it."""
    play = new_play(size)
    rng = random.Random(seed)
    while play.outcome() is None and (stop is None or play.plies < stop):
        play = take_turn(play, str(GAME.random_move(play.state, rng))).play
    return play


# -- options and board (SPEC §1, §2) ---------------------------------------------------------


@pytest.mark.parametrize("size, cells", [(5, 61), (6, 91), (7, 127)])
def test_sizes_5_6_7_SPEC_1(size, cells):
    assert len(GAME.start(GAME.resolve_options({"size": size}), {}).grid) == cells


def test_default_size_is_6_SPEC_1():
    assert GAME.resolve_options({}) == {"size": 6}


@pytest.mark.parametrize("options", [{"size": 4}, {"size": 8}, {"size": "6"}, {"board": "hex"}])
def test_other_options_are_refused_SPEC_1(options):
    with pytest.raises(ValueError):
        GAME.resolve_options(options)


# -- the pie (R-HJ1) -------------------------------------------------------------------------


def test_setup_is_stored_in_canonical_form_R_HJ1():
    play = new_play()
    play.push("  SETUP  b f5 E5   w c4 c3 ")
    assert play.entries == ["setup b e5 f5 w c3 c4"]
    assert play.to_move() == 2


def test_setup_may_name_white_first_R_HJ1():
    play = new_play()
    play.push("setup w c4 c3 b f5 e5")
    assert play.entries == ["setup b e5 f5 w c3 c4"]


@pytest.mark.parametrize(
    "text, words",
    [
        ("setup b e5 g5 w c3 c4", "not adjacent"),
        ("setup b e5 f5 w d3 f3", "not adjacent"),
        ("setup b e5 f5 w f5 f6", "four different cells"),
        ("setup b e5 e5 w c3 c4", "four different cells"),
    ],
)
def test_setup_needs_two_adjacent_pairs_on_four_cells_R_HJ1(text, words):
    play = new_play()
    with pytest.raises(IllegalMoveError) as info:
        play.push(text)
    assert words in info.value.reason and "R-HJ1" in info.value.reason
    assert play.plies == 0


def test_the_two_creatures_may_touch_R_HJ1():
    play = new_play()
    play.push("setup b e5 f5 w e4 f4")
    assert play.plies == 1


@pytest.mark.parametrize("text", ["setup b e5 f5", "setup b e5 f5 b c3 c4", "setup x e5 f5 w c3 c4",
                                  "setup b e5 z5 w c3 c4", "e5-e4", "c4-c6 f6 g6", "blue"])
def test_bad_notation_is_a_notation_error_SPEC_5(text):
    with pytest.raises(NotationError):
        new_play().push(text)


@pytest.mark.parametrize("text", ["black", "white", "pass", "e5-e4 e8"])
def test_only_a_setup_opens_the_game_R_HJ1(text):
    play = new_play()
    with pytest.raises(IllegalMoveError) as info:
        play.push(text)
    assert "R-HJ1" in info.value.reason or "R-G3" in info.value.reason


@pytest.mark.parametrize("text", ["setup b a1 a2 w c3 c4", "e5-e4 e8", "pass"])
def test_seat_2_must_choose_a_colour_at_ply_2_R_HJ1(text):
    play = new_play()
    play.push("setup b e5 f5 w c3 c4")
    with pytest.raises(IllegalMoveError) as info:
        play.push(text)
    assert "R-HJ1" in info.value.reason
    assert play.plies == 1


@pytest.mark.parametrize("choice, black_seat", [("black", 2), ("WHITE", 1)])
def test_the_choice_gives_colours_and_black_moves_first_R_HJ1(choice, black_seat):
    play = new_play()
    play.push("setup b e5 f5 w c3 c4")
    assert GAME.score(play.state) == {} and GAME.status_extra(play.state) == {}
    play.push(choice)
    assert play.entries[-1] == choice.lower()
    assert play.to_move() == black_seat
    colours = {str(black_seat): "black", str(3 - black_seat): "white"}
    assert GAME.status_extra(play.state) == {"colours": colours}
    assert set(GAME.score(play.state)) == {"1", "2"}
    # The diagram's header says which seat plays which colour.
    text = text_diagram(play)
    assert f"Seat {black_seat} (X)" in text and f"Seat {3 - black_seat} (O)" in text
    # And the choice is made once.
    with pytest.raises(IllegalMoveError):
        play.push("black")


def test_moves_at_the_pie_give_the_setup_pattern_then_the_two_colours_SPEC_4():
    play = new_play()
    assert GAME.move_listing(play.state, None) == {
        "moves": [], "pattern": "setup b <cell> <cell> w <cell> <cell>"
    }
    # The full list exists (for random play) and every entry is a legal setup.
    setups = GAME.legal_moves(play.state)
    assert len(setups) == len({str(s) for s in setups})
    assert "setup b e5 f5 w c3 c4" in {str(s) for s in setups}
    play.push("setup b e5 f5 w c3 c4")
    assert GAME.move_listing(play.state, None) == {"moves": ["black", "white"]}


# -- the move (R-HJ2, R-HJ3) -----------------------------------------------------------------


def test_a_one_stone_creature_cannot_move_R_HJ2():
    state = position(black=["c4", "g5", "g6"], white=["e8"])
    reason = refused(state, "c4-c5 c8")
    assert reason == "c4-c5: the stone on c4 is a one-stone creature and cannot move (R-HJ2)"
    assert not any(str(m).startswith("c4") for m in GAME.legal_moves(state))


def test_a_cell_touching_two_friendly_creatures_stops_the_move_R_HJ3():
    # Black b4+c4 and a lone black d6; c5 touches b4 and d6, two creatures once c4 is lifted.
    state = position(black=["b4", "c4", "d6"], white=["h5", "h6"])
    assert refused(state, "c4-c6 f6") == "c4-c6: c5 touches two black creatures (R-HJ3)"


def test_the_mover_is_lifted_before_counting_R_HJ3():
    # c4-c5: c5 touches c4 itself, but with c4 lifted it touches nothing of black's.
    state = position(black=["c4", "d4"], white=["h5", "h6"])
    assert refused(state, "c4-c5 c8") == "c4-c5: c5 touches no black creature (R-HJ3)"
    # d4-d5 instead keeps touching c4.
    after = turn(state, "d4-d5 d9")
    assert cells_of(after, BLACK) == {"c4", "d5", "d9"}


def test_the_last_cell_must_touch_exactly_one_creature_too_R_HJ3():
    # b4+c4: c4-c5 is fine (c5 touches b4); c4-c6 fails on c6 (touches nothing).
    state = position(black=["b4", "c4"], white=["h5", "h6"])
    assert "c4-c5 c8" in {str(m) for m in GAME.legal_moves(state)}
    assert refused(state, "c4-c6 c8") == "c4-c6: c6 touches no black creature (R-HJ3)"


def test_enemy_creatures_do_not_count_R_HJ3():
    # c5 touches the black b4 and the white b5 and d5+d6: two white creatures besides the one
    # black, and still the move is legal, listed and played.
    state = position(black=["b4", "c4"], white=["b5", "d5", "d6"])
    assert "c4-c5 c8" in {str(m) for m in GAME.legal_moves(state)}
    after = turn(state, "c4-c5 c8")
    assert cells_of(after, BLACK) == {"b4", "c5", "c8"}
    assert cells_of(after, WHITE) == {"b5", "d5", "d6"}


def test_a_bite_removes_the_enemy_stone_and_is_written_with_x_R_HJ3():
    state = position(black=["b4", "c4"], white=["c5", "h5"])
    after = turn(state, "c4xc5 c8")
    assert cells_of(after, BLACK) == {"b4", "c5", "c8"}
    assert cells_of(after, WHITE) == {"h5"}
    assert after.turn == WHITE
    assert str(GAME.parse(state, "C4 X C5  c8")) == "c4xc5 c8"


def test_a_bite_written_with_a_dash_or_a_dash_written_with_x_is_refused_R_HJ3():
    state = position(black=["b4", "c4"], white=["c5", "h5"])
    assert refused(state, "c4-c5 c8") == "c4-c5: c5 holds a white stone: a bite is written c4xc5 (R-HJ3)"
    state = position(black=["b4", "c4"], white=["h5", "h6"])
    assert "nothing to bite" in refused(state, "c4xc5 c8")


def test_a_move_ends_at_a_bite_and_passes_only_through_empty_cells_R_HJ3():
    # b5 touches the c4 side too: the move c4-c7 would go through the white c5.
    state = position(black=["b4", "c4", "b5", "b6"], white=["c5", "h5"])
    reason = refused(state, "c4-c6 c9")
    assert reason.startswith("c4-c6: c5 holds a white stone") and "R-HJ3" in reason
    state = position(black=["b4", "c4", "b5", "c6"], white=["h5", "h6"])
    assert refused(state, "c4-c7 c9") == "c4-c7: c6 holds a black stone (R-HJ3)"


@pytest.mark.parametrize("text, words", [("c4-d6 d9", "not in a straight line"), ("c4-c4 c8", "is the start")])
def test_a_move_goes_along_one_line_R_HJ3(text, words):
    state = position(black=["b4", "c4"], white=["h5", "h6"])
    reason = refused(state, text)
    assert words in reason and "R-HJ3" in reason


@pytest.mark.parametrize("text", ["h5-h4 h2", "e5-e4 e1"])
def test_only_the_colour_to_move_moves_R_HJ3(text):
    state = position(black=["b4", "c4"], white=["h5", "h6"])
    reason = refused(state, text)
    assert "black (seat 1) is to move" in reason


# -- the placement (R-HJ4) -------------------------------------------------------------------


def test_placement_in_line_of_sight_not_touching_the_moved_creature_R_HJ4():
    state = position(black=["b4", "c4"], white=["c8", "h5"])
    # After c4-c5 the creature is b4+c5. Upwards from c5: c6 touches c5, c7 is free, c8 is white.
    after = turn(state, "c4-c5 c7")
    assert cells_of(after, BLACK) == {"b4", "c5", "c7"}
    assert "touches the creature of the moved stone (R-HJ4)" in refused(state, "c4-c5 c6")
    assert "c8 is occupied (R-HJ4)" in refused(state, "c4-c5 c8")
    assert "c8 stands between c5 and c9" in refused(state, "c4-c5 c9")
    assert "is not in a straight line from c5 (R-HJ4)" in refused(state, "c4-c5 d8")
    assert "is the moved stone's cell" in refused(state, "c4-c5 c5")


def test_placement_may_extend_one_creature_but_not_join_two_R_HJ4():
    # After c4-c5 (creature b4+c5) the row through c5 is d5 e5 f5 g5, then the white h5.
    # Black e4 and f6 are two lone creatures; e5 and f5 touch both, g5 neither.
    state = position(black=["b4", "c4", "e4", "f6"], white=["h5", "h6"])
    reason = refused(state, "c4-c5 f5")
    assert reason == "c4-c5 f5: f5 touches two black creatures (R-HJ4: it may extend only one)"
    assert "touches two black creatures" in refused(state, "c4-c5 e5")
    assert "c4-c5 g5" in {str(m) for m in GAME.legal_moves(state)}
    # Without f6, e5 touches e4 alone: the placement extends that creature.
    one = position(black=["b4", "c4", "e4"], white=["h5", "h6"])
    assert {"e4", "e5"} <= cells_of(turn(one, "c4-c5 e5"), BLACK)


def test_the_vacated_cell_is_empty_for_the_placement_R_HJ4():
    # d4 leaves c4 for the lone f5 (e4 and f4 touch only f5 once d4 is lifted); its old cell d4
    # is then empty, in line of sight from f4 and touching only c4: a legal placement.
    state = position(black=["c4", "d4", "f5"], white=["h5", "h6"])
    after = turn(state, "d4-f4 d4")
    assert cells_of(after, BLACK) == {"c4", "d4", "f4", "f5"}


# -- whole turns, passes and the end (R-HJ5, R-G3) -------------------------------------------


def dead_moves(state):
    """Moves the walk allows after which no placement is legal, each written as a turn that
    places on the mover's old cell (in line of sight, so the placement is not what is wrong)."""
    stones, grid, names = state.stones, state.grid, state.grid.names
    colour = state.colour_of(GAME.to_move(state))
    dead = []
    for mover, stone in enumerate(stones):
        if stone != colour or movement.alone(stones, grid.neighbours, mover):
            continue
        labels = lifted(stones, grid, mover)
        for end, moved in movement.slides(stones, grid.neighbours, labels, mover, grid.rays[mover]):
            if next(movement.placements(stones, grid.neighbours, labels, mover, moved, grid.rays[end]), None) is None:
                sep = "-" if stones[end] == EMPTY else "x"
                dead.append(f"{names[mover]}{sep}{names[end]} {names[mover]}")
    return dead


def test_a_move_after_which_no_placement_is_legal_is_illegal_R_HJ5():
    checked = 0
    for seed in range(40):
        play = random_game(seed, stop=40)
        for state in [ply.position for ply in play.line[2:]]:
            if GAME.to_move(state) is None:
                continue
            for text in dead_moves(state)[:2]:
                reason = refused(state, text)
                assert reason.endswith("no placement is legal after this move, so the move is illegal (R-HJ5)")
                checked += 1
        if checked >= 5:
            break
    assert checked >= 5


def test_the_referee_writes_forced_passes_and_refuses_a_chosen_pass_R_HJ5_R_G3():
    passes = 0
    for seed in range(10):
        play = random_game(seed)
        for index, entry in enumerate(play.entries):
            if entry != "pass":
                continue
            before = play.position(index)
            colour = before.turn
            assert not before.can_turn[colour] and before.can_turn[3 - colour]
            assert play.line[index + 1].mover == before.seat_of(colour)
            passes += 1
        for state in [ply.position for ply in play.line[2:]]:
            if GAME.outcome(state) is None and state.can_turn[state.turn]:
                with pytest.raises(IllegalMoveError) as info:
                    GAME.apply(state, GAME.parse(state, "pass"))
                assert "R-G3" in info.value.reason
                break
    assert passes >= 3


def test_a_forced_pass_is_told_with_the_turn_that_forces_it_R_G3():
    for seed in range(20):
        play = random_game(seed)
        if "pass" in play.entries:
            break
    at = play.entries.index("pass")
    before = new_play()
    for entry in play.entries[:at - 1]:
        before.push(entry)
    result = take_turn(before, play.entries[at - 1])
    assert result.play.entries[at] == "pass"
    assert f"Seat {play.movers[at]} cannot act and passes (R-G3)." in result.notes


def test_an_implied_pass_gives_the_same_game_SPEC_5_R_HJ8():
    for seed in range(20):
        play = random_game(seed)
        if "pass" in play.entries:
            break
    written = play.entries
    implied = [e for e in written if e != "pass"]
    record = Record("harmijan", {"size": 5}, moves=[])
    again = start(record)
    for entry in implied:
        again.push(entry)
    again.push_forced_passes()
    assert again.state.stones == play.state.stones
    assert again.outcome() == play.outcome()
    assert dict(again.state.seen) == dict(play.state.seen)  # R-HJ8 counts implied passes too


def test_the_game_ends_when_neither_colour_can_turn_R_HJ5():
    ended = 0
    for seed in range(8):
        play = random_game(seed)
        state = play.state
        if not state.repeated:
            assert not any(state.can_turn.values())
            assert play.to_move() is None and GAME.legal_moves(state) == []
            ended += 1
    assert ended >= 3


def test_listing_and_checking_agree_R_HJ3_R_HJ4_R_HJ5():
    """Every listed turn is accepted; random other turns are refused with a ruling named."""
    rng = random.Random(5)
    for seed in range(6):
        play = random_game(seed, size=5, stop=60)
        for state in [ply.position for ply in play.line[2::7]]:
            if GAME.to_move(state) is None:
                continue
            listed = {str(m) for m in GAME.legal_moves(state)}
            assert bool(listed) == state.can_turn[state.colour_of(GAME.to_move(state))]
            for text in listed:
                turn(state, text)
            names = state.grid.names
            for _ in range(150):
                a, b, c = (rng.choice(names) for _ in range(3))
                text = f"{a}{rng.choice('-x')}{b} {c}"
                if text in listed:
                    continue
                with pytest.raises(IllegalMoveError) as info:
                    turn(state, text)
                assert "(R-HJ" in info.value.reason


def test_a_refused_turn_leaves_the_state_as_it_was_R_HJ3():
    state = position(black=["b4", "c4", "d6"], white=["h5", "h6"])
    before = (state.stones, state.turn, dict(state.seen))
    with pytest.raises(IllegalMoveError):
        turn(state, "c4-c6 f6")
    assert (state.stones, state.turn, dict(state.seen)) == before


# -- shapes (R-HJ6) --------------------------------------------------------------------------

NEIGHBOURS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (-1, -1))


def fixed_polyhexes(size):
    """Every connected set of `size` hex cells, up to translation (grown cell by cell)."""
    shapes = {((0, 0),)}
    for _ in range(size - 1):
        grown = set()
        for shape in shapes:
            cells = set(shape)
            for (q, r), (dq, dr) in product(shape, NEIGHBOURS):
                new = (q + dq, r + dr)
                if new not in cells:
                    ordered = sorted(cells | {new})
                    q0, r0 = ordered[0]
                    grown.add(tuple((a - q0, b - r0) for a, b in ordered))
        shapes = grown
    return shapes


@pytest.mark.parametrize("size, free", [(1, 1), (2, 1), (3, 3), (4, 7), (5, 22), (6, 82)])
def test_shape_classes_are_the_free_polyhexes_R_HJ6(size, free):
    shapes = fixed_polyhexes(size)
    forms = {shape_form(shape) for shape in shapes}
    # Distinct shapes stay distinct, images of one shape never split (counts from the
    # literature on polyhexes: 1, 1, 3, 7, 22, 82).
    assert len(forms) == free


@pytest.mark.parametrize("size", [1, 2, 3, 4, 5])
def test_all_12_images_of_a_shape_give_one_form_R_HJ6(size):
    for shape in fixed_polyhexes(size):
        images = list(zip(*(symmetries(q, r) for q, r in shape)))
        assert len(images) == 12
        for image in images:
            for dq, dr in ((0, 0), (3, -2), (-5, 7)):
                assert shape_form([(q + dq, r + dr) for q, r in image]) == shape_form(shape)


def test_the_12_symmetries_keep_adjacency_and_are_distinct_R_HJ6():
    # The three-cell "boomerang" has no symmetry but the identity and one reflection, so its 12
    # images fall into 6 distinct fixed shapes; the straight three has 3.
    for shape, fixed in ((((0, 0), (1, 0), (2, 1)), 6), (((0, 0), (1, 0), (2, 0)), 3)):
        images = {tuple(sorted(image)) for image in zip(*(symmetries(q, r) for q, r in shape))}
        normal = set()
        for image in images:
            q0, r0 = image[0]
            normal.add(tuple((q - q0, r - r0) for q, r in image))
        assert len(normal) == fixed


def test_shape_classes_of_a_position_R_HJ6_R_HJ7():
    # Black: two straight threes in different directions (one class), one bent three.
    state = position(black=["a1", "b1", "c1", "i5", "i6", "i7", "e5", "f5", "f6"], white=["a5"])
    classes = state.classes(BLACK)
    assert [(k.size, k.count, k.worth) for k in classes] == [(3, 2, 9), (3, 1, 6)]
    assert GAME.score(state)["1"] == [{"size": 3, "count": 2, "worth": 9}, {"size": 3, "count": 1, "worth": 6}]
    assert GAME.score(state)["2"] == [{"size": 1, "count": 1, "worth": 2}]


# -- scoring (R-HJ7) -------------------------------------------------------------------------


def classes(*pairs):
    return [ShapeClass(size, n, ()) for size, n in pairs]


def test_the_ruling_example_R_HJ7():
    black = classes((4, 3), (2, 1))  # 16, then 4
    white = classes((7, 1), (3, 2))  # 14, then 9
    assert [k.worth for k in black] == [16, 4] and [k.worth for k in white] == [14, 9]
    assert compare(black, white)[0] == BLACK


def test_a_tie_is_broken_by_the_second_class_R_HJ7():
    winner, reason = compare(classes((4, 2), (2, 1)), classes((4, 2), (2, 3)))
    assert winner == WHITE
    assert reason == "1st classes tie at 12; 2nd class white 8 to 4"


def test_several_ties_are_summed_up_before_the_deciding_class_R_HJ7():
    winner, reason = compare(classes((4, 2), (3, 1), (1, 1)), classes((4, 2), (3, 1), (1, 3)))
    assert winner == WHITE and reason == "1st–2nd classes tie (12, 6); 3rd class white 4 to 2"


def test_a_list_that_runs_out_first_loses_R_HJ7():
    winner, reason = compare(classes((3, 1)), classes((3, 1), (1, 1)))
    assert winner == WHITE and reason == "1st classes tie at 6; black has no 2nd class"


def test_identical_lists_are_a_draw_R_HJ7():
    winner, reason = compare(classes((3, 1), (2, 2)), classes((3, 1), (2, 2)))
    assert winner is None and reason.startswith("identical scoring lists")


def test_classes_are_ordered_by_size_then_worth_R_HJ7():
    # Two classes of size 2 (one creature and three creatures) and a lone stone.
    state = position(black=["a1", "b1", "e5", "f5", "i9", "i8", "e1", "e2", "a5"], white=["c3"])
    assert [(k.size, k.count) for k in state.classes(BLACK)] == [(2, 4), (1, 1)]
    state = position(black=["a1", "a2", "e5", "f6", "g7", "i9", "i8", "e1", "e2"], white=["c3"])
    assert [(k.size, k.count, k.worth) for k in state.classes(BLACK)] == [(3, 1, 6), (2, 3, 8)]


# -- repetition (R-HJ8) ----------------------------------------------------------------------


def test_third_occurrence_of_a_position_ends_the_game_R_HJ8():
    for seed in range(30):
        play = random_game(seed)
        if play.state.repeated:
            break
    else:
        pytest.fail("no random game ended by repetition")
    keys = [(s.stones, s.turn) for s in [ply.position for ply in play.line[2:]]]
    assert keys.count(keys[-1]) == 3
    assert all(keys[:i + 1].count(k) < 3 for i, k in enumerate(keys[:-1]))
    outcome = play.outcome()
    assert outcome.reason.startswith("third repetition of the position (R-HJ8); ")
    assert play.to_move() is None
    with pytest.raises(IllegalMoveError):
        play.push("pass")


def test_the_count_starts_after_the_colour_choice_R_HJ8():
    play = new_play()
    play.push("setup b e5 f5 w c3 c4")
    assert dict(play.state.seen) == {}
    play.push("black")
    assert dict(play.state.seen) == {(play.state.stones, BLACK): 1}


@pytest.mark.parametrize("seed", range(8))
def test_the_count_agrees_with_a_recount_of_every_position_R_HJ8(seed):
    play = random_game(seed)
    keys = []
    for before, state in zip([ply.position for ply in play.line[1:]], [ply.position for ply in play.line[2:]]):
        # A turn never lowers the number of stones, which is what lets the count look back
        # only while that number is unchanged.
        assert state.stones.count(EMPTY) <= before.stones.count(EMPTY)
        keys.append((state.stones, state.turn))
        times = keys.count(keys[-1])
        assert state.times_seen == times
        assert state.repeated == (times >= 3)
    assert dict(play.state.seen) == Counter(keys)


def _reachable(root, skip: set[int]) -> dict[int, int]:
    """id → size in bytes of every object reachable from `root`, except those in `skip`."""
    found, todo = {}, [root]
    while todo:
        obj = todo.pop()
        if id(obj) in found or id(obj) in skip or isinstance(obj, (int, type)) or obj is None:
            continue
        found[id(obj)] = sys.getsizeof(obj)
        todo.extend(gc.get_referents(obj))
    return found


def test_states_share_the_repetition_history_instead_of_copying_it_R_HJ8():
    """Each state adds one counted position to what the state before it holds, so a game of n
    plies keeps n counted positions, not a copy of the history in every state (n²/2)."""
    play = random_game(1)  # 110 plies, 62 of them bites
    assert play.plies >= 100
    states = [ply.position for ply in play.line[2:]]
    positions = {id(state.stones) for state in states}  # the states' own, not the history's
    held: dict[int, int] = {}
    added = []
    for state in states:
        mine = _reachable(state.history, positions)
        added.append(sum(size for key, size in mine.items() if key not in held))
        held.update(mine)
    assert max(added) == added[0]  # every ply adds as much as the first: one link
    assert sum(held.values()) == len(states) * added[0]


# -- speed -----------------------------------------------------------------------------------


def test_listing_on_a_crowded_size_7_board_is_fast():
    rng = random.Random(3)
    grid = GAME.start({"size": 7}, {}).grid
    stones = [rng.choice((EMPTY, BLACK, BLACK, WHITE, WHITE)) for _ in grid]
    timings, count = [], 0
    for _ in range(5):
        state = HarmijanState(grid, tuple(stones), set_up=True, black_seat=1)
        began = time.perf_counter()
        count = len(GAME.legal_moves(state))
        timings.append(time.perf_counter() - began)
    assert count > 0
    assert statistics.median(timings) < 0.5


# -- records, command line and diagrams ------------------------------------------------------


def test_a_game_by_files_from_the_pie_to_a_turn(cli, tmp_path):
    assert cli("new", "harmijan", "-o", "g.toml", "-O", "size=5", "--player", "1=Ann").exit_code == 0
    assert cli("moves", "g.toml", "--json").output.strip() == json.dumps(
        {"to_move": 1, "moves": [], "pattern": "setup b <cell> <cell> w <cell> <cell>"}
    )
    assert "Ann plays: setup b <cell> <cell> w <cell> <cell>" in cli("moves", "g.toml").output
    assert cli("move", "g.toml", "setup b f5 e5 w c4 c3", "--as", "1").exit_code == 0
    assert cli("move", "g.toml", "white", "--as", "2").exit_code == 0
    status = json.loads(cli("status", "g.toml", "--json").output)
    assert status["to_move"] == 1 and status["colours"] == {"1": "black", "2": "white"}
    assert status["score"] == {"1": [{"size": 2, "count": 1, "worth": 4}],
                               "2": [{"size": 2, "count": 1, "worth": 4}]}
    moves = json.loads(cli("moves", "g.toml", "--json").output)["moves"]
    assert "e5-e4 e8" in moves
    before = (tmp_path / "g.toml").read_bytes()
    bad = cli("move", "g.toml", "e5-e3 e8")
    assert bad.exit_code == 1
    assert "g.toml" in bad.output and "ply 3 (e5-e3 e8)" in bad.output and "(R-HJ3)" in bad.output
    assert (tmp_path / "g.toml").read_bytes() == before
    result = cli("move", "g.toml", "E5 - E4  E8", "--svg", "t.svg")
    assert result.exit_code == 0, result.output
    assert "Black moved e5 to e4 and placed e8." in result.output
    text = (tmp_path / "g.toml").read_text()
    assert 'move = "e5-e4 e8"' in text and 'move = "setup b e5 f5 w c3 c4"' in text
    svg = (tmp_path / "t.svg").read_text()
    assert 'class="path"' in svg and 'class="bite"' not in svg


def test_the_diagrams_show_a_bite_and_the_end_classes():
    play = replay(read_record(SAMPLES / "harmijan-5-handwritten.toml"))
    bite = next(i for i, e in enumerate(play.entries, 1) if "x" in e)
    svg = svg_diagram(play, bite)
    # The ring on the bitten cell and its legend key; a turn without a bite has neither.
    assert svg.count('class="bite"') == 2 and 'class="path"' in svg
    quiet = next(i for i, e in enumerate(play.entries, 1) if "-" in e)
    assert 'class="bite"' not in svg_diagram(play, quiet)
    assert "biting the" in text_diagram(play, bite)
    end = text_diagram(play)
    assert "Black's classes" in end and "White's classes" in end
    svg = svg_diagram(play)
    assert 'class="tag tag-b"' in svg and 'class="tag tag-w"' in svg


def test_player_names_are_escaped_in_the_svg():
    record = Record("harmijan", {"size": 5}, {1: {"name": '<b>"Ann"</b> & co'}})
    play = start(record)
    for move in ("setup b e5 f5 w c3 c4", "black", "e5-e4 e8"):
        play.push(move)
    svg = svg_diagram(play)
    assert "<b>" not in svg and "&lt;b&gt;" in svg


@pytest.mark.parametrize("size, cells", [(5, 61), (6, 91), (7, 127)])
def test_printable_board_for_sizes_5_to_7(cli, size, cells):
    result = cli("board", "harmijan", "-O", f"size={size}")
    assert result.exit_code == 0
    assert result.output.count("<polygon") == cells


# -- the sample games -------------------------------------------------------------------------


def test_samples_have_three_finished_games_per_size_and_one_in_progress():
    finished = {5: 0, 6: 0, 7: 0}
    in_progress = 0
    for path in sorted(SAMPLES.glob("*.toml")):
        play = replay(read_record(path))
        if play.outcome() is None:
            in_progress += 1
        else:
            finished[play.options["size"]] += 1
    assert all(n >= 3 for n in finished.values()), finished
    assert in_progress >= 1


def test_the_handwritten_sample_shows_a_bite_a_pass_a_refusal_and_a_second_class_tie_break():
    path = SAMPLES / "harmijan-5-handwritten.toml"
    text = path.read_text()
    assert "moves = [" in text  # the plain hand-typed form
    play = replay(read_record(path))
    assert any("x" in e for e in play.entries)
    assert "pass" in play.entries
    assert any(dead_moves(s) for s in [ply.position for ply in play.line[2:]] if GAME.to_move(s) is not None)
    outcome = play.outcome()
    assert outcome.reason.startswith("1st classes tie at") and "2nd class " in outcome.reason
    # The refused move named in the comments really is refused for R-HJ5 at that ply.
    line = next(l for l in text.splitlines() if "referee refused" in l)
    ply = int(line.split("ply ")[1].split(":")[0])
    tried = line.split('"')[1]
    with pytest.raises(IllegalMoveError) as info:
        GAME.apply(play.position(ply - 1), GAME.parse(play.position(ply - 1), tried))
    assert "R-HJ5" in info.value.reason


def test_records_round_trip_R_HJ1_to_R_HJ8():
    play = random_game(11, size=6)
    again = replay(parse_record(play.record.to_toml().encode()))
    assert again.entries == play.entries
    assert again.outcome() == play.outcome()
