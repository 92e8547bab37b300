"""The TOML record (SPEC §3): reading both move forms, writing the canonical form, the strict
shape checks, the line of every move, atomic replacement, and the replay checks that belong to the
record ([result], game id, options)."""

from __future__ import annotations

import datetime as dt
import os
import re
import tomllib
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee.record import files as files_module
from referee.errors import RecordError, RefereeError, UsageError
from referee.geometry import HexHexGrid
from referee.record.files import write_atomic
from referee.record.values import Entry, Record
from referee.record.reading import parse_record, read_record
from referee.play.replay import replay

UTC = dt.timezone.utc

FULL_EXAMPLE = """\
format = 1                       # record format version
game = "odd"                     # game id from §1
id = "3f2a0c6d8e9b41f7a5c2d0e4b6a8f1c3"   # random, written by `referee new` (§9)

[options]                        # omitted options take their defaults
size = 5
min_group = 5

[players]                        # optional; by seat: a name, or a table
1 = "Alice <alice@example.org>"
2 = { name = "Bob <bob@example.org>", key = "ed25519:abc" }

[[moves]]                        # one table per ply, in order
move = "b e5"                    # canonical notation, §5
at = 2026-11-22T14:01:00Z        # optional, written by the referee
comment = "opening"              # optional

[[moves]]
move = "w d4"
pending = [{ if = "b c3", then = "w c4" }]
digest = "d1"
signature = "s1"
"""


def parse(text: str, name: str = "game.toml") -> Record:
    return parse_record(text.encode("utf-8"), name)


def load(text: str, name: str = "game.toml"):
    """Read and replay, as `validate` does."""
    return replay(parse(text, name))


def lines_starting(text: str, prefix: str) -> list[int]:
    """1-based numbers of the lines (TOML newlines: LF or CRLF) that start with `prefix`."""
    return [n for n, line in enumerate(text.split("\n"), 1) if line.startswith(prefix)]


def entry_fields(entry: Entry) -> tuple:
    return (entry.move, entry.at, entry.comment, entry.digest, entry.signature, entry.pending)


def assert_same_record(a: Record, b: Record) -> None:
    assert a.game == b.game
    assert a.options == b.options
    assert a.players == b.players
    assert a.setup == b.setup
    assert [entry_fields(e) for e in a.moves] == [entry_fields(e) for e in b.moves]
    assert a.legacy_pending == b.legacy_pending
    assert a.id == b.id
    assert a.result == b.result


ODD3_CELLS = HexHexGrid(3).names  # 19 cells; filling them all ends an odd game of size 3


def finished_odd(result: str = "", plain: bool = False) -> str:
    """A full size-3 Odd board, all black: one group of 19 ≥ 5, odd, so seat 1 wins (R-OD2)."""
    head = 'format = 1\ngame = "odd"\n'
    if plain:
        moves = "moves = [" + ", ".join(f'"b {n}"' for n in ODD3_CELLS) + "]\n"
        return head + moves + "\n[options]\nsize = 3\n" + result
    moves = "".join(f'\n[[moves]]\nmove = "b {n}"\n' for n in ODD3_CELLS)
    return head + "\n[options]\nsize = 3\n" + moves + result


# -- reading (SPEC §3) ---------------------------------------------------------------------------


def test_read_full_spec_example():
    """SPEC §3: every part of the example record is read."""
    rec = parse(FULL_EXAMPLE)
    assert rec.game == "odd"
    assert rec.options == {"size": 5, "min_group": 5}
    assert rec.players == {
        1: {"name": "Alice <alice@example.org>"},
        2: {"name": "Bob <bob@example.org>", "key": "ed25519:abc"},
    }
    assert rec.player_name(1) == "Alice <alice@example.org>"
    assert rec.player_name(2) == "Bob <bob@example.org>"
    assert rec.id == "3f2a0c6d8e9b41f7a5c2d0e4b6a8f1c3"
    assert [entry_fields(e) for e in rec.moves] == [
        ("b e5", dt.datetime(2026, 11, 22, 14, 1, tzinfo=UTC), "opening", None, None, []),
        ("w d4", None, None, "d1", "s1", [{"if": "b c3", "then": "w c4"}]),
    ]
    assert rec.standing_conditions() == [{"if": "b c3", "then": "w c4"}]
    assert rec.result is None
    assert rec.path == "game.toml"


def test_read_plain_moves_array():
    """SPEC §3: a hand-written record may give moves = ["b e5", "w d4"] as a plain array."""
    rec = parse('format = 1\ngame = "odd"\nmoves = ["b e5", "w d4"]\n\n[options]\nsize = 5\n')
    assert [e.move for e in rec.moves] == ["b e5", "w d4"]
    assert all(e.at is None and e.comment is None for e in rec.moves)
    assert rec.options == {"size": 5}


def test_read_moves_tables_with_at_and_comment():
    rec = parse(
        'format = 1\ngame = "odd"\n\n'
        '[[moves]]\nmove = "b e5"\nat = 2026-11-22T14:01:00Z\ncomment = "the centre"\n\n'
        '[[moves]]\nmove = "w d4"\n'
    )
    assert [entry_fields(e) for e in rec.moves] == [
        ("b e5", dt.datetime(2026, 11, 22, 14, 1, tzinfo=UTC), "the centre", None, None, []),
        ("w d4", None, None, None, None, []),
    ]


def test_an_older_records_top_level_pending_is_read_but_not_written_SPEC_9():
    """A top-level [[pending]] stands as the conditions of the next ply; the referee writes
    conditions only into the ply that sets them."""
    rec = parse('format = 1\ngame = "odd"\nmoves = ["b e5"]\n[[pending]]\nif = "w d4"\nthen = "b c3"\n')
    assert rec.standing_conditions() == [{"if": "w d4", "then": "b c3"}]
    assert "pending" not in rec.to_toml()


def test_a_game_id_is_32_lower_case_hex_digits_SPEC_9():
    with pytest.raises(RecordError, match="32 lower-case hex"):
        parse('format = 1\ngame = "odd"\nid = "XYZ"\n')


def test_both_forms_replay_to_the_same_game():
    """SPEC §3: the referee reads both forms; the spelling is free (SPEC §5), the replay the same."""
    plain = load('format = 1\ngame = "odd"\nmoves = ["b e5", "W  D4", "b e6"]\n')
    tables = load(
        'format = 1\ngame = "odd"\n[[moves]]\nmove = "b e5"\n[[moves]]\nmove = "w d4"\n'
        '[[moves]]\nmove = "b e6"\n'
    )
    assert plain.entries == tables.entries == ["b e5", "w d4", "b e6"]
    assert plain.state.stones == tables.state.stones


def test_read_record_from_disk(tmp_path):
    path = tmp_path / "game.toml"
    path.write_text(FULL_EXAMPLE, encoding="utf-8")
    rec = read_record(path)
    assert rec.path == str(path)
    assert [e.move for e in rec.moves] == ["b e5", "w d4"]


def test_read_empty_game_has_no_moves():
    rec = parse('format = 1\ngame = "odd"\n')
    assert rec.moves == [] and rec.result is None and rec.options == {} and rec.players == {}


# -- unknown keys and wrong types (SPEC §3 "Keys other than those shown here are an error") -----


UNKNOWN_KEYS = {
    "top level": 'format = 1\ngame = "odd"\nvariant = "x"\n',
    "[[moves]]": 'format = 1\ngame = "odd"\n[[moves]]\nmove = "b e5"\ntime = 3\n',
    "[[moves]] in plain array": 'format = 1\ngame = "odd"\nmoves = [{ move = "b e5", when = 1 }]\n',
    "[result]": finished_odd("\n[result]\nwinners = [1]\nloser = 2\n"),
    "[[pending]]": 'format = 1\ngame = "odd"\n[[pending]]\nif = "b e5"\nthen = "w d4"\nelse = "w c3"\n',
    "[players] table": 'format = 1\ngame = "odd"\n[players]\n1 = { name = "Ann", email = "a@b" }\n',
    "[players] seat": 'format = 1\ngame = "odd"\n[players]\none = "Ann"\n',
    "[options]": 'format = 1\ngame = "odd"\n[options]\ncolour = "red"\n',
    "[options] of another game": 'format = 1\ngame = "odd"\n[options]\nstones = 30\n',
}


@pytest.mark.parametrize("text", UNKNOWN_KEYS.values(), ids=UNKNOWN_KEYS.keys())
def test_unknown_key_is_record_error(text):
    """SPEC §3: keys other than those shown are an error; SPEC §4: exit 1 (invalid record)."""
    with pytest.raises(RecordError) as info:
        load(text)
    assert info.value.exit_code == 1
    assert info.value.file == "game.toml"


def test_unknown_key_in_setup_is_record_error():
    """SPEC §3: keys other than those shown are an error — Odd has nothing to set up, so a
    [setup] key in an Odd record is unknown."""
    with pytest.raises(RecordError) as info:
        load('format = 1\ngame = "odd"\n[setup]\nhandicap = 3\n')
    assert info.value.exit_code == 1


def test_unknown_key_message_names_the_key():
    with pytest.raises(RecordError) as info:
        parse('format = 1\ngame = "odd"\nvariant = "x"\n')
    assert "variant" in str(info.value)


WRONG_TYPES = {
    "game a number": "format = 1\ngame = 5\n",
    "game missing": "format = 1\n",
    "format a string": 'format = "1"\ngame = "odd"\n',
    "format 2": 'format = 2\ngame = "odd"\n',
    "format a bool": 'format = true\ngame = "odd"\n',
    "options not a table": 'format = 1\ngame = "odd"\noptions = 5\n',
    "players not a table": 'format = 1\ngame = "odd"\nplayers = "Ann"\n',
    "player a number": 'format = 1\ngame = "odd"\n[players]\n1 = 5\n',
    "player without name": 'format = 1\ngame = "odd"\n[players]\n1 = { key = "ed25519:x" }\n',
    "moves a string": 'format = 1\ngame = "odd"\nmoves = "b e5"\n',
    "moves of numbers": 'format = 1\ngame = "odd"\nmoves = [1, 2]\n',
    "move a number": 'format = 1\ngame = "odd"\n[[moves]]\nmove = 5\n',
    "move missing": 'format = 1\ngame = "odd"\n[[moves]]\ncomment = "hi"\n',
    "at a string": 'format = 1\ngame = "odd"\n[[moves]]\nmove = "b e5"\nat = "2026-11-22T14:01:00Z"\n',
    "at a date only": 'format = 1\ngame = "odd"\n[[moves]]\nmove = "b e5"\nat = 2026-11-22\n',
    "comment a number": 'format = 1\ngame = "odd"\n[[moves]]\nmove = "b e5"\ncomment = 5\n',
    "digest a list": 'format = 1\ngame = "odd"\n[[moves]]\nmove = "b e5"\ndigest = ["x"]\n',
    "result not a table": 'format = 1\ngame = "odd"\nresult = 1\n',
    "winners a number": 'format = 1\ngame = "odd"\n[result]\nwinners = 1\n',
    "winners strings": 'format = 1\ngame = "odd"\n[result]\nwinners = ["1"]\n',
    "winners bools": 'format = 1\ngame = "odd"\n[result]\nwinners = [true]\n',
    "winners missing": 'format = 1\ngame = "odd"\n[result]\nreason = "x"\n',
    "reason a number": 'format = 1\ngame = "odd"\n[result]\nwinners = [1]\nreason = 3\n',
    "pending not tables": 'format = 1\ngame = "odd"\npending = ["b e5"]\n',
    "pending if a number": 'format = 1\ngame = "odd"\n[[pending]]\nif = 1\nthen = "w d4"\n',
    "pending without then": 'format = 1\ngame = "odd"\n[[pending]]\nif = "b e5"\n',
}


@pytest.mark.parametrize("text", WRONG_TYPES.values(), ids=WRONG_TYPES.keys())
def test_wrong_type_is_record_error(text):
    """SPEC §3/§4: a record of the wrong shape is invalid (exit 1), never a crash."""
    with pytest.raises(RecordError) as info:
        parse(text)
    assert info.value.exit_code == 1
    assert info.value.file == "game.toml"


def test_format_must_be_the_integer_1():
    """SPEC §3: format = 1 is the record format version; a float is the wrong type."""
    with pytest.raises(RecordError):
        parse('format = 1.0\ngame = "odd"\n')


def test_error_in_a_move_table_names_its_line_and_ply():
    text = 'format = 1\ngame = "odd"\n[[moves]]\nmove = "b e5"\n[[moves]]\nmove = "w d4"\ncomment = 7\n'
    with pytest.raises(RecordError) as info:
        parse(text)
    assert info.value.ply == 2
    assert info.value.line == 6


# -- broken TOML and unreadable files ------------------------------------------------------------


@pytest.mark.parametrize(
    "text, line",
    [
        ('format = 1\ngame = "odd"\n\n[options]\nsize = \n', 5),
        ('format = 1\ngame = "odd"\ngame = "dustin"\n', 3),
        ('format = 1\ngame = "odd\n', 2),
        ('format = 1\ngame = "odd"\n[[moves]]\nmove = "b e5"\n[[moves]]\nmove = b e6\n', 6),
    ],
    ids=["missing value", "duplicate key", "unterminated string", "bare move"],
)
def test_broken_toml_reports_its_line(text, line):
    """SPEC §4: broken TOML is exit 1; the message names the file and the TOML line."""
    with pytest.raises(RecordError) as info:
        parse(text)
    err = info.value
    assert err.exit_code == 1
    assert err.line == line
    assert err.ply is None and err.move is None
    assert str(err).startswith(f"game.toml:{line}: ")


def test_broken_toml_from_disk_names_the_file(tmp_path):
    path = tmp_path / "broken.toml"
    path.write_text('format = 1\ngame = "odd"\n[options\n', encoding="utf-8")
    with pytest.raises(RecordError) as info:
        read_record(path)
    assert info.value.file == str(path)
    assert info.value.line == 3
    assert str(path) in str(info.value)


@pytest.mark.parametrize(
    "data",
    [
        b'format = 1\ngame = "odd"\n[players]\n1 = "Ren\xe9e"\n',  # Latin-1 é
        b'\xff\xfeformat = 1\n',
        b'format = 1\ngame = "odd"\n# \xc3\n',  # cut UTF-8 sequence in a comment
    ],
    ids=["latin-1", "utf-16 bom", "truncated sequence"],
)
def test_non_utf8_bytes_are_record_error(data):
    """SPEC §4: an unreadable record is exit 1, not a crash."""
    with pytest.raises(RecordError) as info:
        parse_record(data, "game.toml")
    assert info.value.exit_code == 1
    assert info.value.file == "game.toml"


def test_missing_file_is_usage_error(tmp_path):
    """SPEC §4: a missing input file is exit 2."""
    path = tmp_path / "nope.toml"
    with pytest.raises(UsageError) as info:
        read_record(path)
    assert info.value.exit_code == 2
    assert str(path) in str(info.value)


def test_directory_instead_of_file_is_usage_error(tmp_path):
    """SPEC §4: an unreadable input file is exit 2."""
    with pytest.raises(UsageError) as info:
        read_record(tmp_path)
    assert info.value.exit_code == 2


# -- the line of each move (SPEC §4: messages name the TOML line) --------------------------------


def test_entry_lines_in_moves_tables():
    text = (
        'format = 1\n'                      # 1
        'game = "odd"\n'                    # 2
        '\n'                                # 3
        '[[moves]]\n'                       # 4
        'move = "b e5"\n'                   # 5
        'at = 2026-11-22T14:01:00Z\n'       # 6
        '\n'                                # 7
        '# a comment between plies\n'       # 8
        '[[moves]]   # ply 2\n'             # 9
        'at = 2026-11-22T15:00:00Z\n'       # 10
        'comment = "move comes last"\n'     # 11
        '# [not a header]\n'                # 12
        'move = "w d4"\n'                   # 13
        '[[moves]]\n'                       # 14
        '  move   =   "b c3"\n'             # 15
    )
    assert [e.line for e in parse(text).moves] == [5, 13, 15]


def test_entry_lines_in_single_line_plain_array():
    text = 'format = 1\ngame = "odd"\nmoves = ["b e5", "w d4"]\n'
    assert [e.line for e in parse(text).moves] == [3, 3]


def test_entry_lines_in_multi_line_plain_array_with_comments():
    text = (
        'format = 1\n'                                  # 1
        'game = "odd"\n'                                # 2
        '# moves = ["x"] is only a comment here\n'      # 3
        'moves = [\n'                                   # 4
        '  "b e5",   # the centre, "quoted" [bracket]\n'  # 5
        '  # a comment line with "quotes" and ]\n'      # 6
        '\n'                                            # 7
        "  'w d4', \"b d5\",\n"                         # 8
        '  # another\n'                                 # 9
        '  "w \\"c3\\"",\n'                             # 10: escaped quotes in a string
        '  "b #6",\n'                                   # 11: a hash inside a string
        '  "w ]"\n'                                     # 12: a bracket inside a string
        ']\n'                                           # 13
        '[options]\n'                                   # 14
        'size = 5\n'                                    # 15
    )
    rec = parse(text)
    assert [e.move for e in rec.moves] == ["b e5", "w d4", "b d5", 'w "c3"', "b #6", "w ]"]
    assert [e.line for e in rec.moves] == [5, 8, 8, 10, 11, 12]


def test_entry_lines_in_an_array_of_inline_tables():
    text = (
        'format = 1\n'                                                      # 1
        'game = "odd"\n'                                                    # 2
        'moves = [\n'                                                       # 3
        '  { move = "b e5", comment = "centre, {braces} and \\"quotes\\"" },\n'  # 4
        '  { move = "w a1", at = 2026-11-01T10:00:00Z, comment = "corner" },\n'  # 5
        '  "b a2", { move = "w e5" },\n'                                    # 6
        ']\n'
    )
    rec = parse(text)
    assert [e.move for e in rec.moves] == ["b e5", "w a1", "b a2", "w e5"]
    assert [e.line for e in rec.moves] == [4, 5, 6, 6]


def test_entry_lines_with_crlf_line_endings():
    """A record saved on Windows (CRLF) still gives the right lines."""
    text = 'format = 1\r\ngame = "odd"\r\n\r\n[[moves]]\r\nmove = "b e5"\r\n\r\n[[moves]]\r\nmove = "w d4"\r\n'
    assert [e.line for e in parse(text).moves] == [5, 8]
    plain = 'format = 1\r\ngame = "odd"\r\nmoves = [\r\n  "b e5",\r\n  "w d4",\r\n]\r\n'
    assert [e.line for e in parse(plain).moves] == [4, 5]


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85"], ids=["LS", "PS", "NEL"])
def test_entry_lines_after_unicode_line_separator_in_a_comment(char):
    """SPEC §4: the message names the TOML line. TOML lines end only at LF (or CRLF); a U+2028
    pasted into a comment or a name is an ordinary character and must not shift the count."""
    text = (
        'format = 1\n'                                  # 1
        'game = "odd"\n'                                # 2
        f'[players]\n1 = "Ann{char}Smith"\n'            # 3, 4
        '[[moves]]\n'                                   # 5
        'move = "b e5"\n'                               # 6
        f'comment = "one{char}two"\n'                   # 7
        '[[moves]]\n'                                   # 8
        'move = "b e5"\n'                               # 9: occupied
    )
    rec = parse(text)
    assert [e.line for e in rec.moves] == [6, 9]
    with pytest.raises(RefereeError) as info:
        replay(rec)
    assert info.value.line == 9


def test_replay_error_names_the_move_line():
    """SPEC §4: an illegal move is exit 1 and the message names file, line, ply and move."""
    text = 'format = 1\ngame = "odd"\nmoves = [\n  "b e5",\n  "w d4",\n  "b E5",\n]\n'
    with pytest.raises(RefereeError) as info:
        load(text)
    err = info.value
    assert err.exit_code == 1
    assert (err.file, err.line, err.ply, err.move) == ("game.toml", 6, 3, "b E5")


# -- writing (SPEC §3: the referee always writes [[moves]] tables) -------------------------------


def test_written_record_uses_moves_tables_and_z_times():
    rec = parse('format = 1\ngame = "odd"\nmoves = ["b e5", "w d4"]\n')
    rec.moves[0].at = dt.datetime(2026, 11, 22, 14, 1, tzinfo=UTC)
    rec.moves[0].comment = "opening"
    text = rec.to_toml()
    assert "moves = [" not in text
    assert len(lines_starting(text, "[[moves]]")) == 2
    assert "at = 2026-11-22T14:01:00Z\n" in text
    doc = tomllib.loads(text)
    assert doc["format"] == 1
    assert doc["game"] == "odd"
    assert doc["moves"] == [
        {"move": "b e5", "at": dt.datetime(2026, 11, 22, 14, 1, tzinfo=UTC), "comment": "opening"},
        {"move": "w d4"},
    ]
    # Nothing the reader did not have is invented.
    assert set(doc) == {"format", "game", "moves"}


def test_written_record_section_order_and_result():
    rec = Record(
        game="odd",
        options={"size": 3, "min_group": 5},
        players={1: {"name": "Ann"}, 2: {"name": "Bo", "key": "ed25519:k"}},
        moves=[Entry("b a1")],
        result={"winners": [1], "reason": "1 groups of 5 or more: odd"},
    )
    text = rec.to_toml()
    order = [
        lines_starting(text, "format")[0],
        lines_starting(text, "game")[0],
        lines_starting(text, "[options]")[0],
        lines_starting(text, "[players")[0],
        lines_starting(text, "[[moves]]")[0],
        lines_starting(text, "[result]")[0],
    ]
    assert order == sorted(order)
    back = parse(text)
    assert_same_record(rec, back)
    assert back.result_line == lines_starting(text, "[result]")[0]


def test_now_is_utc_whole_seconds_and_written_with_z(monkeypatch):
    from referee.record import clock

    monkeypatch.delenv("REFEREE_NOW", raising=False)
    stamp = clock.now()
    assert stamp.tzinfo is not None and stamp.utcoffset() == dt.timedelta(0)
    assert stamp.microsecond == 0
    text = Entry("b e5", at=stamp).to_toml()
    assert re.search(r"^at = \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$", text, re.M)


def test_round_trip_of_the_spec_example(tmp_path):
    rec = parse(FULL_EXAMPLE)
    path = tmp_path / "game.toml"
    write_atomic(path, rec.to_toml())
    assert_same_record(rec, read_record(path))


def test_round_trip_keeps_setup_tables():
    """SPEC §3: [setup] (crab deal, deck tables; hermetica board) survives being rewritten."""
    rec = Record(
        game="crab",
        options={"players": 2},
        setup={
            "deal": list(range(1, 17)),
            "deals": {"2": list(range(17, 33))},
            "deck": [{"id": 1, "symbols": ["shell", "wave"]}, {"id": 2, "symbols": []}],
        },
        moves=[Entry("1: 7 2,0 90 | 2: 3 0,1 0")],
    )
    text = rec.to_toml()
    back = parse(text)
    assert_same_record(rec, back)
    assert back.moves[0].line == lines_starting(text, "move =")[0]


# Text that stresses the writer: quotes, backslashes, newlines, control characters, TOML syntax,
# non-BMP and combining characters, Unicode line separators.
tricky_text = st.text(
    alphabet=st.one_of(
        st.sampled_from(list('"\'\\\n\r\t#[]{}=,\x00\x1f\x7f\u2028\u2029\x85é😀\u0301 ')),
        st.characters(exclude_categories=("Cs",)),
    ),
    max_size=30,
)
datetimes = st.one_of(
    st.none(),
    st.datetimes(
        min_value=dt.datetime(1970, 1, 1),
        max_value=dt.datetime(2100, 1, 1),
        timezones=st.sampled_from([UTC, dt.timezone(dt.timedelta(hours=5, minutes=30))]),
    ),
    st.datetimes(min_value=dt.datetime(1970, 1, 1), max_value=dt.datetime(2100, 1, 1)),
)
entries = st.builds(
    Entry,
    move=tricky_text.filter(bool),
    at=datetimes,
    comment=st.none() | tricky_text,
    digest=st.none() | st.text(alphabet="0123456789abcdef", max_size=64),
    signature=st.none() | tricky_text,
    pending=st.lists(st.fixed_dictionaries({"if": tricky_text, "then": tricky_text}), max_size=2),
)
players = st.dictionaries(
    st.integers(1, 4),
    st.one_of(
        st.builds(lambda n: {"name": n}, tricky_text),
        st.builds(lambda n, k: {"name": n, "key": k}, tricky_text, tricky_text),
    ),
    max_size=4,
)
records = st.builds(
    Record,
    game=st.sampled_from(["odd", "dustin", "hermit", "crab"]),
    options=st.dictionaries(
        st.sampled_from(["size", "min_group", "board", "stones"]),
        st.integers(-5, 300) | tricky_text,
        max_size=3,
    ),
    players=players,
    moves=st.lists(entries, max_size=6),
    id=st.none() | st.text(alphabet="0123456789abcdef", min_size=32, max_size=32),
    result=st.none()
    | st.fixed_dictionaries({"winners": st.lists(st.integers(1, 4), max_size=4), "reason": tricky_text}),
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(rec=records)
def test_write_then_read_gives_the_same_record(rec):
    """SPEC §3: what the referee writes, it reads back unchanged — comments with quotes,
    backslashes, newlines and any Unicode included."""
    text = rec.to_toml()
    back = parse(text)
    assert_same_record(rec, back)
    # And writing it again gives the same text: the canonical form is stable.
    assert back.to_toml() == text


# Only the text before and between the moves matters for their lines: names, comments, the result.
records_for_lines = st.builds(
    Record,
    game=st.just("odd"),
    players=st.dictionaries(st.integers(1, 2), st.builds(lambda n: {"name": n}, tricky_text), max_size=2),
    moves=st.lists(
        st.builds(Entry, move=st.just("b e5"), comment=st.none() | tricky_text), min_size=1, max_size=3
    ),
    result=st.none() | st.builds(lambda r: {"winners": [1], "reason": r}, tricky_text),
)


@settings(max_examples=100, deadline=None)
@given(rec=records_for_lines)
def test_written_record_knows_the_line_of_every_move(rec):
    """SPEC §4: messages name the TOML line; after any rewrite each Entry.line is the line of
    its `move =` and result_line the line of [result]."""
    text = rec.to_toml()
    back = parse(text)
    assert [e.line for e in back.moves] == lines_starting(text, "move =")
    if rec.result is not None:
        assert back.result_line == lines_starting(text, "[result]")[0]


# -- write_atomic (SPEC §3: replaced atomically; a failed write leaves the original unchanged) ---


def test_write_atomic_replaces_the_file_whole(tmp_path):
    path = tmp_path / "game.toml"
    path.write_text("x" * 10_000 + "\n", encoding="utf-8")
    write_atomic(path, 'format = 1\ngame = "odd"\n')
    assert path.read_bytes() == b'format = 1\ngame = "odd"\n'
    assert os.listdir(tmp_path) == ["game.toml"]


def test_write_atomic_creates_a_new_file_with_unix_newlines_and_utf8(tmp_path):
    path = tmp_path / "new.toml"
    write_atomic(path, 'comment = "Renée 😀"\n', force=False)
    assert path.read_bytes() == 'comment = "Renée 😀"\n'.encode("utf-8")
    assert os.listdir(tmp_path) == ["new.toml"]


def test_write_atomic_new_file_follows_umask(tmp_path):
    old = os.umask(0o027)
    try:
        path = tmp_path / "new.toml"
        write_atomic(path, "a = 1\n")
    finally:
        os.umask(old)
    assert path.stat().st_mode & 0o777 == 0o640


def test_write_atomic_keeps_the_permissions_of_the_old_file(tmp_path):
    path = tmp_path / "game.toml"
    path.write_text("old\n", encoding="utf-8")
    path.chmod(0o604)
    write_atomic(path, "new\n")
    assert path.read_text(encoding="utf-8") == "new\n"
    assert path.stat().st_mode & 0o777 == 0o604


def test_write_atomic_refuses_existing_file_without_force(tmp_path):
    """SPEC §4: an output that exists without --force is exit 2; the file is left alone."""
    path = tmp_path / "game.toml"
    path.write_bytes(b"old content\n")
    with pytest.raises(UsageError) as info:
        write_atomic(path, "new content\n", force=False)
    assert info.value.exit_code == 2
    assert path.read_bytes() == b"old content\n"
    assert os.listdir(tmp_path) == ["game.toml"]


def _boom_oserror(*args, **kwargs):
    raise OSError(28, "No space left on device")


@pytest.mark.parametrize("target", ["replace", "fsync"])
def test_write_atomic_failure_keeps_old_file_and_leaves_no_temporary(tmp_path, monkeypatch, target):
    """SPEC §3: a failed write leaves the original byte-for-byte unchanged; SPEC §4: exit 2."""
    path = tmp_path / "game.toml"
    original = b'format = 1\ngame = "odd"\nmoves = ["b e5"]\n'
    path.write_bytes(original)
    monkeypatch.setattr(files_module.os, target, _boom_oserror)
    with pytest.raises(UsageError) as info:
        write_atomic(path, 'format = 1\ngame = "odd"\n[[moves]]\nmove = "b e5"\n')
    monkeypatch.undo()
    assert info.value.exit_code == 2
    assert path.read_bytes() == original
    assert os.listdir(tmp_path) == ["game.toml"]


def test_write_atomic_interrupted_write_keeps_old_file_and_leaves_no_temporary(tmp_path, monkeypatch):
    """An interruption mid-write (here a KeyboardInterrupt from fsync) must not leave debris."""
    path = tmp_path / "game.toml"
    path.write_bytes(b"old\n")

    def interrupt(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(files_module.os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        write_atomic(path, "new\n")
    monkeypatch.undo()
    assert path.read_bytes() == b"old\n"
    assert os.listdir(tmp_path) == ["game.toml"]


def test_write_atomic_into_missing_directory_is_usage_error(tmp_path):
    """SPEC §4: an output that cannot be written is exit 2."""
    with pytest.raises(UsageError) as info:
        write_atomic(tmp_path / "no" / "such" / "dir.toml", "a = 1\n")
    assert info.value.exit_code == 2
    assert os.listdir(tmp_path) == []


# -- replay checks that belong to the record (SPEC §1, §3) ---------------------------------------


@pytest.mark.parametrize("plain", [False, True], ids=["tables", "plain"])
def test_finished_record_without_result_is_valid(plain):
    """SPEC §3: a finished record without [result] is valid."""
    play = load(finished_odd(plain=plain))
    assert play.plies == 19
    outcome = play.outcome()
    assert outcome is not None and outcome.winners == (1,)


def test_finished_record_with_matching_result_is_valid():
    """SPEC §3: only winners is checked; the reason may be any text."""
    play = load(finished_odd('\n[result]\nwinners = [1]\nreason = "anything at all"\n'))
    assert play.outcome().winners == (1,)


def test_result_disagreeing_with_moves_is_record_error_at_result_line():
    """SPEC §3: a [result] whose winners disagree with the moves makes the record invalid."""
    text = finished_odd('\n[result]\nwinners = [2]\nreason = "1 groups of 5 or more: odd"\n')
    with pytest.raises(RecordError) as info:
        load(text)
    err = info.value
    assert err.exit_code == 1
    assert err.line == lines_starting(text, "[result]")[0]
    assert str(err).startswith(f"game.toml:{err.line}: ")


def test_result_disagreeing_with_plain_array_record_names_result_line():
    text = finished_odd("\n# the end\n[result]   # written by hand\nwinners = []\n", plain=True)
    with pytest.raises(RecordError) as info:
        load(text)
    assert info.value.line == lines_starting(text, "[result]")[0]


def test_result_on_unfinished_game_is_record_error():
    """SPEC §3: [result] is written when the game ends; on a game still going it is invalid."""
    text = 'format = 1\ngame = "odd"\nmoves = ["b e5", "w d4"]\n\n[result]\nwinners = [1]\n'
    with pytest.raises(RecordError) as info:
        load(text)
    assert info.value.exit_code == 1
    assert info.value.line == 5


def test_result_after_resignation():
    """R-G2: resign by the seat to move ends the game; the other seat wins."""
    base = 'format = 1\ngame = "odd"\nmoves = ["b e5", "resign"]\n\n[result]\n'
    assert load(base + "winners = [1]\n").outcome().winners == (1,)
    with pytest.raises(RecordError) as info:
        load(base + "winners = [2]\n")
    assert info.value.line == 5


@pytest.mark.parametrize("game", ["chess", "", "odd-ish"])
def test_unknown_game_in_record_is_record_error(game):
    """SPEC §4: an unknown game in a record is exit 1 (not 2: it is the record that is wrong)."""
    with pytest.raises(RecordError) as info:
        load(f'format = 1\ngame = "{game}"\n')
    assert info.value.exit_code == 1
    assert info.value.file == "game.toml"


BAD_OPTIONS = {
    "size too big": ("odd", "size = 13"),
    "size too small": ("odd", "size = 2"),
    "size a string": ("odd", 'size = "5"'),
    "size a float": ("odd", "size = 5.0"),
    "size a bool": ("odd", "size = true"),
    "min_group too small": ("odd", "min_group = 1"),
    "dustin size": ("dustin", "size = 0"),
    "hermit board": ("hermit", 'board = "triangle"'),
    "hermit board a number": ("hermit", "board = 1"),
    "hermit stones": ("hermit", "stones = 0"),
    "hermit square size": ("hermit", 'board = "square"\nsize = 10'),
    "hermit hex size": ("hermit", 'board = "hex"\nsize = 8'),
}


@pytest.mark.parametrize("game, option", BAD_OPTIONS.values(), ids=BAD_OPTIONS.keys())
def test_bad_option_value_in_record_is_record_error(game, option):
    """SPEC §1: a wrong type or an out-of-range value is exit 1 when found in a record."""
    with pytest.raises(RecordError) as info:
        load(f'format = 1\ngame = "{game}"\n\n[options]\n{option}\n')
    assert info.value.exit_code == 1
    assert info.value.file == "game.toml"


def test_good_options_in_record_are_used():
    play = load('format = 1\ngame = "odd"\n[options]\nsize = 3\nmin_group = 2\n')
    assert play.options == {"size": 3, "min_group": 2}
    assert len(play.state.grid) == 19


def test_player_seat_beyond_the_game_is_record_error():
    with pytest.raises(RecordError) as info:
        load('format = 1\ngame = "odd"\n[players]\n3 = "Cy"\n')
    assert info.value.exit_code == 1


@pytest.mark.parametrize("comment, move, refused", [
    ("x" * 600, "b a1", None),  # a long comment is fine
    ("x" * 10_001, "b a1", "a text of 10001 characters is too long here (at most 10000)"),
    (None, "b " + "a" * 600, "a text of 602 characters is too long here (at most 500)"),
])
def test_texts_are_held_to_their_limits_at_the_ply_that_holds_them(comment, move, refused):
    table = f'[[moves]]\nmove = "{move}"\n' + (f'comment = "{comment}"\n' if comment else "")
    text = 'format = 1\ngame = "odd"\n\n[[moves]]\nmove = "w c3"\n\n' + table
    if refused is None:
        assert parse_record(text.encode()).moves[1].comment == comment
        return
    with pytest.raises(RecordError) as caught:
        parse_record(text.encode())
    assert refused in str(caught.value) and caught.value.ply == 2 and caught.value.line == 8  # the move's line


def test_long_conditional_moves_stay_in_their_ply():
    """tomli-w writes a long array of tables as [[pending]] headers, which would end the ply's
    table and carry its digest off into a top-level [[pending]]: the referee wrote a record it
    could not read back. Hermetica's whole turns make such conditions."""
    long_turn = "F c3=c4-c5; W d2-d3; E a1-a2"
    entry = Entry("b a1", pending=[{"if": long_turn * 2, "then": long_turn * 2}] * 2, digest="sha256:" + "0" * 64)
    back = parse(Record("odd", moves=[entry]).to_toml())
    assert back.moves[0].pending == entry.pending and back.moves[0].digest == entry.digest
    assert back.legacy_pending == []
