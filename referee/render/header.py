"""The words around a board, the same in the text and the SVG diagram: title, players, last
move, the game's status lines and the result. A module of its own so that `referee status`,
which prints these words and no board, loads no drawing code.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple

from unicodedata import east_asian_width

from referee.clock import sentences
from referee.errors import CONTROL

if TYPE_CHECKING:
    from referee.replay import Replay

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


def option_summary(options: dict[str, object]) -> str:
    return ", ".join(f"{k} {v}" for k, v in options.items())


TEXT_WIDTH = 78  # a mail body's line
SVG_WIDTH = 96  # a line of words under an SVG board, before the picture grows wider than the board
MAX_NAME = 40  # a name longer than this is cut where it stands in a sentence
MAX_COMMENT = 600  # characters of a comment shown under a diagram; the record keeps it whole
MAX_LINES = 12  # lines one name, comment or status line may take in a diagram, cut with "…" past them


class Header(NamedTuple):
    """The words around a board: the same in text and SVG."""

    title: str
    players: list[str]
    legend: list[tuple[str, str, str]]  # (kind key, glyph, label)
    last: str | None
    status: list[str]
    result: str
    comment: str | None = None  # the last comment made up to this ply, with its ply and author
    ply: int = 0
    mover: str = ""  # who made the last ply: a name, or "seat N"

    def last_lines(self, width: int = SVG_WIDTH, details: Iterable[str] = ()) -> list[str]:
        """The last move, the `details` a drawer gives of it (Hermetica's actions) and, under
        them, the last comment, each wrapped to `width` characters."""
        lines = [self.last, *details] if self.last else list(details)
        if self.comment:
            lines.append(self.comment)
        return wrap_all(lines, width)


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


def short_name(name: str | None) -> str | None:
    """The name a sentence uses: "Ann <ann@example.org>" without its address, cut when long;
    None when the record gives no name (then the seat's number is used)."""
    if not name:
        return None
    bare = re.sub(r"\s*<[^<>]*>\s*$", "", name).strip().strip('"').strip()
    if not bare:
        return None
    return bare if len(bare) <= MAX_NAME else bare[: MAX_NAME - 1] + "…"


def who(play: Replay, seat: int, capital: bool = True) -> str:
    """A seat in a sentence: its player's name where the record has one, else "Seat N"."""
    return short_name(play.record.player_name(seat)) or f"{'Seat' if capital else 'seat'} {seat}"


def result_words(play: Replay, ply: int | None = None) -> str:
    """The result sentence a player reads: `Replay.result_sentence` (status --json's "result")
    with the players' names where the record has them: "Bo to move", "Ann wins: …"."""
    outcome = play.outcome(ply)
    if outcome is None:
        return f"{who(play, play.to_move(ply))} to move"
    if outcome.summary or not outcome.winners:
        return play.result_sentence(ply)
    names = [who(play, seat) for seat in outcome.winners]
    if len(names) == 1:
        return f"{names[0]} wins: {outcome.reason}"
    if all(n.startswith("Seat ") for n in names):
        return play.result_sentence(ply)
    return f"{', '.join(names[:-1])} and {names[-1]} win: {outcome.reason}"


def last_comment(play: Replay, ply: int) -> str | None:
    """The last comment of the last round up to `ply` (the last ply of each seat: a comment
    older than that was answered already), as a line: whose, on which ply, and its words on
    one line (cut when very long)."""
    for number in range(ply, max(0, ply - len(play.seats)), -1):
        comment = play.record.moves[number - 1].comment if number <= len(play.record.moves) else None
        if comment and comment.strip():
            words = " ".join(comment.split())
            if len(words) > MAX_COMMENT:
                words = words[: MAX_COMMENT - 1] + "…"
            author = who(play, play.movers[number - 1], capital=False)
            return f"Comment, ply {number} ({author}): “{words}”"
    return None


def header(play: Replay, ply: int, picture: Any, now: dt.datetime | None = None) -> Header:
    """The words around the board after `ply`. A game with a clock shows it as it stood at
    `now` (by default, when that ply was made: a look back)."""
    game, record = play.game, play.record
    kinds = getattr(picture, "kinds", ())
    glyphs = {kind.seat: kind.glyph for kind in kinds if kind.seat}
    players = []
    for seat in play.seats:
        line = f"Seat {seat}" + (f" ({glyphs[seat]})" if seat in glyphs else "")
        name = record.player_name(seat)
        players.append(f"{line}: {name}" if name else line)
    last, mover = None, ""
    if ply:
        mover = who(play, play.movers[ply - 1], capital=False)
        last = f"Ply {ply}: {play.last_move(ply)} ({mover})"
    over = play.outcome(ply) is not None
    return Header(
        title=f"{game.name} ({game.credit}) · {option_summary(play.options)}",
        players=players,
        legend=[(k.key, k.glyph, k.label) for k in kinds],
        last=last,
        status=(game.final_status_lines(play.states[ply]) if over else game.status_lines(play.states[ply]))
        + standing_lines(play, ply, now),
        result=result_words(play, ply),
        comment=last_comment(play, ply),
        ply=ply,
        mover=mover,
    )


def standing_lines(play: Replay, ply: int, now: dt.datetime | None) -> list[str]:
    """What stands after `ply` besides the position (SPEC §6): a draw offer awaiting its
    answer, and the clock as it stands at `now` (by default when the ply was made)."""
    standing, to_move = play.standing[ply], play.to_move(ply)
    lines = []
    if standing.offer is not None and to_move is not None:
        lines.append(f"{who(play, standing.offer)} offers a draw: {who(play, to_move, capital=False)} "
                     "may answer 'accept draw', or play on to decline")
    if standing.clock is not None:
        names = {seat: who(play, seat) for seat in (1, 2)}
        lines += sentences(standing.clock, to_move, standing.clock.last if now is None else now, names)
    return lines


class TextHead(NamedTuple):
    """The words of a Header as lines for a text diagram, each at most TEXT_WIDTH characters."""

    title: list[str]
    players: list[str]
    legend: list[tuple[str, str, str]]
    last: list[str]
    status: list[str]
    result: list[str]


def text_head(head: Header) -> TextHead:
    return TextHead(
        title=_title_lines(head.title),
        players=wrap_all(head.players),
        legend=head.legend,
        last=wrap_all(head.last_lines(TEXT_WIDTH)),
        status=wrap_all(head.status),
        result=wrap_all([head.result]),
    )


def _title_lines(title: str) -> list[str]:
    """A long title breaks after the game's name, before its options."""
    if len(title) <= TEXT_WIDTH or " · " not in title:
        return wrap(title)
    name, options = title.split(" · ", 1)
    return wrap(name + " ·") + wrap("  " + options)
