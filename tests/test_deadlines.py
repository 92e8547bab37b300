"""Deadlines in the calendar (SPEC §12): `status --ics` and `remind --ics` write an iCalendar file
with one event at the deadline of the seat to move and an alarm a day before; mails of a game
with a clock attach it. Each file is parsed back with the icalendar library.
"""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import json
from pathlib import Path

import icalendar

ANN, BO = "Ann <ann@example.org>", "Bo <bo@example.org>"


def clocked(cli, at, *extra) -> Path:
    at("2026-11-22T14:00:00Z")
    made = cli("new", "odd", "-o", "game.toml", "--player", f"1={ANN}", "--player", f"2={BO}",
               "--clock", "10/50d", *extra)
    assert made.exit_code == 0, made.output
    return Path("game.toml")


def event_of(path) -> icalendar.Event:
    calendar = icalendar.Calendar.from_ical(Path(path).read_bytes())
    events = list(calendar.walk("VEVENT"))
    assert len(events) == 1
    return events[0]


def deadline_of(cli, game) -> dt.datetime:
    text = json.loads(cli("status", game, "--json").output)["clock"]["deadline"]
    return dt.datetime.fromisoformat(text.replace("Z", "+00:00"))


def test_the_event_is_at_the_deadline_status_gives_with_an_alarm_a_day_before(cli, at):
    game = clocked(cli, at, "--leave", "14")
    at("2026-11-23T09:00:00Z")
    assert cli("move", game, "b e5", "--leave", "2026-12-20..2027-01-03").exit_code == 0
    at("2026-11-30T12:00:00Z")
    assert cli("move", game, "w d4").exit_code == 0  # Ann to move, her leave ahead counted
    result = cli("status", game, "--ics", "deadline.ics")
    assert result.exit_code == 0 and "Ann to move" in result.output
    event = event_of("deadline.ics")
    start = event.decoded("dtstart")
    assert start == deadline_of(cli, game) and start.utcoffset() == dt.timedelta(0)
    # 50 days less the 19 hours of her first move, from 30 November noon, and 14 of leave.
    assert start == dt.datetime(2027, 2, 1, 17, 0, tzinfo=dt.timezone.utc)
    alarms = list(event.walk("VALARM"))
    assert len(alarms) == 1 and alarms[0].decoded("trigger") == -dt.timedelta(hours=24)
    assert alarms[0]["action"] == "DISPLAY"
    assert "Ann" in str(event["summary"]) and read_id(game) in str(event["uid"])


def read_id(game) -> str:
    from referee.record.reading import read_record

    return read_record(game).id


def test_the_uid_is_stable_through_one_turn_and_new_for_the_next(cli, at):
    """Bo's turn begins with Ann's move; his move triggers her conditional reply, and it is his
    turn again: the same event, a higher SEQUENCE. Reminders and status agree; Ann's turn is
    another event."""
    game = clocked(cli, at)
    at("2026-11-23T09:00:00Z")
    assert cli("move", game, "b e5", "--if", "w d4", "--then", "b c3").exit_code == 0
    at("2026-11-24T09:00:00Z")
    assert cli("status", game, "--ics", "a.ics").exit_code == 0
    at("2026-11-25T09:00:00Z")
    assert cli("remind", game, "-o", "r.eml", "--ics", "b.ics").exit_code == 0
    assert cli("move", game, "w d4").exit_code == 0  # Ann's reply is played: Bo to move again
    assert cli("status", game, "--ics", "c.ics").exit_code == 0
    a, b, c = event_of("a.ics"), event_of("b.ics"), event_of("c.ics")
    assert str(a["uid"]) == str(b["uid"]) == str(c["uid"])
    assert int(c["sequence"]) > int(a["sequence"])
    assert c.decoded("dtstart") == deadline_of(cli, game)
    assert cli("move", game, "w a1").exit_code == 0  # Ann's turn
    assert cli("status", game, "--ics", "d.ics").exit_code == 0
    assert str(event_of("d.ics")["uid"]) != str(c["uid"])
    assert cli("status", game, "--ics", "d.ics").exit_code == 2  # no --force
    assert cli("status", game, "--ics", "d.ics", "--force").exit_code == 0


def _calendar_part(path):
    message = email.message_from_bytes(Path(path).read_bytes(), policy=email.policy.default)
    parts = [p for p in message.iter_attachments() if p.get_content_type() == "text/calendar"]
    return parts[0].get_payload(decode=True) if parts else None


def test_mail_and_remind_attach_the_deadline_where_the_game_has_a_clock(cli, at):
    game = clocked(cli, at)
    at("2026-11-23T09:00:00Z")
    assert cli("move", game, "b e5").exit_code == 0
    assert cli("mail", game, "-o", "m.eml").exit_code == 0
    assert cli("remind", game, "-o", "r.eml").exit_code == 0
    for mail in ("m.eml", "r.eml"):
        data = _calendar_part(mail)
        assert data is not None, mail
        event = next(iter(icalendar.Calendar.from_ical(data).walk("VEVENT")))
        assert event.decoded("dtstart") == deadline_of(cli, game)
    assert cli("new", "odd", "-o", "free.toml", "--player", f"1={ANN}", "--player", f"2={BO}").exit_code == 0
    assert cli("move", "free.toml", "b e5").exit_code == 0
    assert cli("mail", "free.toml", "-o", "f.eml").exit_code == 0
    assert _calendar_part("f.eml") is None


def test_no_deadline_no_calendar(cli, at):
    assert cli("new", "odd", "-o", "free.toml").exit_code == 0
    result = cli("status", "free.toml", "--ics", "x.ics")
    assert result.exit_code == 2 and "no clock" in result.output and not Path("x.ics").exists()
    game = clocked(cli, at)
    at("2026-11-23T09:00:00Z")
    assert cli("move", game, "resign").exit_code == 0
    result = cli("status", game, "--ics", "x.ics")
    assert result.exit_code == 2 and "over" in result.output and not Path("x.ics").exists()
