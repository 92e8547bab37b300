"""A UGI engine for the tests that floods its output: after every move it answers, MB
megabytes of `info string error` lines of 60,000 characters each (lines the arbiter listens
to, so none is dropped unread), as fast as the pipe takes them. `--long`: its `bestmove` is
one line of 6 MB instead (no move at all).

    python flood_engine.py [--megabytes MB] [--long]
"""

import random
import sys

from _common import Engine, main, wire

MEGABYTES = int(sys.argv.pop(sys.argv.index("--megabytes") + 1)) if "--megabytes" in sys.argv else 200
if "--megabytes" in sys.argv:
    sys.argv.remove("--megabytes")
LONG = "--long" in sys.argv
if LONG:
    sys.argv.remove("--long")
LINE = b"info string error " + b"x" * 60_000 + b"\n"


class FloodEngine(Engine):
    name = "flood"

    def _go(self, rest):
        out = sys.stdout.buffer
        if LONG:
            out.write(b"bestmove " + b"y" * 6_000_000 + b"\n")
            out.flush()
            return
        self.say(f"bestmove {wire(self.game.random_move(self.state, random.Random(len(self.history))))}")
        for _ in range(MEGABYTES * 1_000_000 // len(LINE)):
            out.write(LINE)
        out.flush()

    COMMANDS = {**Engine.COMMANDS, "go": _go}


if __name__ == "__main__":
    main(FloodEngine, sys.argv[1:])
