"""Monte Carlo tree search over any game's hooks (games/base.py, section 4): UCT with
progressive widening, GRAVE's all-moves-as-first statistics where a game numbers its actions
(grave.py), and proven wins and losses backed up the tree (proof.py, MCTS-Solver).

A node is a decision: a turn so far (`TurnSoFar`) and the seat that decides. In most games a
decision is a whole move; where a turn is several actions (Hermetica), each action is a
decision of the same seat and "end the turn here" is one more. The tree never builds a whole
turn's list of moves: it asks the game for the next actions only.

Deterministic under a seed when limited by iterations; a time limit stops it wherever the
clock says. One core, no threads. The tree is bounded (SPEC §14): at its budget of nodes, or
once the process holds RESIDENT_BYTES, it stops growing, and the search goes on from its
leaves. A search can be carried on to the next move (`advance`), its tree kept below it.
"""

from __future__ import annotations

import math
import os
import random
import time
from typing import Any, Callable

from referee.games.base import Game, Move, Pass, TurnSoFar
from referee.search import grave, proof
from referee.search.reading import Reading
from referee.search.tree import END, Candidate, Found, Node, Settings, settings_for

__all__ = ["END", "Candidate", "Found", "Node", "Search", "Settings", "node_budget"]

# SPEC §14: the tree stops growing, not the machine (the whole process within 1 GB). A node
# holds its decision's position and the actions not yet tried, so its size is the game's.
# Measured with tracemalloc over a search's tree (bytes a node, GRAVE's tables and each node's
# codes of its untried actions included): Odd 3,200 (size 5) and 17,800 (size 12, min_group
# 2); Hermit 5,700 (square, size 7) and 6,900 (hex, size 5); Harmijan 11,100 (size 6, under
# way), 17,200 (size 7) and 19,100 (a game under way, before GRAVE); Hermetica 38,600 (ply
# 10), 23,400–67,700 (games under way, ply 10–30, before GRAVE); crab 44,000 (solo, the
# start), 52,100 (solo, under way), 30,600 (4 seats). NODE_BYTES is the largest, with a
# margin; the tree may take TREE_BYTES. Where the game numbers its actions, a node's size
# follows the board's (its position and its untried actions are the board's cells), so the
# budget of a smaller board is larger: NODE_BYTES_BASE + NODE_BYTES_PER_CODE a code (Odd of
# size 5: 5,300 bytes, 85,000 nodes; of size 12: 28,800 bytes, 15,600 nodes). GRAVE's
# tables take TABLE_BYTES besides (grave.py: only a node visited often keeps one, 12 bytes a
# code: 1.5 kB in Odd of size 5, 9.5 kB of size 12).
TREE_BYTES = 450_000_000
TABLE_BYTES = 150_000_000
NODE_BYTES = {"odd": 30_000, "dustin": 30_000, "hermit": 11_000, "harmijan": 23_000,
              "hermetica": 80_000, "crab": 64_000}
NODE_BYTES_BASE = 1_000
NODE_BYTES_PER_CODE = {"odd": 35, "dustin": 35, "hermit": 70, "harmijan": 70}
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


def node_budget(game: Game, state: Any = None) -> int:
    """How many nodes a search's tree may hold in `game`: TREE_BYTES at the most a node of
    the game was measured to take, on `state`'s board where the size follows the board's."""
    most = NODE_BYTES.get(game.id, WORST_NODE_BYTES)
    per_code = NODE_BYTES_PER_CODE.get(game.id)
    if state is not None and per_code is not None:
        most = min(most, NODE_BYTES_BASE + per_code * game.action_codes(state))
    return TREE_BYTES // most


def resident_bytes() -> int | None:
    """The memory this process holds now, or None where the system does not say."""
    try:
        with open("/proc/self/statm", "rb") as statm:
            return int(statm.read().split()[1]) * PAGE
    except (OSError, ValueError, IndexError):
        return None


class Search(Reading):
    """A tree grown from one position of one game, iteration by iteration."""

    def __init__(self, game: Game, state: Any, seed: int = 0, exploration: float | None = None,
                 playout_plies: int | None = None, turn: TurnSoFar | None = None,
                 max_nodes: int | None = None, algorithm: str = "grave",
                 settings: Settings | None = None):
        """A search from `state`, or from `turn`, a turn of that position already under way
        (a cooperative round whose first seats have placed). The tree grows to `max_nodes`
        nodes at most (`node_budget` of the game when None). `algorithm` ("grave" or "uct",
        tree.ALGORITHMS) names the settings, unless `settings` gives them."""
        if game.outcome(state) is not None:
            raise ValueError("the game is over: there is no move to find")
        self.game = game
        self.rng = random.Random(seed)
        self.settings = settings if settings is not None else settings_for(game.id, algorithm)
        self.exploration = self.settings.exploration if exploration is None else exploration
        self.playout_plies = playout_plies  # None: as far as the game's playout goes
        self._prioritised = type(game).priority is not Game.priority  # the game orders its actions
        self.max_nodes = node_budget(game, state) if max_nodes is None else max_nodes
        codes = game.action_codes(state) if self.settings.amaf else 0
        self.tables = grave.Tables(codes, TABLE_BYTES, game.cooperative) if codes else None
        self.solver = self.settings.solver
        self.root = self._node(None, turn if turn is not None else game.begin_turn(state))
        self.nodes = 1
        self.iterations = 0

    # -- growing the tree --------------------------------------------------------------------

    def run(self, seconds: float | None = None, iterations: int | None = None,
            stop: Callable[[], bool] | None = None, report: Callable[[float], None] | None = None,
            every: float = 0.5) -> Found:
        """Search for `seconds` of wall time or `iterations` more iterations, whichever ends
        first, or until `stop()` says so (at least one iteration), or until the root is
        proven; and say what was found. `report(elapsed)` is called every `every` seconds."""
        if seconds is None and iterations is None and stop is None:
            raise ValueError("a search needs a limit: seconds, iterations or a stop")
        began = time.perf_counter()
        deadline = began + seconds if seconds is not None else math.inf
        next_report = began + every if report is not None else math.inf
        left = iterations if iterations is not None else math.inf
        root = self.root
        while root.proven is None:
            self.iterate()
            left -= 1
            now = time.perf_counter()
            if left <= 0 or now >= deadline or (stop is not None and stop()):
                break
            if now >= next_report:
                report(now - began)
                next_report += every  # on a fixed beat, not drifting by each report's lateness
                if next_report <= now:
                    next_report = now + every
        return self.found(time.perf_counter() - began)

    def iterate(self) -> None:
        """Select down the tree, add one node, play it out, and back the result up. Once the
        tree holds its budget of nodes it stops growing and the search goes on: each
        iteration plays out from the leaf it reaches, and the statistics still gather."""
        node, path = self.root, [self.root]
        tables = self.tables
        table = self._reference(node, None)
        while node.proven is None:
            child = self._expand(node, table)
            if child is not None:
                path.append(child)
                node = child
                break
            if not node.children:
                break  # a leaf the full tree cannot grow past: played out from here
            chosen = grave.select(node, table, tables is not None and tables.flipped(node.seat),
                                  self.exploration, self.settings.bias, self.solver)
            if chosen is None:
                break  # every child proven lost and no other to try: played out from here
            node = chosen
            path.append(node)
            table = self._reference(node, table)
        played: list[int] | None = [] if tables is not None else None
        values = node.proven if node.proven is not None else self._playout(node, played)
        for parent, child in zip(path, path[1:]):
            child.visits += 1
            child.value += values[parent.seat - 1]
        self.root.visits += 1
        self.iterations += 1
        if tables is not None:
            tables.update(path, played or [], values, self.settings.start)
        if self.solver and node.proven is not None and len(path) > 1:
            proof.back_up(path)

    def _reference(self, node: Node, above: grave.Table | None) -> grave.Table | None:
        """The table GRAVE reads at `node`: its own once it holds `ref` playouts, else the
        one read above it (the root's, however few, rather than none)."""
        table = node.amaf
        if table is not None and (table.playouts >= self.settings.ref or above is None):
            return table
        return above

    def _node(self, action: Any, turn: TurnSoFar, parent: Node | None = None) -> Node:
        """The node reached by `action` from `parent` (none for the root), with the action's
        code where GRAVE keeps tables."""
        node = self._decision(action, turn)
        if self.tables is not None and action is not None and action is not END:
            node.code = self.game.action_code(parent.turn, action)
        return node

    def _decision(self, action: Any, turn: TurnSoFar) -> Node:
        """The decision reached by `action`: one within the same turn, or, once the turn has
        ended, the next seat's first decision or the end of the game."""
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

    def _next_untried(self, node: Node, table: grave.Table | None) -> Any:
        """The next action to try from a node's stack. Where GRAVE has a table for it, the
        action the table values most; else, where the game gives no priority, one drawn at
        random, one swap at a time (a Fisher-Yates step: most nodes are tried a few times
        only, and shuffling their hundred moves cost a third of the search in Odd); else the
        game's priority. "End the turn" stays last."""
        untried = node.untried
        if self._prioritised:
            return grave.take(node, len(untried) - 1)
        if table is not None:
            flip = self.tables.flipped(node.seat)
            return grave.take(node, grave.best_untried(node, table, flip, self._code_of(node)))
        low = 1 if untried[0] is END else 0
        if len(untried) - low > 1:
            return grave.take(node, self.rng.randrange(low, len(untried)))
        return grave.take(node, len(untried) - 1)

    def _code_of(self, node: Node) -> Callable[[Any], int]:
        game, turn = self.game, node.turn
        return lambda action: game.action_code(turn, action)

    def _expand(self, node: Node, table: grave.Table | None) -> Node | None:
        """A new child of `node`, if progressive widening and the tree's budget of nodes allow
        one more (children proven lost do not count against the widening)."""
        if not node.untried or self.nodes >= self.max_nodes:
            return None
        settings = self.settings
        allowed = max(1, int(settings.widen * node.visits ** settings.power))
        if len(node.children) - node.lost >= allowed:
            return None
        action = self._next_untried(node, table)
        turn = node.turn if action is END else self.game.act(node.turn, action)
        child = self._node(action, turn, node)
        node.children.append(child)
        self.nodes += 1
        if self.nodes % CHECK_EVERY == 0 and (resident_bytes() or 0) >= RESIDENT_BYTES:
            self.max_nodes = self.nodes  # the tree is as large as this machine's bound allows
        return child

    def _playout(self, node: Node, codes: list[int] | None) -> tuple[float, ...]:
        """Finish the turn at random, then play the game out at random (the game's playout),
        its actions' codes heard where the search keeps AMAF statistics."""
        game, rng, turn = self.game, self.rng, node.turn
        after = game.finish_turn(turn, rng) if turn.actions else turn.before
        limit = 1000 if self.playout_plies is None else self.playout_plies
        if codes is None:
            if self.playout_plies is None:
                return game.playout(after, rng)
            return game.playout(after, rng, limit)
        if self.playout_plies is None:
            return game.playout(after, rng, codes=codes)
        return game.playout(after, rng, limit, codes=codes)

    # -- carrying the tree on ----------------------------------------------------------------

    def advance(self, moves: list[Move], state: Any) -> bool:
        """Carry the search on to the position after `moves` (whole moves, as the record has
        them; the forced passes the tree never holds are skipped), `state`: the subtree below
        them becomes the tree. False, and the search left as it was, where the tree does not
        hold them or the position is not a decision of the search's."""
        game = self.game
        node = self.root
        for move in moves:
            if isinstance(move, Pass):
                continue  # a forced pass: the tree goes on to the seat that can act
            for action in game.move_actions(move):
                node = next((child for child in node.children if child.action == action), None)
                if node is None:
                    return False
            if node.turn is not None and node.turn.actions:  # the turn may go on: ended here
                node = next((child for child in node.children if child.action is END), None)
                if node is None:
                    return False
        if node.turn is None or node.turn.actions or node.seat != game.to_move(state):
            return False
        self.root = node
        self.nodes, tables = self._count(node)
        if self.tables is not None:
            self.tables.kept(tables)
        self.iterations = 0
        return True

    @staticmethod
    def _count(node: Node) -> tuple[int, int]:
        """The nodes of the subtree below `node`, and the GRAVE tables they hold."""
        count, tables, todo = 0, 0, [node]
        while todo:
            node = todo.pop()
            count += 1
            tables += node.amaf is not None
            todo.extend(node.children)
        return count, tables

    # -- reading the tree: reading.py ---------------------------------------------------------

    def quick_answer(self) -> Move:
        """A legal move now, while `run` may be in the middle of an iteration on another thread:
        the best first decision so far, its turn finished where it may end (by random actions
        where it may not yet), or a random move before any decision was tried. For an answer
        that must come by a deadline an iteration could overrun."""
        game, root = self.game, self.root
        rng = random.Random(self.iterations)  # not the search's own generator, which runs on
        tried = [child for child in list(root.children) if child.visits]
        if not tried:
            return game.random_move(root.turn.before, rng)
        best = max(tried, key=lambda child: proof.rank(child, root.seat))
        turn = root.turn if best.action is END else game.act(root.turn, best.action)
        while best.action is not END and not game.turn_may_end(turn):
            turn = game.act(turn, rng.choice(game.legal_actions(turn)))
        return game.end_turn(turn)[0]
