"""A UGI engine for the tests that stops reading its input: after `--after` moves it answers,
then leaves its input pipe full and sleeps for ever, ignoring SIGTERM. A slow reader's pipe
fills with the positions it is sent, but a position of any game here is shorter than a pipe's
buffer (64 KiB), so this engine fills its own (through /proc/self/fd/0, which Linux opens as
the pipe itself): the arbiter's next `position` finds no room, as after many large ones.

    python deaf_engine.py [--after N] [--note FILE]    (FILE: written once the pipe is full)
"""

import os
import random
import signal
import sys
import time

from _common import Engine, main, wire

NOTE = sys.argv.pop(sys.argv.index("--note") + 1) if "--note" in sys.argv else None
if "--note" in sys.argv:
    sys.argv.remove("--note")


class DeafEngine(Engine):
    name = "deaf"

    def _go(self, rest):
        rng = random.Random(len(self.history))
        self.say(f"bestmove {wire(self.game.random_move(self.state, rng))}")
        self.after -= 1
        if self.after < 0:
            deafen()

    COMMANDS = {**Engine.COMMANDS, "go": _go}


def deafen():
    pipe = os.open("/proc/self/fd/0", os.O_WRONLY | os.O_NONBLOCK)
    try:
        while True:
            os.write(pipe, b"#" * 4096)
    except BlockingIOError:
        pass  # full
    if NOTE:
        with open(NOTE, "w") as note:
            note.write("deaf\n")
    while True:
        time.sleep(60)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    main(DeafEngine, sys.argv[1:])
