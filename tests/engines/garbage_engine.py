"""A UGI engine for the tests that speaks garbage when asked for a move: bytes that are no
UTF-8, a line far too long, words no protocol knows, and a `bestmove` that is no move."""

import sys

from _common import Engine, main


class GarbageEngine(Engine):
    name = "garbage"

    def _go(self, rest):
        out = sys.stdout.buffer
        out.write(b"\xff\xfe\x00 junk \x1b[31m\n")
        out.write(b"x" * 200_000 + b"\n")
        out.write(b"info string error bestmove is a state of mind\n")
        out.write(b"bestmove \xc3\x28!!~~\n")
        out.flush()

    COMMANDS = {**Engine.COMMANDS, "go": _go}


if __name__ == "__main__":
    main(GarbageEngine, sys.argv[1:])
