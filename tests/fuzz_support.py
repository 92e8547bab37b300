"""What the fuzz tests share: the sample records as seed material, the ways a record or a move
string gets mangled on its way through the post (or by a stranger), and the one check every
case must pass — it ends in success or in a RefereeError with a message, never in anything else.

Mutations work on the real sample games, so most cases reach deep into the rules before they
go wrong: a dropped or swapped ply lands every later move on a position it was never meant for.
"""

from __future__ import annotations

import datetime as dt
import pickle
import random
import re
import tomllib
from pathlib import Path
from typing import Any, Callable

import tomli_w
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

from referee.errors import RefereeError
from referee.games import GAMES
from referee.record.reading import parse_record
from referee.play.replay import replay

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = sorted((ROOT / "sample_games").rglob("*.toml"))
SAMPLE_BYTES = {p.relative_to(ROOT / "sample_games").as_posix(): p.read_bytes() for p in SAMPLES}
SAMPLE_NAMES = sorted(SAMPLE_BYTES)
# Parsed once; each case unpickles its own copy to mutate (far cheaper than parsing again).
_SAMPLE_DOCS = {n: pickle.dumps(tomllib.loads(d.decode("utf-8"))) for n, d in SAMPLE_BYTES.items()}
CORPUS = Path(__file__).resolve().parent / "fuzz_corpus"


def fuzz_settings(examples: int) -> settings:
    """Repeatable in CI: the same cases on every run (derandomize, no example database), no
    per-case deadline (the first case of a run pays for imports and caches)."""
    return settings(
        max_examples=examples,
        derandomize=True,
        database=None,
        deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                               HealthCheck.function_scoped_fixture, HealthCheck.filter_too_much],
    )


# -- the check every case passes --------------------------------------------------------------


def survives(action: Callable[[], Any]) -> RefereeError | None:
    """Run `action`; return the RefereeError it raised (with a message), or None on success.
    Any other exception propagates and fails the test with its traceback."""
    try:
        action()
    except RefereeError as exc:
        assert str(exc).strip(), "a RefereeError without a message"
        assert exc.exit_code in (1, 2)
        return exc
    return None


# -- hostile values ---------------------------------------------------------------------------

HOSTILE_TEXT = [
    "", " ", "\t", "\n", "\r\n", "\x00", "\x1b[31mred\x1b[0m", "<script>alert(1)</script>",
    '"quoted"', "a & b", "]]>", "\u2028", "\ufeff", "\ud7ff", "é", "İ", "²", "٣", "🦀",
    "\u202e", "x" * 600, "9" * 5000, "-1", "0", "99999999999999999999",
    "w" * 200, "w" * 201, "漢字 " * 70,  # an option value at the limit, past it, wide characters
]
HUGE_INTS = [-(2**63), 2**63 - 1, 10**30, -1, 0, 10**4000]


def scalar_values() -> st.SearchStrategy[Any]:
    """A TOML value of any type, leaning to the ones that break assumptions."""
    return st.one_of(
        st.sampled_from(HUGE_INTS),
        st.integers(-5, 300),
        st.floats(allow_nan=True, allow_infinity=True),
        st.booleans(),
        st.sampled_from(HOSTILE_TEXT),
        st.text(max_size=20),
        st.just(dt.datetime(2026, 1, 1, tzinfo=dt.timezone.utc)),
        # Dates a clock cannot count with (SPEC §9: outside 1970–9999 a record error), or one
        # from the future (a claim "made" before its time).
        st.sampled_from([dt.datetime(1, 1, 1, tzinfo=dt.timezone.utc),
                         dt.datetime(9999, 12, 31, 23, 59, 59, tzinfo=dt.timezone.utc),
                         dt.datetime(9999, 12, 31, 23, 0, tzinfo=dt.timezone(-dt.timedelta(hours=5))),
                         dt.datetime(1, 1, 1, 1, 0, tzinfo=dt.timezone(dt.timedelta(hours=14))),
                         dt.datetime(1969, 12, 31, 23, 59, 59, tzinfo=dt.timezone.utc),
                         dt.datetime(2099, 1, 1, tzinfo=dt.timezone.utc)]),
        st.just(dt.date(2026, 1, 1)),
        st.just(dt.time(12, 0)),
        st.just([]),
        st.just({}),
        st.lists(st.integers(-3, 20), max_size=20),
        st.dictionaries(st.sampled_from(["a", "move", "name", "1"]), st.integers(0, 3), max_size=2),
    )


# -- mutations of a parsed record (a dict), written back with tomli-w -------------------------


def _paths(value: Any, path: tuple = ()) -> list[tuple]:
    """Every place in the document a value sits, as key/index paths."""
    found = [path] if path else []
    if isinstance(value, dict):
        for key, item in value.items():
            found += _paths(item, path + (key,))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            found += _paths(item, path + (index,))
    return found


def _parent(doc: Any, path: tuple) -> Any:
    for key in path[:-1]:
        doc = doc[key]
    return doc


def _moves(doc: dict) -> list:
    moves = doc.get("moves")
    return moves if isinstance(moves, list) else []


def _move_text(item: Any) -> str | None:
    if isinstance(item, str):
        return item
    if isinstance(item, dict) and isinstance(item.get("move"), str):
        return item["move"]
    return None


def _set_move_text(moves: list, index: int, text: str) -> None:
    if isinstance(moves[index], dict):
        moves[index]["move"] = text
    else:
        moves[index] = text


def mangle_move(rng: random.Random, text: str, others: list[str]) -> str:
    """A move as a hurried player or a hostile one might write it."""
    choice = rng.randrange(12)
    tokens = re.split(r"(\s+|[-x=*>@;|:,+])", text)
    if choice == 0 and text:  # one character replaced
        i = rng.randrange(len(text))
        return text[:i] + rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 -x=*>@;|:,+AFEW") + text[i + 1:]
    if choice == 1 and text:  # one character dropped
        i = rng.randrange(len(text))
        return text[:i] + text[i + 1:]
    if choice == 2:  # one character added
        i = rng.randrange(len(text) + 1)
        return text[:i] + rng.choice("abcdefghijklmnopqrstuvwxyz0123456789 -x=*>@;|:,+AFEW\x00é") + text[i:]
    if choice == 3 and others:  # another ply's move
        return rng.choice(others)
    if choice == 4 and others:  # two moves glued into one entry
        return f"{text}{rng.choice(['; ', ' | ', ' ', ''])}{rng.choice(others)}"
    if choice == 5:  # a number made absurd
        return re.sub(r"\d+", lambda m: rng.choice(["0", "00", "99", "-1", "9" * rng.choice([3, 20, 5000])]), text, count=1)
    if choice == 6 and len(tokens) > 2:  # tokens shuffled
        rng.shuffle(tokens)
        return "".join(tokens)
    if choice == 7:
        return rng.choice(["pass", "resign", "RESIGN", " pass ", "", ";", " | ", "black", "white",
                           "setup", "wall", "+A", "A", "1:", "1: | 2:"])
    if choice == 8:
        return text.upper() if rng.random() < 0.5 else f"  {text}\t "
    if choice == 9:
        return text + rng.choice(HOSTILE_TEXT)
    if choice == 10:  # a separator doubled or lost
        return re.sub(r"[;|,\- ]", lambda m: rng.choice(["", m[0] * 2, ";", "|"]), text, count=1)
    return rng.choice(HOSTILE_TEXT)


@st.composite
def mutated_records(draw, names: list[str] = SAMPLE_NAMES) -> tuple[str, bytes]:
    """A sample record with one to four structural mutations, written back as TOML bytes."""
    name = draw(st.sampled_from(names))
    doc = pickle.loads(_SAMPLE_DOCS[name])
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(1, 4))):
        _mutate_doc(draw, rng, doc)
    return name, _dump(doc)


def _dump(doc: dict) -> bytes:
    try:
        return tomli_w.dumps(doc).encode("utf-8")
    except (TypeError, ValueError):
        # tomli-w cannot write every value (e.g. a NaN key): then the whole record as a string.
        return repr(doc).encode("utf-8", "surrogatepass")


def _mutate_doc(draw, rng: random.Random, doc: dict) -> None:
    moves = _moves(doc)
    texts = [t for t in map(_move_text, moves) if t is not None]
    kind = draw(st.sampled_from([
        "drop", "swap", "duplicate", "edit", "edit", "edit", "truncate", "unseal", "wrong_type",
        "unknown_key", "option", "result", "long_text", "players", "setup", "plain_moves",
        "delete_key",
    ]))
    if kind == "drop" and moves:
        del moves[rng.randrange(len(moves))]
    elif kind == "swap" and len(moves) > 1:
        i, j = rng.randrange(len(moves)), rng.randrange(len(moves))
        moves[i], moves[j] = moves[j], moves[i]
    elif kind == "duplicate" and moves:
        i = rng.randrange(len(moves))
        moves.insert(rng.randrange(len(moves) + 1), moves[i])
    elif kind == "edit" and moves:
        i = rng.randrange(len(moves))
        text = _move_text(moves[i])
        if text is not None:
            _set_move_text(moves, i, mangle_move(rng, text, texts))
        if rng.random() < 0.7:  # most edits also drop the seals, so the rules see the moves
            _unseal(doc)
    elif kind == "truncate" and moves:
        del moves[rng.randrange(len(moves)):]
    elif kind == "unseal":
        _unseal(doc)
    elif kind in ("wrong_type", "delete_key"):
        paths = _paths(doc)
        if paths:
            path = rng.choice(paths)
            parent = _parent(doc, path)
            if kind == "delete_key" and isinstance(parent, dict):
                del parent[path[-1]]
            else:
                parent[path[-1]] = draw(scalar_values())
    elif kind == "unknown_key":
        tables = [p for p in [()] + _paths(doc) if isinstance(_get(doc, p), dict)]
        table = _get(doc, rng.choice(tables))
        table[draw(st.sampled_from(["extra", "Move", "moves ", "1", "", "é", "result"]))] = draw(scalar_values())
    elif kind == "option":
        options = doc.setdefault("options", {})
        if not isinstance(options, dict):
            return
        game = GAMES.get(str(doc.get("game")))
        names = [o.name for o in game.options] if game else ["size"]
        options[draw(st.sampled_from(names + ["bogus"]))] = draw(scalar_values())
    elif kind == "result":
        doc["result"] = draw(st.sampled_from([
            {"winners": [1]}, {"winners": [2]}, {"winners": []}, {"winners": [1, 2, 3, 4]},
            {"winners": [0]}, {"winners": [10**30]}, {"winners": [True]}, {"winners": "1"},
            {"reason": "x"}, {"winners": [1], "reason": 5}, [], "done",
        ]))
    elif kind == "long_text" and moves:
        i = rng.randrange(len(moves))
        size = draw(st.sampled_from([499, 501, 9_999, 10_001, 40_000]))
        if isinstance(moves[i], dict) and rng.random() < 0.5:
            moves[i]["comment"] = ("c" * size) if rng.random() < 0.5 else ("ab " * size)[:size]
        else:
            _set_move_text(moves, i, "b " + "e" * size)
    elif kind == "players":
        doc["players"] = draw(st.sampled_from([
            {"1": "<script>alert(1)</script> & \"Ann\"", "2": "Bo\r\nBcc: evil@example.org"},
            {"0": "Nobody"}, {"9": "Too many"}, {"²": "Two"}, {"٣": "Three"}, {"9" * 5000: "x"},
            {"1": {"name": "Ann", "key": "ed25519:AAAA"}}, {"1": {"key": "x"}}, {"1": 5},
            {"1": "x" * 20_000}, {"1": "\x00\x1b[2J"}, {" 1": "Ann"}, {"-1": "Ann"},
            {"1": "x" * 9_999, "2": ("ab " * 3_333)[:9_999]}, {"1": "漢字😀" * 3_333},
        ]))
    elif kind == "setup":
        setup = doc.get("setup")
        paths = _paths(setup) if isinstance(setup, dict) else []
        if paths:
            path = rng.choice(paths)
            parent = _parent(setup, path)
            value = parent[path[-1]]
            if isinstance(value, list) and value and rng.random() < 0.5:
                choice = rng.randrange(3)
                if choice == 0:
                    del value[rng.randrange(len(value))]
                elif choice == 1:
                    value.append(value[rng.randrange(len(value))])
                else:
                    rng.shuffle(value)
            else:
                parent[path[-1]] = draw(scalar_values())
        else:
            doc["setup"] = {"deal": list(range(1, 17)), "board": {"columns": {"a": 3}}}
    elif kind == "plain_moves":
        doc["moves"] = texts  # the hand-written short form


def _get(doc: Any, path: tuple) -> Any:
    for key in path:
        doc = doc[key]
    return doc


def _unseal(doc: dict) -> None:
    for item in _moves(doc):
        if isinstance(item, dict):
            item.pop("digest", None)
            item.pop("signature", None)


# -- mutations of the bytes: what the post and broken editors do ------------------------------


@st.composite
def damaged_bytes(draw, names: list[str] = SAMPLE_NAMES) -> tuple[str, bytes]:
    """A sample record's bytes cut off, spliced, flipped, or with hostile bytes put in."""
    name = draw(st.sampled_from(names))
    data = bytearray(SAMPLE_BYTES[name])
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(1, 3))):
        kind = draw(st.sampled_from(["cut", "flip", "insert", "delete", "repeat", "deep",
                                     "bigint", "control", "line"]))
        at = rng.randrange(len(data) + 1)
        if kind == "cut":  # a file cut off mid-write
            del data[at:]
        elif kind == "flip" and data:
            data[min(at, len(data) - 1)] = rng.randrange(256)
        elif kind == "insert":
            data[at:at] = draw(st.sampled_from([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00",
                                                b"\r", b"\xef\xbb\xbf", b'"', b"[", b"]]", b"\n[[moves]]\n"]))
        elif kind == "delete":
            del data[at:at + rng.randrange(1, 200)]
        elif kind == "repeat":
            chunk = bytes(data[at:at + rng.randrange(1, 400)])
            data[at:at] = chunk * rng.randrange(1, 4)
        elif kind == "deep":
            depth = draw(st.sampled_from([50, 500, 5000]))
            value = draw(st.sampled_from([b"[" * depth + b"]" * depth,
                                          b"{a=" * depth + b"1" + b"}" * depth]))
            data[:0] = b"deep = " + value + b"\n"
        elif kind == "bigint":
            data = bytearray(re.sub(rb"= (\d+)", lambda m: b"= " + b"9" * rng.choice([20, 4301, 6000]),
                                    bytes(data), count=1))
        elif kind == "control":
            data = bytearray(bytes(data).replace(b'move = "', b'move = "\\u0000\\u001b', 1))
        elif kind == "line":
            lines = bytes(data).split(b"\n")
            i = rng.randrange(len(lines))
            lines.insert(rng.randrange(len(lines) + 1), lines[i])
            data = bytearray(b"\n".join(lines))
    return name, bytes(data)


# -- move strings ----------------------------------------------------------------------------


def replays_of_samples() -> dict[str, Any]:
    """Each sample replayed once, for the positions along it."""
    return {name: replay(parse_record(data, name)) for name, data in SAMPLE_BYTES.items()}


def alphabet_of(play) -> list[str]:
    """The tokens a game's moves are made of, harvested from its sample records."""
    tokens = set()
    for entry in play.entries:
        tokens.update(t for t in re.split(r"(\s+|[-x=*>@;|:,+])", entry) if t)
    return sorted(tokens)


@st.composite
def move_strings(draw, alphabet: list[str], legal: list[str]) -> str:
    """A move string: random text, a legal move mangled, or the game's own tokens reassembled."""
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    kind = draw(st.integers(0, 3))
    if kind == 0:
        return draw(st.text(max_size=40))
    if kind == 1 and legal:
        text = rng.choice(legal)
        for _ in range(rng.randrange(1, 3)):
            text = mangle_move(rng, text, legal)
        return text
    if kind == 2 and legal:
        return rng.choice(legal)
    words = alphabet + ["-", "x", "=", "*", ">", "@", ";", "|", ":", ",", "+", " ", "pass",
                        "resign", "0", "270", "-3", "a0", "z99", "a100"]
    return "".join(rng.choice(words) for _ in range(rng.randrange(1, 12)))


# -- data files: a deck or a board typed up by a player ----------------------------------------

DATA_FILES = [("crab", "deck", "crab-deck", "sample"), ("hermetica", "board", "hermetica-board", "standard")]


@st.composite
def mutated_data_files(draw) -> tuple[str, str, dict]:
    """A built-in deck or board file's content with one to three values changed, dropped, or
    their lists cut, repeated or shuffled: what `-O deck=my-deck.toml` might hold."""
    from referee.data import builtin_data

    game_id, option, kind, name = draw(st.sampled_from(DATA_FILES))
    content = pickle.loads(pickle.dumps(builtin_data(kind, name)))
    rng = random.Random(draw(st.integers(0, 2**32 - 1)))
    for _ in range(draw(st.integers(1, 3))):
        paths = _paths(content)
        if not paths:
            break
        path = rng.choice(paths)
        parent = _parent(content, path)
        value = parent[path[-1]]
        choice = rng.randrange(5)
        if choice == 0 and isinstance(parent, dict):
            del parent[path[-1]]
        elif choice == 1 and isinstance(value, list) and value:
            rng.choice([lambda: value.pop(rng.randrange(len(value))),
                        lambda: value.append(rng.choice(value)),
                        lambda: rng.shuffle(value)])()
        elif choice == 2 and isinstance(value, str):
            parent[path[-1]] = mangle_move(rng, value, [value])
        else:
            parent[path[-1]] = draw(scalar_values())
    return game_id, option, content
