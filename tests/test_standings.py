"""Club play (SPEC §7, README "Club play"): standings, crosstables, ratings and pairings.

The main case is a real event: a double round robin of five players started with
`referee pairings --new`, played with the library (random legal moves, some resignations,
some games left going on), Ann's name spelled three ways, two records then corrupted. The
expected rows are tallied here from the games' own outcomes, not by the standings code.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import os
import random
import re
import shutil
from collections import Counter
from itertools import combinations
from pathlib import Path

import pytest

from referee.play import archive
from referee.club import standings as club
from referee.club.pairings import pairings
from referee.club.berger import berger_rounds, file_name, slug
from referee.record.values import Record
from referee.record.reading import read_record
from referee.club.standings_page import CROSSTABLE_PLAYERS, crosstable_lines, page, points, text
from referee.play.replay import replay, start
from referee.club.ranking import (
    DIGEST_BYTES,
    Judged,
    START_RATING,
    Standings,
    elo_change,
    expected_score,
    identity,
    standings,
    to_json,
)
from referee.play.turn import take_turn

SAMPLES = Path(__file__).resolve().parent.parent / "sample_games"
UTC = dt.timezone.utc

ANN_SPELLINGS = ["Ann <ANN@example.org>", "ann  <ann@example.org>", "Ann Example <ann@example.org>"]
PLAYERS = {  # who each is in the oracle → the name given to `pairings`
    "ann": "Ann <ANN@example.org>",
    "bo": "Bo Sample <bo@example.net>",
    "cy": "Cy <cy@example.com>",
    "dee": "Dee",
    "eve": "Eve Tester <eve@example.org>",
}
WHO = {name: who for who, name in PLAYERS.items()}


def _who(name: str) -> str:
    return "ann" if "ann@example.org" in name.lower() else WHO[name]


def _play(path: Path, rng: random.Random, start: dt.datetime, *, stop: int | None = None,
          resign: bool = False) -> tuple[tuple[int, ...] | None, dt.datetime]:
    """Play random legal moves into the record at `path` (as `referee move` would), to the end
    or `stop` plies (then resign, when asked); returns the winners (None: going on) and the
    last stamp."""
    play = replay(read_record(path))
    at = start
    while play.outcome() is None and (stop is None or play.plies < stop):
        at += dt.timedelta(hours=1)
        play = take_turn(play, str(play.game.random_move(play.state, rng)), at=at).play
    if resign and play.outcome() is None:
        at += dt.timedelta(hours=1)
        play = take_turn(play, "resign", at=at).play
    path.write_text(play.record.to_toml(), encoding="utf-8")
    outcome = play.outcome()
    return (tuple(outcome.winners) if outcome else None), at


@pytest.fixture(scope="module")
def event(tmp_path_factory):
    """The double round robin: the folder, and the tally each player's row must show."""
    folder = tmp_path_factory.mktemp("club") / "autumn"
    schedule = pairings(list(PLAYERS.values()), double=True, game="odd", folder=str(folder),
                             options_given={"size": "3", "min_group": "3"})
    rng = random.Random(17)
    tally = {who: Counter() for who in PLAYERS}
    files = sorted(schedule.files.values())
    assert len(files) == 20
    start = dt.datetime(2026, 9, 1, tzinfo=UTC)
    spelling = 0
    for index, file in enumerate(files):
        path = Path(file)
        text_ = path.read_text(encoding="utf-8")
        if "ANN@example.org" in text_:  # names are not sealed: a player may complete them later
            text_ = text_.replace("Ann <ANN@example.org>", ANN_SPELLINGS[spelling % 3])
            spelling += 1
            path.write_text(text_, encoding="utf-8")
        names = read_record(path).players
        seats = {seat: _who(p["name"]) for seat, p in names.items()}
        corrupt = index in (5, 13)
        kind = "unfinished" if index in (2, 9) else "resign" if index in (4, 11, 16) else "play"
        winners, _ = _play(path, rng, start + dt.timedelta(days=index),
                           stop=4 if kind != "play" else None, resign=kind == "resign")
        if corrupt:
            continue
        for seat, who in seats.items():
            if winners is None:
                tally[who]["unfinished"] += 1
            else:
                tally[who]["played"] += 1
                tally[who]["wins" if seat in winners else "losses"] += 1
    # Two records damaged after the games: one unreadable, one with a move changed.
    broken = Path(files[5])
    broken.write_text(broken.read_text(encoding="utf-8") + "\n[result\n", encoding="utf-8")
    edited = Path(files[13])
    edited.write_text(re.sub(r'move = "(\w) (\w\d)"', r'move = "\1 z9"', edited.read_text(encoding="utf-8"), count=1),
                      encoding="utf-8")
    return folder, tally, {Path(files[5]).name, Path(files[13]).name}


# -- the event, through the command line -------------------------------------------------------


def test_every_player_row_is_right(cli, event):
    folder, tally, corrupted = event
    result = cli("standings", folder, "--json")
    assert result.exit_code == 1, result.output  # two invalid records
    report = json.loads(result.stdout)
    rows = {_who(row["player"]): row for row in report["games"]["odd"]["players"]}
    assert set(rows) == set(PLAYERS)
    for who, counts in tally.items():
        row = rows[who]
        expected = {
            "played": counts["played"], "wins": counts["wins"], "losses": counts["losses"],
            "draws": 0, "unfinished": counts["unfinished"], "points": float(counts["wins"]),
        }
        assert {key: row[key] for key in expected} == expected, who
    assert sum(r["played"] for r in rows.values()) == 2 * (20 - 2 - 2)  # finished, valid games
    assert sum(r["unfinished"] for r in rows.values()) == 2 * 2


def test_the_json_is_as_spec_7_gives_it(cli, event):
    folder, _, _ = event
    report = json.loads(cli("standings", folder, "--json").stdout)
    assert set(report) >= {"games", "invalid"}
    for row in report["games"]["odd"]["players"]:
        assert set(row) >= {"player", "address", "played", "wins", "losses", "draws", "unfinished",
                            "points", "rating"}
        assert isinstance(row["rating"], float) and round(row["rating"], 1) == row["rating"]
    order = [(r["points"], r["sonneborn_berger"], r["wins"]) for r in report["games"]["odd"]["players"]]
    assert order == sorted(order, reverse=True)


def test_ann_is_one_player_however_her_name_is_spelled(cli, event):
    folder, _, _ = event
    rows = json.loads(cli("standings", folder, "--json").stdout)["games"]["odd"]["players"]
    anns = [row for row in rows if row["address"] == "ann@example.org"]
    assert len(anns) == 1
    # The spelling used most: the pairings' own, kept by the records not respelled.
    assert anns[0]["player"] in ANN_SPELLINGS


def test_corrupted_records_are_listed_under_invalid_and_counted_nowhere(cli, event):
    folder, _, corrupted = event
    result = cli("standings", folder, "--json")
    invalid = json.loads(result.stdout)["invalid"]
    assert {Path(item["file"]).name for item in invalid} == corrupted
    assert all(item["error"] for item in invalid)
    text_ = cli("standings", folder)
    assert text_.exit_code == 1
    assert "Invalid records, counted nowhere (2):" in text_.stdout


def test_text_crosstable_fits_a_mail_and_a_handful_of_records_gets_no_speed_line(cli, event):
    folder, _, _ = event
    result = cli("standings", folder)
    lines = result.stdout.splitlines()
    # The tables fit a mail; the messages of invalid records are whole, whatever their length.
    tables = lines[: lines.index("Invalid records, counted nowhere (2):")]
    assert all(len(line) <= 78 for line in tables)
    assert lines[0] == "Odd: 5 players, 16 games finished, 2 going on"
    assert lines[-1] == "20 records: 18 counted, 2 invalid, 0 not counted"
    assert "records/s" not in result.stdout + result.stderr  # 20 records: no speed to tell
    json_run = cli("standings", folder, "--json")
    json.loads(json_run.stdout)  # nothing but JSON on stdout
    assert "records/s" not in json_run.stderr


def test_one_record_and_one_game_are_counted_in_the_singular(cli):
    assert cli("new", "odd", "-o", "g.toml", "--player", "1=Ann", "--player", "2=Bo").exit_code == 0
    assert cli("move", "g.toml", "resign").exit_code == 0
    lines = cli("standings", "g.toml").stdout.splitlines()
    assert lines[0] == "Odd: 2 players, 1 game finished"
    assert lines[-1] == "1 record: 1 counted, 0 invalid, 0 not counted"


def test_the_speed_is_told_for_a_large_archive_only():
    def report(records: int) -> club.Report:
        counted = Standings({}, {}, [], [], records, 0)
        return club.Report(counted, seconds=records / 2000, workers=2)

    assert report(0).speed() == "no records found"
    assert report(club.SPEED_RECORDS - 1).speed() is None
    assert report(10_000).speed() == "judged 10,000 records in 5.0 s: 2,000 records/s (2 processes)"


def test_html_page_links_every_result_to_its_record(cli, event, tmp_path):
    folder, _, _ = event
    out = tmp_path / "pages" / "standings.html"
    out.parent.mkdir()
    assert cli("standings", folder, "--html", out).exit_code == 1  # still the two invalid ones
    html = out.read_text(encoding="utf-8")
    assert "Content-Security-Policy" in html and "default-src 'none'" in html
    assert "<script" not in html and "http://" not in html and "https://" not in html
    links = re.findall(r'href="([^"]+)"', html)
    assert links and all(link.startswith("../") for link in links)
    for link in set(links):
        assert (out.parent / link).resolve().is_file()
    assert cli("standings", folder, "--html", out).exit_code == 2  # exists, no --force
    assert cli("standings", folder, "--html", out, "--force").exit_code == 1


def test_pairings_new_records_are_valid(cli, event):
    folder, _, _ = event
    fresh = folder.parent / "fresh"
    result = cli("pairings", *PLAYERS.values(), "--game", "odd", "--new", fresh)
    assert result.exit_code == 0, result.output
    assert len(list(fresh.glob("*.toml"))) == 10
    assert cli("validate", fresh).exit_code == 0
    assert (fresh / "r01-g1-bo-sample-vs-eve-tester.toml").is_file()
    # Again into the same folder: refused before anything is written.
    assert cli("pairings", *PLAYERS.values(), "--game", "odd", "--new", fresh).exit_code == 2


# -- identity, ratings, Sonneborn-Berger ----------------------------------------------------


def test_identity_by_address_else_by_name():
    keys = {identity(name).key for name in ANN_SPELLINGS}
    assert keys == {"mail:ann@example.org"}
    assert identity("  Dee   Smith ").key == identity("dee smith").key == "name:dee smith"
    assert identity("dee@example.org").address == "dee@example.org"
    assert identity("   ") is None
    assert identity("Ann Example <ann@example.org>").short == "Ann Example"


def test_a_player_is_shown_as_the_records_spell_them_most():
    games = [_game("1.toml", "ann <ann@example.org>", "Bo", (1,)),
             _game("2.toml", "Ann E. <ANN@example.org>", "Bo", (1,)),
             _game("3.toml", "Bo", "Ann E. <ANN@example.org>", (1,)),
             _game("4.toml", "Bo", "Cy", (1,)), _game("5.toml", "Cy", "bo", (1,))]
    rows = standings(games).games["odd"].rows
    assert {row.player for row in rows} == {"Ann E. <ANN@example.org>", "Bo", "Cy"}
    # A tie between spellings goes to the one seen first.
    tie = standings([_game("1.toml", "dee", "Bo", (1,)), _game("2.toml", "Dee", "Bo", (1,))])
    assert "dee" in {row.player for row in tie.games["odd"].rows}


def _game(file, a, b, winners, ended=None, over=True, game="odd"):
    return Judged(file, game=game, game_name=game.title(), names=(a, b), over=over,
                  winners=winners, ended=ended, plies=10)


MOVES = ["w a1", "b b2", "w c3", "b d4", "w e5", "b a2", "w b3", "b c4", "w d5"]


def _chain(plies, header=b"header"):
    """A seal chain as club.judge hands it over: a digest of the header, then one a ply, each
    covering all before it."""
    digest = hashlib.sha256(header).digest()
    digests = [digest]
    for ply, move in enumerate(plies, 1):
        digest = hashlib.sha256(digest + f"{ply} {move}".encode()).digest()
        digests.append(digest)
    return b"".join(d[:DIGEST_BYTES] for d in digests)


def _rows(result, game="odd"):
    return {row.player: row for row in result.games[game].rows}


def test_ratings_move_the_right_way():
    result = standings([_game("g1.toml", "Ann", "Bo", (1,), 1.0)])
    rows = _rows(result)
    assert rows["Ann"].rating > START_RATING > rows["Bo"].rating
    assert rows["Ann"].rating + rows["Bo"].rating == pytest.approx(2 * START_RATING)
    assert rows["Ann"].rating == pytest.approx(1516.0)


def test_a_win_against_a_stronger_player_gains_more():
    assert elo_change(1500, 1600, 1) > elo_change(1500, 1500, 1) > elo_change(1500, 1400, 1)
    assert expected_score(1500, 1500) == 0.5
    # Ann beats Bo first, so she is the stronger one when Cy beats her; Dee beats Eve, a
    # newcomer like himself. Cy gains more than Dee.
    result = standings([
        _game("1.toml", "Ann", "Bo", (1,), 1.0),
        _game("2.toml", "Cy", "Ann", (1,), 2.0),
        _game("3.toml", "Dee", "Eve", (1,), 3.0),
    ])
    rows = _rows(result)
    assert rows["Cy"].rating - START_RATING > rows["Dee"].rating - START_RATING > 0


def test_ratings_follow_the_order_the_games_finished():
    # Files in one order, finishing times in the other: the stamps decide.
    games = [_game("a.toml", "Ann", "Bo", (2,), 20.0), _game("b.toml", "Ann", "Bo", (1,), 10.0)]
    late = _rows(standings(games))
    # Ann won first and lost last: a loss as the stronger one costs her more than she gained.
    assert late["Ann"].rating < START_RATING < late["Bo"].rating
    unstamped = [_game("a.toml", "Ann", "Bo", (2,)), _game("b.toml", "Ann", "Bo", (1,), 10.0)]
    assert _rows(standings(unstamped))["Ann"].rating < START_RATING  # unstamped games come last


def test_sonneborn_berger_on_a_hand_checked_case():
    # A–B 1-0, A–C ½-½, A–D 1-0, B–C 1-0, B–D ½-½, C–D 1-0.
    # Points A 2½, B 1½, C 1½, D ½. SB: A = 1½ + ½·1½ + ½ = 2.75; B = 1½ + ½·½ = 1.75;
    # C = ½·2½ + ½ = 1.75; D = ½·1½ = 0.75.
    result = standings([
        _game("1.toml", "A", "B", (1,)), _game("2.toml", "A", "C", ()),
        _game("3.toml", "D", "A", (2,)), _game("4.toml", "B", "C", (1,)),
        _game("5.toml", "B", "D", ()), _game("6.toml", "C", "D", (1,)),
    ])
    rows = _rows(result)
    assert {p: r.points for p, r in rows.items()} == {"A": 2.5, "B": 1.5, "C": 1.5, "D": 0.5}
    assert {p: r.sonneborn_berger for p, r in rows.items()} == {"A": 2.75, "B": 1.75, "C": 1.75, "D": 0.75}
    assert (rows["A"].wins, rows["A"].draws, rows["A"].losses) == (2, 1, 0)
    assert [row.player for row in result.games["odd"].rows][0] == "A"


def test_places_go_by_points_then_sonneborn_berger_never_by_rating_SPEC_8b():
    # A round robin of five, finished in file order. Dee and Ann have 1½ points each; Dee's
    # wins and draws came against stronger players (SB 2.75 to 2.25), though Ann's rating is
    # the higher one: Dee places above her.
    games = [
        _game("1.toml", "Ann", "Bo", (2,), 1.0), _game("2.toml", "Ann", "Cy", (1,), 2.0),
        _game("3.toml", "Ann", "Dee", (2,), 3.0), _game("4.toml", "Ann", "Eve", (), 4.0),
        _game("5.toml", "Bo", "Cy", (1,), 5.0), _game("6.toml", "Bo", "Dee", (1,), 6.0),
        _game("7.toml", "Bo", "Eve", (), 7.0), _game("8.toml", "Cy", "Dee", (1,), 8.0),
        _game("9.toml", "Cy", "Eve", (2,), 9.0), _game("10.toml", "Dee", "Eve", (), 10.0),
    ]
    rows = standings(games).games["odd"].rows
    assert [row.player for row in rows] == ["Bo", "Eve", "Dee", "Ann", "Cy"]
    dee, ann = rows[2], rows[3]
    assert (dee.points, dee.sonneborn_berger) == (ann.points, 2.75) and ann.sonneborn_berger == 2.25
    assert ann.rating > dee.rating


def test_equal_points_and_sonneborn_berger_go_by_wins_then_name_SPEC_8b():
    # Four players, 1½ points each, SB 2.25 each: Cy drew all three games, the others won one;
    # among those the name decides, whatever the ratings.
    games = [
        _game("1.toml", "Ann", "Bo", (1,), 1.0), _game("2.toml", "Ann", "Cy", (), 2.0),
        _game("3.toml", "Ann", "Dee", (2,), 3.0), _game("4.toml", "Bo", "Cy", (), 4.0),
        _game("5.toml", "Bo", "Dee", (1,), 5.0), _game("6.toml", "Cy", "Dee", (), 6.0),
    ]
    rows = standings(games).games["odd"].rows
    assert [(row.player, row.points, row.sonneborn_berger, row.wins) for row in rows] == [
        ("Ann", 1.5, 2.25, 1), ("Bo", 1.5, 2.25, 1), ("Dee", 1.5, 2.25, 1), ("Cy", 1.5, 2.25, 0),
    ]
    assert rows[1].rating > rows[0].rating and rows[3].rating > rows[2].rating


def test_text_json_and_page_list_the_players_in_one_order():
    games = [
        _game("1.toml", "Ann", "Bo", (1,), 1.0), _game("2.toml", "Ann", "Cy", (), 2.0),
        _game("3.toml", "Ann", "Dee", (2,), 3.0), _game("4.toml", "Bo", "Cy", (), 4.0),
        _game("5.toml", "Bo", "Dee", (1,), 5.0), _game("6.toml", "Cy", "Dee", (), 6.0),
    ]
    result = standings(games)
    expected = ["Ann", "Bo", "Dee", "Cy"]
    assert [row["player"] for row in to_json(result)["games"]["odd"]["players"]] == expected
    lines = crosstable_lines(result.games["odd"])[1:]
    assert [line.split()[1] for line in lines] == expected
    html = page(result, {f"{n}.toml": f"{n}.toml" for n in range(1, 7)})
    assert re.findall(r'<th class="player" scope="row" title="(\w+)"', html) == expected


def test_records_without_players_and_second_copies_count_nowhere():
    records = [
        _game("1.toml", "Ann", "Bo", (1,)),
        Judged("2.toml", game="odd", game_name="Odd", names=(None, None), over=True, winners=(1,)),
        Judged("3.toml", game="odd", game_name="Odd", names=("Ann", None), over=True, winners=(1,)),
        _game("4.toml", "Ann", "ann", (1,)),
        Judged("5.toml", game="odd", game_name="Odd", names=("Cy", "Dee"), over=False, plies=3, id="a" * 32,
               chain=_chain(MOVES[:3])),
        Judged("6.toml", game="odd", game_name="Odd", names=("Cy", "Dee"), over=True, winners=(2,), plies=9, id="a" * 32,
               chain=_chain(MOVES[:9])),
        Judged("7.toml", error="7.toml: broken TOML", exit_code=1),
    ]
    result = standings(records)
    assert [file for file, _ in result.skipped] == ["2.toml", "3.toml", "4.toml", "5.toml"]
    assert "6.toml" in dict(result.skipped)["5.toml"]
    assert result.invalid == [("7.toml", "7.toml: broken TOML")] and result.worst_exit == 1
    rows = _rows(result)
    assert (rows["Ann"].played, rows["Dee"].wins, rows["Cy"].unfinished) == (1, 1, 0)
    data = to_json(result)
    assert data["records"] == 7 and len(data["skipped"]) == 4


def test_cooperative_games_are_listed_apart(cli, tmp_path):
    for name in ("crab-coop-2-win.toml", "crab-crustacean-win.toml", "crab-crustacean-loss.toml",
                 "crab-in-progress.toml"):
        shutil.copy(SAMPLES / "crab" / name, tmp_path / name)
    result = cli("standings", tmp_path, "--json")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["games"] == {}
    rows = {row["player"]: row for row in report["cooperative"]["crab"]["players"]}
    for row in rows.values():
        assert row["played"] == row["wins"] + row["losses"]
        assert row["played"] == row["solo"]["played"] + row["coop"]["played"]
        assert row["wins"] == row["solo"]["wins"] + row["coop"]["wins"]
    assert any(row["coop"]["wins"] for row in rows.values())


# -- the crosstable and the page ---------------------------------------------------------------


def _double_round_robin(names):
    games, hour = [], 0.0
    for round_ in berger_rounds(len(names), double=True):
        for pairing in round_.games:
            hour += 1
            winners = [(1,), (2,), ()][int(hour) % 3]
            games.append(_game(f"g{int(hour):03d}.toml", names[pairing.first], names[pairing.second], winners, hour))
    return games


def test_crosstable_fits_78_columns_for_eight_players():
    names = [f"Player Number {i} With A Long Name <player{i}@example.org>" for i in range(8)]
    result = standings(_double_round_robin(names))
    lines = crosstable_lines(result.games["odd"])
    assert len(lines) == 9
    assert max(len(line) for line in lines) <= 78
    assert all(len(line) <= 78 for line in text(result))
    # Every cell of two games: the row of player 1 shows 2 results for each of 7 opponents.
    assert lines[1].count("X") == 2


def test_points_are_written_as_crosstables_write_them():
    assert [points(v) for v in (0, 0.5, 1, 3.5, 12)] == ["0", "½", "1", "3½", "12"]


def test_the_page_escapes_a_hostile_name():
    hostile = '<script>alert("x")</script><img src=x onerror=alert(1)> <evil@example.org>'
    result = standings([_game('a"><b.toml', hostile, "Bo", (1,), 1.0)])
    html = page(result, {'a"><b.toml': "a%22%3E%3Cb.toml"})
    assert "<script>alert" not in html and "<img" not in html
    assert "&lt;script&gt;" in html
    assert 'href="a%22%3E%3Cb.toml"' in html
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]+)"', html)[1]
    assert "default-src 'none'" in csp and "script-src" not in csp and "'unsafe-inline'" not in csp


# -- pairings ------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6, 7, 8, 11])
def test_every_pair_meets_exactly_once(players):
    rounds = berger_rounds(players)
    assert len(rounds) == players - 1 + players % 2
    met = Counter(frozenset((g.first, g.second)) for r in rounds for g in r.games)
    assert set(met) == {frozenset(pair) for pair in combinations(range(players), 2)}
    assert set(met.values()) == {1}
    for r in rounds:  # nobody plays twice in a round; with an odd count exactly one sits out
        seated = [p for g in r.games for p in (g.first, g.second)]
        assert len(seated) == len(set(seated))
        assert (r.bye is not None) == (players % 2 == 1)
    if players % 2 == 0:
        firsts = Counter(g.first for r in rounds for g in r.games)
        assert max(firsts.values()) - min(firsts.get(p, 0) for p in range(players)) <= 1


@pytest.mark.parametrize("players", [3, 4, 5, 6])
def test_double_round_robin_swaps_the_seats(players):
    rounds = berger_rounds(players, double=True)
    games = [(g.first, g.second) for r in rounds for g in r.games]
    assert Counter(games) == Counter({(a, b): 1 for a, b in permutations_of(players)})
    assert [r.number for r in rounds] == list(range(1, len(rounds) + 1))


def permutations_of(players):
    return [(a, b) for a in range(players) for b in range(players) if a != b]


def test_berger_tables_as_printed():
    six = [[(g.first + 1, g.second + 1) for g in r.games] for r in berger_rounds(6)]
    assert six[0] == [(1, 6), (2, 5), (3, 4)]
    assert six[1] == [(6, 4), (5, 3), (1, 2)]
    assert six[4] == [(3, 6), (4, 2), (5, 1)]


def test_file_names_are_safe():
    assert file_name(1, 1, "Ann <ann@example.org>", "Bo", 9) == "r01-g1-ann-vs-bo.toml"
    assert slug("../../etc/passwd") == "etc-passwd"
    assert slug("Zoë  Ñandú") == "zoe-nandu"
    assert slug("李") == "player"


def test_pairings_command_prints_the_rounds(cli):
    result = cli("pairings", "Ann", "Bo", "Cy")
    assert result.exit_code == 0, result.output
    assert result.stdout.count("Round") == 3 and result.stdout.count("bye:") == 3
    data = json.loads(cli("pairings", "Ann", "Bo", "Cy", "--double", "--json").stdout)
    assert len(data["rounds"]) == 6


@pytest.mark.parametrize("args", [
    ["Ann"],
    ["Ann", "ann"],
    ["Ann <a@example.org>", "Annie <A@example.org>"],
    ["Ann", "Bo", "--new", "dir"],
    ["Ann", "Bo", "--game", "crab"],
    ["Ann", "Bo", "--game", "chess"],
    ["Ann", "Bo", "-O", "size=4"],
    ["Ann", "Bo", "--game", "odd", "-O", "size=99"],
])
def test_pairings_refuses_what_cannot_be_paired(cli, args, tmp_path):
    result = cli("pairings", *args)
    assert result.exit_code == 2, result.output
    assert "Traceback" not in result.output
    assert not (tmp_path / "dir").exists()


# -- copies of one game (SPEC §9: a game counts once, and only the real one) ----------------------

OPTIONS = {"size": 3, "min_group": 3}
ANN_BO = ("Ann <ann@example.org>", "Bo <bo@example.net>")
START = dt.datetime(2026, 10, 1, tzinfo=UTC)


def _moves(seed: int, plies: int) -> list[str]:
    """`plies` random legal moves of a fresh small odd game."""
    play, rng = start(Record("odd", dict(OPTIONS))), random.Random(seed)
    moves = []
    while len(moves) < plies and play.outcome() is None:
        moves.append(str(play.game.random_move(play.state, rng)))
        play = take_turn(play, moves[-1]).play
    return moves


def _other_move(moves: list[str], ply: int) -> str:
    """A legal move at `ply` after moves[:ply - 1], other than moves[ply - 1]."""
    play = start(Record("odd", dict(OPTIONS)))
    for move in moves[: ply - 1]:
        play = take_turn(play, move).play
    return next(str(m) for m in play.game.legal_moves(play.state) if str(m) != moves[ply - 1])


def _record(path: Path, game_id: str | None, moves: list[str], names=ANN_BO, resign: bool = False) -> Path:
    """A record of game `game_id` holding `moves`, stamped an hour a ply and sealed, as
    `referee new` and `referee move` write one (`resign`: then the seat to move resigns)."""
    play = start(Record("odd", dict(OPTIONS), {1: {"name": names[0]}, 2: {"name": names[1]}}, id=game_id))
    for ply, move in enumerate([*moves, "resign"] if resign else moves, 1):
        play = take_turn(play, move, at=START + dt.timedelta(hours=ply)).play
    path.write_text(play.record.to_toml(), encoding="utf-8")
    return path


def _report(cli, *paths):
    result = cli("standings", *paths, "--json")
    return result.exit_code, json.loads(result.stdout)


def _games_played(report) -> int:
    rows = report["games"].get("odd", {"players": []})["players"]
    return sum(row["played"] + row["unfinished"] for row in rows) // 2


def test_both_players_copies_count_once_from_the_longer(cli, tmp_path):
    moves, game_id = _moves(1, 8), "1" * 32
    _record(tmp_path / "ann.toml", game_id, moves[:7])
    _record(tmp_path / "bo.toml", game_id, moves, resign=True)
    code, report = _report(cli, tmp_path)
    assert code == 0 and report["invalid"] == []
    assert _games_played(report) == 1
    rows = {row["address"]: row for row in report["games"]["odd"]["players"]}
    assert rows["ann@example.org"]["played"] == 1 and rows["ann@example.org"]["unfinished"] == 0
    assert report["skipped"] == [{"file": str(tmp_path / "ann.toml"),
                                  "reason": f"another copy of the game in {tmp_path / 'bo.toml'}"}]


def test_borrowed_id_with_one_more_ply_does_not_erase_the_real_game(cli, tmp_path):
    # The real game goes on at ply 8; a stranger writes a game of his own under its id, one
    # ply longer (a resignation), sealed as the referee seals: once it would have been
    # counted in place of the real one, silently.
    moves, game_id = _moves(2, 8), "2" * 32
    real = _record(tmp_path / "real.toml", game_id, moves)
    borrowed = moves[:4] + [_other_move(moves, 5)] + moves[5:8]
    fake = _record(tmp_path / "fake.toml", game_id, borrowed, names=("Eve <eve@example.org>", ANN_BO[1]),
                   resign=True)
    code, report = _report(cli, tmp_path)
    assert code == 1
    assert report["invalid"] == [
        {"file": str(fake), "error": f"{fake}: conflicting copies of game {game_id}: {real} differs at ply 5"},
        {"file": str(real), "error": f"{real}: conflicting copies of game {game_id}: {fake} differs at ply 5"},
    ]
    assert report["games"] == {}  # Eve's win is nowhere; which game is real, the records cannot say


def test_conflicting_copies_count_nowhere_and_are_listed(cli, tmp_path):
    moves, game_id = _moves(3, 9), "3" * 32
    _record(tmp_path / "a-ann.toml", game_id, moves[:6])
    bo = _record(tmp_path / "b-bo.toml", game_id, moves[:6] + [_other_move(moves, 7)] + moves[7:9])
    cy = _record(tmp_path / "c-ann-later.toml", game_id, moves)  # Ann's copy, three plies on
    _record(tmp_path / "d-early.toml", game_id, moves[:4])  # the start of every copy
    _record(tmp_path / "e-other-game.toml", "4" * 32, _moves(4, 5))
    code, report = _report(cli, tmp_path)
    assert code == 1
    invalid = {Path(item["file"]).name: item["error"] for item in report["invalid"]}
    assert invalid == {
        "b-bo.toml": f"{bo}: conflicting copies of game {game_id}: {cy} differs at ply 7",
        "c-ann-later.toml": f"{cy}: conflicting copies of game {game_id}: {bo} differs at ply 7",
    }
    skipped = {Path(item["file"]).name: item["reason"] for item in report["skipped"]}
    assert skipped == {
        "a-ann.toml": f"an earlier copy of game {game_id}, whose later copies conflict",
        "d-early.toml": f"an earlier copy of game {game_id}, whose later copies conflict",
    }
    assert _games_played(report) == 1  # the other game alone
    text_ = cli("standings", tmp_path)
    assert text_.exit_code == 1 and f"conflicting copies of game {game_id}" in text_.stdout


def test_a_copy_with_another_header_conflicts_from_the_start():
    first = Judged("a.toml", game="odd", names=ANN_BO, plies=2, id="5" * 32, chain=_chain(MOVES[:2]))
    second = first._replace(file="b.toml", chain=_chain(MOVES[:2], header=b"other options"))
    result = standings([first, second])
    assert [error for _, error in result.invalid] == [
        f"a.toml: conflicting copies of game {'5' * 32}: b.toml differs in its header (game, options, setup or keys)",
        f"b.toml: conflicting copies of game {'5' * 32}: a.toml differs in its header (game, options, setup or keys)",
    ]
    assert result.worst_exit == 1 and result.games == {}


def test_hard_linked_record_counts_once(cli, tmp_path):
    record = _record(tmp_path / "game.toml", None, _moves(5, 6), resign=True)  # no id at all
    (tmp_path / "again").mkdir()
    os.link(record, tmp_path / "again" / "game.toml")
    os.link(record, tmp_path / "same-game.toml")
    code, report = _report(cli, tmp_path)
    assert code == 0 and _games_played(report) == 1
    assert [item["reason"] for item in report["skipped"]] == [f"the same file as {record} (a link)"] * 2


def test_symlinked_record_counts_once(cli, tmp_path):
    record = _record(tmp_path / "game.toml", None, _moves(6, 6), resign=True)
    os.symlink("game.toml", tmp_path / "link.toml")
    (tmp_path / "elsewhere").mkdir()
    os.symlink(record, tmp_path / "elsewhere" / "game.toml")
    code, report = _report(cli, tmp_path, record, tmp_path / "link.toml")  # named three more times
    assert code == 0 and _games_played(report) == 1
    assert report["records"] == 3  # the path named twice is one record; each link is listed
    assert [item["reason"] for item in report["skipped"]] == [f"the same file as {record} (a link)"] * 2


def test_identical_copy_without_id_counts_once(cli, tmp_path):
    record = _record(tmp_path / "game.toml", None, _moves(7, 6), resign=True)
    shutil.copyfile(record, tmp_path / "game-copy.toml")
    code, report = _report(cli, tmp_path)
    assert code == 0 and _games_played(report) == 1
    assert report["skipped"] == [{"file": str(tmp_path / "game.toml"),
                                  "reason": f"the same bytes as {tmp_path / 'game-copy.toml'}"}]


# -- thousands of players -------------------------------------------------------------------------


def _strangers(games: int) -> list[Judged]:
    """`games` finished games, each between two players met nowhere else."""
    return [_game(f"{i:05d}.toml", f"Player {2 * i} <p{2 * i}@example.org>",
                  f"Player {2 * i + 1} <p{2 * i + 1}@example.org>", (1 + i % 2,), float(i)) for i in range(games)]


def test_standings_of_thousands_of_players_page_stays_small():
    sizes = {}
    for games in (1_000, 4_000):
        result = standings(_strangers(games))
        html = page(result, {f"{i:05d}.toml": f"{i:05d}.toml" for i in range(games)})
        sizes[games] = len(html.encode("utf-8"))
        assert f"The crosstable is left out: {2 * games:,} players, more than {CROSSTABLE_PLAYERS}" in html
        assert html.count("<tr>") == 2 * games + 1  # every player's row, and the head
        lines = text(result)
        assert len(lines) < 2 * games + 20 and all(len(line) <= 78 for line in lines)
    assert sizes[4_000] < 4 * 1_000_000  # 8,000 players: a few MB, not hundreds
    assert sizes[4_000] < 4.5 * sizes[1_000]  # as the records grow, not as their square


def test_a_crosstable_of_up_to_the_limit_is_drawn():
    names = [f"P{i}" for i in range(CROSSTABLE_PLAYERS)]
    games = [_game(f"{i:04d}.toml", names[i], names[(i + 1) % len(names)], (1,), float(i)) for i in range(len(names))]
    result = standings(games)
    html = page(result, {g.file: g.file for g in games})
    assert "left out" not in html and html.count('class="self"') == CROSSTABLE_PLAYERS
    assert "left out" in "\n".join(text(standings(games + [_game("x.toml", "P0", "Newcomer", (1,))])))


def test_many_games_between_two_players_are_summed_up_in_the_text():
    games = [_game(f"{i:02d}.toml", "Ann", "Bo", ((1,), (2,), ())[i % 3], float(i)) for i in range(12)]
    games.append(_game("12.toml", "Ann", "Bo", (), over=False))
    lines = crosstable_lines(standings(games).games["odd"])
    assert "6/12+1*" in lines[1] and "6/12+1*" in lines[2] and all(len(line) <= 78 for line in lines)


# -- many records --------------------------------------------------------------------------------


def test_processes_give_the_same_answer_as_one(tmp_path):
    sources = sorted((SAMPLES / "odd").glob("*.toml"))
    files = []
    for i in range(archive.PARALLEL_FROM + 20):
        files.append(str(tmp_path / f"{i:03d}.toml"))
        shutil.copy(sources[i % len(sources)], files[-1])
    parallel = list(archive.judge_each(club.judge, files, club.crashed, workers=2))
    serial = [club.judge(f) for f in files]
    assert parallel == serial


def test_a_missing_path_is_exit_2_and_an_empty_folder_has_no_standings(cli, tmp_path):
    result = cli("standings", tmp_path / "nope")
    assert result.exit_code == 2
    assert "no such file" in json.loads(cli("standings", tmp_path / "nope", "--json").stdout)["invalid"][0]["error"]
    (tmp_path / "empty").mkdir()
    empty = cli("standings", tmp_path / "empty")
    assert empty.exit_code == 0 and empty.stdout.splitlines()[-1] == "0 records: 0 counted, 0 invalid, 0 not counted"
    assert "no records found" in empty.stderr


