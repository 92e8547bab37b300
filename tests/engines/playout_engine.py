"""A UGI engine for the tests and the docs' examples, a little stronger than the random one:
for each legal move it plays `--playouts` random games to the end and keeps the move that won
most often for the seat that made it.

    python playout_engine.py [--name NAME] [--seed N] [--playouts N]

Deterministic: the playouts are drawn from the seed and the position alone, so a match played
twice, or K games at once, or on several machines, gives the same games.
"""

import random
import sys

from _common import Engine, main, wire


class PlayoutEngine(Engine):
    name = "playout"
    playouts = 8

    def best(self) -> str:
        game, state = self.game, self.state
        seat = game.to_move(state)
        rng = random.Random(f"{self.seed}:{' '.join(wire(m) for m in self.history)}")
        best, best_score = None, -1.0
        for move in game.legal_moves(state):
            after = game.apply(state, move)
            score = 0.0
            for _ in range(self.playouts):
                end = after
                while game.outcome(end) is None:
                    end = game.apply(end, game.random_move(end, rng))
                score += game.returns(end)[seat - 1]
            if score > best_score:
                best, best_score = move, score
        return wire(best if best is not None else game.random_move(state, rng))


if __name__ == "__main__":
    if "--playouts" in sys.argv:
        at = sys.argv.index("--playouts")
        PlayoutEngine.playouts = int(sys.argv[at + 1])
        del sys.argv[at:at + 2]
    main(PlayoutEngine, sys.argv[1:])
