"""A UGI engine for the tests that crashes: after `--after` good moves it writes its last
words to standard error and exits with code 3."""

import os
import random
import sys

from _common import Engine, main, wire


class CrashEngine(Engine):
    name = "crash"

    def best(self) -> str:
        self.after -= 1
        if self.after < 0:
            sys.stderr.write("crash engine: out of cheese\n")
            sys.stderr.flush()
            os._exit(3)
        return wire(self.game.random_move(self.state, random.Random(len(self.history))))


if __name__ == "__main__":
    main(CrashEngine, sys.argv[1:])
