"""One family of errors for everything a user can get wrong.

Raised deep (a rules module knows only the reason), enriched on the way up (the replay adds the
ply and the move, the record reader the file and the TOML line), printed once at the command
boundary. `exit_code` follows SPEC §4: 1 for a rule violation or an invalid record, 2 when the
command cannot run as asked.
"""

from __future__ import annotations

from typing import Callable

# What a stranger's text may not carry into a terminal, a diagram or a mail header, each to "?"
# (str.translate; text.py's `plain` uses it too): control characters and line
# separators, which forge lines or repaint a terminal; bidi overrides, embeddings, isolates and
# marks, which make "b e5" display as something else; zero-width characters, which make two
# names look the same (SPEC §9).
_BIDI = [0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)]
_ZERO_WIDTH = [0x00AD, 0x180E, 0x200B, 0x200C, 0x200D, 0x2060, 0x2061, 0x2062, 0x2063, 0x2064, 0xFEFF]
CONTROL = dict.fromkeys([*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029, *_BIDI, *_ZERO_WIDTH], "?")


class RefereeError(Exception):
    exit_code = 1

    def __init__(
        self,
        reason: str,
        *,
        file: str | None = None,
        line: int | None = None,
        ply: int | None = None,
        move: str | None = None,
        action: int | None = None,
    ):
        super().__init__(reason)
        self.reason = reason
        self.file = file
        self.line = line
        self.ply = ply
        self.move = move
        self.action = action
        # The reason as a player reads it, the players' names for the seats it names (SPEC
        # §8b), when it differs; `reason` keeps the seat numbers, for JSON.
        self.said: str | None = None

    def named(self, words: Callable[[str], str]) -> "RefereeError":
        """Print the reason in `words` (play/words.py's `in_words`: seats by their players'
        names); keeps a wording set before, by whoever knew better."""
        if self.said is None:
            self.said = words(self.reason)
        return self

    def located(self, **where) -> "RefereeError":
        """Fill in whatever location the raiser could not know; keeps what it did know."""
        for key, value in where.items():
            if getattr(self, key) is None:
                setattr(self, key, value)
        return self

    def __str__(self) -> str:
        place = ""
        if self.file is not None:
            place = self.file + (f":{self.line}" if self.line is not None else "") + ": "
        if self.ply is not None:
            place += f"ply {self.ply}"
            if self.move is not None:
                # A hostile record may hold a huge move: show its start, not all of it.
                move = self.move if len(self.move) <= 60 else self.move[:57] + "…"
                place += f" ({move})"
            if self.action is not None:
                place += f", action {self.action}"
            place += ": "
        # A reason may quote what a stranger typed: quote its start, not a whole megabyte.
        reason = self.said or self.reason
        reason = reason if len(reason) <= 300 else reason[:297] + "…"
        # The message goes to a terminal or a mail: a line break or an escape sequence from a
        # stranger's record must not forge lines or repaint the screen.
        return (place + reason).translate(CONTROL)


class NotationError(RefereeError):
    """The move text cannot be read: wrong form, unknown cell."""


class IllegalMoveError(RefereeError):
    """The move is well formed but the rules do not allow it here."""


class RecordError(RefereeError):
    """The record file itself is wrong: broken TOML, unknown keys, bad options, wrong result."""


class UsageError(RefereeError):
    """The command cannot run as asked: missing input, existing output, --ply out of range."""

    exit_code = 2


def within(option: str, value, bounds: tuple, unit: str = "", spec: str = "g"):
    """`value` of the command-line `option` if it lies within `bounds` (low, high), else a
    UsageError giving the range, `unit` after it (" a ply"), the numbers in format `spec`."""
    low, high = bounds
    if not low <= value <= high:
        raise UsageError(f"{option} must be {low:{spec}}–{high:{spec}}{unit}, not {value:{spec}}")
    return value
