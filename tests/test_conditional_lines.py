"""Conditional lines several moves deep (SPEC §12): `move … --line "M1 M2 M3 M4"`, a tree sealed
in the ply that set it, each reply written for its seat carrying exactly the rest of its branch.
Every forgery of a carried branch is refused, naming the ply, though resealed and signed.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee.record import seal, signing
from referee.record.reading import read_record

ANN, BO = "Ann <ann@example.org>", "Bo <bo@example.org>"
DEEP = "w_d4 b_c3 w_e7 b_f2"


def new(cli, *extra) -> Path:
    made = cli("new", "odd", "-o", "game.toml", "--player", f"1={ANN}", "--player", f"2={BO}", *extra)
    assert made.exit_code == 0, made.output
    return Path("game.toml")


def keyed(cli) -> dict[int, object]:
    signers = {}
    for seat, name in ((1, "ann"), (2, "bo")):
        assert cli("key", "new", "-o", f"{name}.key").exit_code == 0
        signers[seat] = signing.load_signer(Path(f"{name}.key").read_bytes())
    new(cli, "--key", f"1={signers[1].public}", "--key", f"2={signers[2].public}")
    return signers


def moves(path="game.toml") -> list[str]:
    return [entry.move for entry in read_record(path).moves]


def test_a_line_two_replies_deep_is_played_reply_by_reply(cli):
    game = new(cli)
    set_ = cli("move", game, "b e5", "--line", DEEP)
    assert set_.exit_code == 0, set_.output
    assert "Ann's conditional line stands: if w d4 then b c3, if w e7 then b f2" in set_.output
    assert read_record(game).moves[0].pending == [
        {"if": "w d4", "then": "b c3", "next": [{"if": "w e7", "then": "b f2"}]}]
    first = cli("move", game, "w d4")
    assert first.exit_code == 0 and "Ann's conditional reply was played: if w d4 then b c3." in first.output
    record = read_record(game)
    assert moves() == ["b e5", "w d4", "b c3"]
    assert record.moves[2].pending == [{"if": "w e7", "then": "b f2"}]  # exactly the branch's next
    stands = "Ann's conditional line stands: if w e7 then b f2"
    for command in (("status", game), ("show", game)):
        assert stands in cli(*command).output
    assert cli("mail", game, "-o", "m.eml", "--as", "Bo").exit_code == 0
    assert stands in " ".join(Path("m.eml").read_text().split())
    second = cli("move", game, "w e7")
    assert second.exit_code == 0 and "if w e7 then b f2" in second.output
    assert moves() == ["b e5", "w d4", "b c3", "w e7", "b f2"]
    assert "conditional line stands" not in cli("status", game).output
    assert cli("validate", game).exit_code == 0


def test_lines_that_begin_alike_share_their_branch(cli):
    game = new(cli)
    result = cli("move", game, "b e5", "--line", DEEP, "--line", "w_d4 b_c3 w_a1 b_a2",
                 "--if", "w f6", "--then", "b d5")
    assert result.exit_code == 0, result.output
    assert "3 conditional lines left for your opponent's replies (Bo)." in result.output
    assert read_record(game).moves[0].pending == [  # the --if/--then pairs first, then the lines
        {"if": "w f6", "then": "b d5"},
        {"if": "w d4", "then": "b c3", "next": [{"if": "w e7", "then": "b f2"}, {"if": "w a1", "then": "b a2"}]}]
    assert cli("move", game, "w d4").exit_code == 0
    assert read_record(game).moves[2].pending == [{"if": "w e7", "then": "b f2"}, {"if": "w a1", "then": "b a2"}]
    assert cli("move", game, "w a1").exit_code == 0
    assert moves()[-2:] == ["w a1", "b a2"] and cli("validate", game).exit_code == 0


def test_compact_wire_moves_are_read(cli):
    game = new(cli)
    assert cli("move", game, "b e5", "--line", "wd4 bc3").exit_code == 0
    assert read_record(game).moves[0].pending == [{"if": "w d4", "then": "b c3"}]


@pytest.mark.parametrize(("lines", "code", "said"), [
    (["w_d4 b_c3", "w_d4 b_e7"], 2, "two replies to w d4"),
    (["w_d4 b_c3 w_e7"], 2, "pairs of moves"),
    ([DEEP, "w_d4 b_c3 w_e5 b_f2"], 1, "--line 2 (w_d4 b_c3 w_e5 b_f2), move 3 (w e5): e5 is occupied"),
    (["w_d4 b_c3 w_c3 b_f2"], 1, "--line 1 (w_d4 b_c3 w_c3 b_f2), move 3 (w c3)"),
    (["w_d4 b_d4"], 1, "--line 1 (w_d4 b_d4), move 2 (b d4)"),
    (["w_d4 " + " ".join(["b_c3 w_e7"] * 51) + " b_f2"], 2, "at most 50 replies"),
])
def test_a_line_that_cannot_stand_refuses_the_move_and_changes_nothing(cli, lines, code, said):
    game = new(cli)
    before = game.read_bytes()
    result = cli("move", game, "b e5", *[arg for line in lines for arg in ("--line", line)])
    assert result.exit_code == code and said in result.output, result.output
    assert game.read_bytes() == before


def test_the_first_ply_that_leaves_the_tree_ends_it(cli):
    game = new(cli)
    cli("move", game, "b e5", "--line", DEEP)
    cli("move", game, "w d4")
    left = cli("move", game, "w a5")
    assert left.exit_code == 0 and "Ann's conditional moves were dropped: none was for w a5." in left.output
    assert moves() == ["b e5", "w d4", "b c3", "w a5"]
    assert read_record(game).standing_conditions() == [] and "stands" not in cli("status", game).output


def test_a_reply_may_accept_the_draw_the_matched_move_offered(cli):
    game = new(cli)
    assert cli("move", game, "b e5", "--line", "w_d4 accept_draw").exit_code == 0
    shutil.copy(game, "other.toml")
    assert "Draw: draw agreed" in cli("move", game, "w d4", "--offer-draw").output
    dropped = cli("move", "other.toml", "w d4")
    assert dropped.exit_code == 0 and "accept draw was dropped" in dropped.output
    assert cli("validate", game, "other.toml").exit_code == 0


def test_both_sides_lines_answer_each_other_until_one_runs_out(cli):
    game = new(cli)
    assert cli("move", game, "b e5", "--line", DEEP).exit_code == 0
    # Bo plays d4 and leaves his own line: if Ann replies c3 (she will), he plays e7, and if
    # she then plays f2 (she will), he plays a1.
    result = cli("move", game, "w d4", "--line", "b_c3 w_e7 b_f2 w_a1")
    assert result.exit_code == 0, result.output
    assert moves() == ["b e5", "w d4", "b c3", "w e7", "b f2", "w a1"]
    assert cli("validate", game).exit_code == 0


def test_a_signed_line_is_played_unsigned_for_its_seat_and_accepted_in_her_copy(cli):
    keyed(cli)
    assert cli("move", "game.toml", "b e5", "--sign", "ann.key", "--line", DEEP).exit_code == 0
    shutil.copy("game.toml", "ann.toml")
    assert cli("move", "game.toml", "w d4", "--sign", "bo.key").exit_code == 0
    assert cli("move", "game.toml", "w e7", "--sign", "bo.key").exit_code == 0
    record = read_record("game.toml")
    assert [e.signature is not None for e in record.moves] == [True, True, False, True, False]
    assert cli("validate", "game.toml").exit_code == 0
    received = cli("receive", "game.toml", "--mine", "ann.toml", "--as", "Ann")
    assert received.exit_code == 0, received.output


def _forged(cli, signers, change) -> Path:
    """Ann's signed line played to ply 3 (her reply, carrying the rest of her line); `change`
    rewrites what ply 3 carries; Bo works the chain out again and signs his own plies."""
    assert cli("move", "game.toml", "b e5", "--sign", "ann.key", "--line", DEEP,
               "--line", "w_d4 b_c3 w_a1 b_a2").exit_code == 0
    shutil.copy("game.toml", "ann.toml")
    assert cli("move", "game.toml", "w d4", "--sign", "bo.key").exit_code == 0
    game = Path("game.toml")
    record = read_record(game)
    record.moves[2].pending = change(record.moves[2].pending)
    digests = seal.chain(record, [entry.move for entry in record.moves])
    for ply, (entry, digest) in enumerate(zip(record.moves, digests), 1):
        entry.digest = digest
        if ply == 2:
            entry.signature = signers[2].sign(digest)
    game.write_text(record.to_toml())
    return game


FORGERIES = {
    "a branch added": lambda tree: tree + [{"if": "w a5", "then": "b a4"}],
    "a reply changed": lambda tree: [{**tree[0], "then": "b g3"}, tree[1]],
    "a branch left out": lambda tree: tree[:1],
    "the branches reordered": lambda tree: tree[::-1],
    "the line cut off": lambda tree: [],
    "a branch made deeper": lambda tree: [{**tree[0], "next": [{"if": "w a5", "then": "b a4"}]}, tree[1]],
    "another line put in its place": lambda tree: [{"if": "w a5", "then": "b a4"}],
}


@pytest.mark.parametrize("change", FORGERIES.values(), ids=FORGERIES.keys())
def test_every_forgery_of_a_carried_branch_is_refused_naming_its_ply(cli, change):
    signers = keyed(cli)
    game = _forged(cli, signers, change)
    before = Path("ann.toml").read_bytes()
    for command in (("validate", game), ("verify", game), ("status", game),
                    ("receive", game, "--mine", "ann.toml", "--as", "Ann")):
        result = cli(*command)
        assert result.exit_code == 1, (command, result.output)
        assert "ply 3" in result.output and "Ann" in result.output, (command, result.output)
    assert Path("ann.toml").read_bytes() == before


def test_the_branch_as_carried_is_no_forgery(cli):
    signers = keyed(cli)
    game = _forged(cli, signers, lambda tree: tree)
    assert cli("validate", game).exit_code == 0
    assert cli("receive", game, "--mine", "ann.toml", "--as", "Ann").exit_code == 0


def test_a_hand_edited_tree_is_refused_naming_its_ply(cli):
    game = new(cli)
    cli("move", game, "b e5", "--line", DEEP)
    text = game.read_text()
    edited = text.replace('then = "b f2"', 'then = "b g2"')
    game.write_text(edited)
    result = cli("validate", game)
    assert result.exit_code == 1 and "ply 1" in result.output and "bad digest" in result.output
    game.write_text(text.replace('next = [{ if = "w e7", then = "b f2" }]', 'next = "b f2"'))
    result = cli("validate", game)
    assert result.exit_code == 1 and "ply 1" in result.output, result.output


MOVES = ["w e7", "w a1", "w a5", "b f2", "b a2", "b g3"]
trees = st.recursive(
    st.just([]),
    lambda children: st.lists(st.fixed_dictionaries(
        {"if": st.sampled_from(MOVES), "then": st.sampled_from(MOVES)}, optional={"next": children}), max_size=3),
    max_leaves=6)


def test_any_pending_on_a_carried_reply_but_its_branch_is_refused(cli):
    """Whatever Bo writes as the `pending` of Ann's reply at ply 3 — resealed, his own plies
    signed afresh — the record is valid exactly when it is the rest of Ann's line."""
    from referee.play.replay import replay
    from referee.play.keys import check_signatures
    from referee.record.reading import parse_record
    from referee.record.values import plain_tree
    from referee.errors import RecordError

    signers = keyed(cli)
    game = _forged(cli, signers, lambda tree: tree)
    original = read_record(game)
    carried = original.moves[2].pending

    @settings(max_examples=60, deadline=None)
    @given(trees)
    def check(tree):
        record = read_record(game)
        record.moves[2].pending = tree
        digests = seal.chain(record, [entry.move for entry in record.moves])
        for ply, (entry, digest) in enumerate(zip(record.moves, digests), 1):
            entry.digest = digest
            if ply == 2:
                entry.signature = signers[2].sign(digest)
        try:
            check_signatures(replay(parse_record(record.to_toml().encode(), "forged.toml")))
            valid = True
        except RecordError as exc:
            assert exc.ply == 3, str(exc)
            valid = False
        assert valid == (plain_tree(tree) == plain_tree(carried))

    check()
