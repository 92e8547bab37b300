"""SPEC §14: hostile engines cannot hold a match.

An engine that stops reading its input loses on time, and the arbiter still ends within 5 s of
Ctrl-C or SIGTERM; a process an engine started in a session of its own is ended with it; an
engine that floods its output, or writes a line of megabytes, costs the arbiter no memory to
speak of; `--openings` is read in linear time; an engine that calls itself by a person's name
is shown as an engine; `--force` replaces an earlier match's records, and nothing else.

The engines are tiny programs written for these tests (tests/engines/). Where signals or
memory matter the match runs as a process of its own, under a limit on its address space, so
that a regression fails instead of hanging the suite or eating the machine.
"""

from __future__ import annotations

import json
import os
import resource
import shlex
import signal
import subprocess
import sys
import time
import tomllib
import uuid
from pathlib import Path

import psutil
import pytest

from referee.engine import process as engine_process, match
from referee.play.choices import data_files, game_named, game_options
from referee.engine.process import EngineProcess
from referee.engine.wire import wire

ENGINES = Path(__file__).parent / "engines"
TAG = "REFEREE_MATCH_TEST_TAG"
SMALL = ("--game", "odd", "-O", "size=3")  # 19 cells: a game in a few seconds
ADDRESS_SPACE = 2 * 1024 ** 3  # bytes a match may map (threads reserve much they never touch)


def engine(kind: str, *args: str) -> str:
    """The command of a test engine, as ENGINE takes it."""
    return shlex.join([sys.executable, str(ENGINES / f"{kind}_engine.py"), *args])


def tagged(tag: str) -> list[int]:
    """The processes whose environment carries the tag (as in test_match.py)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            try:
                if f"{TAG}={tag}".encode() in (entry / "environ").read_bytes().split(b"\0"):
                    found.append(int(entry.name))
            except OSError:
                pass  # gone meanwhile, or not ours
    return found


@pytest.fixture(autouse=True)
def no_orphans(monkeypatch):
    """After every test: no engine, and nothing an engine started, is left running."""
    if not Path("/proc/self/environ").exists():
        pytest.skip("needs /proc (Linux) to look for processes left behind")
    tag = uuid.uuid4().hex
    monkeypatch.setenv(TAG, tag)
    yield tag
    deadline = time.monotonic() + 5  # a process killed may take a moment to be gone
    while (left := tagged(tag)) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not left, f"processes left behind: {left}"


def arbiter(folder: Path, *args: str) -> subprocess.Popen[str]:
    """`referee match ARGS…` as a process of its own, in `folder`, its address space bounded."""
    def bounded() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (ADDRESS_SPACE, ADDRESS_SPACE))

    return subprocess.Popen([sys.executable, "-m", "referee", "match", *args], cwd=folder,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=bounded)


def finished(process: subprocess.Popen[str], timeout: float = 120) -> tuple[str, str]:
    try:
        return process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        raise AssertionError(f"the match still ran after {timeout} s") from None


def valid(folder: Path) -> None:
    """Every record in the folder validates (an unfinished game as a game that goes on)."""
    found = [str(path) for path in folder.glob("*.toml") if path.name != "match.toml"]  # the match's settings
    done = subprocess.run([sys.executable, "-m", "referee", "validate", *found],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stdout + done.stderr


def gone(sleeper: tuple[int, str]) -> bool:
    """Whether the process (pid, start time) has ended and been reaped (a zombie still has its
    pid); the pid alone may name another process by then (pids wrap round at 32,768 here)."""
    pid, start = sleeper
    deadline = time.monotonic() + 5
    while time.monotonic() < deadline:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return True
        if stat.rsplit(")", 1)[1].split()[19] != start:
            return True  # the pid is another process's now
        time.sleep(0.05)
    return False


# -- an engine that stops reading its input ---------------------------------------------------


def test_an_engine_that_stops_reading_its_input_forfeits_on_time(tmp_path):
    # 200 ms a move (1.6 s to answer): time enough for the random engine on a loaded machine.
    process = arbiter(tmp_path, engine("random"), engine("deaf"), *SMALL, "--games", "2",
                      "--movetime", "200", "--out", "m", "--json")
    out, err = finished(process)
    assert process.returncode == 0, err
    report = json.loads(out)
    assert report["engines"][1]["timeouts"] == 2 and report["engines"][0]["wins"] == 2
    for result in report["results"]:
        assert result["reason"].endswith("forfeits: no bestmove within 1.6 s: it stopped reading its input")
    valid(tmp_path / "m")


@pytest.mark.parametrize("stop", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_ctrl_c_or_sigterm_ends_a_match_within_5_s_while_an_engine_does_not_read(tmp_path, stop):
    # 10 s a move: the arbiter would wait 31 s for the deaf engine; the signal must not.
    process = arbiter(tmp_path, engine("random"), engine("deaf", "--note", "deaf.txt"), *SMALL,
                      "--games", "4", "--movetime", "10000", "--out", "m")
    deadline = time.monotonic() + 60
    while not (tmp_path / "deaf.txt").exists() and time.monotonic() < deadline:
        time.sleep(0.05)
    assert (tmp_path / "deaf.txt").exists(), "the deaf engine never stopped reading"
    time.sleep(0.5)  # the arbiter is writing the next position to the full pipe
    began = time.monotonic()
    process.send_signal(stop)
    out, err = finished(process, 60)
    assert time.monotonic() - began < 5  # SPEC §14
    assert process.returncode == 128 + stop  # 130 after Ctrl-C, 143 after SIGTERM
    assert "interrupted: the engines are ended; the records so far are in m" in err
    assert "Traceback" not in err
    assert list((tmp_path / "m").glob("*.toml"))
    valid(tmp_path / "m")


# -- every process an engine started ----------------------------------------------------------


def sleepers(path: Path) -> list[tuple[int, str]]:
    """The escaping engines' sleepers: (pid, start time), as escape_engine.py writes them."""
    return [(int(pid), start) for pid, start in (line.split() for line in path.read_text().splitlines())]


def test_a_process_an_engine_started_in_a_session_of_its_own_ends_with_the_engine(tmp_path):
    escape = [sys.executable, str(ENGINES / "escape_engine.py"), "--pidfile", str(tmp_path / "pids")]
    with engine_process.adopting():
        process = EngineProcess(escape, "1")
        process.start("odd", {"size": "3"})
        (sleeper,) = sleepers(tmp_path / "pids")
        pid = sleeper[0]
        assert psutil.Process(pid).name() == "sleep" and not gone(sleeper)
        assert os.getsid(pid) not in (os.getsid(0), process._process.pid)  # out of the engine's reach
        process.close(final=True)
        assert gone(sleeper)  # ended, and reaped, with its engine: not at the match's end


@pytest.mark.parametrize("bare", [False, True], ids=["its-environment", "an-empty-environment"])
def test_every_process_the_engines_started_is_ended_with_the_match(cli, tmp_path, bare):
    # Two games at once: two escaping engines, whose sleepers the match ends at its end.
    escape = engine("escape", "--pidfile", str(tmp_path / "pids"), *(["--bare"] if bare else []))
    result = cli("match", engine("random"), escape, *SMALL, "--games", "2", "--concurrency", "2",
                 "--movetime", "50", "--out", "m", "--json")
    assert result.exit_code == 0, result.output
    assert len(sleepers(tmp_path / "pids")) == 2
    assert all(gone(sleeper) for sleeper in sleepers(tmp_path / "pids"))


def test_sigterm_ends_what_the_engines_started_too(tmp_path):
    escape = engine("escape", "--pidfile", str(tmp_path / "pids"), "--bare")
    process = arbiter(tmp_path, escape, engine("hang"), *SMALL, "--games", "2", "--movetime", "5000",
                      "--out", "m")
    deadline = time.monotonic() + 60
    while not list(tmp_path.glob("m/*.toml")) and time.monotonic() < deadline:
        time.sleep(0.05)
    process.send_signal(signal.SIGTERM)
    out, err = finished(process, 60)
    assert process.returncode == 143, err
    assert all(gone(sleeper) for sleeper in sleepers(tmp_path / "pids"))
    valid(tmp_path / "m")


# -- an engine's output -----------------------------------------------------------------------


def peak_memory(process: subprocess.Popen[str]) -> tuple[int, str, str]:
    """The largest resident set of the arbiter while it ran, in bytes, and its output."""
    watched, peak = psutil.Process(process.pid), 0
    while process.poll() is None:
        try:
            peak = max(peak, watched.memory_info().rss)
        except psutil.Error:
            break
        time.sleep(0.01)
    out, err = finished(process)
    return peak, out, err


def test_an_engine_that_floods_its_output_does_not_grow_the_arbiter(tmp_path):
    # 200 MB of lines the arbiter listens to, written while it waits 1.9 s for the other
    # engine (which never answers): the arbiter keeps at most 1 MB of them.
    process = arbiter(tmp_path, engine("flood", "--megabytes", "200"), engine("hang"), *SMALL,
                      "--games", "1", "--movetime", "300", "--out", "m", "--json")
    peak, out, err = peak_memory(process)
    assert process.returncode == 0 and "Traceback" not in err, err
    assert json.loads(out)["engines"][1]["timeouts"] == 2  # one game asked for is a pair (SPEC §13)
    assert peak < 100 * 1024 ** 2, f"{peak / 1024 ** 2:.0f} MB"
    valid(tmp_path / "m")


def test_a_line_of_6_mb_is_never_held_whole(tmp_path):
    process = arbiter(tmp_path, engine("flood", "--long"), engine("random"), *SMALL,
                      "--games", "2", "--movetime", "200", "--out", "m", "--json")
    peak, out, err = peak_memory(process)
    assert process.returncode == 0 and "Traceback" not in err, err
    report = json.loads(out)
    assert report["engines"][0]["illegal"] == 2
    for result in report["results"]:
        assert ": unreadable move yyyy" in result["reason"] and len(result["reason"]) < 300
    assert peak < 100 * 1024 ** 2, f"{peak / 1024 ** 2:.0f} MB"


# -- openings ---------------------------------------------------------------------------------


def openings(path: Path, lines: int, moves: int) -> Path:
    """`lines` openings of `moves` random legal moves each on the 91 cells of odd size 6."""
    game = game_named("odd")
    options = game_options(game, {"size": "6"})
    first = game.start(options, game.new_setup(options, data_files(game, options), 0))
    import random

    with path.open("w") as out:
        for line in range(lines):
            rng, state, played = random.Random(line), first, []
            for _ in range(moves):
                move = rng.choice(game.legal_moves(state))
                played.append(wire(move))
                state = game.apply(state, move)
            assert game.outcome(state) is None
            out.write(" ".join(played) + "\n")
    return path


def test_openings_are_read_in_linear_time_spec_14(tmp_path):
    # Linear in the file's moves: openings 4 × as long cost about 4 × the work, not 16 ×. The
    # work is counted in Python function calls (the same on any machine, however loaded); as
    # they were read before, a move built the whole record so far and the ratio was over 8.
    def calls(path: Path) -> int:
        count = 0

        def profile(frame, event, arg):
            nonlocal count
            count += event == "call"

        sys.setprofile(profile)
        try:
            read = match.plan(("referee", "referee"), "odd", {"size": "6"}, openings=str(path))
        finally:
            sys.setprofile(None)
        assert len(read.openings) == 50
        return count

    short, long = calls(openings(tmp_path / "20.txt", 50, 20)), calls(openings(tmp_path / "80.txt", 50, 80))
    assert long / short < 5, (short, long)


# -- names and folders ------------------------------------------------------------------------


def test_an_engine_that_gives_a_person_s_name_is_shown_as_an_engine_spec_14(cli, tmp_path):
    bob = engine("illegal", "--name", "Bob <bob@example.org>")
    result = cli("match", engine("random"), bob, *SMALL, "--games", "2", "--movetime", "200",
                 "--out", "m", "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    names = ["random (engine)", "Bob <bob@example.org> (engine)"]
    assert [row["name"] for row in report["engines"]] == names
    assert {p["player"] for p in report["standings"]["games"]["odd"]["players"]} == set(names)
    first = tomllib.loads(next((tmp_path / "m").glob("001-*.toml")).read_text())
    assert first["players"] == {"1": names[0], "2": names[1]}
    assert first["result"]["reason"].startswith("Bob <bob@example.org> (engine) (seat 2) forfeits: ")
    # Bob himself, in a game of his own in the same folder, is another player than the engine.
    assert cli("new", "odd", "-O", "size=3", "-o", "m/bob.toml", "--player", "1=Bob <bob@example.org>",
               "--player", "2=Ann").exit_code == 0
    assert cli("move", "m/bob.toml", "resign").exit_code == 0
    standings = json.loads(cli("standings", "m", "--json").stdout)
    players = {p["player"]: p for p in standings["games"]["odd"]["players"]}
    assert set(players) == {"Bob <bob@example.org>", "Ann", *names}
    assert (players["Bob <bob@example.org>"]["played"], players["Bob <bob@example.org>"]["address"]) == (1, "bob@example.org")
    assert (players[names[1]]["played"], players[names[1]]["address"]) == (2, None)


def test_force_replaces_an_earlier_match_and_nothing_else(cli, tmp_path):
    def run(*more):
        return cli("match", engine("random", "--seed", "1"), engine("random", "--seed", "2"), *SMALL,
                   "--movetime", "50", "--out", "m", "--json", *more)

    assert run("--games", "4").exit_code == 0
    again = run("--games", "2")
    assert again.exit_code == 2
    assert "already exists (use --force to replace it)" in again.output
    assert len(list((tmp_path / "m").iterdir())) == 5  # four records and match.toml (SPEC §13)
    replaced = run("--games", "2", "--force")
    assert replaced.exit_code == 0, replaced.output
    assert sorted(p.name[:3] for p in (tmp_path / "m").iterdir()) == ["001", "002", "mat"]  # 003, 004 went too
    assert json.loads(replaced.stdout)["standings"]["games"]["odd"]["finished"] == 2
    # A folder that holds anything but a match's records is not replaced, before any engine starts.
    (tmp_path / "m" / "notes.txt").write_text("mine\n")
    before = sorted((p.name, p.read_bytes()) for p in (tmp_path / "m").iterdir())
    refused = run("--games", "2", "--force")
    assert refused.exit_code == 2
    assert "--force replaces only an earlier match's records, and notes.txt is not one" in refused.output
    assert sorted((p.name, p.read_bytes()) for p in (tmp_path / "m").iterdir()) == before


def test_a_game_of_one_ply_is_listed_as_one_ply():
    from referee.engine.match_report import game_lines

    result = match.GameResult(2, "m/002.toml", (1, 0), (2,), "forfeits", 1)
    (line,) = game_lines(result, ("random (engine)", "deaf (engine)"), 2)
    assert line == "002 deaf (engine) – random (engine): 0–1 (1 ply) forfeits"
