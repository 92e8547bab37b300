"""In a seat's name (SPEC §9): nothing is written for a seat that the seat did not choose, every
clock claim is honest, and every date is one a clock can count with. Each test is a finding of a
hostile correspondent who edits records by hand, re-seals them (the chain is public: anyone can
work it out again) and signs what his own key may sign.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from referee.record import seal, signing
from referee.record.reading import parse_record, read_record

ANN, BO = "Ann <ann@example.org>", "Bo <bo@example.org>"


def new(cli, path="game.toml", *extra):
    result = cli("new", "odd", "-O", "size=3", "-O", "min_group=2", "-o", path,
                 "--player", f"1={ANN}", "--player", f"2={BO}", *extra)
    assert result.exit_code == 0, result.output
    return Path(path)


def reseal(path: Path, signer=None, sign: tuple[int, ...] = ()) -> None:
    """What a forger can do to a record: work the chain out afresh after an edit and sign the
    plies `sign` (numbers) with his own key; every other signature is kept as it was."""
    record = read_record(path)
    digests = seal.chain(record, [entry.move for entry in record.moves])
    for ply, (entry, digest) in enumerate(zip(record.moves, digests), 1):
        entry.digest = digest
        if ply in sign:
            entry.signature = signer.sign(digest)
    path.write_text(record.to_toml())


def keyed_game(cli, *extra) -> dict[int, object]:
    """game.toml with both seats signing; the signers of Ann (1) and Bo (2)."""
    signers = {}
    for seat, who in ((1, "ann"), (2, "bo")):
        assert cli("key", "new", "-o", f"{who}.key").exit_code == 0
        signers[seat] = signing.load_signer(Path(f"{who}.key").read_bytes())
    new(cli, "game.toml", "--key", f"1={signers[1].public}", "--key", f"2={signers[2].public}", *extra)
    return signers


def ply_table(path: Path, ply: int, line: str) -> None:
    """Add `line` to the [[moves]] table of ply `ply`."""
    parts = path.read_text().split("[[moves]]\n")
    parts[ply] = line + "\n" + parts[ply]
    path.write_text("[[moves]]\n".join(parts))


# -- plies the other side's referee writes ---------------------------------------------------


def test_a_draw_offer_put_on_an_automatic_reply_is_refused_though_resealed_and_signed(cli):
    """Bo adds offer = "draw" to Ann's conditional reply, which his referee wrote, re-seals, and
    signs his own `accept draw`: the reply carries what Ann never chose, so the record is invalid
    at that ply — for `validate`, `verify` and Ann's own `receive`."""
    signers = keyed_game(cli)
    assert cli("move", "game.toml", "b b2", "--sign", "ann.key", "--if", "w c3", "--then", "b a1").exit_code == 0
    shutil.copy("game.toml", "ann.toml")
    assert cli("move", "game.toml", "w c3", "--sign", "bo.key").exit_code == 0
    game = Path("game.toml")
    assert [e.move for e in read_record(game).moves] == ["b b2", "w c3", "b a1"]
    ply_table(game, 3, 'offer = "draw"')
    game.write_text(game.read_text() + '\n[[moves]]\nmove = "accept draw"\n')
    reseal(game, signers[2], sign=(4,))
    before = Path("ann.toml").read_bytes()
    for command in (("validate", game), ("verify", game), ("receive", game, "--mine", "ann.toml", "--as", "Ann")):
        result = cli(*command)
        assert result.exit_code == 1, (command, result.output)
        assert "ply 3" in result.output and "a draw offer" in result.output and "written for Ann" in result.output
    assert Path("ann.toml").read_bytes() == before


@pytest.mark.parametrize("line", ['comment = "I give up soon"', "leave = [2026-12-01T00:00:00Z, 2026-12-05T00:00:00Z]",
                                  'pending = [{ if = "w a3", then = "b c1" }]'],
                         ids=["comment", "leave", "conditional moves"])
def test_anything_but_the_move_on_an_automatic_reply_is_refused(cli, at, line):
    at("2026-11-02T12:00:00Z")
    signers = keyed_game(cli, "--clock", "10/30d", "--leave", "14")
    cli("move", "game.toml", "b b2", "--sign", "ann.key", "--if", "w c3", "--then", "b a1")
    assert cli("move", "game.toml", "w c3", "--sign", "bo.key").exit_code == 0
    ply_table(Path("game.toml"), 3, line)
    reseal(Path("game.toml"), signers[2])
    result = cli("validate", "game.toml")
    assert result.exit_code == 1 and "ply 3" in result.output and "only Ann may add that" in result.output


def test_a_backdated_move_cannot_charge_its_time_to_the_automatic_reply(cli, at):
    """Bo stamps his move 20 days early and leaves the real time on Ann's conditional reply, so
    that Ann would be charged his 20 days: the reply must carry the stamp of the move that
    caused it."""
    at("2026-11-01T12:00:00Z")
    signers = keyed_game(cli, "--clock", "10/30d")
    at("2026-11-02T12:00:00Z")
    cli("move", "game.toml", "b b2", "--sign", "ann.key", "--if", "w c3", "--then", "b a1")
    at("2026-11-24T12:00:00Z")
    assert cli("move", "game.toml", "w c3", "--sign", "bo.key").exit_code == 0
    game = Path("game.toml")
    game.write_text(game.read_text().replace("at = 2026-11-24T12:00:00Z", "at = 2026-11-04T12:00:00Z", 1))
    reseal(game, signers[2], sign=(2,))
    result = cli("validate", game)
    assert result.exit_code == 1 and "ply 3" in result.output and "time stamp of its own" in result.output


def test_a_comment_on_a_forced_pass_is_refused_in_an_unsigned_game(cli):
    """A pass the rules forced is written by the other side: it says nothing of its own. (The
    sample's ply 33 is such a pass.)"""
    sample = Path(__file__).parent.parent / "sample_games" / "hermit-square" / "hermit-square-passes.toml"
    game = Path("passes.toml")
    shutil.copy(sample, game)
    assert cli("validate", game).exit_code == 0
    ply_table(game, 33, 'comment = "Bo: I resign next"')
    reseal(game)
    result = cli("validate", game)
    assert result.exit_code == 1 and "ply 33" in result.output and "a pass the rules forced" in result.output


# -- whose copy it is ------------------------------------------------------------------------


def ann_has_bos_answer(cli, tmp_path):
    """Ann moved, Bo answered, Ann saved his answer: her copy's last ply is Bo's."""
    for who in ("ann", "bo"):
        (tmp_path / who).mkdir()
    ann, bo = tmp_path / "ann" / "game.toml", tmp_path / "bo" / "game.toml"
    new(cli, str(ann))
    assert cli("move", ann, "b b2").exit_code == 0
    assert cli("receive", ann, "--mine", bo, "--as", "2").exit_code == 0
    assert cli("move", bo, "w c3").exit_code == 0
    assert cli("receive", bo, "--mine", ann, "--as", "Ann").exit_code == 0
    return ann, bo


@pytest.mark.parametrize("made_for_ann", [("b a1",), ("resign",), ("b a1", "--offer-draw")],
                         ids=["move", "resignation", "draw offer"])
def test_a_ply_made_for_me_right_after_a_receive_is_refused(cli, tmp_path, made_for_ann):
    """The copy's last ply is the opponent's: the referee once took the receiver for him and
    let a ply made for the receiver through."""
    ann, bo = ann_has_bos_answer(cli, tmp_path)
    assert cli("move", bo, *made_for_ann).exit_code == 0  # Bo plays Ann's turn
    before = ann.read_bytes()
    result = cli("receive", bo, "--mine", ann, "--as", "1")
    assert result.exit_code == 1 and "ply 3" in result.output and "your seat" in result.output
    assert ann.read_bytes() == before


def test_a_move_made_for_me_in_a_blank_pairings_record_is_refused(cli, tmp_path):
    """`pairings --new` writes blank records: both copies start with no ply to compare."""
    assert cli("pairings", ANN, BO, "--game", "odd", "--new", "event").exit_code == 0
    blank = next(Path("event").glob("*.toml"))
    theirs = tmp_path / "theirs.toml"
    shutil.copy(blank, theirs)
    record = read_record(blank)
    me = 1 if record.player_name(1) == ANN else 2
    first = cli("moves", theirs, "--json")
    assert first.exit_code == 0
    move = __import__("json").loads(first.stdout)["moves"][0]
    assert cli("move", theirs, move).exit_code == 0  # seat 1's move, made in the other copy
    before = blank.read_bytes()
    result = cli("receive", theirs, "--mine", blank, "--as", "ann@example.org")
    if me == 1:
        assert result.exit_code == 1 and "ply 1" in result.output and "your seat" in result.output
        assert blank.read_bytes() == before
    else:
        assert result.exit_code == 0, result.output


def test_receive_mine_without_a_seat_asks_which_is_yours(cli, tmp_path):
    ann, bo = ann_has_bos_answer(cli, tmp_path)
    cli("move", bo, "b a1")
    before = ann.read_bytes()
    result = cli("receive", bo, "--mine", ann)
    assert result.exit_code == 2 and "say which seat is yours: --as SEAT" in result.output
    assert ann.read_bytes() == before


def test_receive_takes_my_seat_from_the_mails_to(cli, tmp_path):
    """A mail the referee wrote goes to the seat to move: its To says whose copy it is."""
    ann, bo = ann_has_bos_answer(cli, tmp_path)
    assert cli("move", ann, "b a1").exit_code == 0
    assert cli("mail", ann, "-o", "to-bo.eml").exit_code == 0
    assert cli("receive", "to-bo.eml", "--mine", bo).exit_code == 0  # To: Bo: seat 2
    # Bo's forgery mailed to Ann: To names her seat, and the ply made for her is refused.
    assert cli("move", bo, "w a3").exit_code == 0 and cli("move", bo, "b c1").exit_code == 0
    assert cli("mail", bo, "-o", "to-ann.eml", "--to", ANN).exit_code == 0
    result = cli("receive", "to-ann.eml", "--mine", ann)
    assert result.exit_code == 1 and "ply 5" in result.output and "your seat" in result.output


@pytest.mark.parametrize("spelling", ["2", "Bo", "bo", "BO@EXAMPLE.ORG", "Bo <bo@example.org>"])
def test_as_takes_a_seat_number_a_name_or_an_address(cli, spelling):
    new(cli)
    cli("move", "game.toml", "b b2")
    result = cli("move", "game.toml", "w c3", "--as", spelling)
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("spelling", ["3", "Eve", "0", ""])
def test_as_naming_no_seat_is_a_usage_error(cli, spelling):
    new(cli)
    before = Path("game.toml").read_bytes()
    result = cli("move", "game.toml", "b b2", "--as", spelling)
    assert result.exit_code == 2 and "no seat of this game" in result.output and "1 Ann" in result.output
    assert Path("game.toml").read_bytes() == before


# -- honest clock claims ---------------------------------------------------------------------


def test_a_time_claim_stamped_in_the_future_is_refused(cli, at):
    at("2026-11-01T12:00:00Z")
    new(cli, "game.toml", "--clock", "10/5d")
    cli("move", "game.toml", "b b2")
    game = Path("game.toml")
    # Ann claims "in five days' time", when Bo's five days would be gone.
    game.write_text(game.read_text() + '\n[[moves]]\nmove = "claim time"\nat = 2026-11-06T13:00:00Z\n')
    reseal(game)
    result = cli("validate", game)
    assert result.exit_code == 1 and "ply 2" in result.output and "from the future" in result.output


def game_started_long_ago(cli, at):
    """Ann (seat 2) starts a clocked game three months back; Bo, seat 1, is to move first."""
    at("2026-08-01T12:00:00Z")
    result = cli("new", "odd", "-O", "size=3", "-O", "min_group=2", "-o", "game.toml",
                 "--player", f"1={BO}", "--player", f"2={ANN}", "--clock", "10/30d")
    assert result.exit_code == 0
    at("2026-11-01T12:00:00Z")


def test_a_clock_started_before_the_game_reached_me_is_refused_unless_accepted(cli, at):
    game_started_long_ago(cli, at)
    result = cli("receive", "game.toml", "--mine", "bo.toml", "--as", "Bo")
    assert result.exit_code == 1 and "the clock started" in result.output and "--accept-start" in result.output
    assert not Path("bo.toml").exists()
    assert cli("receive", "game.toml", "--mine", "bo.toml", "--as", "Bo", "--accept-start").exit_code == 0


def test_a_time_claim_against_a_seat_that_never_moved_is_refused(cli, at):
    game_started_long_ago(cli, at)
    assert cli("move", "game.toml", "claim time").exit_code == 0  # valid by the clock alone
    for extra in ((), ("--accept-start",)):
        result = cli("receive", "game.toml", "--mine", "bo.toml", "--as", "1", *extra)
        assert result.exit_code == 1 and "claims a win on time against Bo (seat 1)" in result.output
    assert not Path("bo.toml").exists()


def test_new_clock_starts_now(cli, at):
    at("2026-11-20T08:30:00Z")
    new(cli, "game.toml", "--clock", "10/50d")
    assert read_record("game.toml").clock["start"].isoformat() == "2026-11-20T08:30:00+00:00"


# -- dates -----------------------------------------------------------------------------------


@pytest.mark.parametrize("moment", ["0001-01-01T00:00:00Z", "9999-12-31T23:00:00-05:00", "1969-12-31T23:59:59Z",
                                    "0001-01-01T00:00:00+14:00"])
@pytest.mark.parametrize("where", ["at", "start", "leave"])
def test_a_date_outside_1970_to_9999_is_a_record_error_for_every_command(cli, at, moment, where):
    at("2026-11-01T12:00:00Z")
    new(cli, "game.toml", "--clock", "10/50d", "--leave", "10")
    cli("move", "game.toml", "b b2")
    game = Path("game.toml")
    text = game.read_text()
    if where == "at":
        text = text.replace("at = 2026-11-01T12:00:00Z", f"at = {moment}")
    elif where == "start":
        text = text.replace("start = 2026-11-01T12:00:00Z", f"start = {moment}")
    else:
        text += f"\n[[moves]]\nmove = \"w c3\"\nat = 2026-11-01T12:00:00Z\nleave = [{moment}, 2026-12-01T00:00:00Z]\n"
    game.write_text(text)
    for command in (("validate", game), ("status", game), ("show", game), ("mail", game, "-o", "x.eml"),
                    ("receive", game, "-o", "copy.toml"), ("history", game)):
        result = cli(*command)
        assert result.exit_code == 1, (command, result.output)
        assert "outside the years 1970–9999" in result.output, (command, result.output)


def test_a_clock_near_the_end_of_9999_counts_without_overflow(cli, at):
    """A start on the last day of 9999 is allowed; its deadline would pass the end of time and
    is shown as that end instead of ending in a traceback."""
    at("9999-12-31T00:00:00Z")
    new(cli, "game.toml", "--clock", "10/50d")
    assert cli("move", "game.toml", "b b2").exit_code == 0
    for command in (("status", "game.toml", "--json"), ("status", "game.toml"), ("show", "game.toml"),
                    ("mail", "game.toml", "-o", "x.eml"), ("remind", "game.toml", "-o", "r.eml")):
        result = cli(*command)
        assert result.exit_code == 0, (command, result.output)


def test_referee_now_outside_1970_to_9999_is_a_usage_error(cli, at):
    new(cli)
    at("0001-01-01T00:00:00+01:00")
    result = cli("status", "game.toml")
    assert result.exit_code == 2 and "REFEREE_NOW" in result.output
