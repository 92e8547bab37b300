"""The Hermetica mat as data (RULINGS.md §Hermetica board): the column grid on its own, and the
board file's checks."""

from __future__ import annotations

import copy

import pytest

from referee.data import builtin_data
from referee.games.hermetica.board import MOON, SUN, board_from_data
from referee.geometry.columns import BORDER, DIRECTIONS, OFF_BOARD, ColumnHexGrid

STANDARD = builtin_data("hermetica-board", "standard")
GRID = ColumnHexGrid.centred([9, 10, 11, 12, 11, 10, 9])


def names(cells) -> list[str]:
    return sorted(GRID.name(c) for c in cells)


def test_standard_mat_has_72_cells_in_seven_columns_numbered_from_the_bottom():
    assert len(GRID) == 72
    assert [len(GRID.column_cells(q)) for q in range(7)] == [9, 10, 11, 12, 11, 10, 9]
    assert GRID.name(GRID.column_cells(3)[0]) == "d1" and GRID.name(GRID.column_cells(3)[-1]) == "d12"
    assert GRID.cell("a10") is None and GRID.cell("d12") is not None and GRID.cell("h1") is None


def test_centres_follow_the_files_formula():
    # y = √3·(k−1) + (√3/2)·|c−3| with circumradius 1; here neighbours are one unit apart, so
    # divide by √3: d1 is the lowest cell and a1 sits one and a half cells higher.
    x_d1, y_d1 = GRID.centre(GRID.cell("d1"))
    x_a1, y_a1 = GRID.centre(GRID.cell("a1"))
    assert y_a1 - y_d1 == pytest.approx(1.5)
    assert x_d1 - x_a1 == pytest.approx(3 * 3 ** 0.5 / 2)


@pytest.mark.parametrize(
    "cell, expected",
    [
        ("d1", ["c1", "d2", "e1"]),
        ("a1", ["a2", "b1", "b2"]),
        ("c3", ["b2", "b3", "c2", "c4", "d3", "d4"]),
        ("d12", ["c11", "d11", "e11"]),
        ("g9", ["f10", "f9", "g8"]),
    ],
)
def test_neighbours_are_the_cells_one_hex_away(cell, expected):
    assert names(GRID.neighbours[GRID.cell(cell)]) == expected


def test_neighbourhood_is_symmetric():
    for cell in GRID:
        for nb in GRID.neighbours[cell]:
            assert cell in GRID.neighbours[nb]


def test_left_and_right_lead_to_the_border_top_and_bottom_off_the_board():
    a1, d1, a9, g5 = (GRID.cell(n) for n in ("a1", "d1", "a9", "g5"))
    up, down, up_right, down_left, down_right, up_left = DIRECTIONS
    assert GRID.beyond(a1, up_left) == BORDER and GRID.beyond(a1, down_left) == BORDER
    assert GRID.beyond(a1, down) == OFF_BOARD  # through Sun's Horizon
    assert GRID.beyond(d1, down_right) == OFF_BOARD and GRID.beyond(d1, down_left) == OFF_BOARD
    assert GRID.beyond(a9, up) == OFF_BOARD  # through Moon's Horizon
    assert GRID.beyond(g5, up_right) == BORDER and GRID.beyond(g5, down_right) == BORDER
    assert GRID.beyond(g5, up) is None


def test_rays_and_straight_lines():
    c1 = GRID.cell("c1")
    up_right = DIRECTIONS[2]
    assert [GRID.name(c) for c in GRID.ray(c1, up_right)] == ["d2", "e2", "f2", "g2"]
    assert GRID.direction(c1, GRID.cell("f2")) == up_right
    assert GRID.distance_along(c1, GRID.cell("f2")) == 3
    assert GRID.distance_along(c1, GRID.cell("c5")) == 4
    assert GRID.direction(c1, GRID.cell("d3")) is None  # a knight's hop is no line


def test_other_shapes_are_just_other_data():
    grid = ColumnHexGrid([3, 4, 3], [1, 0, 1])
    assert len(grid) == 10 and grid.names[:3] == ("a1", "a2", "a3")
    assert names_of(grid, grid.neighbours[grid.cell("b2")]) == ["a1", "a2", "b1", "b3", "c1", "c2"]


def names_of(grid, cells):
    return sorted(grid.name(c) for c in cells)


def test_columns_must_interlock():
    with pytest.raises(ValueError, match="offset by an odd number"):
        ColumnHexGrid([3, 3], [0, 2])


def test_standard_board_file_gives_horizons_primes_and_schemes():
    board = board_from_data(STANDARD)
    grid = board.grid
    assert sorted(grid.name(c) for c in board.horizons[SUN]) == ["a1", "b1", "c1", "d1", "e1", "f1", "g1"]
    assert sorted(grid.name(c) for c in board.horizons[MOON]) == ["a9", "b10", "c11", "d12", "e11", "f10", "g9"]
    assert grid.name(board.primes[SUN]) == "d4" and grid.name(board.primes[MOON]) == "d9"
    assert set(board.schemes) == {"dawn", "noon", "dusk"}
    assert all(len(w) == 12 for w in board.schemes.values())


@pytest.mark.parametrize(
    "change, message",
    [
        (lambda d: d.pop("sun"), r"\[sun\] needs horizon"),
        (lambda d: d["columns"].update({"h": 3}) or d["columns"].pop("a"), "columns must be a, b, c"),
        (lambda d: d["sun"].update(prime="z9"), "not a cell"),
        (lambda d: d["schemes"].update(dawn=["a1"] * 12), "12 different cells"),
        (lambda d: d["schemes"].update(noon=d["schemes"]["noon"][:-1] + ["d4"]), "Horizon or Prime"),
        (lambda d: d.update(extra=1), "unknown key 'extra'"),
        (lambda d: d["moon"].update(horizon=["a1", "b1", "c1"]), "share a cell"),
    ],
)
def test_a_bad_board_file_is_refused_with_a_reason(change, message):
    data = copy.deepcopy(STANDARD)
    change(data)
    with pytest.raises(ValueError, match=message):
        board_from_data(data)
