"""Fuzzing: records and move strings from strangers never crash the referee or lose a file.

Every case starts from a real sample game and mangles it — plies dropped, swapped, duplicated
or edited, values of the wrong type, unknown keys, huge numbers, deep nesting, non-UTF-8 bytes,
very long strings, files cut off mid-write — or types a random move into a real position, or
damages a deck or board file or a mail in transit. Each must end in success or a RefereeError
with a message (exit 1 or 2 on the command line), and a refused `referee move` must leave the
record byte-for-byte unchanged.

The cases are the same on every run (see fuzz_support.fuzz_settings). The number of cases per
test is in EXAMPLES; together they make the count the README gives.
"""

from __future__ import annotations

import json
import os
import re
import tempfile
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from typer.testing import CliRunner

from fuzz_support import (
    SAMPLE_BYTES,
    alphabet_of,
    damaged_bytes,
    fuzz_settings,
    move_strings,
    mutated_data_files,
    mutated_records,
    replays_of_samples,
    survives,
)
from referee.play import keys, reports
from referee.cli import app
from referee.games import GAMES
from referee.record.values import Record
from referee.record.reading import parse_record
from referee.render import page
from referee.render.drawing import svg_diagram, text_diagram
from referee.play.replay import Replay, replay, start

# Long runs (many generated inputs, subprocesses): `python -m pytest -m "not slow"` skips them.
pytestmark = pytest.mark.slow

# Cases per test; the sum over the file is the number the README reports. A longer hunt:
# REFEREE_FUZZ_SCALE=20 python -m pytest tests/test_fuzz.py (twenty times as many cases).
SCALE = float(os.environ.get("REFEREE_FUZZ_SCALE", "1"))
EXAMPLES = {
    name: round(count * SCALE)
    for name, count in {
        "records": 2500,
        "bytes": 2500,
        "moves": 1000,  # per game id below, so six times this
        "cli": 600,
        "data_files": 1000,
        "mail": 500,
        "signed": 500,
    }.items()
}
GAME_IDS = ("odd", "dustin", "hermit", "harmijan", "hermetica", "crab")

PLAYS = replays_of_samples()


def _after(sample: Replay, plies: int) -> Replay:
    """The sample game as it stood after its first `plies` plies, played again from the start
    as `referee move` plays a game."""
    play = start(sample.record)
    for entry in sample.record.moves[:plies]:
        play.push(entry.move, at=entry.at, leave=entry.leave, offer=entry.offer)
    return play
BY_GAME = {g: sorted(n for n, p in PLAYS.items() if p.game.id == g) for g in GAME_IDS}


def check_record(data: bytes, name: str) -> None:
    """Everything a reader of this record can ask for: the replay, the diagrams, the status."""
    play = replay(parse_record(data, name))
    assert play.plies == len(play.record.moves)
    text_diagram(play)
    assert_bounded(svg_diagram(play))
    json.dumps(reports.status(play))
    if play.plies:
        text_diagram(play, 0)


def assert_bounded(svg: str) -> None:
    """Pictures are bounded (SPEC §9): whatever the names, options and comments, an SVG is
    stated at most page.MAX_WIDTH × page.MAX_HEIGHT."""
    match = re.match(r'<svg [^>]*width="([0-9.]+)" height="([0-9.]+)"', svg)
    assert match and float(match[1]) <= page.MAX_WIDTH and float(match[2]) <= page.MAX_HEIGHT


@fuzz_settings(EXAMPLES["records"])
@given(mutated_records())
def test_mutated_records_are_read_or_refused(case):
    name, data = case
    survives(lambda: check_record(data, name))


@fuzz_settings(EXAMPLES["bytes"])
@given(damaged_bytes())
def test_damaged_bytes_are_read_or_refused(case):
    name, data = case
    survives(lambda: check_record(data, name))


@fuzz_settings(EXAMPLES["data_files"])
@given(mutated_data_files())
def test_mangled_deck_and_board_files_are_taken_or_refused(case):
    """What `referee new` does with a data file: a ValueError is its refusal (exit 2); the
    record it writes then replays, or is refused with a RefereeError."""
    game_id, option, content = case
    game = GAMES[game_id]
    options = game.resolve_options({})
    try:
        setup = game.new_setup(options, {option: content}, 7)
    except ValueError as exc:
        assert str(exc)
        return
    record = Record(game_id, options, setup=setup)
    survives(lambda: check_record(record.to_toml().encode("utf-8"), "new.toml"))


def _sample_mail() -> bytes:
    from referee.correspondence.mail import build_message

    play = PLAYS["odd/odd-in-progress.toml"]
    data = SAMPLE_BYTES["odd/odd-in-progress.toml"]
    message = build_message(play, record_name="game.toml", record_data=data, body=text_diagram(play),
                            svg=svg_diagram(play), png=None, to="bo@example.org")
    return bytes(message)


MAIL = _sample_mail()
MAIL_SPLICES = [b"\r\n", b"\n\n", b"=?utf-8?b?", b"--", b"boundary=", b"filename*=utf-8''%FF%FE",
                b"Content-Transfer-Encoding: base64\n", b"\xff\xfe", b'name="x.toml"\n',
                b"application/toml", b"Content-Type: multipart/mixed\n"]


@fuzz_settings(EXAMPLES["mail"])
@given(st.lists(st.tuples(st.integers(0, 5), st.floats(0, 1), st.integers(1, 400),
                          st.sampled_from(MAIL_SPLICES)), min_size=1, max_size=4))
def test_damaged_mail_is_received_or_refused(damage):
    """`referee receive` on a mail mangled in transit: the record is taken out and checked, or
    the message is refused with a RefereeError."""
    from referee.correspondence.mail import record_from_message

    data = bytearray(MAIL)
    for kind, where, size, splice in damage:
        at = int(where * len(data))
        if kind == 0:
            del data[at:]
        elif kind == 1:
            del data[at:at + size]
        elif kind == 2:
            data[at:at] = splice
        elif kind == 3:
            data[at:at] = bytes(data[at:at + size]) * 2
        elif kind == 4 and data:
            data[min(at, len(data) - 1)] = size % 256
        else:
            data = bytearray(bytes(data).replace(b"application/toml", splice, 1))

    def receive():
        attached = record_from_message(bytes(data), "from-ann.eml")
        replay(parse_record(attached.record, attached.name))

    survives(receive)


def _signed_game() -> tuple[bytes, dict[int, str]]:
    """A short Odd game in which both seats sign, one ply carrying conditional moves, and the
    public key of each seat."""
    from referee.record import signing
    from referee.play.turn import take_turn

    signers = {seat: signing.load_signer(signing.new_key_pair()[0]) for seat in (1, 2)}
    players = {seat: {"name": name, "key": signers[seat].public} for seat, name in ((1, "Ann"), (2, "Bo"))}
    play = replay(Record("odd", {"size": 3, "min_group": 2}, players, id="0" * 32))
    for seat, move, conditions in ((1, "b b2", ()), (2, "w c3", ()), (1, "b a1", (("w e5", "b c5"),)),
                                   (2, "w e5", ()), (2, "w a3", ())):
        play = take_turn(play, move, key=signers[seat], conditions=list(conditions)).play
    return play.record.to_toml().encode("utf-8"), signers


SIGNED, SIGNERS = _signed_game()
SIGNED_KEYS = {seat: signer.public for seat, signer in SIGNERS.items()}


@fuzz_settings(EXAMPLES["signed"])
@given(st.lists(st.tuples(st.sampled_from(["drop", "copy", "swap", "signature", "resign", "key", "then"]),
                          st.integers(0, 10**6), st.integers(0, 10**6)), min_size=1, max_size=3))
def test_a_hand_edited_signed_game_never_lets_a_forged_ply_through_SPEC_9(edits):
    """Lines of a signed record dropped, copied, swapped, signatures moved between plies, an
    unsigned resignation appended, a key or a conditional reply changed: the record is refused,
    or every ply a signing seat must sign carries that seat's valid signature."""
    from referee.record import seal, signing

    lines = SIGNED.decode("utf-8").split("\n")
    signatures = [line for line in lines if line.startswith("signature =")]
    for kind, a, b in edits:
        i, j = a % len(lines), b % len(lines)
        if kind == "drop":
            del lines[i]
        elif kind == "copy":
            lines.insert(j, lines[i])
        elif kind == "swap":
            lines[i], lines[j] = lines[j], lines[i]
        elif kind == "signature" and lines[i].startswith("signature ="):
            lines[i] = signatures[b % len(signatures)]
        elif kind == "resign":
            lines[-1:] = ["[[moves]]", 'move = "resign"', ""]
        elif kind == "key":
            lines = [line.replace(SIGNED_KEYS[1], SIGNED_KEYS[2], 1) for line in lines]
        elif kind == "then":
            lines = [line.replace('then = "b c5"', 'then = "b a5"') for line in lines]
    data = "\n".join(lines).encode("utf-8")

    def check():
        play = replay(parse_record(data, "signed.toml"))
        keys.check_signatures(play)
        public = play.record.keys()
        for ply in seal.needs_signature(play.record, play.movers, play.written_for()):
            seat, entry = play.movers[ply - 1], play.record.moves[ply - 1]
            assert entry.signature and signing.signature_valid(public[seat], play.digests[ply - 1], entry.signature)

    survives(check)


EXTRAS = ['offer = "draw"', 'comment = "from Bo"', "leave = [2027-01-01T00:00:00Z, 2027-01-02T00:00:00Z]",
          'pending = [{ if = "w a5", then = "b c1" }]', "at = 2026-01-01T00:00:00Z"]


@fuzz_settings(EXAMPLES["signed"])
@given(st.lists(st.tuples(st.integers(1, 6), st.sampled_from(EXTRAS)), min_size=1, max_size=3))
def test_a_resealed_edit_of_an_automatic_ply_never_speaks_for_its_seat_SPEC_9(edits):
    """Bo adds a field to any ply (Ann's automatic reply at ply 5 among them), works the whole
    chain out again and signs every ply of his own afresh: the record is refused, or every ply
    written for a seat carries only its move and its cause's stamp (or none, without a clock)
    unless that seat signed it."""
    from referee.record import seal

    tables = SIGNED.decode("utf-8").split("[[moves]]\n")
    for ply, line in edits:
        if ply < len(tables):
            key = line.split(" =")[0]
            kept = [row for row in tables[ply].split("\n") if not row.startswith(key + " =")]
            tables[ply] = line + "\n" + "\n".join(kept)

    def check():
        record = parse_record("[[moves]]\n".join(tables).encode("utf-8"), "resealed.toml")
        digests = seal.chain(record, [entry.move for entry in record.moves])
        for number, (entry, digest) in enumerate(zip(record.moves, digests), 1):
            entry.digest = digest
            if number in (2, 4, 6):  # Bo's own plies: his key signs whatever he likes
                entry.signature = SIGNERS[2].sign(digest)
        play = replay(parse_record(record.to_toml().encode("utf-8"), "resealed.toml"))
        keys.check_signatures(play)
        for ply in play.written_for():
            entry = play.record.moves[ply - 1]
            if entry.signature is None:
                assert entry.comment is None and entry.offer is None and entry.leave is None
                assert not entry.pending and entry.at in (None, play.record.moves[ply - 2].at)

    survives(check)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_move_strings_are_played_or_refused(game_id):
    names = BY_GAME[game_id]
    assert names, f"no sample game of {game_id} to fuzz"
    alphabet = sorted({t for n in names for t in alphabet_of(PLAYS[n])})
    legal = sorted({e for n in names for e in PLAYS[n].entries})

    @fuzz_settings(EXAMPLES["moves"])
    @given(st.sampled_from(names), st.integers(0, 10**6), move_strings(alphabet, legal))
    def run(name, where, text):
        sample = PLAYS[name]
        play = _after(sample, where % (sample.plies + 1))
        plies = play.plies
        if survives(lambda: play.push(text)) is not None:
            # A refused move leaves the game exactly as it was.
            assert play.plies == plies and len(play.line) == plies + 1
            return
        # A move the referee accepts is one it can draw and replay from its canonical form.
        text_diagram(play)
        svg_diagram(play)
        again = _after(sample, plies)
        again.push(str(play.last_move()))
        assert again.entries == play.entries

    run()


COMMANDS = [
    ("validate", "--json"), ("status", "--json"), ("status",), ("show",),
    ("show", "--format", "svg"), ("moves", "--json"), ("move",), ("move",), ("move",),
]


@fuzz_settings(EXAMPLES["cli"])
@given(
    st.one_of(mutated_records(), damaged_bytes(), st.sampled_from(sorted(SAMPLE_BYTES.items()))),
    st.sampled_from(COMMANDS),
    st.data(),
)
def test_the_command_line_answers_every_record_with_an_exit_code(case, command, data):
    name, record = case
    runner = CliRunner()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / Path(name).name
        path.write_bytes(record)
        args = [command[0], *command[1:], str(path)]
        if command[0] == "move":
            play = PLAYS.get(name)
            legal = play.entries if play else ["b e5"]
            alphabet = alphabet_of(play) if play else ["b", "e5"]
            # `--` so that a move like "-3" reaches the referee instead of the option parser.
            args = ["move", "--", str(path), data.draw(move_strings(alphabet, legal), label="move")]
        if command[0] == "moves" and "hermetica" in name:
            return  # listing a whole Hermetica turn tree is the benchmark's business, not this
        result = runner.invoke(app, args)
        assert_clean_exit(result, command[0])
        after = path.read_bytes()
        if command[0] == "move":
            if result.exit_code != 0:
                assert after == record, "a refused move changed the record"
            else:
                # What the referee writes, it reads back as a valid game.
                replay(parse_record(after, str(path)))
        else:
            assert after == record
        # The record's lock (files.locked) stays beside it by design; nothing else may.
        left = [n for n in os.listdir(folder) if n != f".{path.name}.lock"]
        assert left == [path.name], "a temporary file was left behind"


def assert_clean_exit(result, command: str) -> None:
    """Exit 0, 1 or 2; never a traceback; an error is one `error: …` line on stderr, except
    from `validate`, which reports every file on stdout (`--json`: one JSON document)."""
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert result.exit_code in (0, 1, 2), result.output
    assert "Traceback" not in result.output
    if command == "validate":
        report = json.loads(result.stdout)
        assert len(report) == 1 and report[0]["valid"] == (result.exit_code == 0)
        assert result.stderr == ""
    elif result.exit_code:
        assert result.stderr.startswith("error: "), result.stderr
        assert result.stderr.count("\n") == 1, result.stderr
