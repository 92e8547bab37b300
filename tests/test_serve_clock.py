"""`referee serve` with clocks and keys (SPEC §15, §6, §9): reminders once at 3 days and once
at 1 day before a deadline, never a time claim made for a player; a seat with a key signs its
plies by mail instead of giving its token."""

from __future__ import annotations

import datetime as dt
import tomllib

import pytest
from typer.testing import CliRunner

from referee.cli import app
from serve_support import MaildirPost, Player, start_game, text_of

START = dt.datetime(2026, 1, 5, 9, 0, tzinfo=dt.timezone.utc)


@pytest.fixture
def post(tmp_path):
    return MaildirPost(tmp_path)


@pytest.fixture
def players(post):
    return Player(post, "Ann", "ann@example.org"), Player(post, "Bo", "bo@example.org")


def at(monkeypatch, days: float) -> None:
    moment = START + dt.timedelta(days=days)
    monkeypatch.setenv("REFEREE_NOW", moment.strftime("%Y-%m-%dT%H:%M:%SZ"))


def ann_moved(post, players, monkeypatch, clock: str) -> str:
    """A clocked game of Odd begun at START, Ann's first move made an hour later and both
    players' mails read: its GAMEID."""
    ann, bo = players
    at(monkeypatch, 0)
    short = start_game(post, ann, bo, f"new odd -O size=3 vs bo@example.org clock {clock}")
    at(monkeypatch, 1 / 24)
    ann.send("move b b2", short)
    post.round()
    return short


def test_reminders_once_at_3_days_and_once_at_1_day_and_never_a_claim(post, players, monkeypatch):
    ann, bo = players
    short = ann_moved(post, players, monkeypatch, "10/10d")
    ann.new_mail(), bo.new_mail()
    at(monkeypatch, 5)
    post.round()
    assert bo.new_mail() == []  # 5 days left: nothing yet
    at(monkeypatch, 7.5)
    post.round()
    post.round()  # once, not at every round
    [first] = bo.new_mail()
    assert first["Subject"].startswith(f"[{short}] Reminder: Odd, your move (2 days 13 h left")
    assert "it is your move in Odd: 2 days 13 hours left, until 2026-01-15 10:00 UTC." in " ".join(text_of(first).split())
    assert first["Auto-Submitted"] == "auto-generated"
    at(monkeypatch, 9.6)
    post.round()
    post.round()
    [second] = bo.new_mail()
    assert "(10 h 36 min left, until 2026-01-15 10:00 UTC)" in second["Subject"]
    at(monkeypatch, 10.5)
    post.round()
    assert bo.new_mail() == [] and ann.new_mail() == []  # out of time: the robot claims nothing
    assert ann.game(short).plies == 1
    ann.send("claim time", short)
    post.round()
    [claimed] = ann.new_mail()
    assert "ran out of time" in text_of(claimed)
    assert ann.game(short).outcome().winners == (1,)


def calendar_of(mail) -> bytes:
    [part] = [p for p in mail.iter_attachments() if p.get_content_type() == "text/calendar"]
    return part.get_payload(decode=True)


def test_the_mails_of_a_clocked_game_carry_the_calendar_file_status_ics_writes(post, players, monkeypatch, tmp_path):
    ann, bo = players
    short = ann_moved(post, players, monkeypatch, "10/10d")
    [to_ann], [to_bo] = ann.new_mail(), bo.new_mail()
    at(monkeypatch, 7.5)
    post.round()
    [reminder] = bo.new_mail()
    # The same file, byte for byte, as `referee status --ics` writes from the record received
    # (SPEC §12: one builder), at the same moment.
    monkeypatch.chdir(tmp_path)
    (tmp_path / f"{short}.toml").write_bytes(bo.records[short])
    for moment, mails in [(1 / 24, [to_ann, to_bo]), (7.5, [reminder])]:
        at(monkeypatch, moment)
        result = CliRunner().invoke(app, ["status", f"{short}.toml", "--ics", "deadline.ics", "--force"])
        assert result.exit_code == 0, result.output
        for mail in mails:
            assert calendar_of(mail) == (tmp_path / "deadline.ics").read_bytes()
    assert b"DTSTART:20260115T100000Z" in calendar_of(reminder)


def test_a_deadline_already_near_when_the_ply_is_made_is_not_reminded_of_again(post, players, monkeypatch):
    ann, bo = players
    ann_moved(post, players, monkeypatch, "2d+1d")
    bo.new_mail()
    at(monkeypatch, 0.5)
    post.round()
    assert bo.new_mail() == []  # 1.5 days left: the ply's own mail said so
    at(monkeypatch, 1.2)
    post.round()
    [reminder] = bo.new_mail()
    assert "Reminder" in reminder["Subject"]


def test_leave_goes_with_a_move(post, players, monkeypatch):
    ann, bo = players
    at(monkeypatch, 0)
    short = start_game(post, ann, bo, "new odd -O size=3 vs bo@example.org clock 10/10d leave 14")
    ann.send("leave 2026-01-10..2026-01-12", short)
    post.round()
    [refusal] = ann.new_mail()
    assert "goes with a move" in text_of(refusal)
    ann.send("move b b2\nleave 2026-01-10..2026-01-12", short)
    post.round()
    assert ann.game(short).record.moves[0].leave is not None


@pytest.fixture
def key(tmp_path):
    result = CliRunner().invoke(app, ["key", "new", "-o", str(tmp_path / "ann.key")])
    assert result.exit_code == 0, result.output
    return tmp_path / "ann.key", result.stdout.strip().splitlines()[0]


def signed_move(tmp_path, record: bytes, move: str, key_file, when: str) -> tuple[str, str]:
    """What Ann does at home: `referee move --sign` on her copy; the signature and stamp sent."""
    copy = tmp_path / "mine.toml"
    copy.write_bytes(record)
    result = CliRunner().invoke(app, ["move", str(copy), move, "--sign", str(key_file)], env={"REFEREE_NOW": when})
    assert result.exit_code == 0, result.output
    last = tomllib.loads(copy.read_text())["moves"][-1]
    return last["signature"], when


def test_a_seat_with_a_key_signs_its_moves_by_mail(post, players, monkeypatch, key, tmp_path):
    ann, bo = players
    key_file, public = key
    at(monkeypatch, 0)
    short = start_game(post, ann, bo, f"new odd -O size=3 vs bo@example.org\nkey {public}")
    signature, when = signed_move(tmp_path, ann.records[short], "b b2", key_file, "2026-01-05T10:00:00Z")
    at(monkeypatch, 0.05)
    eve = Player(post, "Eve", "eve@example.org")
    eve.send(f"{short} move b b2\nsignature {signature} at {when}")  # a stolen signature, another address
    ann.send("move b b2", short)  # the token alone does not do for a seat that signs
    forged = signature[:20] + ("A" if signature[20] != "A" else "B") + signature[21:]
    ann.send(f"move b b2\nsignature {forged} at {when}", short, token=False)
    post.round()
    said = [text_of(m) for m in ann.new_mail()]
    assert eve.new_mail() == [] and ann.game(short).plies == 0
    assert "A mail tried to move for you" in said[0] and "nor came from your address" in said[0]
    assert "signs every move" in said[1]
    assert "not your key's signature of this ply" in said[2]
    ann.send(f"move b b2\nsignature {signature} at {when}", short, token=False)
    post.round()
    play = ann.game(short)
    assert play.entries == ["b b2"] and play.record.moves[0].signature == signature
    copy = tmp_path / "received.toml"
    copy.write_bytes(ann.records[short])
    result = CliRunner().invoke(app, ["verify", str(copy)])
    assert result.exit_code == 0, result.output
    # Hidden conditional replies cannot be signed ahead: refused for a seat with a key.
    bo.send("move w c3", short)
    post.round()
    ann.new_mail()
    signature, when = signed_move(tmp_path, ann.records[short], "b a1", key_file, "2026-01-05T11:00:00Z")
    ann.send(f"move b a1\nsignature {signature} at {when}\nif w d4 then b c2", short)
    post.round()
    assert "would carry no signature" in text_of(ann.new_mail()[-1])
