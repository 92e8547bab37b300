"""The command line's own syntax (SPEC §4, §8): the words of an option taken apart into the
values the library works with. `--leave FROM..TO` becomes two moments (record/clock.py's `leave_span`), `-O key=value` a dict
of strings, `--player SEAT=NAME` and `--key SEAT=…` seats with their text, and an output's
extension (or --format) the format to write. What the words mean for a game (whether it has
that option or seat, whether a value fits) the library decides.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable

from referee.render import formats
from referee.errors import UsageError
from referee.record.players import seat_number
from referee.record.seal import KEY_PREFIX

BINARY = ("png", "gif", "pdf")  # formats of bytes, not text: never written to a terminal


def option_values(pairs: list[str] | None) -> dict[str, str]:
    """`-O key=value` pairs as {key: value}; a key given twice keeps its last value."""
    given: dict[str, str] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        if not sep:
            raise UsageError(f"-O takes key=value, e.g. -O size=5, not {pair!r}")
        given[key.strip()] = value
    return given


def player_names(items: list[str] | None) -> list[tuple[int, str]]:
    """`--player SEAT=NAME` as (seat, name) pairs, in the order given."""
    return _seat_pairs(items, bool, "--player takes SEAT=NAME, e.g. --player 1=Ann")


def player_keys(items: list[str] | None) -> list[tuple[int, str]]:
    """`--key SEAT=ed25519:…` as (seat, public key) pairs, in the order given."""
    usage = "--key takes SEAT=ed25519:…, e.g. --key 1=ed25519:AAAA…"
    return [(seat, key.strip()) for seat, key in _seat_pairs(items, lambda key: key.startswith(KEY_PREFIX), usage)]


def bot_seats(items: list[str] | None, default: float) -> list[tuple[int, float]]:
    """`--bot SEAT[=SECONDS]` as (seat, seconds) pairs: the engine's seconds a move, `default`
    where none is given."""
    pairs = []
    usage = "--bot takes SEAT or SEAT=SECONDS, e.g. --bot 2 or --bot 2=10"
    for item in items or []:
        seat_text, sep, seconds_text = item.partition("=")
        seat = seat_number(seat_text)
        try:
            seconds = float(seconds_text) if sep else default
        except ValueError:
            seconds = None
        if seat is None or seconds is None or seconds != seconds:  # NaN is no time
            raise UsageError(f"{usage}, not {item!r}")
        pairs.append((seat, seconds))
    return pairs


def _seat_pairs(items: list[str] | None, fits: Callable[[str], bool], usage: str) -> list[tuple[int, str]]:
    """SEAT=TEXT items as (seat, text) pairs; an item without a seat number, or whose text
    (without its spaces) does not fit, is exit 2 with the option's usage."""
    pairs = []
    for item in items or []:
        seat_text, sep, text = item.partition("=")
        seat = seat_number(seat_text)
        if not sep or seat is None or not fits(text.strip()):
            raise UsageError(f"{usage}, not {item!r}")
        pairs.append((seat, text))
    return pairs


def output_format(output: str | None, fmt: str | None, command: str) -> str:
    """What `command` writes (SPEC §8): --format when given, else the format OUT's extension
    names, else the command's first format. A --format that contradicts the extension, a
    format or extension the command cannot write, or a picture's bytes for a terminal (no
    OUT), is exit 2."""
    written = formats.written_by(command)
    suffix = Path(output).suffix.lower() if output else ""
    named = formats.named_by(suffix) if suffix else None
    if suffix and named is None and fmt is None:
        raise UsageError(f"{output}: cannot tell the format from {suffix!r}: name the file "
                         f"{' or '.join(formats.extension(f) for f in written)}, or give --format")
    if fmt is not None and named is not None and fmt != named:
        raise UsageError(f"{output}: --format {fmt} but the name says {named}; make them agree")
    chosen = fmt or named or written[0]
    if chosen not in written:
        raise UsageError(f"this command writes {', '.join(written)}, not {chosen}")
    if output is None and chosen in BINARY and sys.stdout.isatty():
        # SPEC §8b: bytes of a picture would only garble the terminal.
        raise UsageError(f"{chosen.upper()} is no text for a terminal: give -o FILE")
    return chosen


def ply_span(text: str | None) -> tuple[int | None, int | None]:
    """`--plies A..B` (either end may be left out: `5..`, `..20`), or one ply `N`: the first and
    last ply, None for an end left open. Whether they lie within the record, the analysis says."""
    if text is None:
        return None, None
    first, sep, last = text.partition("..")
    if not sep:
        first = last = text

    def number(part: str) -> int | None:
        part = part.strip()
        if not part:
            return None
        if not (part.isascii() and part.isdigit()):
            raise UsageError(f"--plies takes A..B, e.g. 1..20, 12.. or ..30, not {text!r}")
        return int(part)

    return number(first), number(last)
