"""Bot seats (SPEC §10): the engine plays a seat, its replies appended in the same transaction,
marked `bot = true`, the seat and its engine sealed in digest 0; a partner seat in the
cooperative crab game."""

from __future__ import annotations

import json
import tomllib
from pathlib import Path

import pytest

from referee.record import seal
from referee.record.reading import parse_record, read_record
from referee.play.replay import replay

QUICK = "0.1"  # the engine's seconds a move: these tests ask for legal, marked replies


def record(path: Path) -> dict:
    return tomllib.loads(path.read_text(encoding="utf-8"))


def test_new_with_a_bot_seat_seals_it_and_the_engine_replies_within_move(cli):
    made = cli("new", "odd", "-o", "g.toml", "--player", "1=Ann", "--bot", f"2={QUICK}")
    assert made.exit_code == 0, made.output
    doc = record(Path("g.toml"))
    assert doc["players"]["2"]["bot"]["engine"].startswith("referee ")
    assert doc["players"]["2"]["bot"]["seconds"] == float(QUICK)
    played = cli("move", "g.toml", "b e5")
    assert played.exit_code == 0, played.output
    moves = record(Path("g.toml"))["moves"]
    assert len(moves) == 2 and "bot" not in moves[0] and moves[1]["bot"] is True
    assert moves[1]["at"] >= moves[0]["at"]
    assert "Engine plays " + moves[1]["move"] in played.output
    assert cli("validate", "g.toml").exit_code == 0
    assert "2 plies, all sealed" in cli("verify", "g.toml").output


def test_the_engine_plays_its_first_move_when_the_game_starts(cli):
    made = cli("new", "hermit", "-o", "g.toml", "--player", "2=Bo", "--bot", f"1={QUICK}")
    assert made.exit_code == 0, made.output
    moves = record(Path("g.toml"))["moves"]
    assert len(moves) == 1 and moves[0]["bot"] is True
    assert cli("status", "g.toml", "--json").output.count('"to_move": 2') == 1


def test_a_bot_seats_engine_is_sealed_in_digest_0(cli):
    cli("new", "odd", "-o", "g.toml", "--bot", f"2={QUICK}")
    cli("move", "g.toml", "b e5")
    text = Path("g.toml").read_text(encoding="utf-8").replace(f"seconds = {float(QUICK)}", "seconds = 60.0")
    Path("g.toml").write_text(text, encoding="utf-8")
    result = cli("validate", "g.toml")
    assert result.exit_code == 1 and "ply 1" in result.output


def test_a_player_cannot_move_for_the_engines_seat(cli):
    cli("new", "odd", "-o", "g.toml", "--bot", f"2={QUICK}")
    # A hand-typed record with the engine to move: the player may not take its turn.
    Path("h.toml").write_text(Path("g.toml").read_text(encoding="utf-8") + '\n[[moves]]\nmove = "b e5"\n',
                              encoding="utf-8")
    before = Path("h.toml").read_bytes()
    refused = cli("move", "h.toml", "w d4")
    assert refused.exit_code == 1 and "played by the engine" in refused.output  # SPEC §14: a rule
    assert Path("h.toml").read_bytes() == before


@pytest.mark.parametrize("edit, words", [
    (lambda t: t.replace('move = "b e5"\n', 'move = "b e5"\nbot = true\n', 1), "the engine plays no seat"),
    (lambda t: t.replace("bot = true\n", "", 1), "not marked as the engine's"),
    (lambda t: t.replace("bot = true\n", 'bot = true\ncomment = "I resign soon"\n', 1), "nobody speaks for"),
])
def test_the_marks_of_the_engines_moves_are_checked_on_every_read(cli, edit, words):
    """Resealed after the edit, so that the refusal is the bot rule's, not the seal's."""
    cli("new", "odd", "-o", "g.toml", "--bot", f"2={QUICK}")
    cli("move", "g.toml", "b e5")
    edited = parse_record(edit(Path("g.toml").read_text(encoding="utf-8")).encode(), "g.toml")
    chain = seal.chain(edited, [e.move for e in edited.moves])
    for entry, digest in zip(edited.moves, chain):
        entry.digest = digest
    Path("g.toml").write_text(edited.to_toml(), encoding="utf-8")
    result = cli("validate", "g.toml")
    assert result.exit_code == 1 and words in result.output, result.output


def test_a_bot_seat_takes_no_key_and_every_seat_cannot_be_the_engines(cli):
    assert cli("new", "odd", "-o", "a.toml", "--bot", "1", "--bot", "2").exit_code == 2
    assert cli("new", "crab", "-o", "b.toml", "--bot", "1").exit_code == 2
    keyed = cli("new", "odd", "-o", "c.toml", "--player", "2=Bo", "--key", "2=ed25519:" + "A" * 43 + "=", "--bot", "2")
    assert keyed.exit_code == 2 and "never signs" in keyed.output
    for bad in ("x", "2=fast", "3", "2=0.01", "2=601"):
        assert cli("new", "odd", "-o", "d.toml", "--bot", bad).exit_code == 2, bad
    assert not any(Path(name).exists() for name in ("a.toml", "b.toml", "c.toml", "d.toml"))


def test_the_engine_is_a_partner_seat_in_the_cooperative_crab_game(cli):
    made = cli("new", "crab", "-o", "c.toml", "-O", "players=2", "-O", "seed=5", "--player", "1=Ann",
               "--bot", f"2={QUICK}")
    assert made.exit_code == 0, made.output
    listing = json.loads(cli("moves", "c.toml", "--json").output)
    assert list(listing["placements"]) == ["1"] and listing["engine"] == [2]
    mine = listing["placements"]["1"][0]["move"]
    played = cli("move", "c.toml", f"1: {mine}")
    assert played.exit_code == 0, played.output
    entry = record(Path("c.toml"))["moves"][0]
    assert entry["move"].startswith(f"1: {mine} | 2: ") and entry["bot"] is True
    assert cli("validate", "c.toml").exit_code == 0
    # The engine's placement is its own: the player gives only theirs.
    again = json.loads(cli("moves", "c.toml", "--json").output)["placements"]["1"][0]["move"]
    both = cli("move", "c.toml", f"1: {again} | 2: {again}")
    assert both.exit_code == 1 and "the engine places for seats 2" in both.output


def test_receive_leaves_the_engines_reply_to_the_receivers_own_move(cli, tmp_path):
    """SPEC §14: `receive` never runs the engine; `move FILE` without a move brings its reply."""
    cli("new", "odd", "-o", "g.toml", "--player", "1=Ann", "--bot", f"2={QUICK}")
    # A copy in which the engine has yet to reply, as a record another referee might send.
    game = read_record("g.toml")
    from referee.play.turn import take_turn
    from referee.play.replay import start
    sent = take_turn(start(game), "b e5").play.record
    Path("sent.toml").write_text(sent.to_toml(), encoding="utf-8")
    received = cli("receive", "sent.toml", "-o", "mine.toml")
    assert received.exit_code == 0, received.output
    assert replay(read_record("mine.toml")).plies == 1 and "without a move" in received.output
    assert cli("move", "mine.toml").exit_code == 0
    play = replay(read_record("mine.toml"))
    assert play.plies == 2 and play.record.moves[1].bot and play.to_move() == 1
