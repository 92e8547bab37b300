"""Monte Carlo tree search over any game's hooks (games/base.py, section 4): UCT, with
progressive widening where a position offers more actions than the search can try.

A node is a decision: a turn so far (`TurnSoFar`) and the seat that decides. In most games a
decision is a whole move; where a turn is several actions (Hermetica), each action is a
decision of the same seat and "end the turn here" is one more. The tree never builds a whole
turn's list of moves: it asks the game for the next actions only.

Deterministic under a seed when limited by iterations; a time limit stops it wherever the
clock says. One core, no threads. The tree is bounded (SPEC §14): at its budget of nodes, or
once the process holds RESIDENT_BYTES, it stops growing, and the search goes on from its
leaves.
"""

from __future__ import annotations

import math
import os
import random
import time
from dataclasses import dataclass
from typing import Any, Callable

from referee.games.base import Game, Move, TurnSoFar

END = "end of turn"  # the action that ends a turn that may end (R-HM2's shorter turns)

# UCT's exploration constant for values between 0 and 1. Larger explores more.
EXPLORATION = 0.8
# Progressive widening: a node with n visits considers at most WIDEN * n ** WIDEN_POWER of its
# actions (at least one), taken in a random order fixed when the node is made.
WIDEN, WIDEN_POWER = 2.0, 0.5

# SPEC §14: the tree stops growing, not the machine (the whole process within 1 GB). A node
# holds its decision's position and the actions not yet tried, so its size is the game's.
# Measured with tracemalloc over a search's tree (bytes a node, 20–60 s searches): Odd 2,900
# (size 5) and 16,400 (size 12, min_group 2); Dustin 16,400 (size 12); Hermit 8,900 (square,
# size 7) and 6,600 (hex, size 5); Harmijan 17,200 (size 7) and 19,100 (a game under way);
# Hermetica 3,400 (the start), 23,400–67,700 (games under way, ply 10–30); crab 44,000 (solo,
# the start), 52,100 (solo, under way), 30,600 (4 seats). NODE_BYTES is the largest, with a
# margin; the tree may take TREE_BYTES: Odd's tree, say, 25,000 nodes.
TREE_BYTES = 500_000_000
NODE_BYTES = {"odd": 20_000, "dustin": 20_000, "hermit": 11_000, "harmijan": 23_000,
              "hermetica": 80_000, "crab": 64_000}
WORST_NODE_BYTES = 80_000  # a game not measured
# A board or deck from a file can be larger than any measured: the tree also stops growing
# once the process holds RESIDENT_BYTES, looked at every CHECK_EVERY nodes (where the system
# tells, as Linux's /proc does; elsewhere the node budget alone bounds the tree).
RESIDENT_BYTES = 800_000_000
CHECK_EVERY = 512
try:
    PAGE = os.sysconf("SC_PAGE_SIZE")
except (AttributeError, OSError, ValueError):  # not a POSIX system
    PAGE = 4096


def node_budget(game: Game) -> int:
    """How many nodes a search's tree may hold in `game`: TREE_BYTES at the most a node of
    the game was measured to take."""
    return TREE_BYTES // NODE_BYTES.get(game.id, WORST_NODE_BYTES)


def resident_bytes() -> int | None:
    """The memory this process holds now, or None where the system does not say."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * PAGE
    except (OSError, ValueError, IndexError):
        return None


class Node:
    """One decision in the tree, and what the search has learnt of it."""

    __slots__ = ("turn", "seat", "action", "untried", "children", "visits", "value", "ended")

    def __init__(self, action: Any, turn: TurnSoFar | None, seat: int | None,
                 ended: tuple[float, ...] | None = None):
        self.action = action  # what the parent's seat did to get here
        self.turn = turn  # the decision here (None once the game is over)
        self.seat = seat  # the seat deciding here
        self.ended = ended  # the game's returns where it is over
        self.untried: list[Any] | None = None  # actions not yet made children (Search._order)
        self.children: list[Node] = []
        self.visits = 0
        self.value = 0.0  # the sum of the returns of the parent's seat through this node

    def mean(self) -> float:
        return self.value / self.visits if self.visits else 0.0


@dataclass(frozen=True)
class Found:
    """What a search found: the move for the seat to move (a whole turn), its value for that
    seat (0–1, the mean of the playouts through it), how often it was tried, the line of play
    the search expects (moves in canonical notation, this one first), and what it cost."""

    move: Move
    seat: int
    value: float
    visits: int
    line: tuple[str, ...]
    iterations: int
    seconds: float


class Search:
    """A tree grown from one position of one game, iteration by iteration."""

    def __init__(self, game: Game, state: Any, seed: int = 0, exploration: float = EXPLORATION,
                 playout_plies: int | None = None, turn: TurnSoFar | None = None,
                 max_nodes: int | None = None):
        """A search from `state`, or from `turn`, a turn of that position already under way
        (a cooperative round whose first seats have placed). The tree grows to `max_nodes`
        nodes at most (`node_budget` of the game when None)."""
        if game.outcome(state) is not None:
            raise ValueError("the game is over: there is no move to find")
        self.game = game
        self.rng = random.Random(seed)
        self.exploration = exploration
        self.playout_plies = playout_plies  # None: as far as the game's playout goes
        self._prioritised = type(game).priority is not Game.priority  # the game orders its actions
        self.max_nodes = node_budget(game) if max_nodes is None else max_nodes
        self.root = self._node(None, turn if turn is not None else game.begin_turn(state))
        self.nodes = 1
        self.iterations = 0

    # -- growing the tree --------------------------------------------------------------------

    def run(self, seconds: float | None = None, iterations: int | None = None,
            stop: Callable[[], bool] | None = None) -> Found:
        """Search for `seconds` of wall time or `iterations` more iterations, whichever ends
        first, or until `stop()` says so (at least one iteration), and say what was found."""
        if seconds is None and iterations is None and stop is None:
            raise ValueError("a search needs a limit: seconds, iterations or a stop")
        began = time.perf_counter()
        deadline = began + seconds if seconds is not None else math.inf
        left = iterations if iterations is not None else math.inf
        while True:
            self.iterate()
            left -= 1
            if left <= 0 or time.perf_counter() >= deadline or (stop is not None and stop()):
                break
        return self.found(time.perf_counter() - began)

    def iterate(self) -> None:
        """Select down the tree, add one node, play it out, and back the result up. Once the
        tree holds its budget of nodes it stops growing and the search goes on: each
        iteration plays out from the leaf it reaches, and the statistics still gather."""
        node, path = self.root, [self.root]
        while node.ended is None:
            child = self._expand(node)
            if child is not None:
                path.append(child)
                node = child
                break
            if not node.children:
                break  # a leaf the full tree cannot grow past: played out from here
            node = self._select(node)
            path.append(node)
        values = node.ended if node.ended is not None else self._playout(node)
        for parent, child in zip(path, path[1:]):
            child.visits += 1
            child.value += values[parent.seat - 1]
        self.root.visits += 1
        self.iterations += 1

    def _node(self, action: Any, turn: TurnSoFar) -> Node:
        """The node reached by `action`: a decision within the same turn, or, once the turn
        has ended, the next seat's first decision or the end of the game."""
        game = self.game
        if action is not END and turn.actions:
            actions = game.legal_actions(turn)
            if actions:
                node = Node(action, turn, game.to_move(turn.before))
                node.untried = self._order(turn, actions, game.turn_may_end(turn))
                return node
        if action is END or turn.actions:
            after = game.end_turn(turn)[1]
            if game.outcome(after) is not None:
                return Node(action, None, None, ended=game.returns(after))
            turn = game.begin_turn(after)
        node = Node(action, turn, game.to_move(turn.before))
        node.untried = self._order(turn, game.legal_actions(turn), game.turn_may_end(turn))
        return node

    def _order(self, turn: TurnSoFar, actions: list[Any], may_end: bool) -> list[Any]:
        """The order in which a node's actions are tried, as a stack (the last first): the
        game's priority first, the rest at random, and "end the turn here" last of all, as
        most turns gain by acting."""
        actions = list(actions)
        if self._prioritised:
            self.rng.shuffle(actions)
            actions.sort(key=lambda action: self.game.priority(turn, action))  # stable: ties stay shuffled
        # else left in the game's order: `_next_untried` draws from it at random, one at a time
        return [END, *actions] if may_end else actions

    def _next_untried(self, untried: list[Any]) -> Any:
        """The next action to try from a node's stack. Where the game gives no priority the
        stack is not shuffled when the node is made but drawn from at random, one swap at a
        time (a Fisher-Yates step): most nodes are tried a few times only, and shuffling
        their hundred moves cost a third of the search in Odd. "End the turn" stays last."""
        if not self._prioritised:
            low = 1 if untried[0] is END else 0
            if len(untried) - low > 1:
                i = self.rng.randrange(low, len(untried))
                untried[i], untried[-1] = untried[-1], untried[i]
        return untried.pop()

    def _expand(self, node: Node) -> Node | None:
        """A new child of `node`, if progressive widening and the tree's budget of nodes allow
        one more."""
        if not node.untried or self.nodes >= self.max_nodes:
            return None
        allowed = max(1, int(WIDEN * node.visits ** WIDEN_POWER))
        if len(node.children) >= allowed:
            return None
        action = self._next_untried(node.untried)
        turn = node.turn if action is END else self.game.act(node.turn, action)
        child = self._node(action, turn)
        node.children.append(child)
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0 and (resident_bytes() or 0) >= RESIDENT_BYTES:
            self.max_nodes = self.nodes  # the tree is as large as this machine's bound allows
        return child

    def _select(self, node: Node) -> Node:
        """The child with the best upper confidence bound (UCT)."""
        log_n = math.log(node.visits or 1)
        c = self.exploration
        return max(node.children, key=lambda ch: ch.value / ch.visits + c * math.sqrt(log_n / ch.visits))

    def _playout(self, node: Node) -> tuple[float, ...]:
        """Finish the turn at random, then play the game out at random (the game's playout)."""
        game, rng, turn = self.game, self.rng, node.turn
        after = game.finish_turn(turn, rng) if turn.actions else turn.before
        if self.playout_plies is None:
            return game.playout(after, rng)
        return game.playout(after, rng, self.playout_plies)

    # -- reading the tree --------------------------------------------------------------------

    def found(self, seconds: float = 0.0) -> Found:
        """The most visited turn from the root, its value, and the line the search expects."""
        move, last = self._best_turn(self.root)
        line = [str(move)]
        node = last
        while node.turn is not None and node.children and len(line) < 4:
            following, node = self._best_turn(node)
            line.append(str(following))
        # The value and visits of the turn's first decision: in a turn of several actions the
        # later ones are tried far less often (a whole Hermetica turn may have one visit), so
        # the first is what the figures can rest on; in a turn of one action it is the turn.
        first = max(self.root.children, key=lambda child: child.visits) if self.root.children else last
        return Found(move, self.root.seat, first.mean(), first.visits, tuple(line),
                     self.iterations, seconds)

    def first_action(self) -> Any:
        """The most visited next action from the root: where the search was given a turn under
        way, the next seat's part of it."""
        return max(self.root.children, key=lambda child: child.visits).action

    def quick_answer(self) -> Move:
        """A legal move now, while `run` may be in the middle of an iteration on another thread:
        the most visited first decision so far, its turn finished where it may end (by random
        actions where it may not yet), or a random move before any decision was tried. For an
        answer that must come by a deadline an iteration could overrun."""
        game, root = self.game, self.root
        rng = random.Random(self.iterations)  # not the search's own generator, which runs on
        tried = [child for child in list(root.children) if child.visits]
        if not tried:
            return game.random_move(root.turn.before, rng)
        best = max(tried, key=lambda child: child.visits)
        turn = root.turn if best.action is END else game.act(root.turn, best.action)
        while best.action is not END and not game.turn_may_end(turn):
            turn = game.act(turn, rng.choice(game.legal_actions(turn)))
        return game.end_turn(turn)[0]

    def _best_turn(self, start: Node) -> tuple[Move, Node]:
        """The most visited turn from `start`, a node where a turn begins, and the node it
        leads to. A turn whose later actions the search never tried ends where it may, or
        goes on by the actions in the order the search would have tried them."""
        node, turn = start, start.turn
        while True:
            if not node.children:  # not looked into: finish the turn without the tree
                # The node's own stack holds this decision's actions only; in a turn of several
                # seats' or several actions (cooperative crab, Hermetica) each later decision
                # is asked of the game — another seat's hand is not this one's.
                untried = node.untried or []
                while not self.game.turn_may_end(turn):
                    turn = self.game.act(turn, next(a for a in reversed(untried) if a is not END))
                    untried = self.game.legal_actions(turn)
                return self.game.end_turn(turn)[0], node
            node = max(node.children, key=lambda child: child.visits)
            if node.action is not END:
                turn = self.game.act(turn, node.action)
            if node.action is END or node.turn is None or not node.turn.actions:
                return self.game.end_turn(turn)[0], node
