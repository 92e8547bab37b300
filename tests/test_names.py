"""Names where the record has them (SPEC §8b): in reasons, `validate`'s summary, reminders,
notes and every message that names a seat, while JSON and the record's [result] keep the seat
numbers; counts in the singular where there is one ("1 ply")."""

from __future__ import annotations

import email
import email.policy
import json
import random
from pathlib import Path

from referee.record.players import named, names_of
from referee.record.values import Record
from referee.play.replay import start
from referee.play.turn import take_turn


def new(cli, game="odd", *players, extra=()):
    args = [f"--player={seat}={name}" for seat, name in enumerate(players, 1)]
    result = cli("new", game, "-o", "g.toml", *args, *extra)
    assert result.exit_code == 0, result.output
    return Path("g.toml")


def body(path):
    message = email.message_from_bytes(Path(path).read_bytes(), policy=email.policy.default)
    return message, message.get_body(("plain",)).get_content()


# -- the one naming of seats ----------------------------------------------------------------------


def test_a_reason_calls_each_seat_by_its_players_name_and_leaves_unnamed_seats_as_they_are():
    names = names_of({1: {"name": "Ann <ann@example.org>"}, 2: {"name": "  "}, 3: {"name": "Cy"}})
    assert names == {1: "Ann", 3: "Cy"}
    assert named("seat 1 ran out of time", names) == "Ann ran out of time"
    assert named("Seat 3 (O): 2 groups; seat 2 cannot place", names) == "Cy (O): 2 groups; seat 2 cannot place"
    # A seat number is a whole number; "seats 1–3" names no one seat.
    assert named("seat 13 and seats 1–3", names) == "seat 13 and seats 1–3"


# -- reasons, summaries, status --------------------------------------------------------------------


def test_validate_says_the_result_in_names_and_one_ply_in_the_singular_SPEC_8b(cli):
    record = new(cli, "odd", "Ann", "Bo")
    assert cli("move", record, "resign").exit_code == 0
    result = cli("validate", record)
    assert result.stdout == "valid   g.toml: 1 ply; Bo wins: Ann resigned\n"
    report = json.loads(cli("validate", "--json", record).stdout)[0]
    assert report["plies"] == 1 and report["valid"]
    assert cli("verify", record).stdout.splitlines()[0] == "g.toml: 1 ply, all sealed"


def test_a_rule_naming_a_seat_is_printed_with_the_name_and_kept_by_number_in_json_SPEC_8b(cli):
    Path("g.toml").write_text(
        'format = 1\ngame = "hermit"\n[options]\nboard = "square"\n'
        '[players]\n1 = "Ann <ann@example.org>"\n2 = "Bo"\n[[moves]]\nmove = "pass"\n'
    )
    result = cli("validate", "g.toml")
    assert result.exit_code == 1
    assert "ply 1 (pass): Ann can place and so may not pass (R-G3)" in result.stdout
    report = json.loads(cli("validate", "--json", "g.toml").stdout)[0]
    assert report["error"]["message"] == "seat 1 can place and so may not pass (R-G3)"


def test_the_games_status_lines_name_the_players(cli):
    record = new(cli, "hermit", "Ann", "Bo", extra=("-O", "board=square"))
    assert cli("move", record, "c3").exit_code == 0
    out = cli("status", record).stdout
    assert "Ann (X): 1 group = 1 hermit" in out and "Bo (O): 0 groups" in out
    assert "Seat 1 (X): Ann" in out  # the key from seat to player stays


def test_a_time_claim_names_who_ran_out_of_time(cli, at):
    at("2026-11-01T12:00:00Z")
    record = new(cli, "odd", "Ann", "Bo", extra=("--clock", "10/2d"))
    assert cli("move", record, "b e5").exit_code == 0
    at("2026-11-02T12:00:00Z")
    refused = cli("move", record, "claim time")
    assert refused.exit_code == 1 and "claim time: Bo still has 1 day left" in refused.stderr
    at("2026-11-04T12:00:00Z")
    assert cli("move", record, "claim time").exit_code == 0
    assert cli("status", record).stdout.splitlines()[-1] == "Ann wins: Bo ran out of time"
    assert json.loads(cli("status", "--json", record).stdout)["result"] == "Seat 1 wins: seat 2 ran out of time"
    assert 'reason = "seat 2 ran out of time"' in record.read_text()


def test_a_cooperative_win_names_every_player(cli):
    record = new(cli, "crab", "Ann", "Bo", extra=("-O", "players=2"))
    assert cli("move", record, "resign").exit_code == 0
    assert cli("status", record).stdout.splitlines()[-1] == "Lost: Ann resigned"


# -- notes, reminders, mail -------------------------------------------------------------------------


def test_a_reminder_calls_the_player_to_move_by_name_SPEC_8b(cli, at):
    at("2026-11-01T12:00:00Z")
    record = new(cli, "odd", "Ann <ann@example.org>", "Bo <bo@example.org>", extra=("--clock", "10/20d"))
    assert cli("move", record, "b e5").exit_code == 0
    assert cli("remind", record, "-o", "r.eml").exit_code == 0
    _, text = body("r.eml")
    assert text.startswith("Bo, it is your move in Odd: ")
    assert all(len(line) <= 78 for line in text.splitlines())


def test_without_a_name_the_reminder_calls_the_seat(cli, at):
    at("2026-11-01T12:00:00Z")
    record = new(cli, "odd", extra=("--clock", "10/20d"))
    assert cli("remind", record, "-o", "r.eml", "--to", "ann@example.org").exit_code == 0
    assert body("r.eml")[1].startswith("Seat 1, it is your move in Odd: ")


def test_a_seat_without_a_mail_address_is_named_in_the_refusal(cli):
    record = new(cli, "odd", "Ann <ann@example.org>", "Bo")
    assert cli("move", record, "b e5").exit_code == 0
    result = cli("mail", record, "-o", "m.eml")
    assert result.exit_code == 2
    assert "error: Bo (seat 2) has no mail address in [players]: give one with --to" in result.stderr


def test_a_blank_name_without_an_address_is_refused_by_its_seat(cli):
    Path("g.toml").write_text('format = 1\ngame = "odd"\n[players]\n1 = "  "\n')
    result = cli("mail", "g.toml", "-o", "m.eml")
    assert result.exit_code == 2
    assert "error: seat 1 has no mail address" in result.stderr and "error:  has" not in result.stderr


def test_a_forced_pass_is_noted_with_the_players_name():
    players = {1: {"name": "Ann"}, 2: {"name": "Bo <bo@example.org>"}}
    for seed in range(20):  # a Harmijan game of random turns in which a seat must pass (R-G3)
        play, rng = start(Record("harmijan", {"size": 5}, players)), random.Random(seed)
        while play.outcome() is None and "pass" not in play.entries:
            play.push(str(play.game.random_move(play.state, rng)))
            play.push_forced_passes()
        if "pass" in play.entries:
            break
    at = play.entries.index("pass")
    before = start(Record("harmijan", {"size": 5}, players))
    for entry in play.entries[:at - 1]:
        before.push(entry)
    notes = take_turn(before, play.entries[at - 1]).notes
    assert f"{'Ann' if play.line[at + 1].mover == 1 else 'Bo'} cannot act and passes (R-G3)." in notes


def test_a_hermetica_player_called_by_the_sides_name_is_named_once(cli):
    record = new(cli, "hermetica", "Sun", "Moon")
    assert cli("move", record, "+F a1").exit_code == 0
    out = cli("move", record, "+F a9").stdout
    assert "Ply 2, Moon: +F a9" in out and "Moon (Moon)" not in out
    assert "Ply 1, Sun: +F a1" in cli("show", record, "--ply", "1").stdout
