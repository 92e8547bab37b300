"""Text a player reads, in a terminal, a mail or a picture: control characters taken out, and
lines fitted to a width (wide characters counted as two columns), cut with "…" where they must.
Imports nothing of the referee but its errors: every layer above uses it.
"""

from __future__ import annotations

from typing import Any

from unicodedata import east_asian_width

from referee.errors import CONTROL

TEXT_WIDTH = 78  # a mail body's line
MAX_LINES = 12  # lines one name, comment or status line may take in a diagram, cut with "…" past them

# The control characters and line separators of error messages, and the two characters XML
# forbids outright, each to "?".
_CONTROL = {**CONTROL, 0xFFFE: "?", 0xFFFF: "?"}


def plain(value: Any) -> Any:
    """Make a value safe for a diagram or a terminal: control characters become '?', so a
    player's name can neither inject terminal escapes or fake lines into a mail nor make an
    SVG unreadable XML. (In SVG, Jinja's autoescaping then takes care of markup.)"""
    if isinstance(value, str):
        return value.translate(_CONTROL)
    return value


def columns(text: str) -> int:
    """How many columns `text` takes on a terminal, in a mail or in a picture: two for a wide
    character (Chinese, Japanese, Korean, most emoji), one for any other. A combining accent
    counts one too: a little too wide is safe, too narrow would let a line run over."""
    if text.isascii():
        return len(text)
    return sum(2 if east_asian_width(char) in _WIDE else 1 for char in text)


_WIDE = frozenset(("W", "F"))


def _head(text: str, room: int) -> str:
    """The longest start of `text` within `room` columns (at least its first character, so that
    a wrap always moves on)."""
    used = 0
    for index, char in enumerate(text):
        used += columns(char)
        if used > room:
            return text[: max(index, 1)]
    return text


def cut(text: str, width: int) -> str:
    """`text` on one line of at most `width` columns: whole, or cut with "…"."""
    return text if columns(text) <= width else _head(text, width - 1).rstrip() + "…"


def wrap(line: str, width: int = TEXT_WIDTH, indent: str = "  ", most: int = MAX_LINES) -> list[str]:
    """A line of words on lines of at most `width` columns, broken at spaces, follow-on lines
    indented (past the line's own indentation); a word longer than a line is cut. Past `most`
    lines the words are cut, the last line ending in "…": a name or comment of thousands of
    characters stays a few lines in a mail and a picture (the record keeps it whole)."""
    if columns(line) <= width:
        return [line]
    lead = line[: len(line) - len(line.lstrip(" "))][: width // 2]
    follow = lead + indent
    lines: list[str] = []
    current, used = lead, len(lead)  # indentation is spaces: a column each
    for word in line.split():
        start = len(lead if not lines else follow)
        size = columns(word)
        if used > start and used + 1 + size > width:
            lines.append(current)
            current, used = follow, len(follow)
        elif used > start:
            current, used = current + " ", used + 1
        while used + size > width and len(lines) <= most:  # a word no line can hold
            piece = _head(word, width - used)
            lines.append(current + piece)
            current, used = follow, len(follow)
            word, size = word[len(piece):], size - columns(piece)
        current, used = current + word, used + size
        if len(lines) > most:
            break  # the rest is cut below
    if current.strip():
        lines.append(current)
    if len(lines) > most:
        lines = lines[:most]
        lines[-1] = _head(lines[-1], width - 1).rstrip() + "…"
    return lines


def wrap_all(lines: list[str], width: int = TEXT_WIDTH) -> list[str]:
    return [part for line in lines for part in wrap(line, width)]
