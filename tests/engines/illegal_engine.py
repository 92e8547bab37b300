"""A UGI engine for the tests that plays an illegal move: after `--after` good moves, the move
just played again (its cell is taken)."""

import random
import sys

from _common import Engine, main, wire


class IllegalEngine(Engine):
    name = "illegal"

    def best(self) -> str:
        self.after -= 1
        if self.after < 0 and self.history and str(self.history[-1]) != "pass":
            return wire(self.history[-1])
        return wire(self.game.random_move(self.state, random.Random(len(self.history))))


if __name__ == "__main__":
    main(IllegalEngine, sys.argv[1:])
