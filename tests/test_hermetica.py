"""Hermetica rules (RULINGS.md R-HM0…R-HM10), the rulebook's FAQ answers, and the notation of
SPEC §5. Positions are built directly on the standard mat: units by cell ("A" Sun's Adept,
"f" Moon's Fire…), walls and Shields where a test needs them."""

from __future__ import annotations

import random
import re
from dataclasses import replace
from pathlib import Path

import pytest

from referee.errors import IllegalMoveError, NotationError, RefereeError
from referee.games import GAMES
from referee.games.hermetica.moves import Turn
from referee.games.hermetica.position import COPIES, ELEMENTS, HermeticaState, Unit
from referee.record.values import Record
from referee.record.reading import read_record
from referee.render.drawers import hermetica as drawer
from referee.play.words import Header
from referee.play.replay import replay, start

GAME = GAMES["hermetica"]
SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"


def fresh(scheme: str = "dawn") -> HermeticaState:
    return start(Record("hermetica", {"scheme": scheme})).state


def position(units: dict[str, str], *, walls=(), shields=None, to_move=1, reserve=None) -> HermeticaState:
    """A position in play (after the setup plies), `to_move` to act. Both Adepts stand on their
    Prime hexes unless `units` places or removes them ("-" removes: a captured Adept)."""
    base = fresh()
    grid = base.board.grid
    placed = {"d4": "A", "d9": "a"}
    if any(v == "A" for v in units.values()) or units.get("d4") == "-":
        placed.pop("d4")
    if any(v == "a" for v in units.values()) or units.get("d9") == "-":
        placed.pop("d9")
    placed.update({k: v for k, v in units.items() if v != "-"})
    cells: list[Unit | None] = [None] * len(grid)
    for uid, (name, letter) in enumerate(sorted(placed.items()), 10):
        cells[grid.cell(name)] = Unit(1 if letter.isupper() else 2, letter.upper(), uid)
    shield_cells = [None, None]
    for seat, name in (shields or {}).items():
        shield_cells[seat - 1] = grid.cell(name)
    full = (COPIES,) * len(ELEMENTS)
    return replace(
        base,
        plies=6 if to_move == 1 else 7,
        walls=frozenset(grid.cell(n) for n in walls),
        shields=tuple(shield_cells),
        units=tuple(cells),
        reserve=reserve or (full, full),
        next_uid=100,
    )


def play(state: HermeticaState, text: str) -> HermeticaState:
    return GAME.apply(state, GAME.parse(state, text))


def refused(state: HermeticaState, text: str, match: str, action: int | None = None) -> IllegalMoveError:
    with pytest.raises(IllegalMoveError, match=match) as info:
        play(state, text)
    assert info.value.action == action
    return info.value


def at(state: HermeticaState, name: str) -> str:
    """What stands on a cell, in the letters of `position`: "." for nothing."""
    unit = state.units[state.board.grid.cell(name)]
    if unit is None:
        return "."
    return unit.kind if unit.seat == 1 else unit.kind.lower()


def cell(state: HermeticaState, name: str) -> int:
    return state.board.grid.cell(name)


# -- R-HM1: phases -----------------------------------------------------------------------------


def test_preset_scheme_walls_and_adepts_on_their_primes_R_HM1():
    state = fresh("noon")
    names = sorted(state.board.name(c) for c in state.walls)
    assert names == sorted(["a3", "b2", "b7", "c5", "c6", "d3", "d10", "e6", "e7", "f4", "f9", "g7"])
    assert at(state, "d4") == "A" and at(state, "d9") == "a"
    assert state.phase == "elements" and GAME.to_move(state) == 1


def test_six_element_plies_on_each_sides_own_horizon_then_sun_turns_R_HM1():
    state = fresh()
    for text in ("+F c1", "+e d12", "+W d1", "+F a9", "+E b1", "+W g9"):
        state = play(state, text)
    assert state.phase == "turns" and GAME.to_move(state) == 1
    assert at(state, "c1") == "F" and at(state, "d12") == "e"
    assert GAME.score(state)["1"] == {"elements": 3, "reserve": {"F": 2, "E": 2, "W": 2}}


@pytest.mark.parametrize("text, match", [("+F d2", "Horizon"), ("+F a9", "Horizon")])
def test_element_setup_only_on_ones_own_horizon_R_HM1(text, match):
    refused(fresh(), text, match)


def test_element_setup_ply_takes_no_adept_and_no_turn_R_HM1():
    with pytest.raises(NotationError, match="R-HM1"):
        GAME.parse(fresh(), "+A c1")
    with pytest.raises(NotationError, match="R-HM1"):
        GAME.parse(fresh(), "F c1-c2")


def test_draft_twelve_walls_sun_first_with_bans_R_HM1():
    state = fresh("draft")
    assert state.walls == frozenset() and state.phase == "walls"
    refused(state, "wall d1", "Horizon")
    refused(state, "wall b10", "Horizon")
    refused(state, "wall d4", "Prime")
    state = play(state, "wall c5")
    state = play(state, "wall c6")  # two contiguous walls are fine
    refused(state, "wall c7", "3 contiguous walls")
    refused(state, "wall b5", "3 contiguous walls")
    refused(state, "wall c5", "already")
    with pytest.raises(NotationError, match="wall <cell>"):
        GAME.parse(state, "+F c1")
    for name in ("a3", "a5", "a7", "e3", "e5", "e7", "g3", "g5", "f9", "b8"):
        state = play(state, f"wall {name}")
    assert len(state.walls) == 12 and state.phase == "elements" and GAME.to_move(state) == 1


# -- R-HM2: three actions, costs, once per unit ------------------------------------------------


def test_three_actions_a_spawn_costs_two_R_HM2():
    state = position({"c1": "F", "e1": "E"})
    after = play(state, "+W d1; F c1-c2")
    assert at(after, "d1") == "W" and at(after, "c2") == "F"
    refused(state, "+W d1; F c1-c2; E e1-e2", "0 actions left", action=3)
    refused(state, "F c1-c2; E e1-e2; +W d1", "spawning costs 2 actions, and the turn has 1 action left", action=3)


def test_a_unit_acts_once_per_turn_R_HM2():
    state = position({"c1": "F"})
    refused(state, "F c1-c2; F c2-c3", "already acted", action=2)


def test_a_spawned_unit_cannot_act_in_its_turn_R_HM2():
    state = position({})
    refused(state, "+F c1; F c1-c2", "spawned this turn", action=2)


def test_fewer_actions_and_pass_are_turns_R_HM2():
    state = position({"c1": "F"})
    assert GAME.to_move(play(state, "pass")) == 2
    assert GAME.to_move(play(state, "F c1-c2")) == 2


def test_an_action_that_changes_nothing_is_illegal_R_HM0():
    state = position({"c1": "F"})
    refused(state, "F c1-c2-c1", "changes nothing", action=1)


# -- R-HM3: spawning -------------------------------------------------------------------------


def test_each_element_spawns_once_R_HM3():
    state = position({}, reserve=((0, 3, 3), (3, 3, 3)))
    refused(state, "+F c1", "no Fire left", action=1)


def test_at_most_five_elements_on_the_board_R_HM3():
    state = position({"a2": "F", "b2": "F", "c2": "E", "e2": "E", "f2": "W"})
    refused(state, "+W c1", "already has 5 elements", action=1)


def test_spawn_only_on_an_empty_hex_of_ones_horizon_R_HM3():
    state = position({"c1": "f"}, walls=["b1"])
    refused(state, "+F c2", "Horizon", action=1)
    refused(state, "+F c1", "empty", action=1)
    refused(state, "+F b1", "empty", action=1)  # a Wall on the Horizon blocks spawning


def test_a_captured_element_is_gone_for_good_R_HM3():
    state = position({"c3": "F", "c5": "w"})
    after = play(state, "F c3xc5")
    assert at(after, "c5") == "."
    assert after.reserve[1] == (3, 3, 3)  # nothing returns to Moon's reserve
    assert GAME.score(after)["2"]["elements"] == 0


# -- R-HM4: the captured Adept ---------------------------------------------------------------


def test_captured_adept_must_return_first_on_its_prime_R_HM4():
    state = position({"d4": "-", "c1": "F"})
    refused(state, "pass", "may not be passed")
    refused(state, "F c1-c2", "must begin with its return", action=1)
    refused(state, "+A d1", "Prime hex d4", action=1)
    after = play(state, "+A d4; F c1-c2")
    assert at(after, "d4") == "A" and at(after, "c2") == "F"


def test_adept_returns_to_the_horizon_when_its_prime_is_taken_R_HM4():
    state = position({"d4": "e", "c1": "f", "d9": "a"})
    after = play(state, "+A d1")
    assert at(after, "d1") == "A"
    refused(state, "+A c1", "empty hex of its Horizon", action=1)


def test_adept_captured_in_its_own_turn_returns_only_next_turn_R_HM4():
    # FAQ: capturing one's own Adept with the first action does not oblige the other two.
    state = position({"d3": "F", "d4": "A"})
    after = play(state, "F d3xd4")
    assert at(after, "d4") == "."
    refused(state, "F d3xd4; +A d4", "first action", action=2)
    moon = play(after, "pass")
    refused(moon, "pass", "R-HM4")
    assert at(play(moon, "+A d4"), "d4") == "A"


def test_obligation_waits_when_the_adept_cannot_return_R_HM4():
    horizon = {n: "e" if n in ("a1", "b1", "c1") else "w" for n in ("a1", "b1", "c1", "d1", "e1", "f1", "g1")}
    state = position({"d4": "f", **horizon, "d9": "a"})
    # Prime taken and no empty Horizon hex: the turn goes on without the Adept, even a pass.
    assert GAME.to_move(play(state, "pass")) == 2
    refused(state, "+A d5", "Adept returns", action=1)


# -- R-HM5: the Adept ------------------------------------------------------------------------


def test_adept_steps_up_to_two_onto_empty_hexes_R_HM5():
    state = position({"d6": "w"}, walls=["c5"])
    assert at(play(state, "A d4-d5-e5"), "e5") == "A"
    refused(state, "A d4-d5-e5-e6", "at most 2 steps", action=1)
    refused(state, "A d4-c4-c5", "empty hexes", action=1)  # a Wall
    refused(state, "A d4-d5-d6", "empty hexes", action=1)  # a unit
    refused(state, "A d4-d6", "not adjacent", action=1)


def test_shield_deployed_before_between_or_after_steps_R_HM5():
    state = position({})
    for text, shield in (("A d4*c4-d5-d6", "c4"), ("A d4-d5*c5-d6", "c5"), ("A d4-d5-d6*e6", "e6")):
        after = play(state, text)
        assert after.shields[0] == cell(after, shield)
        assert at(after, "d6") == "A"
    refused(state, "A d4*c4*c5", "at most once", action=1)
    refused(state, "A d4-d5*c3", "next to the Adept", action=1)


def test_faq_shield_in_the_adepts_way_must_be_deployed_elsewhere_first_R_HM5():
    state = position({}, shields={1: "d5"})
    refused(state, "A d4-d5", "Sun's Shield on d5", action=1)
    after = play(state, "A d4*c4-d5-d6")
    assert at(after, "d6") == "A" and after.shields[0] == cell(after, "c4")
    refused(state, "A d4*c4-d5*d4", "at most once", action=1)


def test_shield_deployment_captures_an_element_of_either_side_R_HM5():
    state = position({"c4": "f", "e4": "W"})
    assert at(play(state, "A d4*c4"), "c4") == "."
    assert at(play(state, "A d4*e4"), "e4") == "."


def test_shield_never_on_a_barrier_or_an_adept_R_HM5_R_HM9():
    state = position({"d5": "a"}, walls=["c4"], shields={2: "e4"})
    refused(state, "A d4*d5", "Moon's Adept", action=1)  # the Adept never captures the Adept
    refused(state, "A d4*c4", "barrier", action=1)
    refused(state, "A d4*e4", "barrier", action=1)  # FAQ: not on the other Shield either


def test_redeploying_the_shield_captures_the_fire_standing_on_it_R_HM5():
    state = position({"g5": "f"}, shields={1: "g5"})
    after = play(state, "A d4*c4")
    assert at(after, "g5") == "." and after.shields[0] == cell(after, "c4")
    assert [u.kind for _, u in after.last[0].captured] == ["F"]


# -- R-HM6: Fire -----------------------------------------------------------------------------


def test_fire_steps_up_to_four_onto_barriers_but_not_units_R_HM6():
    state = position({"c1": "F", "c4": "e"}, walls=["c2"], shields={2: "c3"})
    after = play(state, "F c1-c2-c3")
    assert at(after, "c3") == "F" and cell(after, "c2") in after.walls
    refused(state, "F c1-c2-c3-c4", "without a unit", action=1)
    refused(state, "F c1-b1-a1-a2-a3-a4", "at most 4", action=1)


def test_fire_carries_its_own_shield_into_empty_hexes_only_R_HM6():
    state = position({"c3": "F", "c5": "e"}, shields={1: "c3"}, walls=["b3"])
    after = play(state, "F c3=c4-d5")
    assert after.shields[0] == cell(after, "c4") and at(after, "d5") == "F"
    refused(state, "F c3=c4=c5", "only into an empty hex", action=1)  # FAQ: no capture with the Shield
    refused(state, "F c3=b3", "only into an empty hex", action=1)
    refused(state, "F c3-c4=c5", "not on its own Shield", action=1)


def test_fire_shoots_the_first_unit_in_a_line_within_four_R_HM6():
    state = position({"c1": "F", "c4": "e", "c5": "w"})
    after = play(state, "F c1xc4")
    assert at(after, "c4") == "." and at(after, "c1") == "F"
    refused(state, "F c1xc5", "blocked by Moon's Earth", action=1)
    refused(position({"c1": "F", "c6": "e"}), "F c1xc6", "within 4", action=1)
    refused(state, "F c1xc3", "holds none", action=1)


def test_a_barrier_blocks_the_shot_R_HM6():
    state = position({"c1": "F", "c4": "e"}, walls=["c3"])
    refused(state, "F c1xc4", "blocked by a Wall on c3", action=1)


def test_faq_fire_shoots_a_fire_standing_on_a_wall_R_HM6():
    state = position({"c1": "F", "c3": "f"}, walls=["c3"])
    after = play(state, "F c1xc3")
    assert at(after, "c3") == "." and cell(after, "c3") in after.walls


def test_faq_fire_on_a_barrier_shoots_R_HM6():
    state = position({"c3": "F", "c6": "a"}, walls=["c3"])
    assert at(play(state, "F c3xc6"), "c6") == "."


def test_fire_cannot_shoot_and_move_in_one_turn_R_HM6():
    state = position({"c1": "F", "c4": "e"})
    refused(state, "F c1xc4; F c1-c2", "already acted", action=2)


# -- R-HM7: Earth ----------------------------------------------------------------------------


def test_earth_pushes_a_unit_one_hex_on_R_HM7():
    state = position({"c2": "E", "c3": "w"})
    after = play(state, "E c2-c3")
    assert at(after, "c3") == "E" and at(after, "c4") == "w"
    after = play(state, "E c2-c3-c4")
    assert at(after, "c4") == "E" and at(after, "c5") == "w"


@pytest.mark.parametrize(
    "units, walls, text, gone",
    [
        ({"c2": "E", "c3": "w"}, ["c4"], "E c2-c3", "c3"),  # into a Wall
        ({"a2": "E", "a1": "w"}, [], "E a2-a1", "a1"),  # off the board through the Horizon
        ({"b3": "E", "a3": "w"}, [], "E b3-a3", "a3"),  # into the Border
    ],
)
def test_a_pushed_unit_is_captured_against_a_barrier_the_border_or_the_edge_R_HM7(units, walls, text, gone):
    after = play(position(units, walls=walls), text)
    assert len(after.last[0].captured) == 1
    assert after.board.name(after.last[0].captured[0][0]) == gone


def test_pushing_onto_another_unit_is_illegal_R_HM7():
    state = position({"c2": "E", "c3": "w", "c4": "f"})
    refused(state, "E c2-c3", "two units", action=1)


def test_earth_never_enters_a_wall_or_the_opponents_shield_R_HM7():
    state = position({"c2": "E"}, walls=["c3"], shields={2: "d3"})
    refused(state, "E c2-c3", "cannot enter a Wall", action=1)
    refused(state, "E c2-d3", "cannot enter Moon's Shield", action=1)


def test_faq_earth_pushing_its_own_fire_onto_a_wall_captures_it_R_HM7():
    state = position({"c2": "E", "c3": "F"}, walls=["c4"])
    after = play(state, "E c2-c3")
    assert at(after, "c4") == "." and at(after, "c3") == "E"
    assert after.last[0].captured[0][1].seat == 1


def test_earth_pushes_its_own_shield_but_never_captures_it_R_HM7():
    state = position({"c2": "E"}, shields={1: "c3"})
    after = play(state, "E c2-c3")
    assert after.shields[0] == cell(after, "c4") and at(after, "c3") == "E"
    refused(position({"c2": "E"}, shields={1: "c3"}, walls=["c4"]), "E c2-c3", "cannot be pushed onto a Wall", action=1)
    refused(position({"b2": "E"}, shields={1: "a2"}), "E b2-a2", "never captured", action=1)
    refused(position({"c2": "E", "c3": "F"}, shields={1: "c3"}), "E c2-c3", "while Sun's Fire stands on it", action=1)


def test_earth_steps_at_most_three_R_HM7():
    refused(position({"c1": "E"}), "E c1-c2-c3-c4-c5", "at most 3", action=1)


# -- R-HM8: Water ----------------------------------------------------------------------------


def test_water_slides_until_it_meets_a_piece_R_HM8():
    state = position({"c1": "W", "c6": "e"})
    after = play(state, "W c1>c5")
    assert at(after, "c5") == "W"
    refused(state, "W c1>c3", "goes on to c5", action=1)


def test_water_slides_to_the_edge_R_HM8():
    state = position({"a2": "W"})
    assert at(play(state, "W a2>a9"), "a9") == "W"


def test_water_relocates_the_unit_it_collided_with_next_to_itself_R_HM8():
    state = position({"c1": "W", "c6": "e"})
    after = play(state, "W c1>c5 c6=b5")
    assert at(after, "b5") == "e" and at(after, "c6") == "."
    refused(state, "W c1>c5 c6=c7", "next to the Water", action=1)
    refused(state, "W c1>c5 c7=b5", "collided with Moon's Earth on c6", action=1)


def test_faq_water_relocates_an_adjacent_piece_without_moving_R_HM8():
    state = position({"c3": "W", "c4": "f"})
    after = play(state, "W c3>c3 c4=b3")
    assert at(after, "b3") == "f" and at(after, "c3") == "W"
    refused(state, "W c3>c3", "must relocate", action=1)  # R-HM0
    refused(state, "W c3>c3 d3=b3", "not one", action=1)


def test_faq_barrier_relocated_onto_a_unit_captures_it_R_HM8():
    state = position({"c1": "W", "b4": "f"}, walls=["c6"])
    after = play(state, "W c1>c5 c6=b4")
    assert cell(after, "b4") in after.walls and cell(after, "c6") not in after.walls
    assert at(after, "b4") == "." and after.last[0].captured[0][1].kind == "F"


def test_water_relocates_either_shield_but_never_onto_a_barrier_R_HM8():
    state = position({"c1": "W"}, shields={2: "c6"}, walls=["b5"])
    after = play(state, "W c1>c5 c6=d5")
    assert after.shields[1] == cell(after, "d5")
    refused(state, "W c1>c5 c6=b5", "never relocated onto another barrier", action=1)


def test_water_collides_with_the_fire_on_a_barrier_not_the_barrier_R_HM8():
    state = position({"c1": "W", "c6": "f"}, walls=["c6"])
    after = play(state, "W c1>c5 c6=b5")
    assert at(after, "b5") == "f" and cell(after, "c6") in after.walls


def test_water_moves_itself_round_its_own_shield_R_HM8():
    state = position({"c1": "W"}, shields={1: "c6", 2: "e6"})
    after = play(state, "W c1>c5 c6@c7")
    assert at(after, "c7") == "W" and at(after, "c5") == "."
    refused(position({"e1": "W"}, shields={2: "e6"}), "W e1>e5 e6@e7", "own Shield", action=1)


def test_a_unit_is_relocated_onto_an_empty_hex_only_R_HM8():
    state = position({"c1": "W", "c6": "e", "b5": "f"}, walls=["d5"])
    refused(state, "W c1>c5 c6=b5", "empty hex only", action=1)
    refused(state, "W c1>c5 c6=d5", "empty hex only", action=1)


# -- R-HM9 and R-HM10 ------------------------------------------------------------------------


def test_every_other_capture_may_hit_an_adept_R_HM9():
    # Moon's Earth pushes Sun's Adept into a Wall.
    state = position({"d5": "e", "d4": "A"}, walls=["d3"], to_move=2)
    after = play(state, "E d5-d4")
    assert at(after, "d4") == "e" and at(after, "d3") == "."
    assert [(u.seat, u.kind) for _, u in after.last[0].captured] == [(1, "A")]


def test_adept_entering_the_other_horizon_wins_at_once_R_HM10():
    state = position({"d10": "A", "e1": "F"})
    after = play(state, "A d10-d11-d12")
    assert GAME.outcome(after).winners == (1,)
    assert "d12" in GAME.outcome(after).reason
    refused(state, "A d10-d11-d12; F e1-e2", "nothing may follow", action=2)
    refused(position({"d11": "A"}), "A d11-d12-e11", "nothing may follow", action=1)


def test_an_adept_pushed_into_the_other_horizon_wins_for_its_owner_R_HM10():
    # Sun's Earth pushes Moon's Adept onto Sun's Horizon: Moon wins.
    state = position({"d4": "E", "d3": "a", "c5": "A"})
    after = play(state, "E d4-d3")
    assert at(after, "d2") == "a" and GAME.outcome(after) is None
    after = play(position({"d3": "E", "d2": "a", "c5": "A"}), "E d3-d2")
    assert at(after, "d1") == "a" and GAME.outcome(after).winners == (2,)


def test_an_adept_relocated_into_the_other_horizon_wins_R_HM10():
    state = position({"b9": "W", "c9": "A"})
    after = play(state, "W b9>b9 c9=c10")
    assert GAME.outcome(after) is None  # c10 is not Moon's Horizon
    after = play(position({"a8": "W", "b9": "A"}), "W a8>a8 b9=a9")
    assert GAME.outcome(after).winners == (1,)


# -- notation (SPEC §5) ----------------------------------------------------------------------


@pytest.mark.parametrize(
    "typed, canonical",
    [
        ("a d4 - d5 * c5", "A d4-d5*c5"),
        (" f C1 X c4 ;  e e1-e2", "F c1xc4; E e1-e2"),
        ("w c1 > c5  c6 = b5", "W c1>c5 c6=b5"),
        ("+w   d1", "+W d1"),
        ("PASS", "pass"),
    ],
)
def test_any_spelling_is_stored_in_canonical_form(typed, canonical):
    state = position({"c1": "F", "e1": "E", "c6": "e"})
    if typed.startswith("w"):
        state = position({"c1": "W", "c6": "e"})
    assert str(GAME.parse(state, typed)) == canonical


@pytest.mark.parametrize("text", ["A d4", "F c1-", "X c1-c2", "A d4=d5", "E c1*c2", "+F z9", "a;b", "F c1; ; E e1-e2",
                                  "A d4-d5; F c1-c2; E e1-e2; W a1>a2"])
def test_unreadable_turns_are_notation_errors(text):
    with pytest.raises(NotationError):
        GAME.parse(position({}), text)


def test_unit_letter_must_match_the_unit():
    refused(position({"c1": "F"}), "E c1-c2", "not a Earth|not an Earth", action=1)
    refused(position({"c1": "f"}), "F c1-c2", "no unit on c1", action=1)


# -- listing and random turns ----------------------------------------------------------------


def test_listing_gives_each_outcome_once_with_a_shortest_path_SPEC_4():
    state = position({"c1": "F"})
    listing = GAME.move_listing(state, None)["moves"]
    fire = [m for m in listing if m.startswith("F c1")]
    assert "F c1-c2" in fire and "F c1-c2-c3" in fire
    assert len(fire) == len(set(fire))
    ends = [m.split("-")[-1] for m in fire]
    assert len(ends) == len(set(ends))  # one path per final cell
    assert all(m.count("-") <= 4 for m in fire)


def test_listing_after_actions_already_chosen():
    state = position({"c1": "F", "e1": "E"})
    after = GAME.move_listing(state, "+W d1")
    assert after["spent"] == 2
    assert not any(m.startswith("+") for m in after["moves"])
    assert not any(m.startswith("W") for m in after["moves"])  # just spawned
    assert GAME.move_listing(state, "+W d1; F c1-c2")["moves"] == []


def test_listing_under_the_respawn_obligation_is_the_return_only_R_HM4():
    listing = GAME.move_listing(position({"d4": "-", "c1": "F"}), None)
    assert listing["moves"] == ["+A d4"] and listing["turn_may_end"] is False


def test_every_listed_action_is_legal_and_every_listed_outcome_differs():
    state = position({"c3": "F", "e2": "E", "b2": "W", "f5": "e", "c6": "w"}, walls=["d6", "b5"], shields={1: "c3"})
    seen = set()
    for text in GAME.move_listing(state, None)["moves"]:
        after = play(state, text)
        # Distinct for each acting unit: two units may reach the same position, but the turn
        # then differs in which unit has acted.
        key = (text.split()[0] + text.split()[1][:3], after.position_key())
        assert key not in seen, text
        seen.add(key)


@pytest.mark.parametrize("seed", range(3))
def test_random_turns_are_legal_and_read_back(seed):
    rng = random.Random(seed)
    state = fresh("draft" if seed == 0 else "dawn")
    for _ in range(40):
        if GAME.outcome(state):
            break
        move = GAME.random_move(state, rng)
        again = GAME.parse(state, str(move))
        assert str(again) == str(move)
        state = GAME.apply(state, again)


@pytest.mark.parametrize("seed", range(4))
def test_garbled_turns_are_refused_with_a_referee_error_never_a_crash(seed):
    rng = random.Random(seed)
    state = position({"c1": "F", "e1": "E", "b2": "W", "c6": "e"}, walls=["d6"], shields={1: "c1"})
    pieces = ["A", "F", "E", "W", "+", "-", "*", "=", "x", ">", "@", ";", " ", "d4", "c1", "c2", "b2",
              "b9", "z9", "a", "pass", "wall", "99", "0"]
    for _ in range(300):
        text = "".join(rng.choice(pieces) for _ in range(rng.randrange(1, 9)))
        try:
            play(state, text)
        except RefereeError as exc:
            assert str(exc)


# -- diagrams --------------------------------------------------------------------------------


def _text(state: HermeticaState, last=True) -> str:
    head = Header("Hermetica", ["Seat 1 (upper case)", "Seat 2 (lower case)"], [], "Ply 7", [], "Seat 2 to move")
    return drawer.text(GAME.picture(state, GAME.parse(state, "pass") if last else None), head)


def test_text_diagram_shows_barriers_owners_and_what_the_turn_captured():
    state = position({"c1": "F", "c4": "e", "b6": "f"}, walls=["b6"], shields={2: "e5"})
    after = play(state, "F c1xc4; A d4*d5")
    text = _text(after)
    assert "#f b6 #" in text  # Moon's Fire standing on a Wall
    assert "{  e5 }" in text and "[  d5 ]" in text  # both Shields, each in its owner's brackets
    assert "1. F c1xc4: captured Moon's Earth on c4" in text
    assert "2. A d4*d5: Shield deployed on d5" in text
    # The spawn counts are the status lines' alone (not repeated under the diagram).
    assert "elements spawned" not in text


def test_text_diagram_marks_horizons_and_primes():
    text = _text(fresh(), last=False)
    assert "*A d4 *" in text and "*a d9 *" in text  # the Adepts on their Prime hexes
    assert "=  d12=" in text and "=  a1 =" in text  # d12 on Moon's Horizon, a1 on Sun's


# One hex of the text diagram as a player reads it: its marks, the unit's letter and its name
# (a plain hex ending a line has lost its closing blank).
TEXT_HEX = re.compile(
    r"(?P<open>[#\[{(*= ])(?P<unit>[AFEWafew ]) (?P<name>[a-g]\d{1,2}) ?(?P<close>[#\]})*= ]|$)"
)


def read_diagram(text: str) -> dict[str, tuple[str, str, str]]:
    """Every hex the text diagram names, as (opening mark, unit letter or ' ', closing mark)."""
    board = text.split("\n\n")[1]  # the title and players, a blank line, the board, a blank line
    found: dict[str, tuple[str, str, str]] = {}
    for line in board.splitlines():
        for m in TEXT_HEX.finditer(line):
            assert m["name"] not in found, f"{m['name']} is shown twice"
            found[m["name"]] = (m["open"], m["unit"], m["close"] or " ")
    return found


def _sample_positions():
    """Every position of every Hermetica sample, with the move that made it."""
    for path in sorted(SAMPLES.glob("hermetica/*.toml")):
        game = replay(read_record(path))
        yield from zip([None, *game.entries], (ply.position for ply in game.line))


def test_every_units_cell_and_every_wall_can_be_read_off_the_text_diagram():
    """Parsed back from the text alone, the diagram of every sample position names every hex
    once and shows on it what stands there: each unit by its letter (upper case Sun's, lower
    case Moon's), each Wall between #…#, each Shield in its owner's brackets."""
    for entry, state in _sample_positions():
        last = None if entry is None else Turn(())  # the hexes of the last ply marked (..)
        text = drawer.text(GAME.picture(state, last), Header("Hermetica", [], [], "", [], ""))
        shown = read_diagram(text)
        grid = state.board.grid
        assert set(shown) == {grid.name(c) for c in grid}
        for cell in grid:
            opening, letter, closing = shown[grid.name(cell)]
            unit = state.units[cell]
            expected = " " if unit is None else unit.kind if unit.seat == 1 else unit.kind.lower()
            assert letter == expected, (grid.name(cell), entry)
            if cell in state.walls:
                assert (opening, closing) == ("#", "#"), grid.name(cell)
            elif cell == state.shields[0]:
                assert (opening, closing) == ("[", "]"), grid.name(cell)
            elif cell == state.shields[1]:
                assert (opening, closing) == ("{", "}"), grid.name(cell)
            else:
                assert "#" not in (opening, closing) and opening + closing not in ("[]", "{}")


def test_the_text_diagram_fits_a_mail_and_names_the_hexes_as_the_notation_does():
    text = _text(play(position({"c1": "F", "b6": "f"}, walls=["b6"]), "F c1-c2"))
    assert max(len(line) for line in text.splitlines()) <= 78
    board = text.split("\n\n")[1]
    assert "(F c2 )" in board and "(  c1 )" in board  # the Fire's move, written as played


def test_faq_the_other_sides_shield_gives_no_powers():
    # Moon's Shield is a Wall to Sun's units: Fire cannot carry it, Earth cannot push it,
    # Water cannot move round it.
    refused(position({"c3": "F"}, shields={2: "c3"}), "F c3=c4", "not on its own Shield", action=1)
    refused(position({"c2": "E"}, shields={2: "c3"}), "E c2-c3", "cannot enter Moon's Shield", action=1)
    refused(position({"c1": "W"}, shields={2: "c6"}), "W c1>c5 c6@c7", "own Shield", action=1)


def test_text_diagram_spells_out_pushes_and_their_captures_R_HM7():
    after = play(position({"c2": "E", "c3": "w", "a2": "E", "a1": "f"}, walls=["c4"]), "E c2-c3; E a2-a1")
    text = _text(after)
    assert "1. E c2-c3: pushed c3 against the barrier on c4; captured Moon's Water on c3" in text
    assert "2. E a2-a1: pushed a1 off the board; captured Moon's Fire on a1" in text


def test_a_chosen_pass_is_not_told_as_a_forced_one_R_HM2_R_G3():
    """An empty turn is a Hermetica player's own choice (R-HM2): its mover is not told that a
    seat 'cannot act and passes', the note for the passes the referee writes (R-G3)."""
    from pathlib import Path

    from referee.record.reading import read_record
    from referee.play.replay import replay
    from referee.play.turn import take_turn

    path = Path(__file__).resolve().parent.parent / "sample_games" / "hermetica" / "hermetica-in-progress.toml"
    result = take_turn(replay(read_record(path)), "pass")
    assert result.play.entries[-1] == "pass"
    assert not any("cannot act" in note for note in result.notes)
