"""Every picture in seconds (SPEC §14): a GIF of any record ≤ 5 MB is made within 30 s, the
frames of plies that change nothing (passes) merged into one longer frame, and a game too long
to draw every ply shown as a time-lapse that ends on its last ply.

The reported cases: a legal 397-ply Odd game (size 12) took 160 s, 1,000 Hermetica passes 287 s.
The records are made with the referee itself. The commands run in a process of their own under
a memory limit; the bound tested is the contract's, on the command's own processor time (on a
shared machine the wall clock also measures the neighbours), with a wall-clock timeout besides.
"""

from __future__ import annotations

import io
import random
import resource
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from referee.render import diagram as diagrams
from referee.record.files import write_atomic
from referee.play.game_file import new_game
from referee.record.values import Entry, Record
from referee.render import animation
from referee.render.animation import FRAME_MS, LAST_MS, frame_plan
from referee.render.diagram import svg_to_png
from referee.play.reports import load

CONTRACT_SECONDS = 30.0
MEMORY = 2 * 1024**3  # bytes of address space the command may take


def _make(path: Path, game: str, options: dict[str, str], choose, plies: int) -> Path:
    """A record of `game` as `referee new` writes it, then up to `plies` plies chosen by
    `choose(play, rng)` (and the passes the rules force), each checked by the referee."""
    new_game(game, options, [(1, "Ann"), (2, "Chidi Okafor")], None, str(path), True)
    play = load(str(path))
    rng = random.Random(14)
    while play.outcome() is None and play.plies < plies:
        play.push(choose(play, rng))
        play.push_forced_passes()
    record = play.record
    written = Record(record.game, record.options, record.players, record.setup,
                     moves=[Entry(text) for text in play.entries], path=str(path), id=record.id)
    write_atomic(path, written.to_toml())
    return path


def _random(play, rng) -> str:
    return str(play.game.random_move(play.state, rng))


def _pass_when_allowed(play, rng) -> str:
    try:
        play.fork().push("pass")
        return "pass"
    except Exception:  # the setup of the mat: no pass there
        return _random(play, rng)


def _limited() -> None:
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY, MEMORY))


def _gif_of(record: Path, tmp_path: Path) -> tuple[Image.Image, float]:
    """`referee show RECORD -o RECORD.gif` in a process of its own: the GIF, and the seconds
    of processor time the command took."""
    out = tmp_path / (record.stem + ".gif")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    done = subprocess.run([sys.executable, "-m", "referee", "show", str(record), "--format", "gif",
                           "-o", str(out)], capture_output=True, text=True, timeout=300,
                          preexec_fn=_limited)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    assert done.returncode == 0, done.stderr
    seconds = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Image.open(out), seconds


def _frames(picture: Image.Image) -> list[tuple[Image.Image, int]]:
    frames = []
    for number in range(picture.n_frames):
        picture.seek(number)
        frames.append((picture.convert("RGB"), picture.info["duration"]))
    return frames


def _looks_like(frame: Image.Image, play, ply: int) -> bool:
    """Whether a GIF frame is the picture of `ply` (colours reduced to a palette: nearly)."""
    png = Image.open(io.BytesIO(svg_to_png(diagrams.svg_diagram(play, ply)))).convert("RGBA")
    expected = Image.new("RGB", frame.size, (255, 255, 255))
    expected.paste(png, (0, 0), png)
    difference = [abs(a - b) for a, b in zip(expected.tobytes(), frame.tobytes())]
    return sum(d > 40 for d in difference) < len(difference) / 1000


# -- which plies get a frame -----------------------------------------------------------------------


def test_a_game_without_passes_gets_a_frame_a_ply():
    assert frame_plan([False] * 26, 400_000) == [(ply, FRAME_MS) for ply in range(25)] + [(25, LAST_MS)]


def test_passes_hold_the_frame_before_them_and_the_last_ply_is_drawn():
    #        ply:  0      1     2     3     4      5     6     7     8
    still = [False, False, True, True, True, False, True, False, True]
    assert frame_plan(still, 400_000) == [(0, 1000), (1, 3000), (5, 2000), (7, 1000), (8, LAST_MS)]


def test_a_thousand_passes_make_one_frame():
    still = [False] + [False] * 5 + [True] * 1000
    plan = frame_plan(still, 850_000)
    assert [ply for ply, _ in plan] == [0, 1, 2, 3, 4, 5, 1005]
    assert plan[-2] == (5, 3 * FRAME_MS)


def test_a_long_game_becomes_a_time_lapse_within_the_budget():
    plan = frame_plan([False] * 398, 1_015_580)  # 397 plies of Odd, size 12: 986 × 1030 pixels
    plies = [ply for ply, _ in plan]
    assert plies[0] == 0 and plies[-1] == 397 and plies == sorted(set(plies))
    assert len(plan) * (1_015_580 + animation.FRAME_OVERHEAD) <= animation.PIXEL_BUDGET
    steps = {b - a for a, b in zip(plies, plies[1:])}
    assert max(steps) - min(steps) <= 1  # evenly spaced
    assert len(frame_plan([False] * 20_000, 10_000)) == animation.MAX_FRAMES


def test_a_picture_too_large_for_two_frames_shows_its_last_ply():
    assert frame_plan([False] * 50, 2000 * 20000) == [(49, LAST_MS)]


# -- the reported records, through the command line ------------------------------------------------


def test_the_gif_of_a_thousand_hermetica_passes_is_made_in_seconds(tmp_path):
    record = _make(tmp_path / "passes.toml", "hermetica", {}, _pass_when_allowed, 1_000)
    play = load(str(record))
    assert play.plies == 1_000 and str(play.last_move()) == "pass"
    setup = next(ply for ply in range(1, 1_001) if str(play.last_move(ply)) == "pass") - 1
    picture, seconds = _gif_of(record, tmp_path)
    assert seconds < CONTRACT_SECONDS  # it took 287 s
    frames = _frames(picture)
    assert len(frames) == setup + 2  # the start, each ply of the setup, and the last pass
    assert [duration for _, duration in frames[-2:]] == [3 * FRAME_MS, LAST_MS]
    assert _looks_like(frames[-1][0], play, 1_000) and _looks_like(frames[-2][0], play, setup)


@pytest.mark.slow
def test_the_gif_of_a_397_ply_odd_game_is_made_within_the_bound(tmp_path):
    record = _make(tmp_path / "odd.toml", "odd", {"size": "12"}, _random, 1_000)
    play = load(str(record))
    assert play.plies == 397 and play.outcome() is not None
    picture, seconds = _gif_of(record, tmp_path)
    assert seconds < CONTRACT_SECONDS  # it took 160 s
    frames = _frames(picture)
    assert 10 <= len(frames) < 398  # a time-lapse
    assert frames[-1][1] == LAST_MS and _looks_like(frames[-1][0], play, 397)
    assert _looks_like(frames[0][0], play, 0)
