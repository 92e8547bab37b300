"""A UGI engine for the tests that hangs: it never answers `go`, ignores `quit`, SIGTERM and
the end of its input, and leaves a child process of its own sleeping, so that only SIGKILL to
its whole process group ends it all."""

import signal
import subprocess
import sys
import time

from _common import Engine, main


class HangEngine(Engine):
    name = "hang"

    def _go(self, rest):
        pass  # thinks for ever

    def handle(self, line):
        if line.split()[:1] == ["quit"]:
            return True  # not listening
        return super().handle(line)

    COMMANDS = {**Engine.COMMANDS, "go": _go}


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(600)"])
    main(HangEngine, sys.argv[1:])
    while True:
        time.sleep(60)
