"""Harmijan's score (R-HJ6, R-HJ7): creatures grouped by shape under the 12 symmetries of the
hex grid, each shape class worth n·s + s, and the two colours' lists of classes compared."""

from __future__ import annotations

from dataclasses import dataclass

BLACK, WHITE = 1, 2
COLOUR = {BLACK: "black", WHITE: "white"}


# -- shapes (R-HJ6) ----------------------------------------------------------------------------


def symmetries(q: int, r: int) -> list[tuple[int, int]]:
    """The 12 images of axial cell (q, r) under the rotations and reflections of the hex grid.

    In cube coordinates x = q, y = r − q, z = −r (x + y + z = 0) the six directions of SPEC §2
    are the permutations of (1, −1, 0); a turn by 60° is (x, y, z) → (−z, −x, −y) and swapping
    y and z is a reflection.
    """
    x, y, z = q, r - q, -r
    images = []
    for cube in ((x, y, z), (x, z, y)):
        a, b, c = cube
        for _ in range(6):
            images.append((a, -c))  # back to axial: q = x, r = −z
            a, b, c = -c, -a, -b
    return images


def shape_form(cells: "list[tuple[int, int]] | tuple[tuple[int, int], ...]") -> tuple[tuple[int, int], ...]:
    """The canonical form of a creature's shape: the same for all shapes that one of the 12
    symmetries and a translation map onto each other, different otherwise (R-HJ6).

    Each of the 12 images is translated so that its smallest cell is (0, 0); the form is the
    smallest of the 12 sorted tuples."""
    images = zip(*(symmetries(q, r) for q, r in cells))
    forms = []
    for image in images:
        ordered = sorted(image)
        q0, r0 = ordered[0]
        forms.append(tuple((q - q0, r - r0) for q, r in ordered))
    return min(forms)


@dataclass(frozen=True)
class ShapeClass:
    """Creatures of one colour with one shape (R-HJ7): `count` of them, `size` stones each."""

    size: int
    count: int
    creatures: tuple[tuple[int, ...], ...]  # their cells, for the diagram

    @property
    def worth(self) -> int:
        return self.count * self.size + self.size  # R-HJ7: n·s + s

    def as_json(self) -> dict[str, int]:
        return {"size": self.size, "count": self.count, "worth": self.worth}

    def __str__(self) -> str:
        return f"{self.worth} ({self.count}×{self.size})"


def shape_classes(coords: "list[tuple[int, int]] | tuple[tuple[int, int], ...]",
                  creatures: list[list[int]]) -> list[ShapeClass]:
    """The shape classes of one colour's `creatures` (their cells; `coords`: each cell's axial
    coordinates) in the order compared: largest size first, then higher worth (R-HJ7)."""
    by_form: dict[tuple, list[tuple[int, ...]]] = {}
    for cells in creatures:
        form = shape_form([coords[c] for c in cells])
        by_form.setdefault(form, []).append(tuple(cells))
    classes = [ShapeClass(len(form), len(group), tuple(group)) for form, group in by_form.items()]
    # Equal size and worth: the class holding the first cell in board order first, so the
    # order (and the diagram's numbering) never depends on anything but the position.
    return sorted(classes, key=lambda k: (-k.size, -k.worth, k.creatures[0][0]))


# -- the position ------------------------------------------------------------------------------


def compare(black: list[ShapeClass], white: list[ShapeClass]) -> tuple[int | None, str]:
    """R-HJ7: compare the classes in order by worth; a list that runs out first loses."""
    tied: list[int] = []
    for k in range(max(len(black), len(white))):
        nth = ordinal(k + 1)
        if k >= len(black) or k >= len(white):
            short = BLACK if k >= len(black) else WHITE
            return 3 - short, ties(tied) + f"{COLOUR[short]} has no {nth} class"
        a, b = black[k].worth, white[k].worth
        if a != b:
            winner = BLACK if a > b else WHITE
            return winner, ties(tied) + f"{nth} class {COLOUR[winner]} {max(a, b)} to {min(a, b)}"
        tied.append(a)
    if not tied:
        return None, "no creatures on either side"
    return None, "identical scoring lists (" + ", ".join(str(w) for w in tied) + ")"


def ties(worths: list[int]) -> str:
    """The classes that tied before the decision, short enough for a status line."""
    if not worths:
        return ""
    if len(worths) == 1:
        return f"1st classes tie at {worths[0]}; "
    values = ", ".join(str(w) for w in worths)
    return f"1st–{ordinal(len(worths))} classes tie ({values}); "


def ordinal(n: int) -> str:
    return {1: "1st", 2: "2nd", 3: "3rd"}.get(n, f"{n}th")

