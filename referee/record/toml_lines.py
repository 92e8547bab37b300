"""Where things stand in a record's TOML text, for messages: the line of each ply's move and
of a table's header. Neither TOML reader reports where a value stood, so these lines are found
by a light scan of the text beside the parse. TOML lines end only at LF (or CRLF), never at
the other breaks str.splitlines knows.
"""

from __future__ import annotations

import re
from typing import NamedTuple


class MoveLines:
    """The TOML line of each ply's move in a record's text, found by scanning the text the
    first time a message asks for one: most records are valid, and their lines never needed."""

    def __init__(self, text: str, count: int):
        self._text, self._count = text, count
        self._found: list[int] | None = None

    def __getitem__(self, index: int) -> int | None:
        if self._found is None:
            self._found = entry_lines(self._text, self._count)
            self._text = ""  # the scan is done: the record's text need not be kept alive
        return self._found[index] if index < len(self._found) else None


class Where(NamedTuple):
    """Ply `index` of a record whose lines are looked up when needed (`Entry.line`)."""

    lines: MoveLines
    index: int

    def line(self) -> int | None:
        return self.lines[self.index]


_SPACE = r"[^\S\n]*"  # \s within one line: a TOML line ends only at LF (or CRLF)
_MOVES_HEADER = re.compile(rf"^{_SPACE}\[\[{_SPACE}moves{_SPACE}\]\]", re.MULTILINE)
_MOVE_KEY = re.compile(r"\s*move\s*=")
_MOVES_ARRAY = re.compile(r"\s*moves\s*=\s*\[")


def header_line(text: str, table: str) -> int | None:
    """The line of the first `[table]` header (a comment may follow it)."""
    header = re.compile(rf"^{_SPACE}\[{_SPACE}{table}{_SPACE}\]{_SPACE}(#.*)?$", re.MULTILINE)
    match = header.search(text)
    return None if match is None else text.count("\n", 0, match.start()) + 1


def entry_lines(text: str, count: int) -> list[int]:
    """The line of each ply's move: the `move =` line of each [[moves]] table, or the line of
    each string in a plain `moves = [...]` array."""
    lines = text.split("\n")
    found: list[int] = []
    number, at = 1, 0  # the line number of position `at` in the text
    for header in _MOVES_HEADER.finditer(text):
        number += text.count("\n", at, header.start())
        at = header.start()
        found.append(number)
        for later in range(number, min(number + 10, len(lines))):
            if _MOVE_KEY.match(lines[later]):
                found[-1] = later + 1
                break
            if lines[later].lstrip().startswith("["):
                break
    if found:
        return found
    for number, line in enumerate(lines, 1):
        match = _MOVES_ARRAY.match(line)
        if match:
            return _array_string_lines(lines, number - 1, match.end())[:count]
    return []


_ARRAY_MARK = re.compile(r"[\"'#{}\[\]]")  # what `_array_string_lines` looks at; it skips the rest
_BASIC_STRING_BODY = re.compile(r'(?:[^"\\]|\\.)*')


def _array_string_lines(lines: list[str], row: int, col: int) -> list[int]:
    """Line numbers of the items of a TOML moves array starting at lines[row][col]: each
    string, or each inline table `{ move = "…", … }` (the strings inside it are one item)."""
    found, depth, braces = [], 1, 0
    while row < len(lines):
        line = lines[row]
        while (mark := _ARRAY_MARK.search(line, col)) is not None:
            col = mark.start()
            ch = line[col]
            if ch == "#":
                break
            if ch in "\"'":
                if not braces:
                    found.append(row + 1)
                col = _string_end(line, col)
            elif ch == "{":
                if not braces:
                    found.append(row + 1)
                braces += 1
            elif ch == "}":
                braces -= 1
            elif ch == "[":
                depth += 1
            elif ch == "]":
                depth -= 1
                if depth == 0:
                    return found
            col += 1
        row, col = row + 1, 0
    return found


def _string_end(line: str, start: int) -> int:
    """Where the string opening at line[start] closes: the index of its closing quote, or the
    end of the line when it does not close there."""
    if line[start] == "'":  # a literal string: no escapes
        end = line.find("'", start + 1)
        return len(line) if end < 0 else end
    end = _BASIC_STRING_BODY.match(line, start + 1).end()
    return end if end < len(line) and line[end] == '"' else len(line)
