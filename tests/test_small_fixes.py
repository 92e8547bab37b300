"""Small things a new player met on a first trial: a lock left behind by a mistyped name, a key
whose advice broke the seal, a name with a line break let in at `new`, Harmijan's colour choice
answered with every move form, and a person called "it"."""

from __future__ import annotations

import fcntl
import json
import os
import threading
import time
from pathlib import Path

import pytest

from referee.record import files

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"

# -- a mistyped record name leaves nothing behind ------------------------------------------------


def test_move_on_a_missing_record_leaves_no_lock(cli, tmp_path):
    result = cli("move", "typo.toml", "b e5")
    assert result.exit_code == 2
    assert "typo.toml: no such file" in result.output + result.stderr
    assert os.listdir(tmp_path) == []


def test_a_lock_of_an_existing_record_stays(cli, tmp_path):
    """Beside a record the lock stays (test_crash_safety.py): only a lock of nothing goes."""
    assert cli("new", "odd", "-O", "size=3", "-O", "min_group=2", "-o", "game.toml").exit_code == 0
    assert cli("move", "game.toml", "b a1").exit_code == 0
    assert sorted(os.listdir(tmp_path)) == [".game.toml.lock", "game.toml"]


def test_a_command_waiting_on_a_lock_taken_away_takes_the_new_one(tmp_path):
    """A command waiting while the lock of a missing record is taken away must not go on
    holding the removed file: it takes the lock by its name again, so that two commands never
    both hold "the" lock of one record."""
    record = tmp_path / "new.toml"
    lock = tmp_path / ".new.toml.lock"
    holding, done = threading.Event(), threading.Event()

    def second() -> None:
        with files.locked(record):
            holding.set()
            done.wait(10)

    with files.locked(record):
        waiter = threading.Thread(target=second)
        waiter.start()
        time.sleep(0.3)  # the second command is waiting on the first's lock file
        assert not holding.is_set()
    assert holding.wait(10)
    # The lock file there now is the one the second command holds: a third cannot take it.
    fd = os.open(lock, os.O_RDWR)
    try:
        with pytest.raises(BlockingIOError):
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    finally:
        os.close(fd)
        done.set()
        waiter.join(10)
    assert not lock.exists()


# -- a key's advice keeps the seal ---------------------------------------------------------------


def test_key_new_says_to_give_the_key_at_new_and_never_to_edit_the_record(cli):
    pytest.importorskip("cryptography")
    made = cli("key", "new", "-o", "ann key.key")
    assert made.exit_code == 0
    public = made.stdout.strip()  # the key alone on standard output, for $(referee key new …)
    assert public.startswith("ed25519:") and "\n" not in public
    advice = made.stderr
    assert f'referee new GAME -o FILE --player "SEAT=YOUR NAME" --key SEAT={public}' in advice
    assert "--sign 'ann key.key'" in advice
    assert "[players]" not in advice  # a key written into a record by hand breaks its seal
    # The advice, followed, makes a game whose signed moves verify.
    assert cli("new", "odd", "-O", "size=3", "-O", "min_group=2", "-o", "game.toml",
               "--player", "1=Ann", "--key", f"1={public}").exit_code == 0
    assert cli("move", "game.toml", "b a1", "--sign", "ann key.key").exit_code == 0
    verified = cli("verify", "game.toml")
    assert verified.exit_code == 0, verified.output


# -- a name is refused where it is given ---------------------------------------------------------


@pytest.mark.parametrize("name, said", [
    ("Ann\nBcc: eve@example.org", "it has a line break in it"),
    ("Ann\u2028Bo", "it has a line break in it"),
    ("Ann\u202e5e b", "it holds RIGHT-TO-LEFT OVERRIDE (U+202E)"),
    ("An\u200bn", "it holds ZERO WIDTH SPACE (U+200B)"),
    ("Ann\x1b[2J", "it holds a control character (U+001B)"),
], ids=["line break", "line separator", "bidi override", "zero width", "escape"])
def test_new_refuses_a_name_mail_would_refuse_naming_the_seat(cli, tmp_path, name, said):
    """A line break was let in at `new` and refused only at `mail`, naming neither the seat nor
    the fix (SPEC §9, Names)."""
    result = cli("new", "odd", "-o", "game.toml", "--player", "1=Bo", "--player", f"2={name}")
    assert result.exit_code == 2
    message = result.output + result.stderr
    assert f"seat 2's name cannot be used: {said}" in message
    assert "one line of plain text" in message and '--player "2=Ann <ann@example.org>"' in message
    assert os.listdir(tmp_path) == []


def test_new_takes_names_of_any_script_and_trims_their_ends(cli):
    result = cli("new", "odd", "-o", "game.toml", "--player", "1=Zoë Ünal-Çelik <zoe@example.org>",
                 "--player", "2=  Chidi Okafor\n")
    assert result.exit_code == 0, result.output
    text = Path("game.toml").read_text()
    assert '1 = "Zoë Ünal-Çelik <zoe@example.org>"' in text and '2 = "Chidi Okafor"' in text


# -- Harmijan's colour choice --------------------------------------------------------------------


@pytest.fixture
def harmijan(cli):
    assert cli("new", "harmijan", "-o", "h.toml", "--player", "1=Ann", "--player",
               "2=Chidi Okafor").exit_code == 0
    return Path("h.toml")


@pytest.mark.parametrize("word", ["blue", "b", "schwarz", "c4-c6 f6", "pass"])
def test_harmijan_choice_answers_any_other_word_with_the_two_colours_R_HJ1(cli, harmijan, word):
    assert cli("move", harmijan, "setup b e5 f5 w c3 c4").exit_code == 0
    before = harmijan.read_bytes()
    result = cli("move", harmijan, word)
    assert result.exit_code == 1
    message = result.output + result.stderr
    assert f"ply 2 ({word}): Chidi Okafor now chooses a colour: 'black' or 'white' (R-HJ1)" in message
    assert "<from>" not in message and "setup" not in message
    assert harmijan.read_bytes() == before
    assert cli("move", harmijan, "White").exit_code == 0


def test_harmijan_first_ply_answers_other_words_with_the_setup_R_HJ1(cli, harmijan):
    result = cli("move", harmijan, "hello")
    assert result.exit_code == 1
    assert ("ply 1 (hello): the game starts with Ann's setup: 'setup b <cell> <cell> w <cell> "
            "<cell>' (R-HJ1)") in result.output + result.stderr


# -- a person is not "it" ------------------------------------------------------------------------


@pytest.mark.parametrize("game, board, said", [
    ("hermit", 'board = "square"\n', "Chidi Okafor can place and so may not pass (R-G3)"),
    ("harmijan", "size = 5\n", "black (Chidi Okafor) has a legal turn and so may not pass (R-HJ5, R-G3)"),
])
def test_a_refused_pass_does_not_call_the_player_it(cli, game, board, said):
    """"Chidi Okafor can place, so it may not pass": a person is no "it"."""
    before = ["setup b a1 a2 w e5 e6", "black"] if game == "harmijan" else ["c3"]
    moves = ", ".join(f'"{move}"' for move in [*before, "pass"])
    Path("g.toml").write_text(f'format = 1\ngame = "{game}"\nmoves = [{moves}]\n[options]\n{board}'
                              '[players]\n1 = "Ann"\n2 = "Chidi Okafor"\n')
    result = cli("validate", "g.toml")
    assert result.exit_code == 1
    assert said in result.output and " it may" not in result.output


def test_mail_names_the_seat_whose_name_has_a_line_break_and_says_the_fix(cli, tmp_path):
    """A record from before `new` refused such names: `mail` says whose name and what to do."""
    assert cli("new", "odd", "-o", "g.toml", "--player", "1=Ann <ann@example.org>",
               "--player", "2=Bo <bo@example.net>").exit_code == 0
    record = tmp_path / "g.toml"
    text = record.read_text(encoding="utf-8")
    record.write_text(text.replace('"Ann <ann@example.org>"', '"Ann\\nBcc: eve@example.com <ann@example.org>"'),
                      encoding="utf-8")
    result = cli("mail", "g.toml", "-o", "m.eml")
    assert result.exit_code == 2
    assert "seat 1" in result.output and "line break" in result.output and "[players]" in result.output
    assert not (tmp_path / "m.eml").exists()


def test_a_sealed_record_changed_early_is_refused_where_it_was_changed(cli, tmp_path):
    """Ply 2 made the cell of ply 5: the seal names ply 2, not the later move now illegal."""
    text = (SAMPLES / "odd" / "odd-5-finished-01.toml").read_text(encoding="utf-8")
    assert text.count('move = "w g8"') == 1 and text.count('move = "b c1"') == 1
    (tmp_path / "g.toml").write_text(text.replace('move = "w g8"', 'move = "w c1"'), encoding="utf-8")
    result = cli("validate", "g.toml", "--json")
    assert result.exit_code == 1
    error = json.loads(result.output)[0]["error"]
    assert error["ply"] == 2 and "digest" in error["message"]
