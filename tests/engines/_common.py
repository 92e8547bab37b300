"""What the test engines share: the referee's own UGI session (referee/engine/ugi.py) keeps the game,
the options and the position; each engine says who it is and answers `go` its own way."""

import argparse
import sys

from referee.engine.ugi import Session
from referee.engine.wire import wire  # noqa: F401 - for the engines

__all__ = ["Engine", "main", "wire"]


class Engine(Session):
    name = "random"
    seed = 0

    def best(self) -> str:
        raise NotImplementedError

    def _ugi(self, rest):
        self.say(f"id name {self.name}")
        self.say("id author the referee's tests")
        self.say("ugiok")

    def _go(self, rest):
        self.say(f"bestmove {self.best()}")

    COMMANDS = {**Session.COMMANDS, "ugi": _ugi, "go": _go}


def main(kind, argv):
    parser = argparse.ArgumentParser()
    parser.add_argument("--name", default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--after", type=int, default=0, help="moves made well before failing")
    args = parser.parse_args(argv)

    def say(line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    engine = kind(say)
    engine.name = args.name or kind.name
    engine.seed, engine.after = args.seed, args.after
    for line in sys.stdin:
        if not engine.handle(line):
            break
