"""Reading a search's tree: the move it would play, the moves it tried most with their lines,
and the line of a proven result (what `hint`, UGI's thinking lines and bots say).

At every decision the move read is the one the search would play: a proven win for the seat
choosing before anything else (never traded for a move that merely wins often), never a
proven loss while another move is left, and otherwise the move tried most.
"""

from __future__ import annotations

from typing import Any

from referee.games.base import Game, Move
from referee.search import proof
from referee.search.tree import END, Candidate, Found, Node

LINE = 4  # plies of an expected line (SPEC §10)
FORCED_LINE = 60  # plies of a proven line at most: to the end where the tree holds it


class Reading:
    """The reading half of `Search` (mcts.py), over its `game`, `root` and `solver`."""

    game: Game
    root: Node
    iterations: int
    solver: bool

    def _ranked(self, node: Node) -> list[Node]:
        """A node's children, the one the search would play first."""
        if self.solver:
            seat = node.seat
            return sorted(node.children, key=lambda child: proof.rank(child, seat), reverse=True)
        return sorted(node.children, key=lambda child: child.visits, reverse=True)

    def _choose(self, node: Node) -> Node:
        if self.solver:
            seat = node.seat
            return max(node.children, key=lambda child: proof.rank(child, seat))
        return max(node.children, key=lambda child: child.visits)

    def found(self, seconds: float = 0.0) -> Found:
        """The move the search would play from the root, its value, and the line it expects."""
        best = self.candidates(1)[0]
        return Found(best.move, self.root.seat, best.value, best.visits, best.line,
                     self.iterations, seconds, best.proven)

    def candidates(self, k: int) -> list[Candidate]:
        """The `k` moves the search tried most at the root (fewer where it tried fewer), the
        one it would play first (`found`), each with its value for the seat to move, its
        visits, its line and whether its value is proven. Before any was tried: the move the
        search would try first, with no figures."""
        root = self.root
        firsts = self._ranked(root)[:max(1, k)] or [None]
        out = []
        for first in firsts:
            move, last = self._best_turn(root, first)
            # The value and visits of the turn's first decision: in a turn of several actions
            # the later ones are tried far less often (a whole Hermetica turn may have one
            # visit), so the first is what the figures can rest on; in a turn of one action it
            # is the turn.
            head = first if first is not None else last
            proven = self.solver and head.proven is not None
            value = proof.value(head, root.seat) if proven else head.mean()
            out.append(Candidate(move, value, head.visits, self._line(move, last, proven), proven))
        return out

    def _line(self, move: Move, last: Node, proven: bool) -> tuple[str, ...]:
        """The line the search expects after `move`, which led to `last`: the moves it would
        play, up to LINE plies, or to the end of the game where the line is proven."""
        line = [str(move)]
        node, depth = last, FORCED_LINE if proven else LINE
        while node.turn is not None and node.children and len(line) < depth:
            following, node = self._best_turn(node)
            line.append(str(following))
        return tuple(line)

    def first_action(self) -> Any:
        """The next action the search would make from the root: where the search was given a
        turn under way, the next seat's part of it."""
        return self._choose(self.root).action

    def _best_turn(self, start: Node, first: Node | None = None) -> tuple[Move, Node]:
        """The turn the search would play from `start`, a node where a turn begins (beginning
        with the child `first`, where given), and the node it leads to. A turn whose later
        actions the search never tried ends where it may, or goes on by the actions in the
        order the search would have tried them."""
        node, turn = start, start.turn
        while True:
            if not node.children and first is None:  # not looked into: finish the turn without the tree
                # The node's own stack holds this decision's actions only; in a turn of several
                # seats' or several actions (cooperative crab, Hermetica) each later decision
                # is asked of the game — another seat's hand is not this one's.
                untried = node.untried or []
                while not self.game.turn_may_end(turn):
                    turn = self.game.act(turn, next(a for a in reversed(untried) if a is not END))
                    untried = self.game.legal_actions(turn)
                return self.game.end_turn(turn)[0], node
            node, first = (first if first is not None else self._choose(node)), None
            if node.action is not END:
                turn = self.game.act(turn, node.action)
            if node.action is END or node.turn is None or not node.turn.actions:
                return self.game.end_turn(turn)[0], node
