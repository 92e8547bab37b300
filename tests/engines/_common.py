"""What the test engines share: the referee's own UGI session (referee/engine/ugi.py) keeps the game,
the options and the position; each engine says who it is and answers `go` its own way.

Every engine takes `--think MS` (it waits that long before each answer, so that a test can stop
a match in the middle of a game), `--slow-start S` (it reads nothing for S seconds) and the option `Seed` (`setoption name Seed value N`, as
`--engine-option I:Seed=N` sends it), which does what `--seed N` does."""

import argparse
import sys
import time

from referee.engine.ugi import Session
from referee.engine.wire import wire  # noqa: F401 - for the engines

__all__ = ["Engine", "main", "wire"]


class Engine(Session):
    name = "random"
    seed = 0
    think = 0

    def best(self) -> str:
        raise NotImplementedError

    def _ugi(self, rest):
        self.say(f"id name {self.name}")
        self.say("id author the referee's tests")
        self.say("ugiok")

    def _go(self, rest):
        time.sleep(self.think / 1000)
        self.say(f"bestmove {self.best()}")

    def _setoption(self, rest):
        if rest[:2] == ["name", "Seed"] and len(rest) == 4 and rest[2] == "value":
            self.seed = int(rest[3])
            return
        Session._setoption(self, rest)

    COMMANDS = {**Session.COMMANDS, "ugi": _ugi, "go": _go, "setoption": _setoption}


def main(kind, argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--after", type=int, default=0, help="moves made well before failing")
    parser.add_argument("--think", type=int, default=0, help="milliseconds before each answer")
    parser.add_argument("--slow-start", type=float, default=0, help="seconds before it reads its input")
    args = parser.parse_args(argv)

    def say(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    engine = kind(say)
    engine.name = args.name or kind.name
    engine.seed, engine.after, engine.think = args.seed, args.after, args.think
    time.sleep(args.slow_start)  # as a Java engine's virtual machine starts
    for line in sys.stdin:
        if not engine.handle(line):
            break
