"""Hermit: Small crab, big wave on the command line: a deal at `new`, a round per `move`, the
stand-in deck labelled, bad deck files refused, and the sample games (SPEC §1, §3–§5)."""

from __future__ import annotations

import json
import tomllib
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
import tomli_w

from referee.data import builtin_data
from referee.record.reading import read_record
from referee.play.replay import replay

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games" / "crab"


def new_crab(cli, *options, name="c.toml"):
    args = [x for o in options for x in ("-O", o)]
    result = cli("new", "crab", "-o", name, "--player", "1=Ann <ann@example.org>", *args)
    assert result.exit_code == 0, result.output
    return Path(name)


def status(cli, path):
    result = cli("status", path, "--json")
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def legal(cli, path):
    return json.loads(cli("moves", path, "--json").stdout)


def test_new_writes_the_deal_the_deck_and_the_given_seed(cli):
    path = new_crab(cli, "seed=7")
    record = tomllib.loads(path.read_text())
    assert record["options"]["seed"] == 7
    assert sorted(record["setup"]["deal"]) == list(range(1, 17))
    assert record["setup"]["deck"] == builtin_data("crab-deck", "sample")["cards"]
    again = new_crab(cli, "seed=7", name="d.toml")
    assert tomllib.loads(again.read_text())["setup"] == record["setup"]


def test_new_without_a_seed_deals_at_random_and_records_only_the_deal(cli):
    deals = set()
    for name in ("a.toml", "b.toml", "c.toml"):
        record = tomllib.loads(new_crab(cli, name=name).read_text())
        assert "seed" not in record["options"]
        deals.add(tuple(record["setup"]["deal"]))
    assert len(deals) > 1


def test_status_follows_the_spec_and_labels_the_stand_in_deck(cli):
    path = new_crab(cli, "seed=7")
    s = status(cli, path)
    assert s["game"] == "crab" and s["to_move"] == 1 and s["winners"] == [] and not s["over"]
    assert set(s["score"]) == {"hermie", "wave", "hand", "pile"}
    assert s["score"]["hermie"] == 0 and s["score"]["wave"] == 6
    assert len(s["score"]["hand"]) == 2 and s["score"]["pile"] == 3
    text = cli("status", path).stdout
    assert "stand-in" in text and "Pattern to recreate" in text and "Hand" in text
    assert "stand-in" in cli("show", path).stdout


def test_a_round_is_stored_canonically_and_a_refused_one_changes_nothing(cli):
    path = new_crab(cli, "seed=7")
    first = legal(cli, path)["moves"][0]
    card, xy, rot = first.split()
    assert cli("move", path, f"  {card}  {xy.replace(',', ' , ')}   {rot} ").exit_code == 0
    assert f'move = "{first}"' in path.read_text()
    before = path.read_bytes()
    result = cli("move", path, f"{card} 40,40 0")
    assert result.exit_code == 1
    assert "c.toml" in result.stderr and "ply 2" in result.stderr and "not in the hand" in result.stderr
    held = status(cli, path)["score"]["hand"][0]
    result = cli("move", path, f"{held} 40,40 0")
    assert result.exit_code == 1 and "R-CR4" in result.stderr
    assert path.read_bytes() == before


def test_moves_lists_each_placement_once(cli):
    path = new_crab(cli, "seed=7")
    moves = legal(cli, path)["moves"]
    assert moves and len(moves) == len(set(moves))
    assert f"Ann has {len(moves)} legal placements" in cli("moves", path).stdout


def cut(sample: Path, plies: int, to: str) -> Path:
    """A copy of a sample record as it stood after `plies` rounds."""
    record = tomllib.loads(sample.read_text())
    record["moves"] = record["moves"][:plies]
    record.pop("result", None)
    Path(to).write_text(tomli_w.dumps(record))
    return Path(to)


def played(cli, path: Path, move: str, to: str) -> dict:
    """`status --json` of a copy of `path` after `move`."""
    copy = Path(to)
    copy.write_bytes(path.read_bytes())
    result = cli("move", copy, move)
    assert result.exit_code == 0, result.output
    return status(cli, copy)


def test_moves_lists_first_and_marks_the_placements_that_move_hermie_SPEC_8b(cli):
    """The JSON gives each placement with "hermie" and "wave", the step the Wave takes when it
    is played; `moves` lists those that move Hermie first, marked *. Checked by playing them."""
    path = SAMPLES / "crab-in-progress.toml"
    listing = legal(cli, path)
    placements = listing["placements"]["1"]
    assert [p["move"] for p in placements] == listing["moves"]  # beside "moves", in its order
    assert all(set(p) == {"move", "hermie", "wave"} and p["wave"] in (-1, 0, 1) for p in placements)
    hermie = [p for p in placements if p["hermie"]]
    assert hermie and placements[:len(hermie)] == hermie  # first
    before = status(cli, path)["score"]
    for p in hermie + placements[len(hermie):][:3]:
        after = played(cli, path, p["move"], "copy.toml")["score"]
        assert (after["hermie"] != before["hermie"]) == p["hermie"], p
        assert after["wave"] - before["wave"] == p["wave"], p
    text = cli("moves", path).stdout
    assert text.startswith(f"Chidi Placeholder has {len(placements)} legal placements; the {len(hermie)} marked * move Hermie:")
    marked = [w.strip()[1:] for line in text.splitlines() for w in line.split(", ") if w.strip().startswith("*")]
    assert marked == [p["move"] for p in hermie]
    assert all(len(line) <= 78 for line in text.splitlines())


def test_cooperative_moves_mark_each_seats_share_of_moving_hermie_R_CR9(cli):
    """Per seat, * marks a placement that recreates the pattern: Hermie moves when every seat
    plays one (R-CR9), and not when one seat plays an unmarked one."""
    path = cut(SAMPLES / "crab-coop-2-win.toml", 8, "coop.toml")
    listing = legal(cli, path)
    assert listing["moves"] == [] and set(listing["placements"]) == {"1", "2"}
    marked = {seat: [p for p in own if p["hermie"]] for seat, own in listing["placements"].items()}
    unmarked = {seat: [p for p in own if not p["hermie"]] for seat, own in listing["placements"].items()}
    assert marked["1"] and marked["2"] and unmarked["2"]
    before = status(cli, path)["score"]
    pairs = [(marked["1"][0], marked["2"][-1]), (marked["1"][-1], marked["2"][0]), (marked["1"][-1], marked["2"][-1])]
    assert {min(one["wave"], two["wave"]) for one, two in pairs} == {0, 1}  # the Wave held, or not
    for one, two in pairs:
        after = played(cli, path, f"1: {one['move']} | 2: {two['move']}", "copy.toml")["score"]
        assert after["hermie"] == before["hermie"] + 1
        # Seats placing alike would have made the step shown; together, the smaller holds.
        assert after["wave"] - before["wave"] == min(one["wave"], two["wave"])
    after = played(cli, path, f"1: {marked['1'][0]['move']} | 2: {unmarked['2'][0]['move']}", "copy.toml")
    assert after["score"]["hermie"] == before["hermie"]
    text = cli("moves", path).stdout
    assert "A placement marked * recreates the pattern: Hermie moves if every seat's" in text
    assert f"*{marked['2'][0]['move']}" in text and f"*{unmarked['2'][0]['move']}" not in text


@pytest.mark.parametrize(
    "options, words",
    [
        (("wave_start=7",), "6 or 8"),
        (("players=5",), "1–4"),
        (("driftwood=3",), "1–2"),
        (("task=picnic",), "base"),
        (("seed=many",), "whole number"),
        (("deck=missing.toml",), "cannot read the deck file"),
    ],
)
def test_bad_options_exit_2_and_write_nothing(cli, options, words):
    args = [x for o in options for x in ("-O", o)]
    result = cli("new", "crab", "-o", "c.toml", *args)
    assert result.exit_code == 2, result.output
    assert words in result.output
    assert not Path("c.toml").exists()


def _deck_file(cards) -> str:
    lines = []
    for card in cards:
        grid = ", ".join(f'"{row}"' for row in card["grid"])
        lines += ["[[cards]]", f"id = {card['id']}", f'beach = "{card["beach"]}"', f"grid = [{grid}]", ""]
    return "\n".join(lines)


def test_r_cr1_a_bad_deck_file_is_a_clear_exit_2(cli, tmp_path):
    cards = builtin_data("crab-deck", "sample")["cards"]
    broken = [dict(c) for c in cards]
    broken[4] = {**broken[4], "grid": ["red blue", "cap cap cap"]}
    (tmp_path / "mine.toml").write_text(_deck_file(broken))
    result = cli("new", "crab", "-o", "c.toml", "-O", "deck=mine.toml")
    assert result.exit_code == 2
    assert "mine.toml" in result.stderr and "card 5" in result.stderr and "row 1 has 2 cells" in result.stderr
    assert "Traceback" not in result.output and not Path("c.toml").exists()
    (tmp_path / "bad.toml").write_text("[[cards]\n")
    result = cli("new", "crab", "-o", "c.toml", "-O", "deck=bad.toml")
    assert result.exit_code == 2 and "not valid TOML" in result.stderr


def test_r_cr1_a_transcribed_deck_is_copied_into_the_record(cli, tmp_path):
    cards = [dict(c) for c in builtin_data("crab-deck", "sample")["cards"]]
    cards[0] = {**cards[0], "grid": ["pool pool pool", "cap . star*"]}
    (tmp_path / "mine.toml").write_text(_deck_file(cards))
    path = new_crab(cli, "deck=mine.toml", "seed=1")
    (tmp_path / "mine.toml").unlink()  # the record must not need the file any more
    assert tomllib.loads(path.read_text())["setup"]["deck"][0]["grid"] == ["pool pool pool", "cap . star*"]
    assert "deck: from the file mine.toml" in cli("status", path).stdout
    assert cli("validate", path).exit_code == 0


def test_a_hand_typed_record_needs_only_the_deal(cli, tmp_path):
    (tmp_path / "h.toml").write_text(
        'format = 1\ngame = "crab"\nmoves = []\n\n[setup]\ndeal = ['
        + ", ".join(str(i) for i in range(1, 17)) + "]\n"
    )
    s = status(cli, "h.toml")
    assert s["score"]["hand"] == [12, 13] and s["coast"] == list(range(1, 11))


def test_board_is_refused_for_a_card_game(cli):
    result = cli("board", "crab")
    assert result.exit_code == 2 and "no board to print" in result.stderr


def test_resign_is_a_loss_for_everybody(cli):
    path = new_crab(cli, "seed=3")
    assert cli("move", path, "resign").exit_code == 0
    s = status(cli, path)
    assert s["over"] and s["winners"] == [] and s["result"] == "Lost: seat 1 resigned"
    assert "winners = []" in path.read_text()


def test_svg_outlines_the_new_card_marks_driftwood_and_escapes_names(cli):
    result = cli("new", "crab", "-o", "c.toml", "-O", "seed=7", "--player", "1=<Ann & Co>")
    assert result.exit_code == 0
    first = legal(cli, "c.toml")["moves"][0]
    assert cli("move", "c.toml", first, "--svg", "c.svg").exit_code == 0
    text = Path("c.svg").read_text()
    root = ET.fromstring(text)  # parses: the name is escaped
    assert "&lt;Ann &amp; Co&gt;" in text
    classes = [e.get("class") for e in root.iter()]
    assert classes.count("newcard") == 1 and "drift" in classes and "hermie" in classes
    assert "wave" in classes and "target" in classes
    assert any("stand-in" in (e.text or "") for e in root.iter())


def _replay_by_files(cli, sample: Path) -> Path:
    """Play a sample again from `referee new` with its seed, one `referee move` per round."""
    record = tomllib.loads(sample.read_text())
    options = [f"{k}={v}" for k, v in record["options"].items()]
    path = new_crab(cli, *options, name="again.toml")
    assert tomllib.loads(path.read_text())["setup"] == record["setup"]
    for entry in record["moves"]:
        players = record["options"]["players"]
        if players > 1:
            listing = legal(cli, path)
            for seat, part in enumerate(entry["move"].split(" | "), 1):
                assert part.split(": ")[1] in [p["move"] for p in listing["placements"][str(seat)]]
        result = cli("move", path, entry["move"], "--as", "1")
        assert result.exit_code == 0, result.output
    return path


@pytest.mark.parametrize("name", ["crab-crustacean-win.toml", "crab-crustacean-loss.toml",
                                  "crab-coop-2-win.toml"])
def test_a_game_is_played_round_by_round_by_files_to_its_end(cli, name):
    path = _replay_by_files(cli, SAMPLES / name)
    expected = tomllib.loads((SAMPLES / name).read_text())["result"]
    s = status(cli, path)
    assert s["over"] and s["winners"] == expected["winners"]
    assert tomllib.loads(path.read_text())["result"]["winners"] == expected["winners"]
    assert cli("move", path, legal(cli, SAMPLES / name)["moves"][:1] or "1 0,0 0").exit_code == 1


def test_cooperative_moves_give_each_seat_its_placements(cli):
    path = new_crab(cli, "players=2", "seed=4")
    listing = legal(cli, path)
    assert listing["moves"] == [] and listing["pattern"].startswith("1: <card>")
    assert set(listing["placements"]) == {"1", "2"}
    text = cli("moves", path).stdout
    assert "Seat 2 can place" in text
    s = status(cli, path)
    assert set(s["score"]["hand"]) == {"1", "2"} and s["score"]["pile"]["2"] == 13
    move = f"1: {listing['placements']['1'][0]['move']} | 2: {listing['placements']['2'][0]['move']}"
    assert cli("move", path, move).exit_code == 0
    shown = cli("show", path).stdout
    assert "Seat 1, play area" in shown and "Seat 2, play area" in shown


def test_the_crab_samples_hold_finished_games_and_one_in_progress():
    files = sorted(SAMPLES.glob("*.toml"))
    plays = [replay(read_record(f)) for f in files]
    finished = [p for p in plays if p.outcome() is not None]
    assert len(finished) >= 3 and len(finished) < len(plays)
    assert any(p.outcome().winners for p in finished) and any(not p.outcome().winners for p in finished)
    assert any(p.options["players"] > 1 for p in finished)
    tasks = {p.options["task"] for p in plays}
    assert tasks == {"base", "garbage", "sandcastle", "big-beach", "dunes", "crab-dance",
                     "nature-reserve", "crashing-waves"}


def test_games_offers_the_two_wave_starts_and_new_refuses_the_slot_between(cli):
    listing = cli("games").stdout
    assert "-O wave_start = 6 (6 or 8)" in listing and "(6–8)" not in listing
    refused = cli("new", "crab", "-o", "game.toml", "-O", "wave_start=7")
    assert refused.exit_code == 2 and "6 or 8 (R-CR2)" in refused.stderr
    assert not Path("game.toml").exists()
    assert cli("new", "crab", "-o", "game.toml", "-O", "wave_start=8").exit_code == 0


def test_moves_of_four_seats_fit_a_mails_78_columns(cli):
    path = new_crab(cli, "players=4", "seed=3")
    lines = cli("moves", path).stdout.splitlines()
    assert lines[0].startswith("Ann plays: 1: <card> <x>,<y> <rotation> | 2: ")
    assert [line.startswith(f"{who} can place") for who in ("Ann", "Seat 2", "Seat 3", "Seat 4")
            for line in lines].count(True) == 4
    assert max(map(len, lines)) <= 78
