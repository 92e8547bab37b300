"""`referee serve` on real mail (SPEC §15): a real IMAP server (Dovecot, started here on
127.0.0.1 with its configuration in a temporary folder) holds the robot's mailbox, a real SMTP
server (aiosmtpd) catches its replies, with TLS and passwords as a mail provider asks them.
Two players finish a game of every two-seat kind through it, each record they receive
validating offline."""

from __future__ import annotations

import imaplib
import os
import random
import smtplib
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.serve.service import serve
from serve_support import (PASSWORD, ROBOT, Catcher, Dovecot, NetPost, Player, message, play_on,
                           start_game, text_of)


@pytest.fixture(scope="module")
def dovecot():
    server = Dovecot()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def catcher(dovecot):
    server = Catcher(dovecot.cert, dovecot.cert.with_name("key.pem"))
    yield server
    server.stop()


@pytest.fixture
def post(tmp_path, dovecot, catcher, monkeypatch):
    return NetPost(tmp_path, dovecot, catcher, monkeypatch)


def validate(tmp_path, record: bytes) -> str:
    path = tmp_path / "received.toml"
    path.write_bytes(record)
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    return result.output


GAMES = [
    # (the `new` line, plies before the seat to move resigns; None: to the game's natural end,
    # scored by the rules). Odd to its end by mail is also in the quick suite, on Maildir
    # (tests/test_serve.py); Harmijan's and Hermetica's natural ends take some 60 and 110
    # random plies, so the quick suite ends them by resignation.
    pytest.param("new odd -O size=3 vs bo@example.org", None, marks=pytest.mark.slow),
    ("new dustin -O size=3 -O min_group=3 vs bo@example.org", None),
    ("new hermit -O board=square -O size=5 vs bo@example.org", None),
    ("new hermit -O board=hex -O size=3 vs bo@example.org", None),
    ("new harmijan -O size=5 vs bo@example.org", 6),
    ("new hermetica vs bo@example.org", 6),
]


@pytest.mark.parametrize("line, most", GAMES, ids=["odd", "dustin", "hermit-square", "hermit-hex", "harmijan",
                                                   "hermetica"])
def test_two_players_finish_a_game_of_every_kind_by_mail(post, dovecot, tmp_path, line, most):
    ann, bo = Player(post, "Ann", "ann@example.org"), Player(post, "Bo", "bo@example.org")
    short = start_game(post, ann, bo, line)
    end = play_on(post, {1: ann, 2: bo}, short, random.Random(3), most)
    assert end.outcome() is not None
    if most is not None:
        assert end.plies >= most and "resigned" in end.outcome().reason
    else:
        assert "resign" not in end.outcome().reason
    for player in (ann, bo):
        assert "The game is over" in text_of(player.inbox[-1])
        assert f"{end.plies} pl" in validate(tmp_path, player.records[short])
    # Every handled message is flagged seen and moved to INBOX.done; none waits in INBOX.
    imap = dovecot.client()
    assert imap.select("INBOX")[1] == [b"0"]
    imap.select("INBOX.done")
    typ, unseen = imap.uid("SEARCH", None, "UNSEEN")
    assert unseen == [b""]
    imap.logout()


def test_watch_waits_with_idle_and_sigterm_ends_it(post, tmp_path, dovecot):
    ann = Player(post, "Ann", "ann@example.org")
    env = {**os.environ, "SSL_CERT_FILE": str(dovecot.cert), "REFEREE_IMAP_PASSWORD": PASSWORD,
           "REFEREE_SMTP_PASSWORD": PASSWORD}
    robot = subprocess.Popen([sys.executable, "-m", "referee", "serve", "--games", str(post.games),
                              *post.cli_arguments(), "--watch", "--interval", "600"],
                             env=env, stderr=subprocess.PIPE, text=True)
    try:
        time.sleep(3)  # logged in and idling (a poll would come only after 600 s)
        ann.send("help")
        deadline = time.monotonic() + 60
        while not post.distribute() and time.monotonic() < deadline:
            time.sleep(0.2)
        [reply] = ann.new_mail()
        assert "GAMEID move MOVE" in text_of(reply)
        asked = time.monotonic()
        robot.terminate()
        assert robot.wait(timeout=30) == 0
        assert time.monotonic() - asked < 10
    finally:
        if robot.poll() is None:
            robot.kill()
            robot.wait()


def test_starttls_where_offered(post, dovecot, catcher, monkeypatch):
    # imap:// on Dovecot's plain port, smtp:// on aiosmtpd's: the robot asks for STARTTLS
    # before it gives a password (and both servers refuse a password without it).
    started = []
    for module in (imaplib.IMAP4, smtplib.SMTP):
        original = module.starttls
        monkeypatch.setattr(module, "starttls", lambda self, *a, _o=original, **k: (started.append(self), _o(self, *a, **k))[1])
    ann = Player(post, "Ann", "ann@example.org")
    ann.send("help")
    url = f"imap://{ROBOT.replace('@', '%40')}@127.0.0.1:{dovecot.plain_port}/INBOX"
    serve(str(post.games), imap=url, smtp=catcher.url(), address=ROBOT, log=post.log.append)
    post.distribute()
    assert len(ann.new_mail()) == 1
    assert {type(s) for s in started} == {imaplib.IMAP4, smtplib.SMTP}


def test_passwords_only_from_the_environment_or_netrc(post, dovecot, catcher, monkeypatch, tmp_path):
    arguments = ["serve", "--games", str(post.games), "--smtp", catcher.url(), "--once"]
    with_password = dovecot.url().replace("%40club.example@", f"%40club.example:{PASSWORD}@")
    result = CliRunner().invoke(app, [*arguments, "--imap", with_password])
    assert result.exit_code == 2 and "no password on the command line" in result.output
    monkeypatch.delenv("REFEREE_IMAP_PASSWORD")
    monkeypatch.setenv("HOME", str(tmp_path))
    result = CliRunner().invoke(app, [*arguments, "--imap", dovecot.url()])
    assert result.exit_code == 2 and "REFEREE_IMAP_PASSWORD or ~/.netrc" in result.output
    netrc = tmp_path / ".netrc"
    netrc.write_text(f"machine 127.0.0.1 login {ROBOT} password {PASSWORD}\n")
    netrc.chmod(0o600)
    Player(post, "Ann", "ann@example.org").send("help")
    result = CliRunner().invoke(app, [*arguments, "--imap", dovecot.url()])
    assert result.exit_code == 0, result.output
    assert len(post.distribute()) == 1


def test_a_reply_the_mail_system_refuses_for_good_is_dropped(post, catcher):
    ann = Player(post, "Ann", "ann@example.org")
    catcher.refuse = {"nobody@example.org"}
    try:
        ann.send("new odd -O size=3 vs nobody@example.org")
        post.round()
        post.round()  # and not tried again
    finally:
        catcher.refuse = set()
    assert len(ann.new_mail()) == 1
    assert sum("reply dropped: nobody@example.org: 550" in line for line in post.log) == 1


def test_mail_from_the_robot_itself_is_not_answered(post):
    post.deliver(message(ROBOT, "help"))
    post.deliver(message("ann@example.org", "help", headers={"Auto-Submitted": "auto-replied"}))
    post.round()
    assert post.all == []
