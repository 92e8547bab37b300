"""The outputs whose equality shows that the speed work changed no verdict.

Each case is one record or one random game, and its outputs are everything a player could see
of it: the verdict of `validate` (its JSON report, message and summary), `status --json`,
`status` in words, the text diagram, `moves`, `history`, and for random games the seat to move,
forced passes and move count after every ply. A case's outputs are reduced to a short SHA-256;
tests/data/replay_equivalence.json holds those written by the code as it stood before the work
(commit f9cf997), and tests/test_replay_equivalence.py compares today's against them.

Only `random.Random` draws cases (no hypothesis, whose draws may change with its version), so
the same cases come out on every machine. To write the file again from another version of the
referee, run this module with that version first on the path:

    PYTHONPATH=/path/to/old/checkout python tests/equivalence_support.py --write OUT.json [PART...]

PART is `samples` or a game's name (default: all of them), so that parts can be written by
separate processes and joined.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
import re
import sys
import tempfile
import tomllib
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_games"
FIXTURE = Path(__file__).resolve().parent / "data" / "replay_equivalence.json"
NOW = "2026-12-01T12:00:00Z"  # REFEREE_NOW for every case: clocks shown at a fixed moment

# Random games per game, and the options they draw from. Harmijan's and Hermetica's games take
# longest to play (about a second each): fewer of them, Harmijan's on all three board sizes.
RANDOM_GAMES = {"odd": 1000, "dustin": 1000, "hermit": 1000, "harmijan": 500, "hermetica": 200, "crab": 1000}
PLY_CAP = 400


def _options(game_id: str, rng: random.Random) -> dict[str, Any]:
    if game_id in ("odd", "dustin"):
        return {"size": rng.randint(3, 6), "min_group": rng.randint(2, 6)}
    if game_id == "hermit":
        if rng.random() < 0.5:
            return {"board": "square", "size": rng.randint(5, 8), "stones": rng.randint(3, 30)}
        return {"board": "hex", "size": rng.randint(3, 5), "stones": rng.randint(3, 30)}
    if game_id == "harmijan":
        return {"size": rng.choice((5, 5, 6, 7))}
    return {}


def digest(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:20]


# -- what a player sees of a record ----------------------------------------------------------


def record_outputs(data: bytes, name: str) -> str:
    """`validate` of the record's bytes, and when valid what `status`, `show`, `moves` and
    `history` print for it."""
    from referee import reports

    with tempfile.TemporaryDirectory() as folder:
        here = os.getcwd()
        os.chdir(folder)
        try:
            Path(name).write_bytes(data)
            report, fault, summary = reports.validate(name)
            out = [json.dumps(report, sort_keys=True, ensure_ascii=False), str(fault), summary]
            if fault is None:
                play = reports.load(name)
                out += _play_outputs(play)
        finally:
            os.chdir(here)
    return "\n".join(out)


def _play_outputs(play) -> list[str]:
    from referee import diagrams, reports

    out = [
        json.dumps(reports.status(play), sort_keys=True, ensure_ascii=False),
        *reports.status_lines(play),
        diagrams.text_diagram(play),
        json.dumps(reports.history(play), sort_keys=True, ensure_ascii=False),
        *reports.history_lines(play),
    ]
    if play.outcome() is None and play.game.id != "hermetica":  # hermetica lists actions, slowly
        out.append(json.dumps(reports.moves(play, None), ensure_ascii=False))
    if play.plies:
        out.append(diagrams.text_diagram(play, play.plies // 2))
    return out


# -- the cases -------------------------------------------------------------------------------


def sample_cases() -> Iterator[tuple[str, Callable[[], str]]]:
    """Every sample record as it is, and three damaged copies of each: plies dropped, swapped
    or edited, and bytes cut or flipped."""
    for path in sorted(SAMPLES.rglob("*.toml")):
        name = path.relative_to(SAMPLES).as_posix()
        data = path.read_bytes()
        yield f"sample {name}", lambda data=data, name=name: record_outputs(data, Path(name).name)
        for k in range(3):
            rng = random.Random(f"{name}/{k}")
            damaged = _damage(data, rng)
            yield f"sample {name} damaged {k}", lambda d=damaged, name=name: record_outputs(d, Path(name).name)


def _damage(data: bytes, rng: random.Random) -> bytes:
    kind = rng.choice(["drop", "swap", "edit", "unseal", "cut", "flip", "plain"])
    if kind in ("cut", "flip"):
        at = rng.randrange(len(data))
        if kind == "cut":
            return data[:at]
        return data[:at] + bytes([rng.randrange(32, 127)]) + data[at + 1:]
    doc = tomllib.loads(data.decode("utf-8"))
    moves = doc.get("moves", [])
    if not moves:
        return data + b"\n# nothing to damage\n"
    text_of = (lambda m: m if isinstance(m, str) else m["move"])
    i, j = rng.randrange(len(moves)), rng.randrange(len(moves))
    if kind == "drop":
        del moves[i]
    elif kind == "swap":
        moves[i], moves[j] = moves[j], moves[i]
    elif kind == "edit":
        text = text_of(moves[i])
        text = re.sub(r"[a-z](?=\d)", lambda m: rng.choice("abcdefghij"), text, count=1) if rng.random() < 0.7 else text_of(moves[j])
        if isinstance(moves[i], str):
            moves[i] = text
        else:
            moves[i]["move"] = text
    if kind in ("edit", "unseal") or rng.random() < 0.5:
        for m in moves:
            if isinstance(m, dict):
                m.pop("digest", None)
                m.pop("signature", None)
    if kind == "plain":
        doc["moves"] = [text_of(m) for m in moves]
    import tomli_w

    return tomli_w.dumps(doc).encode("utf-8")


def random_game_cases(game_id: str, count: int) -> Iterator[tuple[str, Callable[[], str]]]:
    for seed in range(count):
        yield f"random {game_id} {seed}", lambda seed=seed: random_game_outputs(game_id, seed)


def random_game_outputs(game_id: str, seed: int) -> str:
    """A game of random legal moves, with what the referee says after every ply; then its
    record, written out and read back, and a damaged copy of that record."""
    from referee.record import Entry, Record
    from referee.replay import start

    rng = random.Random(f"{game_id}/{seed}")
    options = _options(game_id, rng)
    seats = start(Record(game_id, options)).seats
    players = {seat: {"name": name} for seat, name in zip(seats, ("Ann", "Bo", "Chidi", "Dagny"))}
    play = start(Record(game_id, options, players))
    game = play.game
    trace = [json.dumps(options, sort_keys=True)]
    listed = game_id in ("odd", "dustin", "hermit", "harmijan")
    while play.outcome() is None and play.plies < PLY_CAP:
        seat = play.to_move()
        count = len(game.legal_moves(play.state)) if listed else -1
        move = game.random_move(play.state, rng)
        trace.append(f"{play.plies} {seat} {game.must_pass(play.state)} {count} {move}")
        play.push(str(move))
        for passed in play.push_forced_passes():
            trace.append(f"forced {passed}")
    trace += _play_outputs(play)
    outcome = play.outcome()
    result = None if outcome is None else {"winners": list(outcome.winners), "reason": outcome.reason}
    record = Record(game_id, options, play.record.players, play.record.setup,
                    moves=[Entry(text) for text in play.entries], result=result)
    data = record.to_toml().encode("utf-8")
    trace.append(record_outputs(data, "game.toml"))
    trace.append(record_outputs(_damage(data, rng), "game.toml"))
    return "\n".join(trace)


def all_cases(games: dict[str, int] = RANDOM_GAMES) -> Iterator[tuple[str, Callable[[], str]]]:
    yield from sample_cases()
    for game_id, count in games.items():
        yield from random_game_cases(game_id, count)


def main() -> None:
    os.environ["REFEREE_NOW"] = NOW
    if len(sys.argv) < 3 or sys.argv[1] != "--write":
        raise SystemExit(__doc__)
    parts = sys.argv[3:] or ["samples", *RANDOM_GAMES]
    out = {}
    for part in parts:
        cases = sample_cases() if part == "samples" else random_game_cases(part, RANDOM_GAMES[part])
        for case, outputs in cases:
            out[case] = digest(outputs())
    Path(sys.argv[2]).write_text(json.dumps(out, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(out)} cases written to {sys.argv[2]}")


if __name__ == "__main__":
    main()
