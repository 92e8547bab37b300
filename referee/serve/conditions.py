"""Hidden conditional moves (SPEC §15): "if you play X, I reply Y; if you then play Z, I reply
W …", sent to the robot and kept by it alone, out of the record the opponent receives, until
played. This is what a server can do and a file cannot.

The tree is the one `move --if/--then/--line` builds (play/lines.py): the same reading of the
lines (wire moves, spaces as `_`), the same checks on a fork of the game, the same canonical
moves, merged branches and refusals, worded as `move` words them. Only where it is kept
differs: not sealed in the ply, but in the robot's database (state.py), standing at a ply
count — it answers the opponent's very next ply. When that ply is one of its `if`s (matched as
play/lines.py matches), the robot plays the `then` for the seat through the one turn
transaction (play/turn.py `take_turn`), stamped like the ply it answers, so the record holds it
as SPEC §9 writes a ply made for a seat: the move and the stamp, nothing more; the branch's
`next` then stands. Any other ply ends the tree, and so does a ply of the seat's own.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from referee.errors import IllegalMoveError, RefereeError
from referee.play import lines
from referee.play.replay import Replay
from referee.play.turn import take_turn
from referee.play.words import in_words, who

Tree = list[dict[str, Any]]


def checked_tree(play: Replay, seat: int, pairs: list[tuple[str, str]], wire_lines: list[str]) -> Tree:
    """The tree of `pairs` (`if X then Y`) and `wire_lines` (`line M1 M2 …`, as typed) for
    `seat`, whose opponent is to move in `play`, exactly as `move --if/--then/--line` builds it;
    its refusals (IllegalMoveError naming the line and the move, UsageError for a line's
    shape) are move's, word for word."""
    return lines.checked_tree(play, seat, lines.given_lines(pairs, wire_lines))


def tree_lines(tree: Tree) -> list[str]:
    """A tree in words, a line each: "if w d4 then b c3, if w e7 then b f2"."""
    return lines.paths(tree)


def answer(work: Replay, trees: dict[int, tuple[int, Tree]], at: dt.datetime | None,
           notes: dict[int, list[str]]) -> Replay:
    """Play the hidden replies the standing trees hold while the seat to move has one that
    answers the ply just made (each reply through `take_turn`, stamped `at`, the stamp of the
    ply it answers), then drop every tree that no longer stands. `trees` ({seat: (stand,
    tree)}) is brought up to date in place; `notes` gets each seat's news (the words `move`
    uses; a tree's owner alone hears of a tree that was dropped unplayed)."""
    while True:
        seat = work.to_move()
        if seat is None or seat not in trees:
            break
        stand, tree = trees[seat]
        made = stand + 1  # the opponent's ply the tree answers
        if work.plies < made or work.line[made].mover == seat \
                or any(not work.forced_pass(p) for p in range(made + 1, work.plies + 1)):
            break  # not the very next ply, or a ply of the seat's own since: it no longer stands
        node = lines.matching(work, tree, made)
        played = work.entries[made - 1]
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
        reply = done.play.entries[work.plies]
        work = done.play
        for other in work.seats:
            whose = "Your" if other == seat else f"{who(work, seat)}'s"
            notes.setdefault(other, []).append(f"{whose} conditional reply was played: if {played} then {reply}.")
        if node.get("next") and work.to_move() not in (None, seat):
            trees[seat] = (work.plies, node["next"])
    for seat, (stand, _) in list(trees.items()):
        if stand != work.plies or work.to_move() in (None, seat):
            del trees[seat]
    return work


def refuse_for_signed_or_engine(play: Replay, seat: int) -> None:
    """Where the robot cannot keep conditional moves: a seat with a key (a reply the robot
    played for it would carry no signature, and hidden moves are sealed nowhere), a game
    against the engine (as `move` says: it replies at once)."""
    if seat in play.record.keys():
        raise IllegalMoveError("your seat signs its moves, and a reply the robot played for you would "
                               "carry no signature: send each move signed instead")
    if play.record.bots():
        raise IllegalMoveError("conditional moves wait for a player's reply; the engine replies at once")
