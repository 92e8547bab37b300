"""A message is acted on exactly once even when the robot is killed at any point and started
again (SPEC §15). The robot runs in a child process that kills itself with SIGKILL at its k-th
step boundary (robot.checkpoint: after the commit, each record written, the message marked
handled, each reply sent and marked sent, the message filed); a second robot then starts on
what it left. Whatever k, every move is in the record exactly once and every reply went out
exactly once — the same mails as a run that was never killed."""

from __future__ import annotations

import collections
import os
import shutil
import signal
import traceback

import pytest

from referee.play.reports import record_in
from referee.play.replay import replay
from referee.serve import robot
from referee.serve.service import serve
from serve_support import ROBOT, MaildirPost, Player, parsed, start_game

EXPECTED = ["b b2", "w c3", "b a1"]


def run(post: MaildirPost, kill_at: int | None) -> bool:
    """One robot (`--once`) in a child process, killed at its `kill_at`-th step boundary:
    True when it was killed there, False when it finished first."""
    pid = os.fork()
    if pid == 0:  # the child: never returns into the test
        code = 1
        try:
            seen = 0

            def checkpoint(step: str) -> None:
                nonlocal seen
                seen += 1
                if seen == kill_at:
                    os.kill(os.getpid(), signal.SIGKILL)

            robot.checkpoint = checkpoint
            serve(str(post.games), address=ROBOT, log=lambda line: None, **post.arguments())
            code = 0
        except BaseException:  # noqa: BLE001 — said, then the child ends
            traceback.print_exc()
        finally:
            os._exit(code)
    _, status = os.waitpid(pid, 0)
    if os.WIFSIGNALED(status):
        assert os.WTERMSIG(status) == signal.SIGKILL
        return True
    assert os.WEXITSTATUS(status) == 0, f"the robot failed (killed at {kill_at})"
    return False


@pytest.fixture
def prepared(tmp_path):
    """A game begun, and three mails waiting: Ann's move with a hidden conditional reply, Bo's
    move that triggers it, Ann's status. A copy of the folder for every run."""
    post = MaildirPost(tmp_path / "start")
    ann, bo = Player(post, "Ann", "ann@example.org"), Player(post, "Bo", "bo@example.org")
    short = start_game(post, ann, bo, "new odd -O size=3 vs bo@example.org")
    ann.send("move b b2\nif w c3 then b a1", short)
    bo.send("move w c3", short)
    ann.send("status", short)
    return tmp_path, short


def fresh(prepared, name: str) -> MaildirPost:
    root, _ = prepared
    shutil.copytree(root / "start", root / name)
    post = MaildirPost(root / name)
    post.seen = set(os.listdir(post.outbox / "new"))  # the mails of the game's start are old
    return post


def outcome(post: MaildirPost, short: str) -> tuple[list[str], collections.Counter]:
    """The record's plies, and how many times each reply was delivered (by recipient and
    subject), checking that no message waits unhandled."""
    play = replay(record_in((post.games / f"{short}.toml").read_bytes(), "x.toml"))
    replies = collections.Counter()
    ids = collections.Counter()
    for address, data in post.collect():
        mail = parsed(data)
        replies[(address, str(mail["Subject"]), mail.get_body(("plain",)).get_content().splitlines()[0])] += 1
        ids[mail["Message-ID"]] += 1
    assert all(n == 1 for n in ids.values()), "a reply delivered twice"
    assert os.listdir(post.inbox / "new") == []
    return play.entries, replies


def check_every_kill(prepared, kill_points) -> int:
    _, short = prepared
    baseline = fresh(prepared, "baseline")
    assert not run(baseline, None)
    entries, expected = outcome(baseline, short)
    assert entries == EXPECTED and sum(expected.values()) == 5
    killed = 0
    for k in kill_points:
        post = fresh(prepared, f"killed-{k}")
        if not run(post, k):
            break  # past the last step boundary: the run finished
        killed += 1
        assert not run(post, None)  # started again: it finishes what the first left
        assert outcome(post, short) == (EXPECTED, expected), f"killed at step {k}"
        shutil.rmtree(post.folder)
    return killed


@pytest.mark.slow
def test_killed_between_every_step_every_move_and_every_reply_happen_once(prepared):
    killed = check_every_kill(prepared, range(1, 100))
    assert killed >= 20  # three messages: commit, write, handled, 2 replies sent and marked, filed …


def test_killed_at_a_few_steps_every_move_and_every_reply_happen_once(prepared):
    # The quick suite's share: after the first commit, the record written, the message marked
    # handled, the first reply sent, the message filed.
    assert check_every_kill(prepared, [1, 2, 3, 4, 8]) == 5
