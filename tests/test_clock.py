"""The correspondence clock, time claims and draw offers (SPEC §6), every step under REFEREE_NOW.

Each test names the rule of SPEC §6 it checks.
"""

from __future__ import annotations

import email
import email.policy
import json
import re
from pathlib import Path

import pytest

from referee.record.clock import Control
from referee.record.reading import read_record

DAY = 86_400


def status(cli, path="g.toml"):
    result = cli("status", path, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def new_game(cli, at, clock, *extra, when="2026-11-01T12:00:00Z"):
    at(when)
    result = cli("new", "odd", "-o", "g.toml", "--player", "1=Ann <ann@example.org>",
                 "--player", "2=Bo <bo@example.org>", "--clock", clock, *extra)
    assert result.exit_code == 0, result.output


def play(cli, at, when, move, *extra, code=0):
    at(when)
    result = cli("move", "g.toml", move, *extra)
    assert result.exit_code == code, result.output
    return result


# -- the control ---------------------------------------------------------------------------


def read_mail(path):
    """A written mail and its plain-text body."""
    message = email.message_from_bytes(Path(path).read_bytes(), policy=email.policy.default)
    return message, message.get_body(("plain",)).get_content()


def test_new_writes_the_iccf_control_started_now_SPEC_6_record_keys(cli, at):
    new_game(cli, at, "10/50d", "--leave", "14")
    record = read_record("g.toml")
    assert record.clock["moves"] == 10 and record.clock["days"] == 50 and record.clock["leave"] == 14
    assert Path("g.toml").read_text().count("start = 2026-11-01T12:00:00Z") == 1


def test_new_writes_the_bank_control_with_a_cap_and_hours_SPEC_6_command_line(cli, at):
    new_game(cli, at, "3d+12h/30d")
    clock = read_record("g.toml").clock
    assert (clock["bank"], clock["increment"], clock["cap"]) == (3, 0.5, 30)


@pytest.mark.parametrize("args", [
    ("--clock", "10 moves"), ("--clock", "3d+"), ("--clock", "0/50d"), ("--leave", "3"),
])
def test_a_malformed_control_is_exit_2_SPEC_6_command_line(cli, args):
    result = cli("new", "odd", "-o", "g.toml", *args)
    assert result.exit_code == 2 and not Path("g.toml").exists()


def test_a_clock_is_for_two_seat_games_SPEC_6(cli):
    assert cli("new", "crab", "-o", "c.toml", "--clock", "10/50d").exit_code == 2


def test_control_words():
    assert Control.parse("10/50d").describe() == "10 moves in 50 days"
    assert Control.parse("3d+1d/30d").describe() == "3 days + 1 day a move, at most 30 days"


# -- time left, step by step ----------------------------------------------------------------


def test_iccf_time_left_at_every_step_SPEC_6_time_left(cli, at):
    """10 moves in 50 days: each seat's time is 50 days less what it used, 50 more from its
    10th move on; the seat to move is charged the running time up to now."""
    new_game(cli, at, "10/50d")
    at("2026-11-03T12:00:00Z")
    s = status(cli)["clock"]
    assert (s["1"]["used"], s["1"]["left"], s["2"]["left"]) == (2.0, 48.0, 50.0)
    assert s["deadline"] == "2026-12-21T12:00:00Z" and s["control"] == "10 moves in 50 days"
    play(cli, at, "2026-11-03T12:00:00Z", "b a1")  # Ann used 2 days
    play(cli, at, "2026-11-04T00:00:00Z", "w a2")  # Bo used half a day
    at("2026-11-05T00:00:00Z")
    s = status(cli)["clock"]
    assert s["1"]["used"] == 3.0 and s["1"]["left"] == 47.0 and s["1"]["moves"] == 1
    assert s["2"]["used"] == 0.5 and s["2"]["left"] == 49.5 and s["2"]["moves"] == 1
    cells = ["a3", "a4", "a5", "b1", "b2", "b3", "b4", "b5", "b6", "c1", "c2", "c3", "c4", "c5",
             "c6", "c7", "d1", "d2"]
    moment = 4 * DAY
    for move in cells:  # 9 more moves each, an hour apart
        moment += 3600
        day, hour = divmod(moment // 3600, 24)
        play(cli, at, f"2026-11-{day + 1:02d}T{hour:02d}:00:00Z", f"b {move}")
    s = status(cli)["clock"]
    assert s["1"]["moves"] == 10 and s["2"]["moves"] == 10
    # Ten own moves: the second period of 50 days has begun for each.
    assert s["2"]["left"] == pytest.approx(100 - s["2"]["used"], abs=1e-4)
    assert s["1"]["left"] == pytest.approx(100 - s["1"]["used"], abs=1e-4)


def test_bank_time_left_at_every_step_with_its_cap_SPEC_6_time_left(cli, at):
    """3 days on each clock, 1 day more after each own move, never more than 3.5."""
    new_game(cli, at, "3d+1d/3.5d")
    play(cli, at, "2026-11-02T12:00:00Z", "b a1")  # Ann thinks 1 day: 3 − 1 + 1 = 3
    play(cli, at, "2026-11-02T18:00:00Z", "w a2")  # Bo thinks 6 hours: 3 − 0.25 + 1, cut to 3.5
    play(cli, at, "2026-11-02T19:00:00Z", "b a3")  # Ann 1 hour: 3 − 1/24 + 1, cut to 3.5
    at("2026-11-03T19:00:00Z")
    s = status(cli)["clock"]
    assert s["1"]["left"] == pytest.approx(3.5) and s["2"]["left"] == pytest.approx(3.5 - 1)
    assert s["deadline"] == "2026-11-06T07:00:00Z"


def test_the_flag_is_soft_SPEC_6_time_left(cli, at):
    new_game(cli, at, "1d+0d")
    play(cli, at, "2026-11-03T12:00:00Z", "b a1")  # a day late: still legal
    at("2026-11-03T12:00:00Z")
    s = status(cli)["clock"]
    assert s["1"]["left"] == -1.0 and s["1"]["out_of_time"] is True  # the overdraft stays
    assert "over time" in cli("status", "g.toml").stdout


def test_the_text_status_says_it_in_words_SPEC_6_status(cli, at):
    new_game(cli, at, "10/50d")
    play(cli, at, "2026-11-02T12:00:00Z", "b a1")
    at("2026-11-04T08:00:00Z")
    text = cli("status", "g.toml").stdout
    assert "Bo to move: 48 days 4 hours left, until 2026-12-22 12:00 UTC" in text


# -- claims ----------------------------------------------------------------------------------


def test_a_claim_is_accepted_exactly_when_time_has_run_out_SPEC_6_claim(cli, at):
    new_game(cli, at, "2d+0d")
    play(cli, at, "2026-11-01T13:00:00Z", "b a1")
    # Bo has 2 days from 13:00: the claim one second early is refused, with the deadline.
    refused = play(cli, at, "2026-11-03T12:59:59Z", "claim time", code=1)
    assert "1 second" not in refused.stderr and "until 2026-11-03 13:00 UTC" in refused.stderr
    play(cli, at, "2026-11-03T13:00:00Z", "claim time", "--as", "1")
    s = status(cli)
    assert s["over"] and s["winners"] == [1] and s["result"] == "Seat 1 wins: seat 2 ran out of time"
    assert read_record("g.toml").result == {"winners": [1], "reason": "seat 2 ran out of time"}
    assert cli("validate", "g.toml").exit_code == 0


def test_only_the_seat_not_to_move_claims_SPEC_6_claim(cli, at):
    new_game(cli, at, "1d+0d")
    play(cli, at, "2026-11-05T12:00:00Z", "claim time", "--as", "1", code=1)


def test_a_claim_needs_a_clock_SPEC_6_claim(cli):
    assert cli("new", "odd", "-o", "g.toml").exit_code == 0
    assert cli("move", "g.toml", "claim time").exit_code == 1


# -- leave -----------------------------------------------------------------------------------


def test_leave_is_not_charged_and_moves_the_deadline_SPEC_6_leave(cli, at):
    new_game(cli, at, "10/50d", "--leave", "14")
    play(cli, at, "2026-11-02T12:00:00Z", "b a1")
    play(cli, at, "2026-11-03T12:00:00Z", "w a2", "--leave", "2026-11-10..2026-11-20")
    play(cli, at, "2026-11-04T12:00:00Z", "b a3")
    at("2026-11-25T12:00:00Z")  # Bo to move since the 4th: 21 days, 10 of them on leave
    s = status(cli)["clock"]
    assert s["2"]["used"] == pytest.approx(1 + 11) and s["2"]["leave_left"] == 4.0
    before_leave = status(cli)  # the deadline counts the leave already declared
    assert before_leave["clock"]["deadline"] == "2027-01-02T12:00:00Z"


@pytest.mark.parametrize("span, reason", [
    ("2026-11-10..2026-11-30", "more than"),  # 20 days of 14
    ("2026-10-20..2026-10-25", "before this move"),  # retroactive
    ("2026-11-12..2026-11-11", "ends before it begins"),
])
def test_a_longer_retroactive_or_backward_leave_is_refused_SPEC_6_leave(cli, at, span, reason):
    new_game(cli, at, "10/50d", "--leave", "14")
    before = Path("g.toml").read_bytes()
    refused = play(cli, at, "2026-11-02T12:00:00Z", "b a1", "--leave", span, code=1)
    assert reason in refused.stderr and Path("g.toml").read_bytes() == before


def test_overlapping_leave_is_refused_SPEC_6_leave(cli, at):
    new_game(cli, at, "10/50d", "--leave", "14")
    play(cli, at, "2026-11-02T12:00:00Z", "b a1", "--leave", "2026-11-10..2026-11-15")
    play(cli, at, "2026-11-03T12:00:00Z", "w a2")
    refused = play(cli, at, "2026-11-04T12:00:00Z", "b a3", "--leave", "2026-11-14..2026-11-16", code=1)
    assert "overlaps" in refused.stderr


# -- draw offers -----------------------------------------------------------------------------


def test_a_draw_offer_is_accepted_on_the_very_next_ply_only_SPEC_6_draw(cli, at):
    new_game(cli, at, "10/50d")
    play(cli, at, "2026-11-02T12:00:00Z", "b a1", "--offer-draw")
    assert "offers a draw" in cli("status", "g.toml").stdout
    play(cli, at, "2026-11-02T13:00:00Z", "accept draw")
    s = status(cli)
    assert s["over"] and s["winners"] == [] and s["result"] == "Draw: draw agreed"


def test_any_other_move_declines_and_accept_without_an_offer_is_illegal_SPEC_6_draw(cli, at):
    new_game(cli, at, "10/50d")
    play(cli, at, "2026-11-02T12:00:00Z", "b a1", "--offer-draw")
    play(cli, at, "2026-11-02T13:00:00Z", "w a2")
    play(cli, at, "2026-11-02T14:00:00Z", "accept draw", code=1)
    assert cli("new", "odd", "-o", "plain.toml").exit_code == 0
    assert cli("move", "plain.toml", "accept draw").exit_code == 1


# -- stamps and the seal ---------------------------------------------------------------------


def _edit(path, old, new):
    text = Path(path).read_text()
    assert old in text
    Path(path).write_text(text.replace(old, new, 1))


def test_with_a_clock_every_ply_has_a_stamp_that_never_goes_back_SPEC_6_thinking_time(cli, at):
    new_game(cli, at, "10/50d")
    Path("g.toml").write_text(Path("g.toml").read_text() + '\n[[moves]]\nmove = "b a1"\n')  # no `at`
    result = cli("validate", "g.toml")
    assert result.exit_code == 1 and "ply 1" in result.output and "time stamp" in result.output
    new_game(cli, at, "10/50d", "--force")
    play(cli, at, "2026-11-02T12:00:00Z", "b a1")
    play(cli, at, "2026-11-03T12:00:00Z", "w a2")
    text = Path("g.toml").read_text()
    Path("back.toml").write_text(re.sub(r'digest = "[^"]+"\n', "", text).replace("2026-11-03T12:00:00Z", "2026-11-02T11:00:00Z"))
    result = cli("validate", "back.toml")
    assert result.exit_code == 1 and "ply 2" in result.output and "never go back" in result.output


@pytest.mark.parametrize("old, new", [
    ("days = 50", "days = 500"),
    ("leave = [2026-11-10T00:00:00Z", "leave = [2026-11-11T00:00:00Z"),
    ('offer = "draw"\n', ""),
])
def test_tampering_with_the_clock_a_leave_or_an_offer_breaks_the_seal_SPEC_6_seal(cli, at, old, new):
    new_game(cli, at, "10/50d", "--leave", "14")
    play(cli, at, "2026-11-02T12:00:00Z", "b a1", "--leave", "2026-11-10..2026-11-12", "--offer-draw")
    _edit("g.toml", old, new)
    result = cli("validate", "g.toml")
    assert result.exit_code == 1 and "bad digest" in result.output


def test_a_record_without_a_clock_keeps_its_digests_SPEC_6_seal(cli):
    for sample in Path(__file__).resolve().parent.parent.joinpath("sample_games").rglob("*.toml"):
        if "[clock]" not in sample.read_text():
            assert cli("validate", sample).exit_code == 0


# -- everywhere a player looks -----------------------------------------------------------------


def test_validate_json_gives_the_clock(cli, at):
    new_game(cli, at, "10/50d")
    report = json.loads(cli("validate", "--json", "g.toml").stdout)[0]
    assert report["valid"] and report["clock"]["control"] == "10 moves in 50 days"


def test_the_mail_subject_and_body_give_the_time_left(cli, at):
    new_game(cli, at, "10/50d")
    play(cli, at, "2026-11-02T12:00:00Z", "b a1")
    at("2026-11-03T08:00:00Z")
    assert cli("mail", "g.toml", "-o", "m.eml").exit_code == 0
    message, body = read_mail("m.eml")
    assert "49 days 4 h left" in message["Subject"]
    assert "Bo to move: 49 days 4 hours left, until" in body


def test_remind_writes_a_mail_to_the_seat_to_move_SPEC_6_remind(cli, at):
    new_game(cli, at, "10/50d")
    play(cli, at, "2026-11-02T12:00:00Z", "b a1")
    at("2026-11-10T12:00:00Z")
    assert cli("remind", "g.toml", "-o", "r.eml").exit_code == 0
    message, body = read_mail("r.eml")
    assert message["To"] == "Bo <bo@example.org>"
    assert "42 days left, until 2026-12-22 12:00 UTC" in body
    assert cli("remind", "g.toml", "-o", "r.eml").exit_code == 2  # exists, no --force


def test_a_conditional_reply_carries_the_stamp_of_the_move_that_triggered_it(cli, at):
    new_game(cli, at, "10/50d")
    play(cli, at, "2026-11-02T12:00:00Z", "b a1", "--if", "w a2", "--then", "b a3")
    play(cli, at, "2026-11-05T09:30:00Z", "w a2")
    stamps = [e.at.isoformat() for e in read_record("g.toml").moves]
    assert stamps[1] == stamps[2] == "2026-11-05T09:30:00+00:00"


def test_a_stamp_from_the_future_is_refused_not_warned_about(cli, at, tmp_path):
    """SPEC §9: with a clock, a ply stamped more than an hour past the reader's now is invalid
    for every command that judges, naming the ply."""
    new_game(cli, at, "10/50d")
    play(cli, at, "2026-11-20T12:00:00Z", "b a1")
    before = Path("g.toml").read_bytes()
    at("2026-11-02T12:00:00Z")  # the receiver's now: the move is stamped 18 days ahead
    for command in (("receive", "g.toml", "-o", "mine.toml"), ("validate", "g.toml"), ("status", "g.toml"),
                    ("move", "g.toml", "w a2")):
        result = cli(*command)
        assert result.exit_code == 1, (command, result.output)
        assert "ply 1" in result.output and "from the future" in result.output
    assert Path("g.toml").read_bytes() == before and not Path("mine.toml").exists()
    at("2026-11-20T11:00:00Z")  # within the hour a reader's clock may lag: accepted
    assert cli("validate", "g.toml").exit_code == 0


def test_receive_warns_of_a_move_backdated_before_the_referees_own_mail(cli, at, tmp_path):
    """The referee's own mail is dated +0000 at its now (REFEREE_NOW here), so the receiver can
    weigh the stamps against it: a move stamped more than a day before the mail is named."""
    new_game(cli, at, "10/50d")
    play(cli, at, "2026-11-20T12:00:00Z", "b a1")
    at("2026-11-25T12:00:00Z")
    assert cli("mail", "g.toml", "-o", "late.eml", "--force").exit_code == 0
    message, _ = read_mail("late.eml")
    assert message["Date"] == "Wed, 25 Nov 2026 12:00:00 +0000"
    result = cli("receive", "late.eml", "-o", "mine2.toml")
    assert result.exit_code == 0 and "backdated" in result.stdout and "ply 1 (b a1)" in result.stdout
