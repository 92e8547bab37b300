"""Who a mail is from and to (SPEC §12): from the seat whose copy it is — the seat of the last
ply written by hand, or --as — to the other seat; in a game of more seats to the seat to move,
else every other seat. A conditional reply the other side's referee played does not make the
copy its seat's.
"""

from __future__ import annotations

import email
import email.policy
import json
import shutil
from pathlib import Path

import pytest

ANN, BO, CY = "Ann <ann@example.org>", "Bo <bo@example.org>", "Cy <cy@example.org>"


def parse(path):
    return email.message_from_bytes(Path(path).read_bytes(), policy=email.policy.default)


def body(path) -> str:
    return parse(path).get_body(("plain",)).get_content()


def odd(cli, path="game.toml", *extra):
    result = cli("new", "odd", "-o", path, "--player", f"1={ANN}", "--player", f"2={BO}", *extra)
    assert result.exit_code == 0, result.output
    return Path(path)


def test_a_conditional_reply_played_for_ann_leaves_bos_mail_addressed_to_ann(cli, tmp_path):
    """The reported case, end to end, each player in a folder of their own: Ann sets a reply,
    Bo's move triggers it, and Bo's mail goes to Ann, saying what was played; Ann's receive
    --mine (her seat from the mail's To) accepts it, and the game goes on by mail."""
    ann, bo = tmp_path / "ann", tmp_path / "bo"
    ann.mkdir(), bo.mkdir()
    odd(cli, ann / "game.toml")
    assert cli("move", ann / "game.toml", "b e5", "--if", "w d4", "--then", "b c3").exit_code == 0
    assert cli("mail", ann / "game.toml", "-o", "m1.eml").exit_code == 0
    assert parse("m1.eml")["To"] == BO and parse("m1.eml")["From"] == ANN
    assert cli("receive", "m1.eml", "--mine", bo / "game.toml").exit_code == 0
    moved = cli("move", bo / "game.toml", "w d4")
    assert moved.exit_code == 0 and "Ann's conditional reply was played" in moved.output
    mailed = cli("mail", bo / "game.toml", "-o", "m2.eml")
    assert mailed.exit_code == 0 and f"to {ANN}" in mailed.output, mailed.output
    message = parse("m2.eml")
    assert message["To"] == ANN and message["From"] == BO
    text = " ".join(body("m2.eml").split())
    assert "Ann's conditional reply was played: if w d4 then b c3. Bo to move." in text
    received = cli("receive", "m2.eml", "--mine", ann / "game.toml")
    assert received.exit_code == 0, received.output
    assert (ann / "game.toml").read_bytes() == (bo / "game.toml").read_bytes()
    # Bo moves on; his next mail is an ordinary one, to Ann, and Ann answers as usual.
    assert cli("move", bo / "game.toml", "w a1").exit_code == 0
    assert cli("mail", bo / "game.toml", "-o", "m3.eml").exit_code == 0
    assert parse("m3.eml")["To"] == ANN and "conditional reply" not in body("m3.eml")
    assert cli("receive", "m3.eml", "--mine", ann / "game.toml").exit_code == 0
    assert cli("move", ann / "game.toml", "b a2").exit_code == 0
    assert cli("mail", ann / "game.toml", "-o", "m4.eml").exit_code == 0
    assert parse("m4.eml")["To"] == BO
    assert cli("receive", "m4.eml", "--mine", bo / "game.toml").exit_code == 0


def test_a_forged_copy_is_still_refused_when_the_mail_is_addressed_right(cli, tmp_path):
    """The fix changes whom the mail is for, not what receive accepts: a move made in Ann's
    name (not from her conditional moves) is still refused in her copy."""
    odd(cli)
    assert cli("move", "game.toml", "b e5", "--if", "w d4", "--then", "b c3").exit_code == 0
    shutil.copy("game.toml", "ann.toml")
    assert cli("move", "game.toml", "w f6").exit_code == 0  # Ann's condition is dropped
    assert cli("move", "game.toml", "b c3").exit_code == 0  # ... and Bo makes her move
    assert cli("mail", "game.toml", "-o", "forged.eml", "--as", "Bo").exit_code == 0
    assert parse("forged.eml")["To"] == ANN
    result = cli("receive", "forged.eml", "--mine", "ann.toml")
    assert result.exit_code == 1 and "ply 3" in result.output and "by someone else" in result.output


def test_as_says_whose_copy_it_is(cli):
    odd(cli)
    assert cli("move", "game.toml", "b e5").exit_code == 0
    assert cli("mail", "game.toml", "-o", "a.eml", "--as", "2").exit_code == 0
    assert parse("a.eml")["From"] == BO and parse("a.eml")["To"] == ANN
    assert cli("mail", "game.toml", "-o", "b.eml", "--as", "Eve").exit_code == 2


def test_a_new_game_goes_to_the_seat_to_move(cli):
    odd(cli)
    assert cli("mail", "game.toml", "-o", "a.eml").exit_code == 0
    assert parse("a.eml")["To"] == ANN and parse("a.eml")["From"] is None


def test_a_bot_game_is_mailed_from_the_player_never_from_the_engine(cli):
    """Ann plays the engine: the last ply is the engine's reply, but the copy is Ann's. The
    engine reads no mail: without --to the mail is refused saying so; with it, it is Ann's."""
    made = cli("new", "odd", "-o", "game.toml", "--player", f"1={ANN}", "--bot", "2=0.1")
    assert made.exit_code == 0, made.output
    assert cli("move", "game.toml", "b e5").exit_code == 0
    refused = cli("mail", "game.toml", "-o", "a.eml")
    assert refused.exit_code == 2 and "engine" in refused.output and "--to" in refused.output
    sent = cli("mail", "game.toml", "-o", "a.eml", "--to", "Cy <cy@example.org>")
    assert sent.exit_code == 0, sent.output
    assert parse("a.eml")["From"] == ANN and parse("a.eml")["To"] == CY


def test_cooperative_crab_is_mailed_to_every_partner(cli):
    """In cooperative crab seat 1 records every round and is always to move: her mail goes to
    every other seat, never to herself; a partner's mail (--as) goes to the seat to move."""
    assert cli("new", "crab", "-o", "c.toml", "-O", "players=3", "-O", "seed=5", "--player", f"1={ANN}",
               "--player", f"2={BO}", "--player", f"3={CY}").exit_code == 0
    listing = json.loads(cli("moves", "c.toml", "--json").output)
    round_ = " | ".join(f"{seat}: {own[0]['move']}" for seat, own in listing["placements"].items())
    assert cli("move", "c.toml", round_).exit_code == 0
    assert cli("mail", "c.toml", "-o", "a.eml").exit_code == 0
    message = parse("a.eml")
    assert message["From"] == ANN and message["To"] == f"{BO}, {CY}"
    assert cli("mail", "c.toml", "-o", "b.eml", "--as", "3").exit_code == 0
    assert parse("b.eml")["From"] == CY and parse("b.eml")["To"] == ANN


@pytest.mark.parametrize("seats", ["1"])
def test_a_game_of_one_seat_is_mailed_to_its_player(cli, seats):
    assert cli("new", "crab", "-o", "c.toml", "-O", f"players={seats}", "--player", f"1={ANN}").exit_code == 0
    assert cli("mail", "c.toml", "-o", "a.eml").exit_code == 0
    assert parse("a.eml")["To"] == ANN
