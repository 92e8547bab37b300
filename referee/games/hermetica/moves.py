"""Hermetica's notation (SPEC §5): the action types of a turn and of the setup plies, and how
typed text becomes them. Cells are board indices; each action prints its canonical text."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from referee.errors import NotationError
from referee.games.base import Move
from referee.games.hermetica.board import Board
from referee.games.hermetica.position import ACTIONS_PER_TURN, UNIT_NAME, HermeticaState


@dataclass(frozen=True)
class Action:
    """One action of a turn, or one setup ply. Cells are board indices; `names` prints them."""

    names: tuple[str, ...] = field(compare=False, repr=False)

    def cell_name(self, cell: int) -> str:
        return self.names[cell]


@dataclass(frozen=True)
class Spawn(Action):
    kind: str = "F"
    cell: int = 0

    def __str__(self) -> str:
        return f"+{self.kind} {self.cell_name(self.cell)}"


@dataclass(frozen=True)
class WallPly(Action):
    cell: int = 0

    def __str__(self) -> str:
        return f"wall {self.cell_name(self.cell)}"


@dataclass(frozen=True)
class Steps(Action):
    """An Adept, Fire or Earth moving: `ops` are (op, cell) with op '-' step, '*' deploy the
    Shield (Adept), '=' step carrying the Shield (Fire)."""

    kind: str = "A"
    start: int = 0
    ops: tuple[tuple[str, int], ...] = ()

    def __str__(self) -> str:
        return f"{self.kind} {self.cell_name(self.start)}" + "".join(
            f"{op}{self.cell_name(c)}" for op, c in self.ops
        )


@dataclass(frozen=True)
class Shot(Action):
    start: int = 0
    target: int = 0

    def __str__(self) -> str:
        return f"F {self.cell_name(self.start)}x{self.cell_name(self.target)}"


@dataclass(frozen=True)
class Slide(Action):
    start: int = 0
    stop: int = 0
    relocate: tuple[int, str, int] | None = None  # (collided, '=' or '@', destination)

    def __str__(self) -> str:
        text = f"W {self.cell_name(self.start)}>{self.cell_name(self.stop)}"
        if self.relocate:
            collided, op, dest = self.relocate
            text += f" {self.cell_name(collided)}{op}{self.cell_name(dest)}"
        return text


@dataclass(frozen=True)
class Turn(Move):
    """One record entry: a setup ply (one action) or a turn of up to three actions."""

    actions: tuple[Action, ...]

    def __str__(self) -> str:
        return "; ".join(str(a) for a in self.actions) if self.actions else "pass"


_CELL = r"[a-z][0-9]{1,2}"
_SPAWN = re.compile(rf"\+([afew])({_CELL})")
_WALL = re.compile(rf"wall({_CELL})")
_STEPS = re.compile(rf"([aef])({_CELL})((?:[-*=]{_CELL})+)")
_OP = re.compile(rf"([-*=])({_CELL})")
_SHOT = re.compile(rf"f({_CELL})x({_CELL})")
_SLIDE = re.compile(rf"w({_CELL})>({_CELL})(?:({_CELL})([=@])({_CELL}))?")


def _squeeze(text: str) -> str:
    """Lower case without spaces: every form of SPEC §5 stays unambiguous without them, and
    players may type as many spaces as they like."""
    return re.sub(r"\s+", "", text.lower())


def parse_action(board: Board, text: str, index: int | None) -> Action:
    """One action of a turn; `index`, its place in the turn, goes into the error it raises."""
    squeezed = _squeeze(text)
    grid, names = board.grid, board.grid.names

    def cell(name: str) -> int:
        found = grid.cell(name)
        if found is None:
            raise NotationError(f"{name} is not a cell of this board ({board.columns_words()})", action=index)
        return found

    if m := _SPAWN.fullmatch(squeezed):
        return Spawn(names, m[1].upper(), cell(m[2]))
    if m := _SHOT.fullmatch(squeezed):
        return Shot(names, cell(m[1]), cell(m[2]))
    if m := _SLIDE.fullmatch(squeezed):
        relocate = (cell(m[3]), m[4], cell(m[5])) if m[3] else None
        return Slide(names, cell(m[1]), cell(m[2]), relocate)
    if m := _STEPS.fullmatch(squeezed):
        kind = m[1].upper()
        ops = tuple((op, cell(c)) for op, c in _OP.findall(m[3]))
        allowed = {"A": "-*", "F": "-=", "E": "-"}[kind]
        for op, _ in ops:
            if op not in allowed:
                raise NotationError(
                    f"{UNIT_NAME[kind]} moves use {' and '.join(repr(o) for o in allowed)}, not {op!r}",
                    action=index,
                )
        return Steps(names, kind, cell(m[2]), ops)
    raise NotationError(
        f"cannot read {text.strip()!r} as an action: expected '+F c1', 'A d4-d5*c5', 'F c3-c4', "
        "'F c3xc7', 'E d2-d3' or 'W c3>c8 c9=d9'",
        action=index,
    )


# `; ` joins the actions of a turn (SPEC §5). No action ever holds a ',' or a ';', so a turn
# typed with ',' between its actions, or ';' without the space, reads the same (SPEC §8b).
_BETWEEN_ACTIONS = re.compile(r"[;,]")
_ACTIONS = (_SPAWN, _SHOT, _SLIDE, _STEPS)


def _glued(squeezed: str, most: int = ACTIONS_PER_TURN) -> list[str] | None:
    """`squeezed` read as two or more actions written one after the other with no ';' between
    them ('A d4-d5 F c1xc4'), or None. Only a hint for the refusal: the turn is not played so."""
    if len(squeezed) > 60:  # three of the longest actions; longer text is something else
        return None
    for cut in range(2, len(squeezed) - 1):
        head, rest = squeezed[:cut], squeezed[cut:]
        if not any(p.fullmatch(head) for p in _ACTIONS):
            continue
        if any(p.fullmatch(rest) for p in _ACTIONS):
            return [head, rest]
        tail = _glued(rest, most - 1) if most > 2 else None
        if tail:
            return [head, *tail]
    return None


def _join_hint(board: Board, text: str, index: int | None) -> NotationError | None:
    """The refusal of actions typed without '; ' between them, with the turn as it should be
    written, or None when `text` is not that."""
    pieces = _glued(_squeeze(text))
    if pieces is None:
        return None
    try:
        fixed = "; ".join(str(parse_action(board, piece, index)) for piece in pieces)
    except NotationError:
        return None
    return NotationError(
        f"cannot read {text.strip()!r} as one action: join actions with '; ', e.g. {fixed!r}",
        action=index,
    )


def parse_turn(state: HermeticaState, text: str) -> Turn:
    """One record entry as typed: a setup ply during the setup (R-HM1), else 'pass' or up to
    three actions joined by ';' (R-HM2)."""
    squeezed = _squeeze(text)
    board, phase = state.board, state.phase
    if phase == "walls":
        m = _WALL.fullmatch(squeezed)
        if not m:
            raise NotationError("the walls are being drafted: a ply is 'wall <cell>', e.g. 'wall c5' (R-HM1)")
        cell = board.grid.cell(m[1])
        if cell is None:
            raise NotationError(f"{m[1]} is not a cell of this board ({board.columns_words()})")
        return Turn((WallPly(board.grid.names, cell),))
    if phase == "elements":
        m = _SPAWN.fullmatch(squeezed)
        if not m or m[1] == "a":
            raise NotationError("elements are being placed: a ply is '+F c1', '+E c1' or '+W c1' (R-HM1)")
        return Turn((parse_action(board, text, None),))
    if squeezed == "pass":
        return Turn(())
    return Turn(parse_actions(board, text))


def parse_actions(board: Board, text: str) -> tuple[Action, ...]:
    """Up to three actions joined by '; ' (or ',' or ';' alone), each read by parse_action:
    a turn, or the actions `moves --after` is given. Raises NotationError naming the action,
    with the hint to join them where two were written as one."""
    parts = _BETWEEN_ACTIONS.split(text)
    if len(parts) > ACTIONS_PER_TURN and all(p.strip() for p in parts):
        raise NotationError(f"a turn has at most {ACTIONS_PER_TURN} actions (R-HM2)")
    actions = []
    for i, part in enumerate(parts, 1):
        if not part.strip():
            raise NotationError("an empty action: actions are joined by '; ', e.g. 'A d4-d5; F c1xc4'", action=i)
        try:
            actions.append(parse_action(board, part, i))
        except NotationError as exc:
            raise _join_hint(board, part, i) or exc from None
    return tuple(actions)
