"""Reading TOML: a record's or a data file's text into Python values, exactly as tomllib reads it.

Records are read by rtoml, a compiled reader, where it is installed and the text holds nothing
that only a newer TOML allows or that the two read differently; tomllib, the standard library's
reader, is the reference: it reads whatever rtoml refuses or is not trusted with, and gives
every message about broken TOML (README: Performance).
"""

from __future__ import annotations

import datetime as dt
import re
from typing import Any


try:
    import rtoml
except ImportError:  # no wheel for this machine (pyproject.toml): tomllib reads everything
    rtoml = None

from referee.errors import RecordError

BOM = b"\xef\xbb\xbf"
BOM_CHAR = BOM.decode("utf-8")
MAX_KEY_PARTS = 64  # a record's longest key has 3 (setup.deals."2"); tomllib is quadratic in them


def load_toml(data: bytes, name: str) -> tuple[dict[str, Any], str]:
    """Parse the TOML of a record or a data file, and its text; raises a RecordError naming the
    file and, where tomllib knows it, the line. A byte-order mark, as some editors write one,
    is read as if it were not there (SPEC §8)."""
    if data.startswith(BOM):
        data = data[len(BOM):]
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise RecordError(f"not UTF-8 text (byte {exc.start})", file=name) from None
    line = _deep_key(text)
    if line is not None:
        raise RecordError(f"broken TOML: a key of more than {MAX_KEY_PARTS} dotted parts", file=name, line=line)
    doc = _quick_read(text)
    if doc is not None:
        return doc, text
    import tomllib  # the reference reader, when rtoml is missing, refuses or is not trusted

    try:
        return tomllib.loads(text), text
    except tomllib.TOMLDecodeError as exc:
        line = _decode_error_line(str(exc))
        reason = re.sub(r"\s*\(at line \d+, column \d+\)", "", str(exc)) or "broken TOML"
        raise RecordError(f"broken TOML: {reason}", file=name, line=line) from None
    except RecursionError:
        raise RecordError("broken TOML: arrays or tables nested too deeply", file=name) from None
    except ValueError:
        # Python refuses to read integers of thousands of digits (int_max_str_digits).
        raise RecordError("broken TOML: a number with too many digits", file=name) from None


# Where rtoml and tomllib part, found by tests/test_toml_reader.py; a text that may hold any of
# these goes to tomllib (a false alarm, say in a comment, costs only time):
# - TOML 1.1, which rtoml reads and tomllib (TOML 1.0) refuses: inline tables over several
#   lines or with a trailing comma (inline tables are rare in records: only conditional moves
#   hold them), \e and \x escapes, and times without seconds (":MM" not followed by more of a
#   time or of a hex digest, and not itself the seconds);
_ESCAPE = re.compile(r"\\[ex]")
_SHORT_TIME = re.compile(r":\d\d(?![:0-9a-fA-F])(?<!:\d\d:\d\d)")
# - a table declared after a table inside it ([a.b] before [a]): rtoml puts it where it is
#   declared, tomllib where it was first named (and refuses some such records rtoml reads).
# Both scans are anchored at the start of a line, where a header stands: unanchored, a line of
# thousands of "[" would cost the first one time quadratic in its length.
# - a carriage return inside a multi-line string: rtoml keeps "\r\n" there as it stands,
#   tomllib reads it as the newline TOML says it is. Outside multi-line strings the two agree
#   (CRLF line ends alike, a lone "\r" refused alike), and a text without three quotes in a row
#   holds no multi-line string, so only a text with both a "\r" and three quotes is sent on;
# - a second byte-order mark (load_toml strips the first): rtoml strips it too, tomllib refuses it.
_MULTILINE_QUOTES = ('"""', "'''")
_DOTTED_HEADER = re.compile(r"^[ \t]*\[\[?[^\]\n.]*\.", re.MULTILINE)
_HEADER = re.compile(r"^[ \t]*\[\[?([^\]\n]*)\]", re.MULTILINE)


def _quick_read(text: str) -> dict[str, Any] | None:
    """The document as tomllib would read it, by the compiled reader; None when it is not
    installed, when the text may hold something the two read differently, or when it refuses
    the text (tomllib then gives the verdict and the message: it also reads some numbers
    rtoml finds too large)."""
    if (rtoml is None or "{" in text or ("\\" in text and _ESCAPE.search(text))
            or ("\r" in text and any(quotes in text for quotes in _MULTILINE_QUOTES))
            or text.startswith(BOM_CHAR) or _SHORT_TIME.search(text) or _named_before_declared(text)):
        return None
    try:
        doc = rtoml.loads(text)
    except (rtoml.TomlParsingError, ValueError, OverflowError, RecursionError):
        return None
    if _TIME.search(text):
        _stdlib_times(doc)
    return doc


_TIME = re.compile(r"\d:\d\d")  # what any TOML date-time with a time holds


def _named_before_declared(text: str) -> bool:
    """Whether a table header declares a table that an earlier header named as part of its
    own dotted name ([a.b] before [a]; headers in strings count too: a false alarm)."""
    if not _DOTTED_HEADER.search(text):
        return False
    named: set[str] = set()
    for header in _HEADER.findall(text):
        name = "".join(header.split())
        if name in named or '"' in name or "'" in name:
            return True  # quoted keys: too many spellings of one name to compare
        parts = name.split(".")
        named.update(".".join(parts[:end]) for end in range(1, len(parts)))
    return False


def _stdlib_times(doc: dict[str, Any]) -> None:
    """Give the date-times with an offset tomllib's time zones (datetime.timezone) instead of
    rtoml's own: equal values either way, but one kind everywhere (pickling, repr, the tests)."""
    todo: list[dict[str, Any] | list[Any]] = [doc]
    while todo:
        value = todo.pop()
        for key, item in value.items() if type(value) is dict else enumerate(value):
            kind = type(item)
            if kind is dt.datetime:
                if item.tzinfo is not None:
                    offset = item.utcoffset()
                    value[key] = item.replace(tzinfo=dt.timezone(offset) if offset else dt.timezone.utc)
            elif kind is dict or kind is list:
                todo.append(item)


def _deep_key(text: str) -> int | None:
    """The line of a key with more than MAX_KEY_PARTS dotted parts (a.b.c… = 1, [a.b.c…], or
    inside an inline table), which would cost tomllib time and memory quadratic in its length;
    None when there is none. Counting dots first keeps this free for ordinary records."""
    if text.count(".") <= MAX_KEY_PARTS:
        return None
    for number, line in enumerate(text.split("\n"), 1):
        if line.count(".") <= MAX_KEY_PARTS:
            continue
        stripped = line.lstrip()
        if stripped.startswith("["):
            end = stripped.find("]")
            if (stripped if end < 0 else stripped[:end]).count(".") > MAX_KEY_PARTS:
                return number
        # Keys stand before each "=" (after "{" or "," in an inline table).
        pieces = re.split(r"([={,])", line)
        for piece, after in zip(pieces[::2], pieces[1::2]):
            if after == "=" and piece.count(".") > MAX_KEY_PARTS:
                return number
    return None


def _decode_error_line(message: str) -> int | None:
    match = re.search(r"at line (\d+)", message)
    return int(match[1]) if match else None
