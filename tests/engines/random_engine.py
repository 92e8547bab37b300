"""A UGI engine for the tests: a random legal move, from the referee's own rules.

    python random_engine.py [--name NAME] [--seed N]

Deterministic: the move depends on the seed and the position alone (not on what the process
saw before), so a match played twice, or K games at once, gives the same games.
"""

import random
import sys

from _common import Engine, main, wire


class RandomEngine(Engine):
    def best(self) -> str:
        rng = random.Random(f"{self.seed}:{' '.join(wire(m) for m in self.history)}")
        return wire(self.game.random_move(self.state, rng))


if __name__ == "__main__":
    main(RandomEngine, sys.argv[1:])
