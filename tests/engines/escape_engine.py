"""A UGI engine for the tests that leaves a process behind where its process group cannot
reach it: at its start it double-forks `sleep 1000` into a session of its own (holding the
engine's pipes, as a careless helper would), writes the sleeper's pid to FILE, then plays
random legal moves and ends on `quit` like any engine. (FILE: a line "PID START" a sleeper,
START its start time in /proc/PID/stat.) `--bare`: the sleeper starts with an
empty environment (nothing of the engine's is left in it to tell whose it is).

    python escape_engine.py --pidfile FILE [--bare] [--seed N]
"""

import os
import random
import sys

from _common import Engine, main, wire

PIDFILE = sys.argv.pop(sys.argv.index("--pidfile") + 1)
sys.argv.remove("--pidfile")
BARE = "--bare" in sys.argv
if BARE:
    sys.argv.remove("--bare")


class EscapeEngine(Engine):
    name = "escape"

    def best(self) -> str:
        rng = random.Random(f"{self.seed}:{' '.join(wire(m) for m in self.history)}")
        return wire(self.game.random_move(self.state, rng))


def started(pid):
    """The process's start time (clock ticks since boot): with the pid, which soon names
    another process on a busy machine, it tells the sleeper from any other."""
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()[19]


def escape():
    child = os.fork()
    if child == 0:
        os.setsid()  # a session (and a process group) of its own
        sleeper = os.fork()
        if sleeper == 0:
            os.execvpe("sleep", ["sleep", "1000"], {} if BARE else os.environ)
        with open(PIDFILE, "a") as file:
            file.write(f"{sleeper} {started(sleeper)}\n")
        os._exit(0)  # the sleeper's parent is gone: it is an orphan now
    os.waitpid(child, 0)


if __name__ == "__main__":
    escape()
    main(EscapeEngine, sys.argv[1:])
