"""Conditional moves and lines (SPEC §9, §12): "if you play X, I reply Y; if you then play Z, I
reply W …", set with a move, sealed in its ply, played by the opponent's referee.

A player gives pairs (`--if X --then Y`) and lines (`--line "X Y Z W"`, moves in UGI's wire form,
spaces written `_`), alternately the opponent's move and the reply. Together they form a tree,
stored in the ply that set it as `pending = [{ if, then, next = [...] }]`: lines that begin
alike share their branches, and one opponent's move has one reply. Every move of every line is
checked when it is set, on a fork of the game; the moves are stored in canonical form.

When the opponent plays an `if`, its `then` is written for the seat, carrying that branch's
`next` as its own `pending` (play/replay.py holds it to exactly that); the first ply that leaves
the tree ends it (play/turn.py plays them).
"""

from __future__ import annotations

from typing import Any, NamedTuple

from referee.errors import IllegalMoveError, RefereeError, UsageError
from referee.games.base import count
from referee.play.replay import ACCEPT, DRAW, Replay, who
from referee.record.values import MAX_LINE_DEPTH, MAX_MOVE_CHARS

ACCEPT_WIRE = ACCEPT.replace(" ", "_")


class Line(NamedTuple):
    """A line as given: how a refusal names it, and its moves as typed (opponent's first)."""

    label: str  # "--line 2 (w_d4 b_c3)", or "" for an --if/--then pair
    moves: list[str]


def given_lines(pairs: list[tuple[str, str]] | tuple = (), lines: list[str] | tuple = ()) -> list[Line]:
    """The pairs and the lines of the command line, each as a Line; a line that is not an even
    number of moves, or deeper than a record holds, is exit 2."""
    found = [Line("", [if_move, then_move]) for if_move, then_move in pairs]
    for number, text in enumerate(lines, 1):
        moves = text.split()
        label = f"--line {number} ({' '.join(moves)[:80]})"
        if not moves or len(moves) % 2:
            raise UsageError(f"{label}: a line is pairs of moves, the opponent's then your reply "
                             f"({count(len(moves), 'move')} given)")
        if len(moves) > 2 * MAX_LINE_DEPTH:
            raise UsageError(f"{label}: at most {MAX_LINE_DEPTH} replies in a line")
        if any(len(move) > MAX_MOVE_CHARS for move in moves):
            raise UsageError(f"{label}: a move of over {MAX_MOVE_CHARS} characters")
        found.append(Line(label, [move.replace("_", " ") for move in moves]))
    return found


def checked_tree(work: Replay, mover: int, lines: list[Line]) -> list[dict[str, Any]]:
    """The tree of `lines` for seat `mover`, who has just moved on `work`: every move checked
    on a fork and written canonically (exit 1 naming the line and the move), shared beginnings
    merged, and two replies to one move refused (exit 2)."""
    if work.to_move() in (None, mover):  # None: the game is over
        raise IllegalMoveError("conditional moves need the opponent to move next")
    tree: list[dict[str, Any]] = []
    for line in lines:
        level = tree
        for (if_move, then_move), at in zip(_walk(work, mover, line), range(1, len(line.moves), 2)):
            node = next((n for n in level if n["if"] == if_move), None)
            if node is None:
                node = {"if": if_move, "then": then_move}
                level.append(node)
            elif node["then"] != then_move:
                where = line.label or f"--if {if_move}"
                raise UsageError(f"{where}: two replies to {if_move} (move {at}): {node['then']} "
                                 f"and {then_move}; give one reply to each move")
            if at + 1 < len(line.moves):
                level = node.setdefault("next", [])
    return tree


def _walk(work: Replay, mover: int, line: Line) -> list[tuple[str, str]]:
    """The line's pairs in canonical form, each move checked in the position it meets."""
    trial = work.fork()
    played: list[tuple[str, str]] = []
    moves = line.moves
    for index in range(0, len(moves), 2):
        if_text, then_text = moves[index], moves[index + 1]
        # A reply that accepts a draw stands for the opponent's move with a draw offer.
        offer = DRAW if " ".join(then_text.lower().split()) == ACCEPT else None
        if_move = _push(trial, if_text, line, index, offer=offer)
        trial.push_forced_passes()
        if trial.to_move() != mover:  # None once the game is over
            raise _refusal(line, index, if_move, "after it, it is not your turn, so no reply can follow")
        then_move = _push(trial, then_text, line, index + 1)
        trial.push_forced_passes()
        if index + 2 < len(moves) and trial.to_move() in (None, mover):
            raise _refusal(line, index + 1, then_move, "after it, it is not your opponent's turn, "
                           "so the line cannot go on")
        played.append((if_move, then_move))
    return played


def _push(trial: Replay, text: str, line: Line, index: int, offer: str | None = None) -> str:
    try:
        return str(trial.push(_spelled(trial, text), offer=offer))
    except RefereeError as exc:
        raise _refusal(line, index, text.strip(), exc.reason) from None


def _spelled(trial: Replay, text: str) -> str:
    """A move of a line as the game reads it: UGI's compact form without spaces (`be5`) read as
    the one legal move it spells, as `referee engine` reads one (SPEC §10)."""
    try:
        trial.game.parse(trial.state, text)
        return text
    except RefereeError:
        if " " in text.strip() or len(text) > 40:
            return text
    try:
        squeezed = text.lower()
        found = [m for m in trial.game.legal_moves(trial.state) if str(m).replace(" ", "").lower() == squeezed]
    except RefereeError:
        return text
    return str(found[0]) if len(found) == 1 else text


def _refusal(line: Line, index: int, move: str, reason: str) -> IllegalMoveError:
    if not line.label:  # an --if/--then pair, named as the player typed it
        return IllegalMoveError(f"{'--if' if index % 2 == 0 else '--then'} {move}: {reason}")
    return IllegalMoveError(f"{line.label}, move {index + 1} ({move}): {reason}")


def matching(work: Replay, tree: list[dict[str, Any]], ply: int) -> dict[str, Any] | None:
    """The branch of `tree` whose `if` is ply `ply` of `work` (compared in canonical form, as
    the position before that ply reads it), or None."""
    played = work.entries[ply - 1]
    for node in tree:
        if node["if"] == played or _canonical(work, ply - 1, node["if"]) == played:
            return node
    return None


def _canonical(work: Replay, ply: int, text: str) -> str | None:
    try:
        return str(work.game.parse(work.position(ply), text))
    except RefereeError:
        return None


def paths(tree: list[dict[str, Any]], most: int | None = None, before: str = "") -> list[str]:
    """The lines of a tree, root to leaf, in words ("if w d4 then b c3, if w e7 then b f2"), the
    first `most` of them. (Trees are at most MAX_LINE_DEPTH deep: record/reading.py.)"""
    found: list[str] = []
    for node in tree:
        if most is not None and len(found) >= most:
            break
        said = f"{before}, if {node['if']} then {node['then']}" if before else f"if {node['if']} then {node['then']}"
        left = None if most is None else most - len(found)
        found += paths(node["next"], left, said) if node.get("next") else [said]
    return found


def leaves(tree: list[dict[str, Any]]) -> int:
    """How many lines a tree holds, counted without spelling them out."""
    total, todo = 0, [tree]
    while todo:
        for node in todo.pop():
            if node.get("next"):
                todo.append(node["next"])
            else:
                total += 1
    return total


MAX_SHOWN = 3  # lines said in a status line; the record holds them all


def standing_words(play: Replay, ply: int | None = None) -> str | None:
    """What stands after ply `ply` (default: the last) between the players besides the position
    (SPEC §12): "Ann's conditional line stands: if w e7 then b f2". None when nothing does."""
    ply = play.plies if ply is None else ply
    if ply == 0 or play.to_move(ply) is None:
        return None
    tree = play.record.moves[ply - 1].pending if ply <= len(play.record.moves) else []
    if not tree and ply == len(play.record.moves):
        tree = play.record.legacy_pending
    if not tree:
        return None
    total = leaves(tree)
    whose = f"{who(play, play.line[ply].mover)}'s conditional"
    shown = "; ".join(paths(tree, MAX_SHOWN)) + (f"; and {count(total - MAX_SHOWN, 'more line')}"
                                                 if total > MAX_SHOWN else "")
    return f"{whose} line stands: {shown}" if total == 1 else f"{whose} lines stand: {shown}"


def set_words(tree: list[dict[str, Any]], opponent: str) -> str:
    """What `move` says of the moves it left standing."""
    if all(not node.get("next") for node in tree):
        return f"{count(len(tree), 'conditional move')} left for your opponent's reply ({opponent})."
    return f"{count(leaves(tree), 'conditional line')} left for your opponent's replies ({opponent})."
