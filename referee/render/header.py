"""The words around a board, the same in the text and the SVG diagram: title, players, last
move, the game's status lines and the result. A module of its own so that `referee status`,
which prints these words and no board, loads no drawing code.
"""

from __future__ import annotations

import datetime as dt
import re
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple

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


def wrap(line: str, width: int = TEXT_WIDTH, indent: str = "  ") -> list[str]:
    """A line of words on lines of at most `width` characters, broken at spaces, follow-on
    lines indented (past the line's own indentation); a word longer than a line is cut."""
    if len(line) <= width:
        return [line]
    lead = line[: len(line) - len(line.lstrip(" "))]
    follow = lead + indent
    lines, current = [], lead
    for word in line.split():
        if len(current) > len(lead if not lines else follow) and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = follow
        elif len(current) > len(lead if not lines else follow):
            current += " "
        while len(current) + len(word) > width:  # a word no line can hold
            take = max(1, width - len(current))
            lines.append(current + word[:take])
            current, word = follow, word[take:]
        current += word
    return lines + [current] if current.strip() else lines


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
