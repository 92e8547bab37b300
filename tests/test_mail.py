"""Correspondence by mail: messages, sealed and signed records, conditional moves, PNG.

Two players, Ann (seat 1) and Bo (seat 2), each keep their own folder and exchange .eml files.
"""

from __future__ import annotations

import datetime as dt
import email
import email.policy
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.record.reading import read_record

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"
CELLS_3 = ["a1", "a2", "a3", "b1", "b2", "b3", "b4", "c1", "c2", "c3", "c4", "c5",
           "d2", "d3", "d4", "d5", "e3", "e4", "e5"]


def parse(path):
    return email.message_from_bytes(Path(path).read_bytes(), policy=email.policy.default)


def attachments(message):
    return {part.get_filename(): part for part in message.iter_attachments()}


@pytest.fixture
def game(cli):
    result = cli("new", "odd", "-o", "game.toml", "-O", "size=3", "-O", "min_group=2",
                 "--player", "1=Ann <ann@example.org>", "--player", "2=Bo <bo@example.org>")
    assert result.exit_code == 0
    return Path("game.toml")


# -- mail ------------------------------------------------------------------------------------


def test_mail_is_a_message_to_the_seat_to_move_with_record_svg_and_png(cli, game):
    cli("move", game, "b b2")
    result = cli("mail", game, "-o", "out.eml")
    assert result.exit_code == 0, result.output
    message = parse("out.eml")
    assert message["To"] == "Bo <bo@example.org>" and message["From"] == "Ann <ann@example.org>"
    assert "Odd" in message["Subject"] and "ply 1" in message["Subject"] and "b b2" in message["Subject"]
    body = message.get_body(("plain",)).get_content()
    assert "[X]" in body and "Bo to move" in body and "referee receive" in body
    files = attachments(message)
    assert files["game.toml"].get_content_type() == "application/toml"
    assert files["game.toml"].get_payload(decode=True) == game.read_bytes()
    assert files["game.svg"].get_payload(decode=True).startswith(b"<svg")
    assert files["game.png"].get_payload(decode=True).startswith(PNG_MAGIC)


def test_mail_without_an_address_needs_to(cli):
    cli("new", "odd", "-o", "g.toml")
    result = cli("mail", "g.toml", "-o", "m.eml")
    assert result.exit_code == 2 and "--to" in result.stderr and not Path("m.eml").exists()
    assert cli("mail", "g.toml", "--to", "x@example.org", "-o", "m.eml").exit_code == 0
    assert parse("m.eml")["To"] == "x@example.org"


def test_mail_refuses_a_header_injection_from_a_player_name(cli):
    Path("g.toml").write_text(
        'format = 1\ngame = "odd"\n[players]\n1 = "Ann <ann@example.org>"\n'
        '2 = "Bo <bo@example.org>\\r\\nBcc: spy@example.org"\n'
    )
    cli("move", "g.toml", "b e5")
    result = cli("mail", "g.toml", "-o", "m.eml")
    assert result.exit_code == 2 and "header" in result.stderr and not Path("m.eml").exists()


# -- receive and verify ----------------------------------------------------------------------


def two_players(cli, tmp_path, game):
    """Ann's and Bo's folders, Ann having played b b2 and mailed it to Bo, Bo having saved it."""
    (tmp_path / "ann").mkdir()
    (tmp_path / "bo").mkdir()
    ann, bo = tmp_path / "ann" / "game.toml", tmp_path / "bo" / "game.toml"
    game.rename(ann)
    assert cli("move", ann, "b b2").exit_code == 0
    assert cli("mail", ann, "-o", "to-bo.eml").exit_code == 0
    assert cli("receive", "to-bo.eml", "-o", bo).exit_code == 0
    return ann, bo


def test_receive_saves_a_record_that_extends_my_copy(cli, tmp_path, game):
    ann, bo = two_players(cli, tmp_path, game)
    assert cli("move", bo, "w c3").exit_code == 0
    cli("mail", bo, "-o", "to-ann.eml")
    result = cli("receive", "to-ann.eml", "--mine", ann)
    assert result.exit_code == 0, result.output
    assert [e.move for e in read_record(ann).moves] == ["b b2", "w c3"]


def test_an_earlier_ply_edited_by_hand_is_caught_by_its_digest(cli, tmp_path, game):
    ann, bo = two_players(cli, tmp_path, game)
    cli("move", bo, "w c3")
    text = bo.read_text().replace('move = "b b2"', 'move = "b a1"')
    bo.write_text(text)
    result = cli("validate", bo)
    assert result.exit_code == 1 and "ply 1 (b a1): bad digest" in result.output
    before = ann.read_bytes()
    refused = cli("receive", bo, "--mine", ann)
    assert refused.exit_code == 1 and ann.read_bytes() == before


def test_a_rewritten_history_with_fresh_digests_is_caught_by_mine(cli, tmp_path, game):
    """A forger who recomputes every digest still cannot pass off another past."""
    ann, bo = two_players(cli, tmp_path, game)
    forged = tmp_path / "forged.toml"
    # The same game (its header and id kept), its plies replaced and sealed afresh.
    forged.write_text(ann.read_text().split("[[moves]]")[0])
    cli("move", forged, "b a1")
    cli("move", forged, "w c3")
    assert cli("validate", forged).exit_code == 0
    before = ann.read_bytes()
    result = cli("receive", forged, "--mine", ann)
    assert result.exit_code == 1 and "ply 1 is b a1" in result.stderr
    assert ann.read_bytes() == before


def test_another_game_is_caught_by_mine_at_its_header(cli, tmp_path, game):
    """SPEC §9: two games with the same players and options differ by their id."""
    ann, bo = two_players(cli, tmp_path, game)
    other = tmp_path / "other.toml"
    assert cli("new", "odd", "-o", other, "-O", "size=3", "-O", "min_group=2",
               "--player", "1=Ann <ann@example.org>", "--player", "2=Bo <bo@example.org>").exit_code == 0
    cli("move", other, "b b2")
    cli("move", other, "w c3")
    result = cli("receive", other, "--mine", ann)
    assert result.exit_code == 1 and "its id" in result.stderr


def ann_and_a_shorter_copy(cli, tmp_path, game):
    """Ann's copy after Bo's reply has reached her (2 plies), and a copy cut after ply 1."""
    ann, bo = two_players(cli, tmp_path, game)
    cli("move", bo, "w c3")
    cli("mail", bo, "-o", "to-ann.eml")
    cli("receive", "to-ann.eml", "--mine", ann)
    record = read_record(ann)
    record.moves = record.moves[:1]
    short = tmp_path / "short.toml"
    short.write_text(record.to_toml())
    return ann, short


def test_a_truncated_record_is_caught_with_against(cli, tmp_path, game):
    ann, short = ann_and_a_shorter_copy(cli, tmp_path, game)
    assert cli("validate", short).exit_code == 0  # a shorter game is still a game…
    result = cli("verify", short, "--against", ann)
    assert result.exit_code == 1 and "truncated" in result.stderr  # …but not the one we played
    assert cli("verify", ann, "--against", short).exit_code == 0


def test_an_older_mail_is_nothing_new_and_leaves_my_copy_alone_SPEC_8(cli, tmp_path, game):
    ann, short = ann_and_a_shorter_copy(cli, tmp_path, game)
    before = ann.read_bytes()
    result = cli("receive", short, "--mine", ann)
    assert result.exit_code == 0 and "nothing new: your copy is ahead (ply 2)" in result.stdout
    assert ann.read_bytes() == before


def test_a_move_made_for_my_seat_is_refused_by_mine_SPEC_8(cli, tmp_path, game):
    """Bo plays his move and then one for Ann: her copy refuses it, naming the ply."""
    ann, bo = two_players(cli, tmp_path, game)
    cli("move", bo, "w c3")
    cli("move", bo, "b a1")  # Ann's seat, played by Bo
    before = ann.read_bytes()
    result = cli("receive", bo, "--mine", ann, "--as", "1")
    assert result.exit_code == 1 and "ply 3 (b a1)" in result.stderr and "your seat" in result.stderr
    assert ann.read_bytes() == before


def test_a_message_without_the_record_says_so_SPEC_8b(cli, tmp_path, game):
    cli("move", game, "b b2")
    cli("mail", game, "-o", "full.eml")
    message = parse("full.eml")
    stripped = email.message.EmailMessage()
    for header in ("To", "From", "Subject"):
        stripped[header] = message[header]
    stripped.set_content(message.get_body(("plain",)).get_content())
    Path("bare.eml").write_bytes(bytes(stripped))
    result = cli("receive", "bare.eml", "-o", "new.toml")
    assert result.exit_code == 1 and "a mail, but no record (.toml) is attached" in result.stderr
    assert "Traceback" not in result.output and not Path("new.toml").exists()
    # A plain mail of nothing but headers and words is told the same.
    Path("plain.eml").write_text("From: bo@example.org\nTo: ann@example.org\nSubject: hi\n\nMy move!\n")
    result = cli("receive", "plain.eml", "-o", "new.toml")
    assert result.exit_code == 1 and "plain.eml: a mail, but no record (.toml) is attached" in result.stderr


def test_status_or_validate_of_a_mail_points_to_receive_SPEC_8b(cli, game):
    cli("move", game, "b b2")
    assert cli("mail", game, "-o", "to-bo.eml").exit_code == 0
    for command in ("status", "validate", "history", "show"):
        result = cli(command, "to-bo.eml")
        assert result.exit_code == 2, command
        assert "to-bo.eml: this is a mail: use `referee receive FILE`" in result.output, command
        assert "TOML" not in result.output


def test_receive_needs_somewhere_to_save(cli, game):
    assert cli("receive", game).exit_code == 2


def test_the_first_mail_of_a_game_starts_my_copy(cli, tmp_path, game):
    cli("move", game, "b b2")
    cli("mail", game, "-o", "to-bo.eml")
    mine = tmp_path / "bo.toml"
    result = cli("receive", "to-bo.eml", "--mine", mine)
    assert result.exit_code == 0 and "first copy" in result.stdout
    assert mine.read_bytes() == game.read_bytes()


def test_hand_written_records_are_valid_and_reported_unsealed(cli):
    Path("hand.toml").write_text('format = 1\ngame = "odd"\nmoves = ["b e5", "w d4"]\n')
    assert cli("validate", "hand.toml").exit_code == 0
    result = cli("verify", "hand.toml")
    assert result.exit_code == 0 and "2 unsealed" in result.stdout
    cli("move", "hand.toml", "b a1")
    assert "all sealed" in cli("verify", "hand.toml").stdout


# -- signatures ------------------------------------------------------------------------------


def keys(cli):
    publics = {}
    for who in ("ann", "bo"):
        result = cli("key", "new", "-o", f"{who}.key")
        assert result.exit_code == 0
        publics[who] = result.stdout.strip()
        assert re.fullmatch(r"ed25519:[A-Za-z0-9+/=]{44}", publics[who])
    assert cli("new", "odd", "-o", "s.toml", "--player", "1=Ann", "--player", "2=Bo",
               "--key", f"1={publics['ann']}", "--key", f"2={publics['bo']}").exit_code == 0
    return publics


def test_signed_moves_verify(cli):
    keys(cli)
    assert cli("move", "s.toml", "b e5", "--sign", "ann.key").exit_code == 0
    assert cli("move", "s.toml", "w d4", "--sign", "bo.key").exit_code == 0
    result = cli("verify", "s.toml")
    assert result.exit_code == 0 and "signatures: all valid" in result.stdout


def test_an_unsigned_move_or_resignation_for_a_signing_seat_is_refused_SPEC_9(cli):
    """Bo, holding only his own key, can neither move nor resign for Ann."""
    keys(cli)
    assert cli("move", "s.toml", "b e5", "--sign", "ann.key").exit_code == 0
    assert cli("move", "s.toml", "w d4", "--sign", "bo.key").exit_code == 0
    before = Path("s.toml").read_bytes()
    for attempt in (("resign",), ("b a1",), ("resign", "--sign", "bo.key")):
        result = cli("move", "s.toml", *attempt)
        assert result.exit_code == 2 and "Ann's key" in result.stderr, attempt
        assert Path("s.toml").read_bytes() == before


def test_a_hand_made_unsigned_or_stripped_ply_of_a_signing_seat_is_invalid_SPEC_9(cli):
    keys(cli)
    cli("move", "s.toml", "b e5", "--sign", "ann.key")
    cli("move", "s.toml", "w d4", "--sign", "bo.key")
    text = Path("s.toml").read_text()
    # Ann's signature stripped from her own ply: the digests still hold, the signature is gone.
    stripped = re.sub(r'signature = "[^"]+"\n', "", text, count=1)
    Path("stripped.toml").write_text(stripped)
    for command in (("validate", "stripped.toml"), ("verify", "stripped.toml")):
        result = cli(*command)
        assert result.exit_code == 1 and "ply 1" in result.output and "unsigned" in result.output


def test_a_key_added_after_the_start_breaks_the_seal_SPEC_9(cli):
    """Ann's copy has no key for her seat; Bo adds his own key as hers: digest 0 changes."""
    publics = keys(cli)
    assert cli("new", "odd", "-o", "half.toml", "--player", "1=Ann", "--player", "2=Bo",
               "--key", f"2={publics['bo']}").exit_code == 0
    cli("move", "half.toml", "b e5")
    text = Path("half.toml").read_text().replace('1 = "Ann"', f'1 = {{ name = "Ann", key = "{publics["bo"]}" }}')
    Path("forged.toml").write_text(text)
    result = cli("validate", "forged.toml")
    assert result.exit_code == 1 and "bad digest" in result.output


def test_a_signed_ply_pasted_into_another_game_does_not_verify_SPEC_9(cli):
    publics = keys(cli)
    cli("move", "s.toml", "b e5", "--sign", "ann.key")
    signed = Path("s.toml").read_text().split("[[moves]]")[1]
    assert cli("new", "odd", "-o", "eve.toml", "--player", "1=Ann", "--player", "2=Eve",
               "--key", f"1={publics['ann']}", "--key", f"2={publics['bo']}").exit_code == 0
    Path("eve.toml").write_text(Path("eve.toml").read_text() + "\n[[moves]]" + signed)
    result = cli("validate", "eve.toml")
    assert result.exit_code == 1 and "ply 1" in result.output


def test_signing_with_another_seats_key_is_refused(cli):
    keys(cli)
    before = Path("s.toml").read_bytes()
    result = cli("move", "s.toml", "b e5", "--sign", "bo.key")
    assert result.exit_code == 2 and "not Ann's key" in result.stderr
    assert Path("s.toml").read_bytes() == before


def test_a_forged_signature_or_an_altered_signed_move_is_rejected(cli):
    keys(cli)
    cli("move", "s.toml", "b e5", "--sign", "ann.key")
    cli("move", "s.toml", "w d4", "--sign", "bo.key")
    text = Path("s.toml").read_text()
    # Bo signs a ply as if Ann had made it: take Bo's signature for Ann's ply.
    sigs = re.findall(r'signature = "([^"]+)"', text)
    Path("forged.toml").write_text(text.replace(sigs[0], sigs[1], 1))
    for command in (("verify", "forged.toml"), ("validate", "forged.toml")):
        result = cli(*command)
        assert result.exit_code == 1 and "ply 1" in result.output and "signature" in result.output


# -- PNG -------------------------------------------------------------------------------------


def test_show_png_is_a_png_and_the_same_every_time(cli, game):
    cli("move", game, "b b2")
    assert cli("show", game, "--format", "png", "-o", "a.png").exit_code == 0
    assert cli("show", game, "--format", "png", "-o", "b.png").exit_code == 0
    data = Path("a.png").read_bytes()
    assert data.startswith(PNG_MAGIC) and len(data) > 5000 and data == Path("b.png").read_bytes()


# -- conditional moves -----------------------------------------------------------------------


def test_a_conditional_reply_is_played_when_the_opponent_matches_it(cli, game):
    assert cli("move", game, "b b2", "--if", "w c3", "--then", "b a1",
               "--if", "W A1", "--then", "b c3").exit_code == 0
    # SPEC §9: the conditions live in the ply that set them, sealed with it.
    assert read_record(game).moves[0].pending == [{"if": "w c3", "then": "b a1"}, {"if": "w a1", "then": "b c3"}]
    result = cli("move", game, "w a1")
    assert result.exit_code == 0 and "conditional reply was played" in result.stdout
    record = read_record(game)
    assert [e.move for e in record.moves] == ["b b2", "w a1", "b c3"]
    assert record.standing_conditions() == []


def test_conditions_are_dropped_when_the_opponent_plays_something_else(cli, game):
    cli("move", game, "b b2", "--if", "w c3", "--then", "b a1")
    result = cli("move", game, "w e5")
    assert result.exit_code == 0 and "dropped" in result.stdout
    record = read_record(game)
    assert [e.move for e in record.moves] == ["b b2", "w e5"] and record.standing_conditions() == []


def test_an_impossible_condition_refuses_the_whole_move(cli, game):
    before = game.read_bytes()
    result = cli("move", game, "b b2", "--if", "w b2", "--then", "b a1")
    assert result.exit_code == 1 and "--if w b2" in result.stderr and "occupied" in result.stderr
    assert game.read_bytes() == before
    assert cli("move", game, "b b2", "--if", "w c3").exit_code == 2  # a --then is missing


def test_conditions_answer_a_reply_that_was_itself_conditional(cli, game):
    cli("move", game, "b b2", "--if", "w c3", "--then", "b a1")
    result = cli("move", game, "w c3", "--if", "b a1", "--then", "w e5")
    assert result.exit_code == 0
    assert [e.move for e in read_record(game).moves] == ["b b2", "w c3", "b a1", "w e5"]


def test_a_rewritten_conditional_reply_breaks_the_seal_SPEC_9(cli, game):
    """Bo turns Ann's `then = "b a1"` into a move of his choosing: the ply's digest breaks."""
    cli("move", game, "b b2", "--if", "w c3", "--then", "b a1")
    game.write_text(game.read_text().replace('then = "b a1"', 'then = "b e5"'))
    result = cli("validate", game)
    assert result.exit_code == 1 and "ply 1" in result.output and "bad digest" in result.output
    assert cli("move", game, "w c3").exit_code == 1


def test_a_sealed_conditional_reply_needs_no_signature_SPEC_9(cli, tmp_path):
    """Ann signs her move and its conditions; Bo's referee plays her reply unsigned, and her
    copy accepts it as hers; Bo's own move in the same run is signed with his key."""
    keys(cli)
    assert cli("move", "s.toml", "b e5", "--sign", "ann.key", "--if", "w d4", "--then", "b c3").exit_code == 0
    mine = tmp_path / "ann.toml"
    mine.write_bytes(Path("s.toml").read_bytes())
    result = cli("move", "s.toml", "w d4", "--sign", "bo.key")
    assert result.exit_code == 0 and "conditional reply was played" in result.stdout
    record = read_record("s.toml")
    assert [e.move for e in record.moves] == ["b e5", "w d4", "b c3"]
    assert [e.signature is not None for e in record.moves] == [True, True, False]
    assert cli("validate", "s.toml").exit_code == 0
    received = cli("receive", "s.toml", "--mine", mine, "--as", "1")
    assert received.exit_code == 0, received.output


def test_a_reply_matched_at_once_is_signed_by_its_mover_SPEC_9(cli):
    """Bo answers with conditions of his own that match Ann's reply at once: his second ply
    comes from no sealed condition, so his key signs it."""
    keys(cli)
    cli("move", "s.toml", "b e5", "--sign", "ann.key", "--if", "w d4", "--then", "b c3")
    result = cli("move", "s.toml", "w d4", "--sign", "bo.key", "--if", "b c3", "--then", "w a1")
    assert result.exit_code == 0, result.output
    record = read_record("s.toml")
    assert [e.move for e in record.moves] == ["b e5", "w d4", "b c3", "w a1"]
    assert [e.signature is not None for e in record.moves] == [True, True, False, True]
    assert cli("validate", "s.toml").exit_code == 0


# -- a whole game by mail --------------------------------------------------------------------


def test_two_players_play_a_whole_game_by_eml_files_alone(cli, tmp_path, game):
    (tmp_path / "ann").mkdir()
    (tmp_path / "bo").mkdir()
    copies = {1: tmp_path / "ann" / "game.toml", 2: tmp_path / "bo" / "game.toml"}
    game.rename(copies[1])
    mailed = None
    for ply, cell in enumerate(CELLS_3):
        seat = ply % 2 + 1
        mine = copies[seat]
        if mailed is not None:
            received = cli("receive", mailed, "--mine", mine)
            assert received.exit_code == 0, received.output
        colour = "b" if cell[0] in "abc" else "w"
        assert cli("move", mine, f"{colour} {cell}", "--as", seat).exit_code == 0
        mailed = tmp_path / f"ply-{ply + 1}.eml"
        assert cli("mail", mine, "-o", mailed).exit_code == 0
        assert parse(mailed)["To"] == ("Bo <bo@example.org>" if seat == 1 else "Ann <ann@example.org>") \
            or ply == len(CELLS_3) - 1
    final = cli("receive", mailed, "--mine", copies[2] if seat == 1 else copies[1])
    assert final.exit_code == 0 and "Bo wins" in final.stdout
    assert copies[1].read_bytes() == copies[2].read_bytes()


def _readme_digests(path):
    """The digest of every ply, recomputed from the README's (and SPEC §9's) definition alone."""
    import hashlib
    import json
    import tomllib

    doc = tomllib.loads(Path(path).read_text())

    def js(value):
        return json.dumps(value, sort_keys=True, ensure_ascii=False, separators=(",", ":"))

    head = {"game": doc["game"], "options": doc["options"], "setup": doc.get("setup", {})}
    if "id" in doc:
        head["id"] = doc["id"]
    keys = {seat: p["key"] for seat, p in doc.get("players", {}).items() if isinstance(p, dict) and "key" in p}
    if keys:
        head["keys"] = keys
    previous = "sha256:" + hashlib.sha256(("\n" + "referee record 1\n" + js(head)).encode()).hexdigest()
    digests = []
    for ply, entry in enumerate(doc["moves"], 1):
        body = {"ply": ply, "move": entry["move"], "at": entry["at"].strftime("%Y-%m-%dT%H:%M:%SZ"),
                "comment": entry.get("comment")}
        if entry.get("pending"):
            body["pending"] = entry["pending"]
        previous = "sha256:" + hashlib.sha256(f"{previous}\n{js(body)}".encode()).hexdigest()
        digests.append((entry["digest"], previous))
    return digests


def test_digests_follow_the_canonical_text_in_the_readme(cli, game):
    """Anyone can recompute the seal from the README's definition, without this code."""
    cli("move", game, "b b2", "--comment", "the centre, «naturally»")
    cli("move", game, "w c3", "--if", "b a1", "--then", "w e5")
    assert 'id = "' in game.read_text()
    for stored, recomputed in _readme_digests(game):
        assert stored == recomputed


def test_digest_0_covers_the_seats_keys_as_the_readme_defines_SPEC_9(cli):
    keys(cli)
    cli("move", "s.toml", "b e5", "--sign", "ann.key")
    for stored, recomputed in _readme_digests("s.toml"):
        assert stored == recomputed


@settings(max_examples=300, derandomize=True)
@given(st.integers(1, 20_000), st.text(), st.none() | st.text(),
       st.none() | st.datetimes(timezones=st.just(dt.timezone.utc)))
def test_a_plys_canonical_text_is_the_json_the_readme_defines(ply, move, comment, at):
    import json

    from referee.record.values import Entry, toml_datetime
    from referee.record.seal import entry_text

    written = toml_datetime(at) if at is not None else None
    expected = json.dumps({"ply": ply, "move": move, "at": written, "comment": comment},
                          sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    assert entry_text(ply, move, Entry(move, at, comment)) == expected
