"""Hidden conditional moves (SPEC §15): "if you play X, I reply Y; if you then play Z, I reply
W …", sent to the robot and kept by it alone, out of the record the opponent receives, until
played. This is what a server can do and a file cannot.

A seat's conditions form a tree, as SPEC §12's lines do in a record: `[{if, then, next}]`,
every move checked when it is set (on a fork of the game, by the rules that judge `move`) and
kept in canonical form. A tree stands at a ply count: it answers the opponent's very next ply.
When that ply is one of its `if`s, the robot plays the `then` for the seat through the one turn
transaction (play/turn.py `take_turn`), stamped like the ply it answers, so the record holds
it as SPEC §9 writes a ply made for a seat: the move and the stamp, nothing more; the branch's
`next` then stands. Any other ply ends the tree, and so does a ply of the seat's own.

The robot's database keeps the trees (state.py); this module works on them as values.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from referee.errors import IllegalMoveError, RefereeError
from referee.games.base import count
from referee.play.replay import Replay
from referee.play.turn import take_turn
from referee.play.words import in_words, who
from referee.record.values import MAX_MOVE_CHARS

MAX_DEPTH = 50  # replies in one line: far beyond any correspondence player's patience
MAX_NODES = 200  # moves in one seat's tree

Tree = list[dict[str, Any]]


def wire_moves(words: list[str] | tuple[str, ...]) -> list[str]:
    """A line's moves as written on the wire (SPEC §10, §12: spaces as `_`), as moves."""
    return [word.replace("_", " ") for word in words]


def checked_tree(play: Replay, seat: int, lines: list[list[str]]) -> Tree:
    """The tree of `lines` (each: the opponent's move, this seat's reply, …) for `seat`, whose
    opponent is to move in `play`: every move checked where it stands and written
    canonically; lines that begin alike share their branches. Raises IllegalMoveError naming
    the line and the move."""
    if play.to_move() in (None, seat):
        raise IllegalMoveError("conditional moves answer your opponent's move: they are set when "
                               "your opponent is to move")
    tree: Tree = []
    nodes = 0
    for number, line in enumerate(lines, 1):
        label = f"line {number} ({' '.join(m.replace(' ', '_') for m in line)[:80]})" if len(lines) > 1 \
            else f"line {' '.join(m.replace(' ', '_') for m in line)[:80]}"
        if not line or len(line) % 2:
            raise IllegalMoveError(f"{label}: a line is pairs of moves, the opponent's then your reply "
                                   f"({count(len(line), 'move')} given)")
        if len(line) > 2 * MAX_DEPTH or any(len(m) > MAX_MOVE_CHARS for m in line):
            raise IllegalMoveError(f"{label}: too long (at most {MAX_DEPTH} replies)")
        level = tree
        for (if_move, then_move), at in zip(_walk(play, seat, line, label), range(1, len(line), 2)):
            node = next((n for n in level if n["if"] == if_move), None)
            if node is None:
                node = {"if": if_move, "then": then_move}
                level.append(node)
                nodes += 1
            elif node["then"] != then_move:
                raise IllegalMoveError(f"{label}: two replies to {if_move} (move {at}): {node['then']} "
                                       f"and {then_move}; give one reply to each move")
            if at + 1 < len(line):
                level = node.setdefault("next", [])
    if nodes > MAX_NODES:
        raise IllegalMoveError(f"at most {MAX_NODES} conditional moves at once")
    return tree


def _walk(play: Replay, seat: int, line: list[str], label: str) -> list[tuple[str, str]]:
    """A line's pairs in canonical form, each move checked in the position it meets: the
    opponent's move (then the passes it forces), and then it must be this seat's turn."""
    trial = play.fork()
    pairs = []
    for index in range(0, len(line), 2):
        if_text, then_text = line[index], line[index + 1]
        try:
            first = trial.push(if_text)
            trial.push_forced_passes()
        except RefereeError as exc:
            raise IllegalMoveError(f"{label}: move {index + 1} ({if_text.strip()}): {exc.reason}") from None
        if trial.to_move() != seat:
            raise IllegalMoveError(f"{label}: after {first} (move {index + 1}) it is not your turn, "
                                   "so no reply can follow")
        try:
            second = trial.push(then_text)
            trial.push_forced_passes()
        except RefereeError as exc:
            raise IllegalMoveError(f"{label}: move {index + 2} ({then_text.strip()}): {exc.reason}") from None
        if index + 2 < len(line) and trial.to_move() in (None, seat):
            raise IllegalMoveError(f"{label}: after {second} (move {index + 2}) your opponent does not "
                                   "move next, so the line cannot go on")
        pairs.append((str(first), str(second)))
    return pairs


def tree_lines(tree: Tree, before: tuple[str, ...] = ()) -> list[str]:
    """A tree in words, a line each: "if w d4 then b c3, if w e7 then b f2"."""
    found = []
    for node in tree:
        here = (*before, f"if {node['if']} then {node['then']}")
        found += tree_lines(node["next"], here) if node.get("next") else [", ".join(here)]
    return found


def answer(work: Replay, trees: dict[int, tuple[int, Tree]], at: dt.datetime | None,
           notes: dict[int, list[str]]) -> Replay:
    """Play the hidden replies the standing trees hold while the seat to move has one that
    answers the ply just made (each reply through `take_turn`, stamped `at`, the stamp of the
    ply it answers), then drop every tree that no longer stands. `trees` ({seat: (stand,
    tree)}) is brought up to date in place; `notes` gets each seat's news."""
    while True:
        seat = work.to_move()
        if seat is None or seat not in trees:
            break
        stand, tree = trees[seat]
        made = stand + 1  # the opponent's ply the tree answers
        if work.plies < made or work.line[made].mover == seat \
                or any(not work.forced_pass(p) for p in range(made + 1, work.plies + 1)):
            break  # not the very next ply, or a ply of the seat's own since: it no longer stands
        played = work.entries[made - 1]
        node = next((n for n in tree if n["if"] == played), None)
        del trees[seat]
        if node is None:
            notes.setdefault(seat, []).append(f"Your conditional moves were dropped: none was for {played}.")
            break
        try:
            done = take_turn(work, node["then"], seat=seat, at=at)
        except RefereeError as exc:  # the position cannot differ from the one it was checked in, but
            notes.setdefault(seat, []).append(
                f"Your conditional reply {node['then']} was dropped: {in_words(work, exc.reason)}.")
            break
        work = done.play
        for other in work.seats:
            whose = "Your" if other == seat else f"{who(work, seat)}'s"
            notes.setdefault(other, []).append(f"{whose} conditional reply was played: if {played} then {node['then']}.")
        if node.get("next") and work.to_move() not in (None, seat):
            trees[seat] = (work.plies, node["next"])
    for seat, (stand, _) in list(trees.items()):
        if stand != work.plies or work.to_move() in (None, seat):
            del trees[seat]
    return work
