"""Sealed notes (SPEC §12): `move --note TEXT --key KEYFILE` keeps a note in the ply that only its
writer reads until revealed; `referee reveal` makes the note key public, signed. Each forgery is
refused naming its ply — also where the forger could seal and sign afresh, which only the
note's writer can: the cipher binds the game and the ply.
"""

from __future__ import annotations

import base64
import json
import shutil
from pathlib import Path

import pytest

from referee.record import seal, signing
from referee.record.reading import read_record

ANN, BO = "Ann <ann@example.org>", "Bo <bo@example.org>"
SECRET = "Plan: the centre first, then cut at c3"


def keyed(cli, path="game.toml") -> dict[int, object]:
    signers = {}
    for seat, name in ((1, "ann"), (2, "bo")):
        if not Path(f"{name}.key").exists():
            assert cli("key", "new", "-o", f"{name}.key").exit_code == 0
        signers[seat] = signing.load_signer(Path(f"{name}.key").read_bytes())
    made = cli("new", "odd", "-o", path, "--player", f"1={ANN}", "--key", f"1={signers[1].public}",
               "--player", f"2={BO}", "--key", f"2={signers[2].public}")
    assert made.exit_code == 0, made.output
    return signers


def played(cli, path="game.toml") -> None:
    """Ann's note at ply 1 and ply 3, Bo's at ply 2."""
    for move, key, note in (("b e5", "ann.key", SECRET), ("w d4", "bo.key", "Bo's worry"),
                            ("b c3", "ann.key", "second thoughts")):
        result = cli("move", path, move, "--note", note, "--key", key)
        assert result.exit_code == 0, result.output


def reseal(path: Path, signers: dict[int, object]) -> None:
    """What the note's own writer could do after an edit: seal the chain afresh and sign every
    ply with its seat's key (odd: seats alternate, Ann first)."""
    record = read_record(path)
    digests = seal.chain(record, [entry.move for entry in record.moves])
    for ply, (entry, digest) in enumerate(zip(record.moves, digests), 1):
        entry.digest = digest
        entry.signature = signers[2 - ply % 2].sign(digest)
    path.write_text(record.to_toml())


def notes_json(cli, *args) -> dict:
    result = cli("notes", *args, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def test_only_the_writer_reads_a_note_and_the_opponents_copy_holds_no_plaintext(cli):
    keyed(cli)
    played(cli)
    data = Path("game.toml").read_bytes()
    for words in (SECRET, "Bo's worry", "second thoughts", "centre"):
        assert words.encode() not in data
    assert read_record("game.toml").moves[0].note.startswith("sealed:")
    bo = notes_json(cli, "game.toml", "--key", "bo.key")["notes"]
    assert [(n["ply"], n["text"]) for n in bo] == [(1, None), (2, "Bo's worry"), (3, None)]
    ann = cli("notes", "game.toml", "--key", "ann.key")
    assert ann.exit_code == 0 and SECRET in ann.output and "second thoughts" in ann.output
    assert "Bo's worry" not in ann.output and "Ply 2 (w d4), Bo <bo@example.org>: sealed" in ann.output
    nobody = cli("notes", "game.toml")
    assert nobody.exit_code == 0 and nobody.output.count("sealed") == 3
    assert cli("validate", "game.toml").exit_code == 0 and cli("verify", "game.toml").exit_code == 0


def test_a_revealed_seats_notes_are_read_by_anyone(cli):
    keyed(cli)
    played(cli)
    private = Path("ann.key").read_text()
    result = cli("reveal", "game.toml", "--key", "ann.key")
    assert result.exit_code == 0 and "Ann's notes are revealed" in result.output
    text = Path("game.toml").read_text()
    assert "[[reveal]]" in text and private.split("\n")[1] not in text  # never the private key
    report = notes_json(cli, "game.toml")
    assert [(n["ply"], n["text"], n["opened"]) for n in report["notes"]] == [
        (1, SECRET, "revealed"), (2, None, None), (3, "second thoughts", "revealed")]
    assert report["revealed"] == [1]
    # The game goes on, the reveal stays, and it is checked wherever the record is read.
    assert cli("move", "game.toml", "w a1", "--sign", "bo.key").exit_code == 0
    assert "[[reveal]]" in Path("game.toml").read_text()
    for command in ("validate", "verify", "status"):
        assert cli(command, "game.toml").exit_code == 0
    assert cli("reveal", "game.toml", "--key", "ann.key").exit_code == 2  # once is enough


@pytest.mark.parametrize("how", ["resealed by its writer", "as the forger leaves it"])
def test_a_note_moved_to_another_ply_is_refused_naming_that_ply(cli, how):
    signers = keyed(cli)
    played(cli)
    game = Path("game.toml")
    record = read_record(game)
    record.moves[2].note = record.moves[0].note  # ply 1's note put on ply 3, Ann's too
    game.write_text(record.to_toml())
    if how == "resealed by its writer":
        reseal(game, signers)
        assert cli("validate", game).exit_code == 0  # the seal holds: only the cipher can tell
        result = cli("notes", game, "--key", "ann.key")
    else:
        result = cli("validate", game)
    assert result.exit_code == 1 and "ply 3" in result.output, result.output


def test_a_note_moved_to_another_game_is_refused_naming_its_ply(cli):
    signers = keyed(cli, "one.toml")
    keyed(cli, "two.toml")
    played(cli, "one.toml")
    played(cli, "two.toml")
    two = read_record("two.toml")
    two.moves[0].note = read_record("one.toml").moves[0].note
    Path("two.toml").write_text(two.to_toml())
    reseal(Path("two.toml"), signers)
    result = cli("notes", "two.toml", "--key", "ann.key")
    assert result.exit_code == 1 and "ply 1" in result.output and "does not open" in result.output


def test_a_changed_ciphertext_is_refused_naming_its_ply(cli):
    signers = keyed(cli)
    played(cli)
    game = Path("game.toml")
    record = read_record(game)
    raw = bytearray(base64.b64decode(record.moves[2].note[len("sealed:"):]))
    raw[-1] ^= 1
    record.moves[2].note = "sealed:" + base64.b64encode(bytes(raw)).decode()
    game.write_text(record.to_toml())
    assert cli("validate", game).exit_code == 1  # the seal breaks at ply 3
    reseal(game, signers)
    result = cli("notes", game, "--key", "ann.key")
    assert result.exit_code == 1 and "ply 3" in result.output and "does not open" in result.output


def test_a_wrong_revealed_key_is_refused_naming_the_ply(cli):
    """Ann reveals a key that is not her note key, and signs it: every command that checks the
    record names the first note it does not open. Changed after her signature, the reveal
    itself is refused."""
    signers = keyed(cli)
    played(cli)
    assert cli("reveal", "game.toml", "--key", "ann.key").exit_code == 0
    shutil.copy("game.toml", "changed.toml")
    record = read_record("game.toml")
    wrong = base64.b64encode(bytes(32)).decode()
    record.reveals[0] = {"seat": 1, "key": wrong,
                         "signature": signers[1].sign(seal.reveal_digest(record, 1, wrong))}
    Path("game.toml").write_text(record.to_toml())
    for command in (("validate", "game.toml"), ("notes", "game.toml"), ("verify", "game.toml")):
        result = cli(*command)
        assert result.exit_code == 1 and "ply 1" in result.output and "does not open" in result.output, result.output
    text = Path("changed.toml").read_text()
    key = read_record("changed.toml").reveals[0]["key"]
    Path("changed.toml").write_text(text.replace(key, wrong))
    result = cli("validate", "changed.toml")
    assert result.exit_code == 1 and "[[reveal]]" in result.output


def test_a_note_on_a_ply_written_for_a_seat_is_invalid(cli):
    """Bo's referee plays Ann's conditional reply; a note on it would be in Ann's name."""
    signers = keyed(cli)
    assert cli("move", "game.toml", "b e5", "--key", "ann.key", "--note", SECRET,
               "--if", "w d4", "--then", "b c3").exit_code == 0
    assert cli("move", "game.toml", "w d4", "--sign", "bo.key").exit_code == 0
    record = read_record("game.toml")
    record.moves[2].note = record.moves[0].note
    digests = seal.chain(record, [entry.move for entry in record.moves])
    for ply, (entry, digest) in enumerate(zip(record.moves, digests), 1):
        entry.digest = digest
        if ply == 2:
            entry.signature = signers[2].sign(digest)
    Path("game.toml").write_text(record.to_toml())
    result = cli("validate", "game.toml")
    assert result.exit_code == 1 and "ply 3" in result.output and "sealed note" in result.output


def test_a_seat_without_a_key_cannot_write_notes(cli):
    assert cli("new", "odd", "-o", "game.toml", "--player", f"1={ANN}").exit_code == 0
    assert cli("key", "new", "-o", "ann.key").exit_code == 0
    before = Path("game.toml").read_bytes()
    result = cli("move", "game.toml", "b e5", "--note", "x", "--key", "ann.key")
    assert result.exit_code == 2 and "notes need a key: `referee key new`" in result.output
    assert cli("move", "game.toml", "b e5", "--note", "x").exit_code == 2  # no --key
    assert cli("notes", "game.toml", "--key", "ann.key").exit_code == 2
    assert cli("reveal", "game.toml", "--key", "ann.key").exit_code == 2
    assert Path("game.toml").read_bytes() == before


def test_a_note_in_the_name_of_a_seat_without_a_key_is_invalid(cli):
    keyed(cli)
    played(cli)
    note = read_record("game.toml").moves[0].note
    Path("plain.toml").write_text(f'format = 1\ngame = "odd"\n\n[[moves]]\nmove = "b e5"\nnote = "{note}"\n')
    result = cli("validate", "plain.toml")
    assert result.exit_code == 1 and "ply 1" in result.output and "no key" in result.output
    Path("plain.toml").write_text('format = 1\ngame = "odd"\n\n[[moves]]\nmove = "b e5"\nnote = "my plan"\n')
    result = cli("validate", "plain.toml")
    assert result.exit_code == 1 and "ply 1" in result.output and "sealed:" in result.output
