"""`referee serve` on its embedded default, Maildir folders (SPEC §15): games played by mail
through the robot, what each player receives, hidden conditional moves, and every mail the
robot must refuse — forged, replayed, oversized, looping, token-less — refused as §15 says.
(The same robot on a real IMAP and SMTP server: tests/test_serve_mail.py; killed at every
step: tests/test_serve_crash.py.)"""

from __future__ import annotations

import random
import sqlite3
import subprocess
import sys
import time

import pytest
from typer.testing import CliRunner

from referee.cli import app
from referee.play.reports import record_in
from referee.play.replay import replay
from serve_support import (ROBOT, MaildirPost, Player, game_id, message, parsed, play_on, record_of,
                           start_game, text_of)


@pytest.fixture
def post(tmp_path):
    return MaildirPost(tmp_path)


@pytest.fixture
def ann(post):
    return Player(post, "Ann", "ann@example.org")


@pytest.fixture
def bo(post):
    return Player(post, "Bo", "bo@example.org")


def valid_offline(tmp_path, record: bytes, name: str = "copy.toml") -> str:
    """`referee validate` of a record a player received, as the player would run it."""
    path = tmp_path / name
    path.write_bytes(record)
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    return result.output


def test_a_game_of_odd_by_mail_to_its_natural_end(post, ann, bo, tmp_path):
    short = start_game(post, ann, bo, "new odd -O size=3 vs bo@example.org")
    # Each player got a token of their own, privately: five words, never the other's.
    assert ann.tokens[short] != bo.tokens[short]
    assert len(ann.tokens[short].split("-")) == 5
    assert not any(bo.tokens[short] in text_of(m) for m in ann.inbox)
    end = play_on(post, {1: ann, 2: bo}, short, random.Random(7))
    assert end.outcome() is not None and end.plies == 19  # every cell of a size-3 board filled
    for player in (ann, bo):
        last = player.inbox[-1]
        assert "The game is over" in text_of(last)
        assert {p.get_filename() for p in last.iter_attachments()} == {f"{short}.toml", f"{short}.svg", f"{short}.png"}
        assert f"valid   {tmp_path / player.name}.toml: 19 plies" in valid_offline(tmp_path, player.records[short],
                                                                                     f"{player.name}.toml")
    # The robot's own copy is the record (sealed at every ply), and Bo's name came with his first mail.
    kept = (post.games / f"{short}.toml").read_bytes()
    assert kept == ann.records[short] == bo.records[short]
    assert b'2 = "Bo <bo@example.org>"' in kept


def test_after_every_ply_the_mover_is_told_and_the_other_is_asked_to_move(post, ann, bo):
    short = start_game(post, ann, bo, "new hermit -O board=square -O size=5 vs bo@example.org")
    ann.send("move b2", short)
    post.round()
    [to_ann], [to_bo] = ann.new_mail(), bo.new_mail()
    assert "Your move b2 is recorded (ply 1)." in text_of(to_ann)
    assert "Ann played b2 (ply 1)." in text_of(to_bo) and "It is your move." in text_of(to_bo)
    for mail in (to_ann, to_bo):
        assert mail["From"] == ROBOT and mail["Subject"].startswith(f"[{short}] Hermit")
        assert mail["Auto-Submitted"] in ("auto-replied", "auto-generated")
    # Only the mail that answers Ann's is a reply, and says so (RFC 3834).
    assert to_ann["Auto-Submitted"] == "auto-replied" and to_ann["In-Reply-To"]


def move_says(tmp_path, monkeypatch, record: bytes, short: str, *arguments: str) -> str:
    """The error line `referee move GAMEID.toml …` prints on a player's copy of the record."""
    monkeypatch.chdir(tmp_path)
    (tmp_path / f"{short}.toml").write_bytes(record)
    said = CliRunner().invoke(app, ["move", f"{short}.toml", *arguments])
    assert said.exit_code in (1, 2)
    [error] = [line for line in said.output.splitlines() if line.startswith("error: ")]
    return error


def test_an_illegal_move_is_told_to_its_sender_alone_as_move_says_it(post, ann, bo, tmp_path, monkeypatch):
    short = start_game(post, ann, bo, "new odd -O size=3 vs bo@example.org")
    ann.send("move b b2", short)
    post.round()
    ann.new_mail(), bo.new_mail()
    error = move_says(tmp_path, monkeypatch, bo.records[short], short, "w b2")
    assert error.startswith(f"error: {short}.toml: ply 2 (w b2): ") and "occupied" in error
    bo.send("move w b2", short)
    post.round()
    [refusal] = bo.new_mail()
    assert ann.new_mail() == []
    assert text_of(refusal).startswith(error + "\n")
    assert refusal["Subject"].startswith(f"[{short}] Refused")
    assert bo.game(short).plies == 1


def test_a_game_against_the_engine_by_mail_to_its_end(post, ann, tmp_path):
    ann.send("new odd -O size=3 vs bot 0.1")
    post.round()
    [first] = ann.new_mail()
    short = game_id(first)
    rng = random.Random(3)
    while (play := ann.game(short)).to_move() is not None:
        ann.send(f"move {play.game.random_move(play.state, rng)}", short)
        post.round()
        [mail] = ann.new_mail()  # Ann's move and the engine's reply, in one mail
        assert "Engine plays" in text_of(mail) or "The game is over" in text_of(mail), text_of(mail)
    assert play.plies == 19 and "The game is over" in text_of(mail)
    assert all(e.bot for e in play.record.moves[1::2])
    valid_offline(tmp_path, ann.records[short])
    assert {address for address, _ in post.all} == {ann.address}  # the engine's seat reads no mail


def decoded_parts(mail) -> list[bytes]:
    """Everything a mail holds as its reader's program shows it: the headers, and every part
    decoded (the record, the SVG, the PNG, the calendar file), not the base64 on the wire."""
    found = [str(mail.items()).encode()]
    for part in mail.walk():
        if not part.is_multipart():
            found.append(part.get_payload(decode=True) or b"")
    return found


def test_hidden_conditional_moves_never_reach_the_opponent_before_they_are_played(post, ann, bo, tmp_path):
    # A clocked game, so that the calendar file rides along too.
    short = start_game(post, ann, bo, "new odd -O size=3 vs bo@example.org clock 10/50d")
    ann.send("move b b2\nline w_c3 b_a1 w_d4 b_c2 w_e4 b_b1\nline w_c3 b_a1 w_a2 b_d3\nif w c1 then b a3", short)
    post.round()
    [to_ann], [to_bo] = ann.new_mail(), bo.new_mail()
    # Ann's mail lists the tree, as `move --line` builds it; the record holds none of it.
    assert "3 conditional lines left for your opponent's replies (bo@example.org)." in text_of(to_ann)
    for said in ["if w c1 then b a3", "if w c3 then b a1, if w d4 then b c2, if w e4 then b b1",
                 "if w c3 then b a1, if w a2 then b d3"]:
        assert said in text_of(to_ann)
    secrets = {"b a1", "b c2", "b b1", "b d3", "b a3"}
    for move in ["w c3", "w d4", "w a2"]:  # Bo walks into the tree, then out of it
        bo.send(f"move {move}", short)
        post.round()
        ann.new_mail(), bo.new_mail()
    assert bo.game(short).entries == ["b b2", "w c3", "b a1", "w d4", "b c2", "w a2"]
    # Every mail that went to Bo, every part of it decoded: no reply before it was played.
    to_bo = [parsed(data) for address, data in post.all if address == bo.address]
    assert len(to_bo) == 5
    for mail in to_bo:
        played = set(replay(record_in(record_of(mail), "copy.toml")).entries)
        for part in decoded_parts(mail):
            for move in secrets - played:
                assert move.encode() not in part and move.replace(" ", "_").encode() not in part, (move, mail["Subject"])
            assert b"pending" not in part and b"stands" not in part
    assert any(part.startswith(b"BEGIN:VCALENDAR") for part in decoded_parts(to_bo[-1]))
    # What Bo was told once a reply was played: that reply, and nothing of the rest of the tree.
    assert "Ann's conditional reply was played: if w c3 then b a1." in text_of(to_bo[2])
    assert "Ann's conditional reply was played: if w d4 then b c2." in text_of(to_bo[3])
    # The robot's own record and database of a finished line keep no tree; Ann hears it dropped.
    assert b"pending" not in (post.games / f"{short}.toml").read_bytes()
    assert "Your conditional moves were dropped: none was for w a2." in text_of(ann.inbox[-1])
    play = bo.game(short)
    # Written as a ply made for its seat (SPEC §9): the move and the stamp of the ply it answers.
    reply, answered = play.record.moves[2], play.record.moves[1]
    assert reply.at == answered.at and reply.comment is None and not reply.pending
    valid_offline(tmp_path, bo.records[short])


def test_a_conditional_line_several_moves_deep(post, ann, bo):
    short = start_game(post, ann, bo, "new odd -O size=3 vs bo@example.org")
    ann.send("move b b2\nline w_c3 b_a1 w_d4 b_c2", short)
    post.round()
    bo.send("move w c3", short)
    post.round()
    assert bo.game(short).entries == ["b b2", "w c3", "b a1"]
    bo.send("move w d4", short)
    post.round()
    assert bo.game(short).entries == ["b b2", "w c3", "b a1", "w d4", "b c2"]
    # Any other move ends the line.
    bo.send("move w e4", short)
    post.round()
    assert bo.game(short).plies == 6 and ann.game(short).to_move() == 1


def test_a_hidden_line_may_accept_a_draw_offered_with_the_move_it_answers(post, ann, bo, tmp_path):
    short = start_game(post, ann, bo, "new odd -O size=3 vs bo@example.org")
    ann.send("move b b2\nline w_c3 accept_draw", short)
    post.round()
    assert "if w c3 then accept draw" in text_of(ann.new_mail()[-1])
    bo.send("move w c3\noffer draw", short)
    post.round()
    play = bo.game(short)
    assert play.entries == ["b b2", "w c3", "accept draw"] and play.outcome().winners == ()
    assert "Ann's conditional reply was played: if w c3 then accept draw." in text_of(bo.inbox[-1])
    valid_offline(tmp_path, bo.records[short])


@pytest.mark.parametrize("commands, flags", [
    ("if w b2 then b a1", ["--if", "w b2", "--then", "b a1"]),
    ("line w_c3 b_a1 w_b2 b_c2", ["--line", "w_c3 b_a1 w_b2 b_c2"]),
    ("line w_c3 b_a1 w_d4 b_c2\nif w c3 then b c2", ["--line", "w_c3 b_a1 w_d4 b_c2", "--if", "w c3", "--then", "b c2"]),
    ("line w_c3 b_a1 w_d4", ["--line", "w_c3 b_a1 w_d4"]),
], ids=["occupied", "deep-in-a-line", "two-replies", "odd-length"])
def test_conditional_moves_are_checked_when_set_and_refused_as_move_says_it(post, ann, bo, tmp_path, monkeypatch,
                                                                             commands, flags):
    short = start_game(post, ann, bo, "new odd -O size=3 vs bo@example.org")
    error = move_says(tmp_path, monkeypatch, ann.records[short], short, "b b2", *flags)  # on Ann's copy
    ann.send(f"move b b2\n{commands}", short)
    post.round()
    [refusal] = ann.new_mail()
    assert text_of(refusal).startswith(error + "\n"), (error, text_of(refusal))
    assert "Nothing else in your mail was played." in text_of(refusal)
    assert bo.new_mail() == []  # as `move --if` with a bad condition, the move is not played either
    assert (post.games / f"{short}.toml").read_bytes().count(b"[[moves]]") == 0


def test_a_forged_mail_is_refused_and_the_refusal_goes_to_the_seat(post, ann, bo):
    short = start_game(post, ann, bo, "new odd -O size=3 vs bo@example.org")
    eve = Player(post, "Eve", "eve@example.org")
    # Ann's token, but Eve's address; Ann's address, but no token; Eve pretending to be Ann with a wrong token.
    ann.send(f"move b b2\ntoken {ann.tokens[short]}", short, token=False, sender=eve.sender)
    ann.send("move b b2", short, token=False)
    ann.send("move b b2\ntoken cat-dog-fish-bird-cow", short, token=False)
    eve.send(f"{short} move b b2")
    post.round()
    assert eve.new_mail() == [] and bo.new_mail() == []
    refusals = ann.new_mail()
    assert len(refusals) == 4
    for mail in refusals:
        assert "A mail tried to move for you in game" in text_of(mail) and "Nothing was played." in text_of(mail)
    assert "it did not come from your address" in text_of(refusals[0])
    assert "it did not carry your token" in text_of(refusals[1])
    assert (post.games / f"{short}.toml").read_bytes().count(b"[[moves]]") == 0


def test_a_replayed_mail_is_acted_on_once(post, ann, bo):
    short = start_game(post, ann, bo, "new odd -O size=3 vs bo@example.org")
    sent = ann.send("move b b2", short)
    post.round()
    ann.new_mail(), bo.new_mail()
    post.deliver(sent)  # the very same mail again
    post.round()
    assert ann.new_mail() == [] and bo.new_mail() == []
    # Sent again under a new Message-ID (resent, or replayed by someone who saw it): judged
    # afresh, and refused, for the move was made.
    post.deliver(sent.replace(parsed(sent)["Message-ID"].encode(), b"<again.1@players.example>"))
    post.round()
    [refusal] = ann.new_mail()
    assert bo.new_mail() == [] and text_of(refusal).startswith(f"error: {short}.toml: ply 2 (b b2): ")
    assert ann.game(short).plies == 1


def test_an_oversized_mail_and_one_of_too_many_commands_are_refused_once(post, ann):
    big = message(ann.sender, "help\n" + "x" * 5_100_000)
    post.deliver(big)
    post.deliver(big)  # the same message again: refused once, not twice
    ann.send("\n".join(["help"] * 21))
    post.round()
    refusals = ann.new_mail()
    assert len(refusals) == 2
    assert "over the robot's limit of 5 MB" in text_of(refusals[0])
    assert "more than 20 commands" in text_of(refusals[1])


@pytest.mark.parametrize("headers, sender", [
    ({"Auto-Submitted": "auto-replied"}, "ann@example.org"),
    ({"Auto-Submitted": "auto-generated"}, "ann@example.org"),
    ({"Precedence": "bulk"}, "ann@example.org"),
    ({"Precedence": "list"}, "ann@example.org"),
    ({"Precedence": "junk"}, "ann@example.org"),
    ({}, ROBOT),
    ({}, "MAILER-DAEMON@example.org"),
])
def test_mail_that_could_make_a_loop_is_never_answered(post, headers, sender):
    post.deliver(message(sender, "help\nnew odd vs bo@example.org", headers=headers))
    post.round()
    assert post.all == []
    assert not list(post.games.glob("*.toml"))
    assert list((post.inbox / "cur").iterdir())  # handled all the same: filed, seen


def test_auto_submitted_no_is_answered_and_every_reply_says_it_is_automatic(post, ann):
    post.deliver(message(ann.sender, "help", headers={"Auto-Submitted": "no"}, message_id="<q1@players.example>"))
    post.round()
    [reply] = ann.new_mail()
    assert reply["Auto-Submitted"] == "auto-replied" and reply["In-Reply-To"] == "<q1@players.example>"
    assert "GAMEID move MOVE" in text_of(reply)


def test_at_most_thirty_replies_an_hour_to_one_address(post, ann):
    for _ in range(32):
        ann.send("help")
    post.round()
    assert len(ann.new_mail()) == 30
    assert any("30 replies within the hour" in line for line in post.log)


def test_new_games_the_robot_refuses(post, ann):
    for line in ["new chess vs bo@example.org", "new crab vs bo@example.org",
                 "new hermetica -O board=/etc/passwd vs bo@example.org", "new odd vs nobody",
                 "new odd -O size=99 vs bo@example.org", "new odd vs bo@example.org clock 1x"]:
        ann.send(line)
    post.round()
    said = [text_of(m) for m in ann.new_mail()]
    assert len(said) == 6 and all(s.startswith("error: ") for s in said)
    assert "unknown game 'chess'" in said[0]
    assert "not a game of two opponents" in said[1]
    assert "only the built-in ones" in said[2]
    assert "not a mail address" in said[3]
    assert not list(post.games.glob("*.toml"))


def test_draw_offered_and_accepted_resignation_and_status(post, ann, bo, tmp_path):
    short = start_game(post, ann, bo, "new odd -O size=3 vs bo@example.org")
    ann.send("move b b2\noffer draw", short)
    post.round()
    bo.send("status", short)
    post.round()
    [status] = bo.new_mail()
    assert "Ann offers a draw" in text_of(status) and "bo@example.org to move" in text_of(status)
    bo.send(f"{short} accept draw\n{short} token {bo.tokens[short]}")  # the id on the lines, not in the subject
    post.round()
    play = ann.game(short)
    assert play.outcome().reason == "draw agreed"
    valid_offline(tmp_path, ann.records[short])
    short = start_game(post, ann, bo, "new odd -O size=3 vs bo@example.org")
    ann.send("resign", short)
    post.round()
    assert "Ann resigned (ply 1).\nThe game is over: bo@example.org wins: Ann resigned." in text_of(bo.new_mail()[-1])


def test_the_state_is_one_sqlite_database_with_tokens_only_as_hashes(post, ann, bo):
    short = start_game(post, ann, bo, "new odd -O size=3 vs bo@example.org")
    database = post.games / "serve.sqlite"
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        hashes = [row[0] for row in db.execute("SELECT token_hash FROM seats")]
    assert len(hashes) == 2 and all(h.startswith("scrypt$") for h in hashes)
    every_byte = b"".join(p.read_bytes() for p in post.games.iterdir() if p.is_file())
    assert ann.tokens[short].encode() not in every_byte and bo.tokens[short].encode() not in every_byte


def test_a_second_robot_on_one_folder_exits_2_and_sigterm_stops_the_first(post, ann):
    arguments = [sys.executable, "-m", "referee", "serve", "--games", str(post.games), *post.cli_arguments(),
                 "--address", ROBOT]
    first = subprocess.Popen([*arguments, "--watch", "--interval", "1"], stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        while not (post.games / "serve.sqlite").exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(1.0)
        second = subprocess.run([*arguments, "--once"], capture_output=True, text=True, timeout=60)
        assert second.returncode == 2, second.stderr
        assert "another `referee serve` is already running" in second.stderr
        # The first is watching: a mail is answered without another start.
        ann.send("help")
        deadline = time.monotonic() + 60
        while not post.collect() and time.monotonic() < deadline:
            time.sleep(0.2)
        asked = time.monotonic()
        first.terminate()
        assert first.wait(timeout=30) == 0
        assert time.monotonic() - asked < 10
        assert "stopped (SIGTERM)" in first.stderr.read()
    finally:
        if first.poll() is None:
            first.kill()
            first.wait()


def test_help_and_a_mail_without_commands(post, ann):
    ann.send("Hello, how does this work?")
    post.round()
    [reply] = ann.new_mail()
    assert "no command" in text_of(reply) and "new GAME" in text_of(reply)


def test_commands_in_a_quoted_reply_are_not_read(post, ann, bo):
    short = start_game(post, ann, bo, "new odd -O size=3 vs bo@example.org")
    ann.send("Thanks!\n\nOn Monday, the robot wrote:\nmove b b2\n> move b c2\n", short)
    post.round()
    assert ann.game(short).plies == 0


def test_a_record_each_player_receives_replays(post, ann, bo):
    short = start_game(post, ann, bo, "new odd -O size=3 vs bo@example.org")
    ann.send("move b b2", short)
    post.round()
    for player in (ann, bo):
        record = record_of(player.inbox[-1])
        assert replay(record_in(record, "x.toml")).entries == ["b b2"]
    assert parsed(post.all[-1][1])["Date"].endswith("+0000")


# -- the commands of a mail's text (serve/commands.py) --------------------------------------

from referee.serve.commands import read_commands  # noqa: E402


@pytest.mark.parametrize("body, subject, verbs", [
    ("MOVE B E5\nToken a-b-c", "Re: [3f2a0c6d] Odd", [("move", None, ("B E5",)), ("token", None, ("a-b-c",))]),
    ("3f2a0c6d resign", "", [("resign", "3f2a0c6d", ())]),
    ("3F2A0C6D8E9B41F7A5C2D0E4B6A8F1C3 Offer   Draw", "", [("offer", "3f2a0c6d8e9b41f7a5c2d0e4b6a8f1c3", ())]),
    ("if w d4 THEN b c3", "", [("if", None, ("w d4", "b c3"))]),
    ("line w_d4 b_c3 w_e7 b_f2", "", [("line", None, ("w_d4", "b_c3", "w_e7", "b_f2"))]),
    ("Dear robot,\nmove b e5\nthanks\n-- \nmove b e6", "", [("move", None, ("b e5",))]),
    ("move b e5\n> move b e6\nOn Mon, 1 Jan 2026, Referee <r@x> wrote:\nresign", "", [("move", None, ("b e5",))]),
    ("3f2a0c6d mvoe e5", "", [("unknown", "3f2a0c6d", ())]),
    ("signature ed25519:AAA= at 2026-11-22T14:01:00Z", "", [("signature", None, ("ed25519:AAA=", "2026-11-22T14:01:00Z"))]),
])
def test_a_mail_s_commands_are_read_one_a_line_in_any_case(body, subject, verbs):
    mail = read_commands(body, subject)
    assert [(c.verb, c.game, c.args) for c in mail.commands] == verbs
    assert mail.subject_game == ("3f2a0c6d" if "[3f2a0c6d]" in subject else None)


@pytest.mark.parametrize("line, args", [
    ("new odd vs bo@example.org", ("odd", {}, "bo@example.org", None, None, None, None)),
    ("NEW Hermit -O board=hex -O size=4 vs Bo@Example.org clock 10/50d leave 14",
     ("hermit", {"board": "hex", "size": "4"}, "Bo@Example.org", "10/50d", "14", None, None)),
    ("new odd -O size=3 min_group=3 vs bot 0.5", ("odd", {"size": "3", "min_group": "3"}, None, None, None, "0.5", None)),
    ("new hermetica bot", ("hermetica", {}, None, None, None, "", None)),
])
def test_new_is_read_with_its_options(line, args):
    [command] = read_commands(line).commands
    assert command.verb == "new" and command.args == args


def test_more_than_twenty_commands_are_counted_without_reading_on():
    assert len(read_commands("help\n" * 10_000).commands) == 21
