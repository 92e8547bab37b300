"""The engine's seat (SPEC §14): nobody speaks for a bot seat, and a received record never makes
the receiver's machine think. Each test is built from a finding: a mail that turned Bo's seat
into a bot thinking 600 s a move, plies in the engine's name that it never makes (a
resignation, a draw accepted, a time claim against it, a reply stamped days late), a Hermit
`move` that let the engine think 8 × 600 s, a bot seat counted under a person's name, and the
cooperative crab game's refusals and history.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

from referee.record import seal
from referee.record.reading import read_record

ANN, BO = "Ann <ann@example.org>", "Bo <bo@example.org>"
QUICK = "0.1"  # the engine's seconds a reply: these tests ask what is written, not how well
START = "2026-11-22T14:00:00Z"


def reseal(path: Path, edit=None) -> None:
    """What a forger can do: edit the record, then work its chain out afresh (it is public)."""
    record = read_record(path)
    if edit is not None:
        edit(record)
    for entry, digest in zip(record.moves, seal.chain(record, [entry.move for entry in record.moves])):
        entry.digest = digest
    path.write_text(record.to_toml(), encoding="utf-8")


def first_move(cli, path) -> str:
    return json.loads(cli("moves", path, "--json").stdout)["moves"][0]


def bot_game(cli, path="game.toml", *extra) -> Path:
    """Ann (seat 1) against the engine (seat 2) on the small Odd board, Ann's first move and the
    engine's reply made."""
    made = cli("new", "odd", "-O", "size=3", "-O", "min_group=2", "-o", path, "--player", f"1={ANN}",
               "--bot", f"2={QUICK}", *extra)
    assert made.exit_code == 0, made.output
    played = cli("move", path, first_move(cli, path))
    assert played.exit_code == 0, played.output
    return Path(path)


def without_the_last_reply(path: Path) -> None:
    """The record as if the engine had not replied yet (hand-typed, or sent so)."""
    reseal(path, lambda record: record.moves.pop())


# -- 1. a received record never makes the receiver's machine think -----------------------------


def two_players(cli) -> Path:
    made = cli("new", "odd", "-O", "size=3", "-O", "min_group=2", "-o", "game.toml",
               "--player", f"1={ANN}", "--player", f"2={BO}")
    assert made.exit_code == 0, made.output
    return Path("game.toml")


def make_bo_a_bot(record, seconds=60.0) -> None:
    record.players[2]["bot"] = {"engine": "referee 0.1.0", "seconds": seconds}


def test_a_mail_that_makes_the_receivers_seat_a_bot_is_refused_at_once(cli):
    """Ann's 1 kB mail gives Bo's seat to an engine thinking a minute, after her move: Bo's
    `receive` refuses it within seconds (it never runs the engine), writes nothing, and no
    move appears in Bo's name — with his copy, without one, and with -o alone."""
    game = two_players(cli)
    Path("bo.toml").write_bytes(game.read_bytes())  # the start, as Bo received it
    assert cli("move", game, first_move(cli, game)).exit_code == 0
    reseal(game, make_bo_a_bot)
    assert cli("validate", game).exit_code == 0  # a record of its own: Ann against the engine
    assert cli("mail", game, "-o", "to-bo.eml").exit_code == 0
    before = Path("bo.toml").read_bytes()
    for command in (("receive", "to-bo.eml", "--mine", "bo.toml"),
                    ("receive", "to-bo.eml", "--mine", "new-bo.toml"),
                    ("receive", "to-bo.eml", "--mine", "new-bo.toml", "--as", "2"),
                    ("receive", "to-bo.eml", "-o", "copy.toml")):
        began = time.monotonic()
        result = cli(*command)
        assert time.monotonic() - began < 30, command  # thinking would take 60 s
        assert result.exit_code == 1, (command, result.output)
        assert "engine" in result.output and "to-bo.eml" in result.output, result.output
    assert Path("bo.toml").read_bytes() == before
    assert not Path("new-bo.toml").exists() and not Path("copy.toml").exists()


def test_a_bot_thinking_600_seconds_is_no_record(cli):
    game = two_players(cli)
    reseal(game, lambda record: make_bo_a_bot(record, 60.0))
    assert cli("validate", game).exit_code == 0
    game.write_text(game.read_text(encoding="utf-8").replace("seconds = 60.0", "seconds = 600.0"), encoding="utf-8")
    result = cli("validate", game)
    assert result.exit_code == 1 and "0.1–60" in result.output, result.output
    assert cli("receive", game, "-o", "copy.toml").exit_code == 1 and not Path("copy.toml").exists()


@pytest.mark.parametrize("bot", ["61", "600", "0.05"])
def test_new_bot_seconds_are_0_1_to_60(cli, bot):
    result = cli("new", "odd", "-o", "g.toml", "--bot", f"2={bot}")
    assert result.exit_code == 2 and "0.1–60" in result.output and not Path("g.toml").exists()


def test_a_record_of_bots_only_is_invalid_and_never_received(cli):
    """`new` refuses two bot seats; a record that has them anyway is invalid for `validate`
    (exit 1) and `receive` plays none of it."""
    game = bot_game(cli)
    reseal(game, lambda record: record.players[1].update(bot={"engine": "referee 0.1.0", "seconds": 0.1}))
    result = cli("validate", game)
    assert result.exit_code == 1 and "a game needs a player" in result.output, result.output
    received = cli("receive", game, "-o", "copy.toml")
    assert received.exit_code == 1 and not Path("copy.toml").exists()
    solo = cli("new", "crab", "-o", "crab.toml", "-O", "seed=3")
    assert solo.exit_code == 0
    reseal(Path("crab.toml"), lambda record: record.players.setdefault(1, {"name": "X"}).update(
        bot={"engine": "referee 0.1.0", "seconds": 0.1}))
    assert cli("validate", "crab.toml").exit_code == 1


@pytest.mark.parametrize("change", ["add", "seconds"])
def test_a_bot_seat_added_or_changed_against_my_copy_is_refused(cli, change):
    """Bo's copy has Ann's seat as a person (or the engine at 0.1 s); the mail makes it the
    engine (or the engine at 60 s)."""
    if change == "add":
        game = two_players(cli)
    else:
        made = cli("new", "odd", "-O", "size=3", "-O", "min_group=2", "-o", "game.toml",
                   "--player", f"2={BO}", "--bot", f"1={QUICK}")
        assert made.exit_code == 0, made.output
        game = Path("game.toml")
    Path("bo.toml").write_bytes(game.read_bytes())
    reseal(game, lambda record: record.players.setdefault(1, {"name": "Ann"}).update(
        bot={"engine": "referee 0.1.0", "seconds": 60.0}))
    before = Path("bo.toml").read_bytes()
    result = cli("receive", game, "--mine", "bo.toml", "--as", "Bo")
    assert result.exit_code == 1 and "may not add or change a bot seat" in result.output, result.output
    assert Path("bo.toml").read_bytes() == before


def test_a_received_record_with_the_engine_to_move_is_saved_as_it_came(cli):
    """A valid record whose engine has yet to reply: `receive` saves it unchanged without
    thinking (its engine would think a minute), and says that `move FILE` without a move is
    what lets the engine reply."""
    game = bot_game(cli)
    without_the_last_reply(game)
    reseal(game, lambda record: record.players[2]["bot"].update(seconds=60.0))
    began = time.monotonic()
    result = cli("receive", game, "-o", "copy.toml")
    assert time.monotonic() - began < 30
    assert result.exit_code == 0, result.output
    assert Path("copy.toml").read_bytes() == game.read_bytes()
    assert "is to move, played by the engine" in result.output
    assert "referee move copy.toml (without a move)" in result.output


def test_move_without_a_move_lets_the_engine_reply_stamped_as_the_ply_it_answers(cli, at):
    at(START)
    game = bot_game(cli, "game.toml", "--clock", "10/50d")
    without_the_last_reply(game)
    at("2026-11-25T09:00:00Z")  # three days later: the reply still takes no time
    played = cli("move", game)
    assert played.exit_code == 0, played.output
    moves = read_record(game).moves
    assert len(moves) == 2 and moves[1].bot and moves[1].at == moves[0].at
    assert cli("validate", game).exit_code == 0
    # Ann's turn now: without a move there is nothing to do.
    before = game.read_bytes()
    result = cli("move", game)
    assert result.exit_code == 2 and "give the move" in result.output
    assert game.read_bytes() == before


# -- 2. one command's thinking is bounded ------------------------------------------------------

# Hermit on 5×5: after Ann's b3 (ply 13) every reply of the engine leaves Ann without a legal
# placement for the rest of the game (R-HE3), so the engine places alone, again and again.
HERMIT = ["a5", "c1", "d5", "a3", "e3", "c4", "d2", "e5", "a1", "b5", "e2", "c5"]


def hermit_against_the_engine(path: Path) -> None:
    plies = "".join(f'[[moves]]\nmove = "{move}"\n' + ("bot = true\n" if ply % 2 == 0 else "") + "\n"
                    for ply, move in enumerate(HERMIT, 1))
    path.write_text('format = 1\ngame = "hermit"\n\n[options]\nsize = 5\n\n[players]\n1 = "Ann"\n'
                    f'2 = {{ name = "Engine", bot = {{ engine = "referee 0.1.0", seconds = {QUICK} }} }}\n\n'
                    + plies, encoding="utf-8")


def test_the_engine_placing_alone_thinks_within_one_commands_bound(cli, monkeypatch):
    """One `move` once appended eight replies of 600 s. Now each reply thinks at most 60 s and
    one command at most bots.TURN_SECONDS in all (here made 0.15 s, so one 0.1 s reply fits):
    the command stops with the engine to move and says how to let it go on."""
    from referee.play import bots

    monkeypatch.setattr(bots, "TURN_SECONDS", 0.15)
    game = Path("hermit.toml")
    hermit_against_the_engine(game)
    assert cli("validate", game).exit_code == 0
    played = cli("move", game, "b3")
    assert played.exit_code == 0, played.output
    play = json.loads(cli("status", game, "--json").stdout)
    assert play["ply"] == 15 and play["to_move"] == 2  # b3, one reply, Ann's forced pass
    assert "still to move" in played.output and "without a move" in played.output
    for _ in range(20):
        if json.loads(cli("status", game, "--json").stdout)["over"]:
            break
        step = cli("move", game)
        assert step.exit_code == 0, step.output
    assert json.loads(cli("status", game, "--json").stdout)["over"]
    assert cli("validate", game).exit_code == 0
    moves = read_record(game).moves
    assert all(entry.at == moves[12].at for entry in moves[12:])  # no reply took time


def test_the_engine_placing_alone_ends_the_game_in_one_move_when_it_fits(cli):
    game = Path("hermit.toml")
    hermit_against_the_engine(game)
    played = cli("move", game, "b3")
    assert played.exit_code == 0, played.output
    assert json.loads(cli("status", game, "--json").stdout)["over"]


# -- 3. nobody speaks for a bot seat -------------------------------------------------------------


def append(path: Path, table: str) -> None:
    path.write_text(path.read_text(encoding="utf-8") + "\n[[moves]]\n" + table, encoding="utf-8")


@pytest.mark.parametrize("signed", [False, True])
def test_a_resignation_in_the_engines_name_is_invalid_signed_game_or_not(cli, signed):
    """"Ann wins: Engine resigned": the engine never resigns, whoever wrote it."""
    extra = ()
    if signed:  # Ann signs her moves; the engine's seat never signs
        from referee.record import signing

        assert cli("key", "new", "-o", "ann.key").exit_code == 0
        extra = ("--key", f"1={signing.load_signer(Path('ann.key').read_bytes()).public}")
    made = cli("new", "odd", "-O", "size=3", "-O", "min_group=2", "-o", "game.toml", "--player", f"1={ANN}",
               "--bot", f"2={QUICK}", *extra)
    assert made.exit_code == 0, made.output
    move = first_move(cli, "game.toml")
    played = cli("move", "game.toml", move, *(("--sign", "ann.key") if signed else ()))
    assert played.exit_code == 0, played.output
    game = Path("game.toml")
    without_the_last_reply(game)
    for table in ('move = "resign"\n', 'move = "resign"\nbot = true\n'):
        append(game, table)
        reseal(game)
        result = cli("validate", game)
        assert result.exit_code == 1, result.output
        assert "ply 2 (resign)" in result.output and "a resignation in the name of" in result.output, result.output
        without_the_last_reply(game)
    before = game.read_bytes()
    refused = cli("move", game, "resign")
    assert refused.exit_code == 1 and "ply 2 (resign)" in refused.output, refused.output
    assert game.read_bytes() == before


def test_the_engine_accepts_no_draw(cli):
    game = Path("game.toml")
    made = cli("new", "odd", "-O", "size=3", "-O", "min_group=2", "-o", game, "--player", f"1={ANN}",
               "--bot", f"2={QUICK}")
    assert made.exit_code == 0
    assert cli("move", game, first_move(cli, game), "--offer-draw").exit_code == 0
    without_the_last_reply(game)
    append(game, 'move = "accept draw"\nbot = true\n')
    reseal(game)
    result = cli("validate", game)
    assert result.exit_code == 1 and "ply 2 (accept draw)" in result.output, result.output
    assert "acceptance of a draw in the name of" in result.output


def test_a_time_claim_against_the_engine_is_invalid_and_move_will_not_write_one(cli, at):
    """The engine, left to move in a hand-typed record, "ran out of time": it replies in the
    transaction of the move it answers, so no claim runs against it — not in a record, and not
    through `move`."""
    at(START)
    game = bot_game(cli, "game.toml", "--clock", "1/1d")
    without_the_last_reply(game)
    at("2026-11-30T14:00:00Z")
    before = game.read_bytes()
    refused = cli("move", game, "claim time")
    assert refused.exit_code == 1, refused.output
    assert "ply 2 (claim time)" in refused.output and "a time claim against" in refused.output
    assert game.read_bytes() == before
    append(game, 'move = "claim time"\nat = 2026-11-30T14:00:00Z\n')
    reseal(game)
    result = cli("validate", game)
    assert result.exit_code == 1 and "ply 2 (claim time)" in result.output, result.output
    assert "a time claim against" in result.output


def test_an_engine_reply_stamped_days_after_the_move_it_answers_is_invalid(cli, at):
    at(START)
    game = bot_game(cli, "game.toml", "--clock", "10/50d")
    assert cli("validate", game).exit_code == 0

    def later(record):
        import datetime as dt
        record.moves[1].at += dt.timedelta(days=3)

    reseal(game, later)
    at("2026-12-01T00:00:00Z")
    result = cli("validate", game)
    assert result.exit_code == 1 and "ply 2 (" in result.output and "stamped" in result.output, result.output


def test_move_refuses_a_move_in_the_engines_seat_naming_the_ply(cli):
    game = bot_game(cli)
    without_the_last_reply(game)
    before = game.read_bytes()
    move = first_move(cli, game)
    refused = cli("move", game, move)
    assert refused.exit_code == 1 and f"ply 2 ({move})" in refused.output, refused.output
    assert "played by the engine" in refused.output and "without a move" in refused.output
    assert game.read_bytes() == before


# -- 4. in standings a bot seat is the engine ---------------------------------------------------


def test_a_bot_seat_named_after_a_person_counts_as_the_engine_in_standings(cli):
    folder = Path("club")
    folder.mkdir()
    game = folder / "g.toml"
    made = cli("new", "odd", "-O", "size=3", "-O", "min_group=2", "-o", game, "--player", f"1={ANN}",
               "--player", f"2={BO}", "--bot", f"2={QUICK}")
    assert made.exit_code == 0, made.output
    while not json.loads(cli("status", game, "--json").stdout)["over"]:
        assert cli("move", game, first_move(cli, game)).exit_code == 0
    report = json.loads(cli("standings", folder, "--json").stdout)
    players = [row["player"] for row in report["games"]["odd"]["players"]]
    assert sorted(players) == sorted([ANN, "referee 0.1.0 (engine)"]), players
    assert all(row["address"] != "bo@example.org" for row in report["games"]["odd"]["players"])
    assert "Bo" not in cli("standings", folder).stdout


# -- 5. the cooperative crab game with a bot partner --------------------------------------------


def crab_with_the_engine(cli) -> Path:
    made = cli("new", "crab", "-o", "c.toml", "-O", "players=2", "-O", "seed=5", "--player", "1=Ann",
               "--bot", f"2={QUICK}")
    assert made.exit_code == 0, made.output
    return Path("c.toml")


@pytest.mark.parametrize("move", ["1: 99 9,9 0", "zzz", "2: 1 0,0 0"])
def test_a_refused_round_with_the_engine_names_file_ply_and_move(cli, move):
    game = crab_with_the_engine(cli)
    before = game.read_bytes()
    refused = cli("move", game, move)
    assert refused.exit_code == 1, refused.output
    assert f"c.toml: ply 1 ({move}): " in refused.output, refused.output
    assert game.read_bytes() == before


def test_the_crab_history_says_which_placement_the_engine_made(cli):
    game = crab_with_the_engine(cli)
    mine = json.loads(cli("moves", game, "--json").stdout)["placements"]["1"][0]["move"]
    assert cli("move", game, f"1: {mine}").exit_code == 0
    plies = json.loads(cli("history", game, "--json").stdout)["plies"]
    assert plies[0]["engine"] == [2] and plies[0]["player"] == "Ann"
    text = cli("history", game).stdout
    assert "Ann; the engine placed for seat 2" in text


def test_the_player_may_give_up_a_round_with_the_engine(cli):
    """The team's own word: a resignation is the player's, never the engine's placement."""
    game = crab_with_the_engine(cli)
    result = cli("move", game, "resign")
    assert result.exit_code == 0, result.output
    assert cli("validate", game).exit_code == 0
    assert json.loads(cli("history", game, "--json").stdout)["plies"][0]["engine"] == []


def test_a_bot_ply_in_history_is_the_engines(cli):
    game = bot_game(cli, "game.toml")
    reseal(game, lambda record: record.players[2].update(name=BO))
    plies = json.loads(cli("history", game, "--json").stdout)["plies"]
    assert [p["engine"] for p in plies] == [[], [2]]
    assert f"{BO} (engine)" in cli("history", game).stdout
