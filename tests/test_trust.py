"""Trust under attack (SPEC §9): every finding of a hostile correspondent, each answered with a
clear exit code, within bounded work, and with the record left as it was. (Forged moves, keys
and conditional replies are in test_mail.py, beside the signing they attack.)
"""

from __future__ import annotations

import email
import email.policy
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from referee.record import files
from referee.play import game_file as play, reports
from referee.record.reading import parse_record
from referee.play.replay import Replay

ODD3 = ["new", "odd", "-O", "size=3", "-O", "min_group=2"]


@pytest.fixture
def game(cli):
    assert cli(*ODD3, "-o", "game.toml", "--player", "1=Ann <ann@example.org>",
               "--player", "2=Bo <bo@example.org>").exit_code == 0
    return Path("game.toml")


# -- bounded work ----------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "a" + ".a" * 40_000 + " = 1\n",
    "[" + "a." * 40_000 + "a]\n",
    "x = {" + "a." * 40_000 + "a = 1}\n",
], ids=["dotted key", "dotted table header", "dotted key in an inline table"])
def test_a_key_of_thousands_of_dotted_parts_is_refused_at_once(cli, text):
    """tomllib's time and memory grow with the square of a dotted key's parts (80 KB: 9 GB)."""
    Path("deep.toml").write_text('format = 1\ngame = "odd"\n' + text)
    result = cli("validate", "deep.toml")
    assert result.exit_code == 1 and "dotted parts" in result.output


@pytest.mark.parametrize("body", ["a = " + "[" * 2_000_000, "[" * 2_000_000 + "a.b]"],
                         ids=["nested arrays", "a header of brackets"])
def test_a_line_of_millions_of_brackets_is_refused_at_once(tmp_path, body):
    """The scans that decide which TOML reader reads a record once took time quadratic in such
    a line (200,000 brackets: a minute; a 4 MB record: days). In a process of its own, so that a
    relapse fails here after a minute instead of hanging the suite."""
    record = tmp_path / "deep.toml"
    record.write_text('format = 1\ngame = "odd"\n' + body + "\n")
    done = subprocess.run([sys.executable, "-m", "referee", "validate", str(record)],
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 1 and "broken TOML" in done.stdout + done.stderr


def test_a_board_file_with_a_deep_key_is_refused_at_once(cli):
    Path("board.toml").write_text("a" + ".a" * 40_000 + " = 1\n")
    result = cli("new", "hermetica", "-o", "h.toml", "-O", "board=board.toml")
    assert result.exit_code == 2 and "dotted parts" in result.stderr


@pytest.mark.parametrize("offset", ["10_000_001", "10" * 400])
def test_a_board_file_with_huge_offsets_is_refused(cli, offset):
    """A 400-byte record whose board offset is 10,000,001 once drew a 30 MB picture and asked
    resvg for 739 GB; longer numbers ended in tracebacks."""
    board = (Path(__file__).parent.parent / "referee" / "data" / "hermetica-board-standard.toml").read_text()
    board = board.replace("columns = {", f"offsets = {{ a = {offset}, b = 2, c = 1, d = 0, e = 1, f = 2, g = 3 }}\ncolumns = {{")
    Path("board.toml").write_text(board)
    result = cli("new", "hermetica", "-o", "h.toml", "-O", "board=board.toml")
    assert result.exit_code == 2 and "offset" in result.stderr and "Traceback" not in result.output
    record = 'format = 1\ngame = "hermetica"\n[setup.board]\n' + board.split("[sun]")[0].split("\n", 5)[-1]
    Path("r.toml").write_text(record + "[setup.board.sun]\n" + board.split("[sun]")[1].replace("[moon]", "[setup.board.moon]").replace("[schemes]", "[setup.board.schemes]"))
    result = cli("show", "r.toml", "--format", "png")
    assert result.exit_code == 1 and "offset" in result.output


def test_comparing_two_copies_builds_their_move_lists_once(monkeypatch, game, cli):
    """`receive --mine` and `verify --against` took 60 s for 5,000 plies: the list of every
    ply was rebuilt at each ply."""
    for move in ("b a1", "w b2", "b c3", "w a3"):
        cli("move", game, move)
    built = []
    original = Replay.entries.fget
    monkeypatch.setattr(Replay, "entries", property(lambda self: built.append(1) or original(self)))
    mine, theirs = reports.load(str(game)), reports.load(str(game))
    built.clear()
    from referee.record import seal

    assert seal.divergence(mine, theirs) is None
    assert len(built) == 2


def test_a_mail_with_a_thousand_nested_comments_is_refused_cleanly(cli):
    header = "(" * 1000 + ")" * 1000
    Path("deep.eml").write_bytes(
        f"From: Bo {header} <bo@example.org>\r\nTo: ann@example.org\r\nSubject: x\r\n"
        "Content-Type: text/plain\r\n\r\nhello\r\n".encode()
    )
    result = cli("receive", "deep.eml", "-o", "x.toml")
    assert result.exit_code == 1 and "Traceback" not in result.output and not Path("x.toml").exists()


def test_a_mail_of_955_nested_multiparts_is_refused_cleanly(cli):
    parts = "".join(f'Content-Type: multipart/mixed; boundary="b{i}"\r\n\r\n--b{i}\r\n' for i in range(955))
    Path("nested.eml").write_bytes(f"From: bo@example.org\r\nTo: ann@example.org\r\n{parts}".encode())
    result = cli("receive", "nested.eml", "-o", "x.toml")
    assert result.exit_code == 1 and "nested" in result.stderr and "Traceback" not in result.output


def test_receive_refuses_a_device_that_never_ends(cli):
    result = cli("receive", "/dev/zero", "-o", "x.toml")
    assert result.exit_code == 2 and "not a regular file" in result.stderr


# -- files -----------------------------------------------------------------------------------


def test_two_moves_at_once_both_land_SPEC_9(tmp_path):
    """Twenty pairs of `referee move` on one record at the same moment: every command that
    exits 0 has its move in the file (it lost 12–48 of 50 before the lock)."""
    script = [sys.executable, "-m", "referee"]
    for pair in range(20):
        record = tmp_path / f"g{pair}.toml"
        subprocess.run([*script, *ODD3, "-o", str(record)], check=True, capture_output=True)
        runs = [subprocess.Popen([*script, "move", str(record), move], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE) for move in ("b a1", "w c3")]
        codes = [run.wait(timeout=60) for run in runs]
        moves = [entry.move for entry in parse_record(record.read_bytes(), str(record)).moves]
        assert codes == [0, 0] and sorted(moves) == ["b a1", "w c3"], (pair, codes, moves)


def _try_to_lock(path: Path) -> str:
    """What another process says when it tries to take the lock of `path` for 0.2 s."""
    done = subprocess.run(
        [sys.executable, "-c", "import referee.record.files as f, sys\nf.LOCK_WAIT = 0.2\n"
         "try:\n    f.locked(sys.argv[1]).__enter__()\nexcept Exception as e:\n    print(e)",
         str(path)], capture_output=True, text=True, timeout=30,
    )
    return done.stdout


def test_a_second_writer_waits_for_the_lock(tmp_path, monkeypatch):
    record = tmp_path / "game.toml"
    record.write_text('format = 1\ngame = "odd"\n')
    monkeypatch.setattr(files, "LOCK_WAIT", 0.2)
    with files.locked(record):
        assert "another referee command is still writing it" in _try_to_lock(record)


def test_move_through_symlink_and_real_path_at_once_loses_no_move(tmp_path):
    """`referee move` through a symbolic link and through the real path at the same moment:
    both moves land (a lock keyed on the path lost one in 18 of 20 runs)."""
    script = [sys.executable, "-m", "referee"]
    for pair in range(10):
        record = tmp_path / f"g{pair}.toml"
        link = tmp_path / f"link{pair}.toml"
        subprocess.run([*script, *ODD3, "-o", str(record)], check=True, capture_output=True)
        link.symlink_to(record)
        runs = [subprocess.Popen([*script, "move", str(path), move], stdout=subprocess.DEVNULL,
                                 stderr=subprocess.PIPE) for path, move in ((link, "b a1"), (record, "w c3"))]
        codes = [run.wait(timeout=60) for run in runs]
        moves = [entry.move for entry in parse_record(record.read_bytes(), str(record)).moves]
        assert codes == [0, 0] and sorted(moves) == ["b a1", "w c3"], (pair, codes, moves)
        assert link.is_symlink()


def test_a_record_and_a_link_to_it_share_one_lock(tmp_path):
    record = tmp_path / "game.toml"
    record.write_text('format = 1\ngame = "odd"\n')
    (tmp_path / "elsewhere").mkdir()
    link = tmp_path / "elsewhere" / "mine.toml"
    link.symlink_to(record)
    with files.locked(record):
        assert "another referee command is still writing it" in _try_to_lock(link)
    assert sorted(os.listdir(tmp_path / "elsewhere")) == ["mine.toml"]  # no lock beside the link


def test_receive_takes_the_lock(cli, game):
    """`receive` writes the copy it saves under that copy's lock: while another command holds
    it, receive waits, and writes once the lock is free (without the lock, a move made
    meanwhile was lost in 1–3 of 30–60 runs)."""
    assert cli("move", game, "b a1").exit_code == 0
    theirs = Path("theirs.toml")
    theirs.write_bytes(game.read_bytes())
    assert cli("move", theirs, "w c3").exit_code == 0
    before = game.read_bytes()
    with files.locked(game):
        run = subprocess.Popen([sys.executable, "-m", "referee", "receive", str(theirs), "-o", str(game),
                                "--force"], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        try:
            run.wait(timeout=3)  # time enough to start, read the record and reach the lock
        except subprocess.TimeoutExpired:
            pass
        waited = run.poll() is None
        unchanged = game.read_bytes() == before
    _, err = run.communicate(timeout=60)
    assert waited and unchanged, err
    assert run.returncode == 0, err
    assert game.read_bytes() == theirs.read_bytes()


@pytest.mark.parametrize("victim_exists", [False, True])
def test_planted_lock_symlink_is_refused_and_not_followed(cli, game, tmp_path, victim_exists):
    """Anyone who can write the record's folder could plant `.game.toml.lock` as a link: the
    referee made (or opened) a file wherever it pointed, with the player's rights."""
    victim = tmp_path / "victim" / "made-by-the-referee"
    victim.parent.mkdir()
    if victim_exists:
        victim.write_text("keep\n")
        victim.chmod(0o600)
    Path(".game.toml.lock").symlink_to(victim)
    before = game.read_bytes()
    result = cli("move", game, "b a1")
    assert result.exit_code == 2, result.output
    assert ".game.toml.lock" in result.stderr and "symbolic link" in result.stderr
    assert game.read_bytes() == before
    if victim_exists:
        assert victim.read_text() == "keep\n" and stat.S_IMODE(victim.stat().st_mode) == 0o600
    else:
        assert not victim.exists()
    assert Path(".game.toml.lock").is_symlink()


@pytest.mark.parametrize("kind", ["folder", "fifo"])
def test_a_lock_that_is_a_folder_or_a_fifo_is_refused(cli, game, kind):
    lock = Path(".game.toml.lock")
    if kind == "folder":
        lock.mkdir()
    else:
        os.mkfifo(lock)
    before = game.read_bytes()
    result = cli("move", game, "b a1")
    assert result.exit_code == 2, result.output
    assert ".game.toml.lock" in result.stderr and ("folder" if kind == "folder" else "not a regular file") in result.stderr
    assert game.read_bytes() == before
    assert lock.is_dir() if kind == "folder" else stat.S_ISFIFO(lock.lstat().st_mode)


@pytest.mark.parametrize("target", ["/dev/null", "fifo"])
def test_an_output_onto_a_device_or_a_pipe_is_refused_even_with_force(cli, game, target):
    if target == "fifo":
        os.mkfifo("fifo")
    before = os.stat(target)
    result = cli("show", game, "-o", target, "--force")
    assert result.exit_code == 2 and "not a regular file" in result.stderr
    after = os.stat(target)
    assert stat.S_IFMT(after.st_mode) == stat.S_IFMT(before.st_mode) and after.st_ino == before.st_ino


def test_a_record_without_a_write_bit_is_refused_even_for_root(cli, game):
    game.chmod(0o444)
    before = game.read_bytes()
    result = cli("move", game, "b a1")
    assert result.exit_code == 2 and "read-only" in result.stderr
    assert game.read_bytes() == before and stat.S_IMODE(game.stat().st_mode) == 0o444


def test_a_move_that_would_make_the_record_unreadable_is_refused(cli, game, monkeypatch):
    """A record at the limit (20,000 plies, 5 MB) would be written and then refused by every
    command: the limit is checked before writing."""
    monkeypatch.setattr(play, "MAX_RECORD_BYTES", len(game.read_bytes()) + 50)
    before = game.read_bytes()
    result = cli("move", game, "b a1", "--comment", "x" * 200)
    assert result.exit_code == 2 and "no referee would read it back" in result.stderr
    assert game.read_bytes() == before


def test_a_comment_longer_than_a_record_holds_is_refused(cli, game):
    before = game.read_bytes()
    result = cli("move", game, "b a1", "--comment", "x" * 10_001)
    assert result.exit_code == 2 and game.read_bytes() == before


def test_a_private_key_is_private_from_its_first_byte(cli, monkeypatch):
    seen = []
    real_replace = os.replace

    def replace(src, dst):
        seen.append(stat.S_IMODE(os.stat(src).st_mode))
        real_replace(src, dst)

    monkeypatch.setattr(files.os, "replace", replace)
    assert cli("key", "new", "-o", "ann.key").exit_code == 0
    assert seen == [0o600] and stat.S_IMODE(os.stat("ann.key").st_mode) == 0o600


def test_move_on_standard_input_is_refused(cli):
    assert cli("move", "-", "b e5").exit_code == 2


# -- words on screen -------------------------------------------------------------------------

# NUL, ESC, BEL, a right-to-left override, an isolate and a zero-width space, as TOML escapes.
HOSTILE = r"Bo\u0000\u001bc\u0007\u202e\u2066\u200b <bo@example.org>"
UNSEEN = ["\x00", "\x1b", "\x07", "\u202e", "\u2066", "\u200b"]


def test_hostile_names_reach_no_header_terminal_or_diagram(cli):
    Path("g.toml").write_text(
        f'format = 1\ngame = "odd"\n[players]\n1 = "Ann <ann@example.org>"\n2 = "{HOSTILE}"\n')
    assert cli("validate", "g.toml").exit_code == 0
    cli("move", "g.toml", "b e5")
    outputs = [cli("status", "g.toml").stdout, cli("show", "g.toml").stdout,
               cli("show", "g.toml", "--format", "svg").stdout]
    assert cli("mail", "g.toml", "-o", "m.eml").exit_code == 0
    message = email.message_from_bytes(Path("m.eml").read_bytes(), policy=email.policy.default)
    outputs += [message["To"], message.get_body(("plain",)).get_content()]
    for text in outputs:
        assert not [ch for ch in UNSEEN if ch in text], text


def test_an_error_message_carries_no_bidi_override(cli):
    Path("g.toml").write_text('format = 1\ngame = "odd"\nmoves = ["b e5", "w \u202ee5"]\n', encoding="utf-8")
    result = cli("validate", "g.toml")
    assert result.exit_code == 1 and "\u202e" not in result.output


def test_receive_takes_a_hand_written_record_that_starts_with_its_moves(cli):
    Path("hand.toml").write_text('moves = ["b e5", "w d4"]\nformat = 1\ngame = "odd"\n')
    result = cli("receive", "hand.toml", "-o", "mine.toml")
    assert result.exit_code == 0, result.output
    assert Path("mine.toml").read_bytes() == Path("hand.toml").read_bytes()


@pytest.mark.parametrize("deck, reason", [
    ("x" * 1000, "option deck is 1000 characters long: at most 200"),
    ("漢" * 200, "names no built-in deck"),  # 600 bytes: longer than a file name may be
])
def test_a_record_naming_a_deck_of_a_thousand_letters_is_refused_cleanly(cli, deck, reason):
    """Found by the soak run: a built-in name longer than any file name the system allows."""
    Path("c.toml").write_text(f'format = 1\ngame = "crab"\n[options]\ndeck = "{deck}"\n'
                              '[setup]\ndeal = [4, 2, 7, 9, 11, 16, 13, 8, 14, 1, 12, 3, 5, 6, 10, 15]\n',
                              encoding="utf-8")
    result = cli("validate", "c.toml")
    assert result.exit_code == 1 and reason in result.output
