"""The shared board geometry on its own (SPEC §2 "Cell names"): which cells exist, what they are
called, how they touch, where straight lines run and where the renderers draw them."""

from __future__ import annotations

import math
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.geometry import HexHexGrid, SquareGrid, hexhex_grid, square_grid
from referee.geometry.columns import ColumnHexGrid

HEX_SIDES = range(3, 13)
SQRT3_2 = math.sqrt(3) / 2

sides = st.integers(min_value=3, max_value=12)


def names(grid, cells):
    return [grid.name(c) for c in cells]


def dist(a, b):
    return math.hypot(a[0] - b[0], a[1] - b[1])


def hex_cell_at(grid, q, r):
    """The cell at (q, r) reached through its SPEC §2 name, not through the grid's internals."""
    return grid.cell(f"{'abcdefghijklmnopqrstuvw'[q]}{r + 1}")


# -- hex-hex: which cells exist and what they are called (SPEC §2) -----------------------------


@pytest.mark.parametrize("side", HEX_SIDES)
def test_hexhex_cell_count_is_3n2_minus_3n_plus_1(side):
    grid = HexHexGrid(side)
    assert len(grid) == 3 * side * side - 3 * side + 1
    assert len(list(grid)) == len(grid)
    assert len(set(grid.names)) == len(grid)


def test_hexhex_side5_has_61_cells():
    """R-OD1: the standard Odd board has 61 cells."""
    assert len(HexHexGrid(5)) == 61


@pytest.mark.parametrize("side", HEX_SIDES)
def test_hexhex_cell_exists_iff_q_minus_r_within_side(side):
    """SPEC §2: letter a… is q = 0…2N−2, number 1… is r+1; a cell exists iff |q − r| ≤ N−1."""
    grid = HexHexGrid(side)
    span = 2 * side - 1
    expected = {
        f"{chr(ord('a') + q)}{r + 1}"
        for q in range(span)
        for r in range(span)
        if abs(q - r) <= side - 1
    }
    assert set(grid.names) == expected
    # Just outside the span there is nothing.
    assert grid.cell(f"{chr(ord('a') + span)}{span}") is None
    assert grid.cell(f"a{span + 1}") is None
    assert grid.cell("a0") is None


def test_hexhex_side5_rows_as_in_spec():
    """SPEC §2: for N = 5 row 1 is a1…e1, row 5 is a5…i5, row 9 is e9…i9."""
    grid = HexHexGrid(5)
    assert names(grid, grid.row_cells(0)) == ["a1", "b1", "c1", "d1", "e1"]
    assert names(grid, grid.row_cells(4)) == ["a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "i5"]
    assert names(grid, grid.row_cells(8)) == ["e9", "f9", "g9", "h9", "i9"]
    assert grid.rows == 9 and grid.columns == 9


def test_hexhex_side5_columns_as_in_spec():
    """SPEC §2: column a holds rows 1–5, column e rows 1–9, column i rows 5–9."""
    grid = HexHexGrid(5)
    assert names(grid, grid.column_cells(0)) == ["a1", "a2", "a3", "a4", "a5"]
    assert names(grid, grid.column_cells(4)) == [f"e{n}" for n in range(1, 10)]
    assert names(grid, grid.column_cells(8)) == ["i5", "i6", "i7", "i8", "i9"]
    assert grid.cell("a6") is None
    assert grid.cell("i4") is None
    assert grid.cell("j5") is None


@pytest.mark.parametrize("side, centre", [(3, "c3"), (5, "e5"), (6, "f6"), (7, "g7"), (12, "l12")])
def test_hexhex_centre_cell(side, centre):
    """SPEC §2: the centre of N = 5 is e5, of N = 6 is f6 (R-HE2 forbids it for the first stone)."""
    grid = HexHexGrid(side)
    assert grid.name(grid.centre_cell) == centre
    # The centre is the one cell with the same distance to all six corners.
    corners = [c for c in grid if len(grid.neighbours[c]) == 3]
    d = {round(dist(grid.centre(grid.centre_cell), grid.centre(k)), 9) for k in corners}
    assert len(d) == 1


@pytest.mark.parametrize("side", [-1, 0, 1, 2, 13, 20])
def test_hexhex_invalid_side_raises_value_error(side):
    with pytest.raises(ValueError):
        HexHexGrid(side)


# -- hex-hex neighbours (SPEC §2) ----------------------------------------------------------------


def test_hexhex_neighbours_of_e5_side5():
    """SPEC §2: neighbours of (q, r) are (q±1, r), (q, r±1), (q+1, r+1), (q−1, r−1)."""
    grid = HexHexGrid(5)
    e5 = grid.cell("e5")
    assert set(names(grid, grid.neighbours[e5])) == {"d5", "f5", "e4", "e6", "f6", "d4"}
    # The other diagonal is not a neighbour on this board.
    assert grid.cell("f4") not in grid.neighbours[e5]
    assert grid.cell("d6") not in grid.neighbours[e5]


@pytest.mark.parametrize("side", HEX_SIDES)
def test_hexhex_corners_have_three_neighbours_inside_six(side):
    grid = HexHexGrid(side)
    n = side - 1
    corner_coords = [(0, 0), (n, 0), (2 * n, n), (2 * n, 2 * n), (n, 2 * n), (0, n)]
    corners = {hex_cell_at(grid, q, r) for q, r in corner_coords}
    degrees = {c: len(grid.neighbours[c]) for c in grid}
    assert {c for c, d in degrees.items() if d == 3} == corners
    # Edge cells between corners have 4, everything else 6.
    assert sum(1 for d in degrees.values() if d == 4) == 6 * (side - 2)
    assert sum(1 for d in degrees.values() if d == 6) == len(grid) - 6 - 6 * (side - 2)
    assert set(degrees.values()) == {3, 4, 6}


def test_hexhex_side5_corner_neighbours():
    grid = HexHexGrid(5)
    assert set(names(grid, grid.neighbours[grid.cell("a1")])) == {"b1", "a2", "b2"}
    assert set(names(grid, grid.neighbours[grid.cell("i9")])) == {"h9", "i8", "h8"}
    assert set(names(grid, grid.neighbours[grid.cell("e1")])) == {"d1", "e2", "f2"}
    assert set(names(grid, grid.neighbours[grid.cell("a5")])) == {"a4", "b5", "b6"}


@settings(max_examples=40, deadline=None)
@given(side=sides, data=st.data())
def test_hexhex_neighbour_relation_is_symmetric_and_irreflexive(side, data):
    grid = HexHexGrid(side)
    cell = data.draw(st.integers(0, len(grid) - 1))
    nbs = grid.neighbours[cell]
    assert cell not in nbs
    assert len(set(nbs)) == len(nbs)
    for nb in nbs:
        assert cell in grid.neighbours[nb]


@pytest.mark.parametrize("side", HEX_SIDES)
def test_hexhex_neighbours_are_exactly_the_cells_at_distance_one(side):
    """SPEC §2 drawing: neighbouring hexes touch, so their centres are 1 apart; others are ≥ √3."""
    grid = HexHexGrid(side)
    for a in grid:
        for b in grid:
            if a == b:
                continue
            d = dist(grid.centre(a), grid.centre(b))
            if b in grid.neighbours[a]:
                assert d == pytest.approx(1.0)
            else:
                assert d > 1.7


# -- hex-hex straight lines ----------------------------------------------------------------------


def test_hexhex_directions_come_in_opposite_pairs():
    dirs = HexHexGrid.directions
    assert len(dirs) == 6 and len(set(dirs)) == 6
    for k in range(0, 6, 2):
        assert (dirs[k][0] + dirs[k + 1][0], dirs[k][1] + dirs[k + 1][1]) == (0, 0)


def test_hexhex_rays_from_e5_side5():
    grid = HexHexGrid(5)
    e5 = grid.cell("e5")
    rays = {d: names(grid, grid.ray(e5, d)) for d in grid.directions}
    assert rays[(1, 0)] == ["f5", "g5", "h5", "i5"]
    assert rays[(-1, 0)] == ["d5", "c5", "b5", "a5"]
    assert rays[(0, 1)] == ["e6", "e7", "e8", "e9"]
    assert rays[(0, -1)] == ["e4", "e3", "e2", "e1"]
    assert rays[(1, 1)] == ["f6", "g7", "h8", "i9"]
    assert rays[(-1, -1)] == ["d4", "c3", "b2", "a1"]


def test_hexhex_ray_from_corner_outwards_is_empty():
    grid = HexHexGrid(5)
    a1 = grid.cell("a1")
    assert list(grid.ray(a1, (-1, 0))) == []
    assert list(grid.ray(a1, (0, -1))) == []
    assert list(grid.ray(a1, (-1, -1))) == []
    assert names(grid, grid.ray(a1, (1, 0))) == ["b1", "c1", "d1", "e1"]


@settings(max_examples=40, deadline=None)
@given(side=sides, data=st.data())
def test_hexhex_ray_is_a_straight_line_to_the_edge(side, data):
    grid = HexHexGrid(side)
    cell = data.draw(st.integers(0, len(grid) - 1))
    k = data.draw(st.integers(0, 2))
    forward, backward = grid.directions[2 * k], grid.directions[2 * k + 1]
    ahead = list(grid.ray(cell, forward))
    behind = list(grid.ray(cell, backward))
    line = behind[::-1] + [cell] + ahead
    # Consecutive cells touch, and the line runs the full width of the board: it ends at the edge.
    for a, b in zip(line, line[1:]):
        assert b in grid.neighbours[a]
    assert grid.step(line[-1], forward) is None
    assert grid.step(line[0], backward) is None
    assert side <= len(line) <= 2 * side - 1
    # The centres are collinear and equally spaced.
    x0, y0 = grid.centre(line[0])
    for i, c in enumerate(line):
        x, y = grid.centre(c)
        if len(line) > 1:
            x1, y1 = grid.centre(line[1])
            assert x == pytest.approx(x0 + i * (x1 - x0), abs=1e-9)
            assert y == pytest.approx(y0 + i * (y1 - y0), abs=1e-9)
    # Walking back from the far end in the opposite direction retraces the line.
    if ahead:
        assert list(grid.ray(ahead[-1], backward)) == (behind[::-1] + [cell] + ahead[:-1])[::-1]


@pytest.mark.parametrize("side", HEX_SIDES)
def test_hexhex_rays_from_the_centre_reach_the_six_corners(side):
    grid = HexHexGrid(side)
    ends = set()
    for d in grid.directions:
        ray = list(grid.ray(grid.centre_cell, d))
        assert len(ray) == side - 1
        ends.add(ray[-1])
    assert ends == {c for c in grid if len(grid.neighbours[c]) == 3}


# -- hex-hex drawing centres (SPEC §2) -----------------------------------------------------------


@pytest.mark.parametrize("side", [3, 5, 8, 12])
def test_hexhex_centre_formula(side):
    """SPEC §2: pointy-top, row 1 at the bottom, centre at x = q − r/2, y = r·√3/2."""
    grid = HexHexGrid(side)
    for c in grid:
        name = grid.name(c)
        q, r = ord(name[0]) - ord("a"), int(name[1:]) - 1
        x, y = grid.centre(c)
        assert x == pytest.approx(q - r / 2)
        assert y == pytest.approx(r * SQRT3_2)


def test_hexhex_side5_known_centres_and_horizontal_rows():
    grid = HexHexGrid(5)
    assert grid.centre(grid.cell("a1")) == pytest.approx((0.0, 0.0))
    assert grid.centre(grid.cell("e5")) == pytest.approx((2.0, 4 * SQRT3_2))
    assert grid.centre(grid.cell("a5")) == pytest.approx((-2.0, 4 * SQRT3_2))
    assert grid.centre(grid.cell("i9")) == pytest.approx((4.0, 8 * SQRT3_2))
    for r in range(9):
        ys = {round(grid.centre(c)[1], 9) for c in grid.row_cells(r)}
        assert len(ys) == 1  # each row horizontal
    # Row 1 is at the bottom, row 9 at the top; each row left to right by letter.
    assert grid.centre(grid.cell("e1"))[1] < grid.centre(grid.cell("e9"))[1]
    row5 = [grid.centre(c)[0] for c in grid.row_cells(4)]
    assert row5 == sorted(row5)


def test_hexhex_corners_pointy_top_and_shared_between_neighbours():
    """Pointy-top hexes of width 1: a corner straight above the centre, neighbours share an edge."""
    grid = HexHexGrid(4)
    for c in grid:
        x, y = grid.centre(c)
        corners = grid.corners(c)
        assert len(corners) == 6
        for cx, cy in corners:
            assert math.hypot(cx - x, cy - y) == pytest.approx(1 / math.sqrt(3))
        top = max(corners, key=lambda p: p[1])
        assert top[0] == pytest.approx(x)
        for nb in grid.neighbours[c]:
            shared = [
                p for p in corners if any(dist(p, o) < 1e-9 for o in grid.corners(nb))
            ]
            assert len(shared) == 2


# -- cell() parsing ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, name",
    [
        ("e5", "e5"),
        ("E5", "e5"),
        ("  e5 ", "e5"),
        ("\te5\n", "e5"),
        ("e05", "e5"),
        ("A01", "a1"),
        ("I9", "i9"),
    ],
)
def test_cell_parsing_is_case_insensitive_and_tolerant(text, name):
    """SPEC §5: input is case-insensitive and tolerates extra spaces; e05 is just e5."""
    grid = HexHexGrid(5)
    cell = grid.cell(text)
    assert cell is not None
    assert grid.name(cell) == name


@pytest.mark.parametrize(
    "text", ["", " ", "e", "5", "5e", "e0", "a6", "j5", "z1", "e5x", "ee5", "e-5", "e+5", "é5", "e10"]
)
def test_cell_unknown_names_give_none(text):
    assert HexHexGrid(5).cell(text) is None


@pytest.mark.parametrize("side", HEX_SIDES)
def test_cell_and_name_round_trip(side):
    grid = HexHexGrid(side)
    for c in grid:
        assert grid.cell(grid.name(c)) == c
        assert grid.cell(grid.name(c).upper()) == c


def test_cell_two_digit_rows():
    grid = HexHexGrid(12)
    assert grid.name(grid.cell("L23")) == "l23"
    assert grid.name(grid.cell("w23")) == "w23"
    assert grid.cell("a13") is None
    assert grid.cell("w11") is None


# -- board order ---------------------------------------------------------------------------------


def _order_key(name):
    m = re.fullmatch(r"([a-z])(\d+)", name)
    return (m[1], int(m[2]))


@pytest.mark.parametrize("grid", [HexHexGrid(3), HexHexGrid(6), HexHexGrid(12), SquareGrid(7), SquareGrid(12)],
                         ids=lambda g: f"{g.shape}-{len(g)}")
def test_board_order_is_letter_then_number(grid):
    """SPEC §5 (harmijan setup): board order is letter, then number — numerically, so f9 < f10."""
    in_order = [grid.name(c) for c in grid]
    assert in_order == sorted(in_order, key=_order_key)
    assert list(grid.names) == in_order


def test_board_order_numeric_not_textual():
    grid = HexHexGrid(6)
    assert grid.cell("f2") < grid.cell("f10") < grid.cell("f11") < grid.cell("g2")


# -- components ----------------------------------------------------------------------------------


def test_components_on_side5():
    grid = HexHexGrid(5)
    values = [0] * len(grid)
    for name in ("e5", "f5", "f6"):  # one black group of three (f6 touches e5 and f5)
        values[grid.cell(name)] = 1
    values[grid.cell("a1")] = 1  # a lone black stone
    for name in ("e4", "d4"):  # a white pair touching the black group
        values[grid.cell(name)] = 2
    values[grid.cell("d6")] = 1  # (q−1, r+1) from e5: not adjacent on this board
    groups = sorted((v, names(grid, cells)) for v, cells in grid.components(values))
    assert groups == [
        (1, ["a1"]),
        (1, ["d6"]),
        (1, ["e5", "f5", "f6"]),
        (2, ["d4", "e4"]),
    ]


def test_components_of_an_empty_board_and_a_full_one():
    grid = HexHexGrid(4)
    assert grid.components([0] * len(grid)) == []
    [(value, cells)] = grid.components([7] * len(grid))
    assert value == 7 and cells == list(grid)


def test_components_on_square_board_use_orthogonal_adjacency():
    grid = SquareGrid(3)
    values = [0] * len(grid)
    for name in ("a1", "b2", "c3"):  # a diagonal: three separate groups
        values[grid.cell(name)] = 1
    assert sorted(names(grid, cells) for _, cells in grid.components(values)) == [["a1"], ["b2"], ["c3"]]
    values[grid.cell("b1")] = 1
    values[grid.cell("c2")] = 1
    groups = [names(grid, cells) for _, cells in grid.components(values)]
    assert groups == [["a1", "b1", "b2", "c2", "c3"]]


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_components_partition_into_maximal_connected_groups(data):
    grid = data.draw(st.sampled_from([HexHexGrid(3), HexHexGrid(4), SquareGrid(4), SquareGrid(5)]))
    values = data.draw(st.lists(st.integers(0, 2), min_size=len(grid), max_size=len(grid)))
    groups = grid.components(values)
    covered = [c for _, cells in groups for c in cells]
    # Every occupied cell in exactly one group; no empty cell in any.
    assert sorted(covered) == [c for c in grid if values[c] != 0]
    for value, cells in groups:
        assert value != 0
        assert cells == sorted(cells)
        members = set(cells)
        assert all(values[c] == value for c in cells)
        # Maximal: no same-valued neighbour outside the group.
        for c in cells:
            for nb in grid.neighbours[c]:
                if values[nb] == value:
                    assert nb in members
        # Connected: a walk inside the group reaches every member.
        seen, stack = {cells[0]}, [cells[0]]
        while stack:
            for nb in grid.neighbours[stack.pop()]:
                if nb in members and nb not in seen:
                    seen.add(nb)
                    stack.append(nb)
        assert seen == members


def test_component_labels_number_the_groups_of_components():
    grid = HexHexGrid(5)
    rng = random.Random(7)
    for _ in range(40):
        values = [rng.choice((0, 0, 1, 2)) for _ in grid]
        label, groups = grid.component_labels(values)
        assert [(values[cells[0]], cells) for cells in groups] == grid.components(values)
        assert label == [
            next((n for n, cells in enumerate(groups) if c in cells), -1) for c in grid
        ]


# -- straight lines between two cells ------------------------------------------------------------

LINE_GRIDS = [
    HexHexGrid(3),
    HexHexGrid(5),
    SquareGrid(5),
    SquareGrid(6),
    ColumnHexGrid.centred([9, 10, 11, 12, 11, 10, 9]),
    ColumnHexGrid([3, 4, 3], [1, 0, 1]),
]


@pytest.mark.parametrize("grid", LINE_GRIDS, ids=lambda g: f"{g.shape}-{len(g)}")
def test_direction_is_the_ray_that_reaches_the_other_cell(grid):
    """`direction(a, b)` is the step d with b on `ray(a, d)`, and None when no ray reaches b."""
    for a in grid:
        on_ray = {b: d for d in grid.directions for b in grid.ray(a, d)}
        for b in grid:
            assert grid.direction(a, b) == on_ray.get(b), (grid.name(a), grid.name(b))


def test_direction_on_hexhex_keeps_the_letter_the_number_or_steps_both():
    grid = HexHexGrid(7)
    c4 = grid.cell("c4")
    assert grid.direction(c4, grid.cell("c9")) == (0, 1)
    assert grid.direction(c4, grid.cell("a4")) == (-1, 0)
    assert grid.direction(c4, grid.cell("f7")) == (1, 1)
    assert grid.direction(c4, grid.cell("d6")) is None  # a knight's hop is no line
    assert grid.direction(c4, grid.cell("b5")) is None  # (−1, +1) is not a hex-hex line
    assert grid.direction(c4, c4) is None


# -- shared boards -------------------------------------------------------------------------------


def test_cached_boards_are_built_once_per_size():
    assert hexhex_grid(5) is hexhex_grid(5) and hexhex_grid(6) is not hexhex_grid(5)
    assert hexhex_grid(5).names == HexHexGrid(5).names
    assert hexhex_grid(5).neighbours == HexHexGrid(5).neighbours
    assert square_grid(7) is square_grid(7) and square_grid(7).names == SquareGrid(7).names
    with pytest.raises(ValueError):
        hexhex_grid(2)
    with pytest.raises(ValueError):
        square_grid(27)


# -- square boards (SPEC §2, R-HE1, R-HE2) -------------------------------------------------------


def test_square_7_names_a1_bottom_left_to_g7_top_right():
    grid = SquareGrid(7)
    assert len(grid) == 49
    assert set(grid.names) == {f"{l}{n}" for l in "abcdefg" for n in range(1, 8)}
    xs = [grid.centre(c)[0] for c in grid]
    ys = [grid.centre(c)[1] for c in grid]
    a1, g7 = grid.centre(grid.cell("a1")), grid.centre(grid.cell("g7"))
    assert a1 == (min(xs), min(ys))  # bottom-left
    assert g7 == (max(xs), max(ys))  # top-right
    assert grid.centre(grid.cell("g1")) == (max(xs), min(ys))
    assert grid.cell("h1") is None and grid.cell("a8") is None and grid.cell("a0") is None


def test_square_neighbours_are_orthogonal_only():
    grid = SquareGrid(7)
    d4 = grid.cell("d4")
    assert set(names(grid, grid.neighbours[d4])) == {"c4", "e4", "d3", "d5"}
    assert set(names(grid, grid.neighbours[grid.cell("a1")])) == {"a2", "b1"}
    assert set(names(grid, grid.neighbours[grid.cell("g7")])) == {"f7", "g6"}
    assert set(names(grid, grid.neighbours[grid.cell("a4")])) == {"a3", "a5", "b4"}
    assert grid.cell("b2") not in grid.neighbours[grid.cell("a1")]


@pytest.mark.parametrize("size", [2, 5, 7, 9, 26])
def test_square_degrees_and_symmetry(size):
    grid = SquareGrid(size)
    degrees = [len(grid.neighbours[c]) for c in grid]
    assert degrees.count(2) == 4
    assert degrees.count(3) == 4 * (size - 2)
    assert degrees.count(4) == (size - 2) ** 2
    for c in grid:
        for nb in grid.neighbours[c]:
            assert c in grid.neighbours[nb]
            assert dist(grid.centre(c), grid.centre(nb)) == pytest.approx(1.0)


def test_square_rays():
    grid = SquareGrid(7)
    d4 = grid.cell("d4")
    rays = {d: names(grid, grid.ray(d4, d)) for d in grid.directions}
    assert rays == {
        (1, 0): ["e4", "f4", "g4"],
        (-1, 0): ["c4", "b4", "a4"],
        (0, 1): ["d5", "d6", "d7"],
        (0, -1): ["d3", "d2", "d1"],
    }


@pytest.mark.parametrize("size, centre", [(5, "c3"), (7, "d4"), (9, "e5")])
def test_square_centre_odd_sizes(size, centre):
    """R-HE2: the centre of the 7×7 board is d4."""
    grid = SquareGrid(size)
    assert grid.name(grid.centre_cell) == centre


@pytest.mark.parametrize("size", [2, 6, 8])
def test_square_even_sizes_have_no_centre(size):
    """R-HE2: square boards of even size have no centre."""
    assert SquareGrid(size).centre_cell is None


@pytest.mark.parametrize("size", [-1, 0, 1, 27])
def test_square_invalid_size_raises_value_error(size):
    with pytest.raises(ValueError):
        SquareGrid(size)
