"""Write the sample games under sample_games/ (or under the folder given as the argument).

Every record is real play through the library, built the way `referee move` builds a record:
each move is checked by `Replay.push` and stored in canonical form, the passes of a seat that
cannot act are appended by `Replay.push_forced_passes` as explicit `pass` entries, and once the
game ends `[result]` gets the winners and the reason; the text is `Record.to_toml()`. Moves are
random legal moves drawn with `random.Random(seed)`, so the output is deterministic: running the
script twice writes identical files, and tests/test_samples.py checks that the files in the
repository are exactly what this script writes now.

Time stamps: each game starts at a fixed UTC date; the move of ply n is stamped start + n hours,
and the passes the referee appends after a move carry that move's stamp (as `referee move`
does). Player names are invented (example.org/.net/.com addresses).

Folders and files:
  odd/            odd-5-finished-01/02, odd-4-min3-finished, odd-5-resign (ends by `resign`),
                  odd-in-progress, odd-3-handwritten (plain `moves = [...]` array, typed with
                  non-canonical spellings such as "B  C3", " W a3")
  dustin/         dustin-5-finished-01/02, dustin-6-min4-finished, dustin-in-progress
  hermit-square/  hermit-square-finished-01 (tie broken by the last stone), -finished-02,
                  hermit-square-passes (explicit `pass` entries), hermit-square-5-finished,
                  hermit-square-in-progress, hermit-square-handwritten (plain array, one
                  implied pass left out, one written)
  hermit-hex/     hermit-hex-finished-01 (tie broken by groups of 3), -finished-02 (tie broken
                  by the last stone), hermit-hex-passes, hermit-hex-4-finished, hermit-hex-resign,
                  hermit-hex-in-progress

The samples of the other games come from tools/samples_<game>.py, one module per game with a
`render()` returning {relative path: record text}; this script collects them all.

Run: .venv/bin/python tools/make_samples.py [OUT_DIR]
"""

from __future__ import annotations

import argparse
import importlib.util
import datetime as dt
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from referee.record import seal
from referee.games import GAMES
from referee.record.values import Record
from referee.record.reading import parse_record
from referee.play.replay import RESIGN, Replay, replay, start
from referee.play.turn import take_turn

HERE = Path(__file__).resolve().parent
if str(HERE) not in sys.path:
    sys.path.insert(0, str(HERE))  # the generators share tools/sample_people.py

from sample_people import ANN, BO, CHIDI, DAGNY, EMEKA, FUMIKO, HOUR, UTC, typed_moves_array  # noqa: E402

ROOT = HERE.parent
DEFAULT_OUT = ROOT / "sample_games"

LAST = -1  # comment key: the last move played in the sample


@dataclass(frozen=True)
class Sample:
    """One generated record: random legal play from `seed`, then optionally a resignation."""

    path: str  # relative to the output folder
    game: str
    options: dict
    players: tuple[str, str]
    start: dt.datetime
    seed: int
    stop_after: int | None = None  # entries to play before stopping (a game in progress)
    resign_after: int | None = None  # entries to play before the seat to move resigns
    comments: dict[int, str] = field(default_factory=dict)  # by ply; LAST for the last move
    expect: str = "finished"  # "finished", "in progress", "passes" (finished, with passes), "resign"


def _at(day: int, hour: int = 19) -> dt.datetime:
    return dt.datetime(2026, 1, day, hour, 0, tzinfo=UTC)


SAMPLES = (
    # -- odd ---------------------------------------------------------------------------------
    Sample("odd/odd-5-finished-01.toml", "odd", {}, (ANN, BO), _at(5), seed=2,
           comments={1: "Good luck, Bo!", 30: "Half the board gone already.", LAST: "Board full."}),
    Sample("odd/odd-5-finished-02.toml", "odd", {}, (BO, ANN), _at(6), seed=7,
           comments={1: "Rematch, colours swapped.", LAST: "Even it is."}),
    Sample("odd/odd-4-min3-finished.toml", "odd", {"size": 4, "min_group": 3}, (CHIDI, DAGNY),
           _at(7), seed=3, comments={1: "A quick one on the small board, groups of 3 count."}),
    Sample("odd/odd-5-resign.toml", "odd", {}, (DAGNY, EMEKA), _at(8), seed=11, resign_after=24,
           comments={1: "Opening in the corner for once.",
                     LAST: "I cannot see how to fix the parity from here: I resign. Well played."},
           expect="resign"),
    Sample("odd/odd-in-progress.toml", "odd", {}, (EMEKA, FUMIKO), _at(9), seed=5, stop_after=17,
           comments={1: "Hello from Lagos.", 2: "Hello from Kyoto!"}, expect="in progress"),
    # -- dustin ------------------------------------------------------------------------------
    Sample("dustin/dustin-5-finished-01.toml", "dustin", {}, (ANN, CHIDI), _at(10), seed=1,
           comments={1: "Dustin, the old name.", LAST: "GG."}),
    Sample("dustin/dustin-5-finished-02.toml", "dustin", {}, (CHIDI, ANN), _at(11), seed=4,
           comments={1: "Second game."}),
    Sample("dustin/dustin-6-min4-finished.toml", "dustin", {"size": 6, "min_group": 4},
           (BO, FUMIKO), _at(12), seed=8,
           comments={1: "Size 6, groups of 4 count.", 45: "Halfway."}),
    Sample("dustin/dustin-in-progress.toml", "dustin", {}, (FUMIKO, DAGNY), _at(13), seed=6,
           stop_after=30, comments={1: "Your move, Dagny.", 29: "Thinking about this one."},
           expect="in progress"),
    # -- hermit, square ----------------------------------------------------------------------
    Sample("hermit-square/hermit-square-finished-01.toml", "hermit", {"board": "square"},
           (ANN, EMEKA), _at(14), seed=13,
           comments={1: "Not on d4, as the rules say.", LAST: "A tie on everything but the last stone."}),
    Sample("hermit-square/hermit-square-finished-02.toml", "hermit", {"board": "square"},
           (EMEKA, ANN), _at(15), seed=0, comments={1: "Return game."}),
    Sample("hermit-square/hermit-square-passes.toml", "hermit", {"board": "square"},
           (BO, DAGNY), _at(16), seed=14,
           comments={1: "Good luck!", 32: "You are running out of room."}, expect="passes"),
    Sample("hermit-square/hermit-square-5-finished.toml", "hermit",
           {"board": "square", "size": 5, "stones": 12}, (CHIDI, FUMIKO), _at(17), seed=26,
           comments={1: "Small board, 12 stones each."}),
    Sample("hermit-square/hermit-square-in-progress.toml", "hermit", {"board": "square"},
           (DAGNY, CHIDI), _at(18), seed=21, stop_after=20,
           comments={1: "Opening away from the centre.", 20: "Over to you."},
           expect="in progress"),
    # -- hermit, hex -------------------------------------------------------------------------
    Sample("hermit-hex/hermit-hex-finished-01.toml", "hermit", {"board": "hex"}, (FUMIKO, BO),
           _at(19), seed=14,
           comments={1: "Hex this time.", LAST: "Equal groups and hermits; the threes decide."},
           expect="passes"),
    Sample("hermit-hex/hermit-hex-finished-02.toml", "hermit", {"board": "hex"}, (BO, FUMIKO),
           _at(20), seed=7, comments={LAST: "All square until the last stone."}),
    Sample("hermit-hex/hermit-hex-passes.toml", "hermit", {"board": "hex"}, (ANN, DAGNY),
           _at(21), seed=47, comments={1: "Let us see who runs out first."}, expect="passes"),
    Sample("hermit-hex/hermit-hex-4-finished.toml", "hermit", {"board": "hex", "size": 4},
           (EMEKA, CHIDI), _at(22), seed=42, comments={1: "Side 4, 37 cells."}, expect="passes"),
    Sample("hermit-hex/hermit-hex-resign.toml", "hermit", {"board": "hex"}, (CHIDI, EMEKA),
           _at(23), seed=9, resign_after=15,
           comments={LAST: "My stones are hemmed in everywhere. I resign."}, expect="resign"),
    Sample("hermit-hex/hermit-hex-in-progress.toml", "hermit", {"board": "hex"}, (DAGNY, ANN),
           _at(24), seed=3, stop_after=25, comments={1: "Your turn, Ann."}, expect="in progress"),
)


# -- building records the way `referee move` does ----------------------------------------------


def _new_game(game: str, options: dict, players: tuple[str, str]) -> Replay:
    """As `referee new`: the options resolved (defaults written out), players by seat."""
    resolved = GAMES[game].resolve_options(options)
    return start(Record(game, resolved, {seat: {"name": name} for seat, name in enumerate(players, 1)}))


def _submit(play: Replay, text: str, stamp: dt.datetime, comment: str | None) -> tuple[Replay, int]:
    """One `referee move`: check and play the move, append it in canonical form with the passes
    that follow it, and write [result] if the game ended. Returns the game after it and the
    number of passes."""
    after = take_turn(play, text, comment=comment, at=stamp).play
    return after, after.plies - play.plies - 1


def build(sample: Sample) -> str:
    play = _new_game(sample.game, sample.options, sample.players)
    rng = random.Random(sample.seed)
    comments = dict(sample.comments)
    last_comment = comments.pop(LAST, None)

    def limit_reached() -> bool:
        for limit in (sample.stop_after, sample.resign_after):
            if limit is not None and play.plies >= limit:
                return True
        return False

    passes = 0
    while play.outcome() is None and not limit_reached():
        ply = play.plies + 1
        move = rng.choice(play.game.legal_moves(play.state))
        play, passed = _submit(play, str(move), sample.start + ply * HOUR, comments.pop(ply, None))
        passes += passed
    if sample.resign_after is not None and play.outcome() is None:
        ply = play.plies + 1
        play, _ = _submit(play, "resign", sample.start + ply * HOUR, None)
    record = play.record
    if last_comment is not None:
        record.moves[_last_move_index(record)].comment = last_comment
        # The comment is part of what the digests cover: seal the record again.
        for entry, digest in zip(record.moves, seal.chain(record, play.entries)):
            entry.digest = digest
    if comments:
        raise SystemExit(f"{sample.path}: comments for plies that are passes or not played: {sorted(comments)}")
    _expect(sample, play, passes)
    return record.to_toml()


def _last_move_index(record: Record) -> int:
    return max(i for i, e in enumerate(record.moves) if e.move != "pass")


def _expect(sample: Sample, play: Replay, passes: int) -> None:
    """Fail loudly if a change to the rules code changed what the sample is meant to show."""
    over = play.outcome() is not None
    problems = {
        "finished": not over,
        "passes": not over or passes == 0,
        "in progress": over,
        "resign": not play.ended_by(RESIGN),
    }
    if problems[sample.expect]:
        raise SystemExit(f"{sample.path}: the seed no longer gives a game that is {sample.expect!r}")


# -- hand-written records: the plain `moves = [...]` form of SPEC §3 ---------------------------


def _random_line(
    game: str, options: dict, seed: int, opening: tuple[str, ...] = ()
) -> tuple[list[str], list[int], Replay]:
    """A finished game, the opening then random moves, as canonical entries (with explicit
    passes) and the seat that made each."""
    play = _new_game(game, options, ("", ""))
    rng = random.Random(seed)
    for move in opening:
        play.push(move)
        play.push_forced_passes()
    while play.outcome() is None:
        play.push(str(rng.choice(play.game.legal_moves(play.state))))
        play.push_forced_passes()
    return play.entries, play.movers, play


def _odd_spelling(move: str, rng: random.Random) -> str:
    """The same move as a player might type it: any case, extra spaces (SPEC §5)."""
    colour, cell = move.split()
    colour = colour.upper() if rng.random() < 0.5 else colour
    cell = cell.upper() if rng.random() < 0.4 else cell
    gap = rng.choice([" ", " ", "  ", "   "])
    lead = rng.choice(["", "", "", " "])
    tail = rng.choice(["", "", "", " "])
    return f"{lead}{colour}{gap}{cell}{tail}"


def odd_handwritten() -> str:
    options = {"size": 3, "min_group": 3}
    moves, _, play = _random_line("odd", options, seed=2, opening=("b c3",))
    rng = random.Random(1002)
    typed = ["B  C3"] + [_odd_spelling(m, rng) for m in moves[1:]]
    lines = [
        "# Odd on the small board, typed by hand from our postcards.",
        "# The referee reads this plain form and any spelling of the moves.",
        "format = 1",
        'game = "odd"',
        "moves = [",
    ]
    for i in range(0, len(typed), 4):
        lines.append("  " + " ".join(f'"{t}",' for t in typed[i:i + 4]))
    lines += [
        "]",
        "",
        "[options]",
        f"size = {options['size']}",
        f"min_group = {options['min_group']}",
        "",
        "[players]",
        f'1 = "{EMEKA}"',
        f'2 = "{BO}"',
        "",
        "[result]",
        f"winners = {list(play.outcome().winners)}",
        "",
    ]
    return "\n".join(lines)


def hermit_handwritten() -> str:
    moves, movers, play = _random_line("hermit", {"board": "square"}, seed=4)
    passes = [i for i, m in enumerate(moves) if m == "pass"]
    if len(passes) < 2:
        raise SystemExit("hermit-square-handwritten: the seed no longer gives two passes")
    dropped = passes[0]  # left implied; the later passes stay written
    stuck = movers[dropped]
    lines = [
        f"# Hermit, typed by hand. Seat {stuck} got stuck near the end: the first of its passes",
        "# is left out (the referee works it out), the later one is written.",
        "format = 1",
        'game = "hermit"',
        *typed_moves_array(
            [None if i == dropped else move for i, move in enumerate(moves)],
            {dropped: f"seat {stuck} cannot place here: its pass is implied"},
            per_row=8,
        ),
        "",
        "[options]",
        'board = "square"',
        "",
        "[players]",
        f'1 = "{FUMIKO}"',
        f'2 = "{CHIDI}"',
        "",
    ]
    return "\n".join(lines)


HANDWRITTEN = {
    "odd/odd-3-handwritten.toml": odd_handwritten,
    "hermit-square/hermit-square-handwritten.toml": hermit_handwritten,
}


# -- output -----------------------------------------------------------------------------------


def render() -> dict[str, str]:
    """Every sample file's text by its path relative to the output folder. Each is replayed
    here before it is returned, so the script never writes an invalid record."""
    texts = {s.path: build(s) for s in SAMPLES}
    texts.update({path: make() for path, make in HANDWRITTEN.items()})
    for module in _game_generators():
        texts.update(module.render())
    for path, text in texts.items():
        replay(parse_record(text.encode("utf-8"), path))
    return dict(sorted(texts.items()))


def _game_generators() -> list[Any]:
    """The other games' generators: every tools/samples_<game>.py, each with a `render()` that
    returns {relative path: record text} like the one here."""
    modules = []
    for path in sorted(Path(__file__).resolve().parent.glob("samples_*.py")):
        spec = importlib.util.spec_from_file_location(f"referee_tools_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        sys.modules[spec.name] = module  # dataclasses look their module up here
        spec.loader.exec_module(module)
        modules.append(module)
    return modules


def write_samples(out: Path) -> list[Path]:
    """Write every sample under `out`; remove other *.toml files from the sample folders so
    the folder holds exactly what this script makes. Returns the files written."""
    texts = render()
    written = []
    for rel, text in texts.items():
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if not target.exists() or target.read_bytes() != text.encode("utf-8"):
            target.write_bytes(text.encode("utf-8"))
        written.append(target)
    for folder in {(out / rel).parent for rel in texts}:
        for stale in folder.glob("*.toml"):
            if stale not in written:
                stale.unlink()
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=DEFAULT_OUT,
                        help=f"folder to write into (default {DEFAULT_OUT})")
    args = parser.parse_args(argv)
    for path in write_samples(args.out):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
