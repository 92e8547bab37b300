"""`referee engine` against whoever writes to it (SPEC §10 UGI, §14 bounded search): numbers in
ASCII digits within their bounds, `quit` and the end of input within 1 s whatever the engine is
doing, a line over 5 MB refused unread, a bad `setoption` said and survived, a `go` always
answered, every game's options listed. Each case is a red-team report, driven through real
pipes as a GUI or an arbiter drives the engine."""

from __future__ import annotations

import os
import queue
import resource
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from referee.search.mcts import Search
from referee.games import GAMES
from referee.engine.ugi import Session

ENGINE = [sys.executable, "-m", "referee", "engine"]
QUIT_BOUND = 1.0  # SPEC §14: `quit` and the end of input end the engine within 1 s
LATE_BOUND = 0.1  # SPEC §10: `bestmove` within MS + 100 ms
SLACK = 0.25  # the machine is shared and loaded: a process's start and end, a pipe's delay
# A search on a loaded machine shares its core with others, and an answer crosses two pipes and
# two threads: the engine aims at MS + 40 ms, and is held here to MS + 100 ms with this slack.
TIMING_SLACK = 0.15


class Engine:
    """`referee engine` as a child process on real pipes: lines in, lines out as they come."""

    def __init__(self, memory: int | None = None, argv: list[str] = ENGINE, cwd: Path | None = None):
        limit = None
        if memory is not None:
            def limit():
                resource.setrlimit(resource.RLIMIT_AS, (memory, memory))
        self.process = subprocess.Popen(argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                        stderr=subprocess.PIPE, preexec_fn=limit, cwd=cwd)
        self.heard: queue.Queue[str | None] = queue.Queue()
        self.errors = b""
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._read_errors, daemon=True).start()

    def _read(self):
        for raw in self.process.stdout:
            self.heard.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.heard.put(None)

    def _read_errors(self):
        self.errors = self.process.stderr.read()

    def send(self, *lines: str | bytes) -> float:
        """Write the lines; the moment they were written."""
        for line in lines:
            self.process.stdin.write(line if isinstance(line, bytes) else line.encode() + b"\n")
        self.process.stdin.flush()
        return time.monotonic()

    def until(self, prefix: str, wait: float = 30.0) -> list[str]:
        """Every line up to the first that starts with `prefix`, that one last."""
        lines, deadline = [], time.monotonic() + wait
        while True:
            line = self.heard.get(timeout=max(0.0, deadline - time.monotonic()))
            assert line is not None, f"the engine ended before {prefix!r}: {lines} {self.errors!r}"
            lines.append(line)
            if line.startswith(prefix):
                return lines

    def ask(self, line: str) -> list[str]:
        """A command's answer: every line it says before `readyok`."""
        self.send(line, "isready")
        return self.until("readyok")[:-1]

    def quit(self, how: str = "quit") -> float:
        """`quit`, or the end of input: the seconds until the process has ended."""
        began = self.send("quit") if how == "quit" else time.monotonic()
        self.process.stdin.close()
        self.process.wait(timeout=30)
        return time.monotonic() - began

    def rest(self) -> list[str]:
        """Every line said until the end of the output (after the process has ended)."""
        lines = []
        while (line := self.heard.get(timeout=10)) is not None:
            lines.append(line)
        return lines

    def healthy(self) -> None:
        """Still answering: `isready` and a short search."""
        assert self.ask("isready") == []
        self.send("position startpos", "go nodes 10")
        assert self.until("bestmove")[-1].startswith("bestmove ")


def _errors(lines):
    return [line for line in lines if line.startswith("info string error ")]


# -- 1, 2: numbers and bounds -----------------------------------------------------------------


@pytest.mark.parametrize("go", [
    "go movetime ²", "go movetime ٣٠٠", "go movetime 99999999999999999999999", "go nodes 1000000000000000000",
    "go nodes " + "9" * 5000, "go movetime 100000000", "go movetime 600001", "go nodes 1000000001",
    "go nodes -5", "go movetime 1e3", "go movetime", "go p1time 99999999999 p2time 1000",
    "go p1time 1000 p2time 1000 p1inc 600001 p2inc 0", "go depth 3",
])
def test_a_number_not_in_ascii_digits_or_past_its_bound_is_refused_and_the_engine_goes_on(go):
    engine = Engine()
    answer = engine.ask(go)
    assert len(_errors(answer)) == 1 and len(answer[0]) < 300, answer
    engine.healthy()
    assert engine.quit() < QUIT_BOUND + SLACK
    assert engine.process.returncode == 0 and b"Traceback" not in engine.errors


def test_the_largest_numbers_allowed_are_searched_and_quit_still_ends_at_once():
    """`go nodes 10⁹` and `go movetime 600000` are allowed: `quit` does not wait for them."""
    for go in ("go nodes 1000000000", "go movetime 600000", "go p1time 1000000000 p2time 1 p1inc 600000",
               "go infinite"):
        engine = Engine()
        assert engine.ask("position startpos") == []
        engine.send(go)
        time.sleep(0.3)  # searching
        assert engine.quit() < QUIT_BOUND, go
        said = engine.rest()
        assert said[-1].startswith("bestmove ") and not _errors(said), (go, said)


def test_the_end_of_input_ends_a_search_within_a_second():
    engine = Engine()
    assert engine.ask("isready") == []  # started (on a loaded machine that can take seconds)
    engine.send("go nodes 1000000000")
    time.sleep(0.3)
    assert engine.quit("end of input") < QUIT_BOUND
    assert engine.rest()[-1].startswith("bestmove ")


def test_quit_ends_the_engine_while_a_command_waits_for_a_search():
    """A `position` sent during a long search waits for its answer; `quit` does not."""
    engine = Engine()
    assert engine.ask("isready") == []
    engine.send("go nodes 1000000000", "position startpos moves b_e5")
    time.sleep(0.3)
    assert engine.quit() < QUIT_BOUND


def test_stop_answers_at_once_and_the_engine_goes_on():
    engine = Engine()
    assert engine.ask("isready") == []
    engine.send("go infinite")
    time.sleep(0.3)
    began = engine.send("stop")
    assert engine.until("bestmove", wait=5)[-1].startswith("bestmove ")
    assert time.monotonic() - began < QUIT_BOUND
    engine.healthy()
    engine.quit()


# -- 3: a line over 5 MB ----------------------------------------------------------------------


def test_a_line_over_5_mb_is_refused_unread_and_not_echoed():
    """Under an address-space cap 150 MB above what the engine needs: holding a 200 MB line
    (as bytes and as text) would end it with MemoryError."""
    memory = 400 * 2**20
    engine = Engine(memory=memory)
    line = b"position startpos moves " + b"x" * (200 * 2**20) + b"\n"
    engine.send(line, "isready")
    answer = engine.until("readyok", wait=60)
    assert _errors(answer) == ["info string error a line over 5 MB: refused unread"], [a[:100] for a in answer]
    engine.healthy()
    engine.quit()
    assert engine.process.returncode == 0 and engine.errors == b""
    assert all(len(said) < 300 for said in engine.rest())


def test_a_long_word_under_5_mb_is_not_echoed_back_whole():
    engine = Engine()
    for line in ("x" * 4_000_000, "position startpos moves " + "b_e5" * 1_000_000,
                 "setoption name game value " + "y" * 4_000_000, "go nodes " + "1" * 4_000_000,
                 "setoption name \x1b[2Jbestmove_b_e5 value 1"):
        answer = engine.ask(line)
        assert len(_errors(answer)) == 1 and len(answer[0]) < 300 and "\x1b" not in answer[0], answer[0][:300]
    engine.healthy()
    engine.quit()


# -- 4: a bad setoption -----------------------------------------------------------------------


@pytest.mark.parametrize("game, option", [("crab", "deck"), ("hermetica", "board")])
def test_a_data_file_that_cannot_be_read_is_refused_and_the_engine_goes_on(tmp_path, game, option):
    (tmp_path / "broken.toml").write_text("this is [ not TOML\n")
    (tmp_path / "folder").mkdir()
    engine = Engine(cwd=tmp_path)
    assert engine.ask(f"setoption name game value {game}") == []
    for value in ("/nonexistent", "broken.toml", "folder", "/dev/zero", "-"):  # -: the commands
        answer = engine.ask(f"setoption name {option} value {value}")
        assert len(_errors(answer)) == 1, (value, answer)
    engine.healthy()  # the game's default data file
    engine.quit()
    assert engine.process.returncode == 0 and b"Traceback" not in engine.errors


def test_an_option_kept_for_another_game_that_it_cannot_use_is_said_when_that_game_is_chosen():
    engine = Engine()
    assert engine.ask("setoption name deck value /nonexistent") == []  # odd has no deck
    answer = engine.ask("setoption name game value crab")
    assert len(_errors(answer)) == 1 and "deck" in answer[0]
    engine.healthy()  # crab, with the sample deck
    engine.quit()


# -- 5: a search that fails -------------------------------------------------------------------

FAILING = """
import sys
from referee.search import mcts as search
from referee.games.base import Game

def boom(self, *args, **kwargs):
    raise RuntimeError("the search broke")

search.Search.run = boom
if "--no-move" in sys.argv:
    Game.random_move = boom
sys.argv = ["referee", "engine"]
from referee.cli import main
main()
"""


def test_a_search_that_fails_still_answers_go_with_a_legal_move():
    engine = Engine(argv=[sys.executable, "-c", FAILING])
    engine.send("position startpos moves b_e5", "go nodes 30")
    said = engine.until("bestmove", wait=10)
    assert _errors(said) and "the search broke" in _errors(said)[0]
    move = said[-1].split()[1]
    assert engine.ask(f"position startpos moves b_e5 {move}") == []  # legal
    engine.send("go movetime 200")
    assert engine.until("bestmove", wait=10)[-1].startswith("bestmove ")
    assert engine.quit() < QUIT_BOUND + SLACK and engine.process.returncode == 0


def test_a_search_that_fails_with_no_move_to_give_says_none_rather_than_nothing():
    engine = Engine(argv=[sys.executable, "-c", FAILING, "--no-move"])
    engine.send("go nodes 30")
    said = engine.until("bestmove", wait=10)
    assert _errors(said) and said[-1] == "bestmove (none)"
    assert engine.ask("isready") == []
    engine.quit()


def test_a_search_past_its_deadline_whose_best_so_far_fails_still_answers_in_time(monkeypatch):
    def slow(self, *args, **kwargs):
        time.sleep(3)
        raise RuntimeError("too late anyway")

    def broken(self):
        raise RuntimeError("the tree is in pieces")

    monkeypatch.setattr(Search, "run", slow)
    monkeypatch.setattr(Search, "quick_answer", broken)
    heard: list[str] = []
    session = Session(heard.append)
    began = time.monotonic()
    session.handle("go movetime 300")
    session.settle()
    assert time.monotonic() - began < 0.3 + LATE_BOUND + SLACK
    assert heard[-1].startswith("bestmove ") and heard[-1] != "bestmove (none)"
    game = session.game
    game.apply(session.state, session.read_move(session.state, heard[-1].split()[1]))  # legal


def test_four_seat_cooperative_crab_answers_go():
    """The reported case: a search that raised here left `go` unanswered."""
    engine = Engine()
    for line in ("setoption name game value crab", "setoption name players value 4",
                 "setoption name seed value 5", "position startpos"):
        assert engine.ask(line) == []
    engine.send("go nodes 30")
    said = engine.until("bestmove", wait=60)
    assert engine.ask(f"position startpos moves {said[-1].split()[1]}") == []  # legal
    engine.quit()


# -- 6: every game's options ------------------------------------------------------------------


def _listed(engine):
    engine.send("ugi")
    said = engine.until("ugiok")
    return [line.split() for line in said if line.startswith("option ")]


def test_ugi_lists_every_games_options_once_with_the_default_games_defaults():
    engine = Engine()
    listed = _listed(engine)
    assert all(words[:2] == ["option", "name"] and words[3:6] == ["type", "string", "default"]
               for words in listed)
    names = [words[2] for words in listed]
    assert len(names) == len(set(names))
    engines = {"MultiPV", "Algorithm"}  # the engine's own (SPEC §11)
    assert set(names) == {"game"} | engines | {option.name for game in GAMES.values() for option in game.options}
    defaults = {words[2]: " ".join(words[6:]) for words in listed}
    assert defaults["game"] == "odd"
    assert all(defaults[option.name] == str(option.default) for option in GAMES["odd"].options)
    engine.quit()


@pytest.mark.parametrize("order", ["game first", "board first"])
def test_an_arbiter_sending_the_listed_options_gets_hermit_hex(order):
    """Hermit on the hex board: a size the square board takes but the hex board does not (8)
    is refused, one the hex board takes (3) is not, and the position is the hex board's."""
    engine = Engine()
    listed = {words[2] for words in _listed(engine)}
    assert "board" in listed
    lines = ["setoption name game value hermit", "setoption name board value hex"]
    for line in lines if order == "game first" else lines[::-1]:
        assert engine.ask(line) == []
    assert len(_errors(engine.ask("setoption name size value 8"))) == 1
    assert engine.ask("setoption name size value 3") == []
    assert engine.ask("position startpos moves e5") == []  # a hex-hex board of side 3:
    assert len(_errors(engine.ask("position startpos moves e1"))) == 1  # e3–e5 only in row e
    engine.quit()


def test_an_option_no_game_has_is_refused():
    engine = Engine()
    assert len(_errors(engine.ask("setoption name colour value blue"))) == 1
    engine.quit()


# -- 7: in time -------------------------------------------------------------------------------


@pytest.mark.parametrize("game", ["odd", "harmijan", "crab"])
def test_bestmove_comes_within_movetime_and_100_ms(game):
    """Harmijan's first move was seconds late (its 55,000 setups listed in the search's time);
    a crab iteration outlasts a short movetime, so the answer is the watch's."""
    engine = Engine()
    assert engine.ask(f"setoption name game value {game}") == []
    assert engine.ask("position startpos") == []
    for movetime in (200, 500):
        began = engine.send(f"go movetime {movetime}")
        engine.until("bestmove", wait=10)
        assert time.monotonic() - began <= movetime / 1000 + LATE_BOUND + TIMING_SLACK, (game, movetime)
    engine.quit()


# -- the help's example ------------------------------------------------------------------------


def test_the_helps_example_runs_as_written_through_a_shell():
    env = {**os.environ, "COLUMNS": "80", "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    helped = subprocess.run(["referee", "engine", "--help"], capture_output=True, text=True, env=env, timeout=60)
    lines = helped.stdout.splitlines()
    example = lines[[line.strip() for line in lines].index("Example:") + 1].strip()
    assert example.startswith("printf ") and example.endswith("| referee engine")
    ran = subprocess.run(["sh", "-c", example], capture_output=True, text=True, env=env, timeout=60)
    said = ran.stdout.splitlines()
    assert ran.returncode == 0 and "ugiok" in said and said[-1].startswith("bestmove ")
    assert not _errors(said)


def test_a_clock_with_moves_to_go_is_answered_as_a_gui_sends_it():
    """UCI-style GUIs send `movestogo` with the clocks: it shares the time, it is no error."""
    engine = Engine()
    assert engine.ask("position startpos") == []
    engine.send("go p1time 2000 p2time 2000 movestogo 4")
    said = engine.until("bestmove")
    assert not _errors(said) and said[-1].startswith("bestmove "), said
    assert engine.quit() < QUIT_BOUND + SLACK
