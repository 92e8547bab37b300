"""The words a player reads about a game: a seat by its player's name (`who`), the rules'
reasons with the players' names in them (`in_words`, SPEC §8b), the one result sentence
(`result_words`), and the words around a board — title, players, last move, status lines,
result — the same in the text and the SVG diagram and in `referee status`, which prints them
with no board and so loads no drawing code."""

from __future__ import annotations

import datetime as dt
from typing import TYPE_CHECKING, Any, Iterable, NamedTuple

from referee.play.lines import standing_words
from referee.play.replay import who, who_and_seat  # noqa: F401 - where the rest of the code finds them
from referee.record.clock import sentences
from referee.text import TEXT_WIDTH, wrap, wrap_all
from referee.record.players import named, names_of

if TYPE_CHECKING:
    from referee.play.replay import Replay


def option_summary(options: dict[str, object]) -> str:
    return ", ".join(f"{k} {v}" for k, v in options.items())


SVG_WIDTH = 96  # a line of words under an SVG board, before the picture grows wider than the board
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


def in_words(play: Replay, text: str) -> str:
    """A reason written with seat numbers (by the rules, the replay, the record's [result]) as
    a player reads it: the players' names for their seats, where the record has them."""
    return named(text, names_of(play.record.players))


def result_words(play: Replay, ply: int | None = None, names: bool = True) -> str:
    """The result sentence after `ply` (default: the last), with the players' names where the
    record has them: "Bo to move", "Ann wins: Bo resigned", "Draw: …". With `names` False,
    seats by number, as `status --json` gives it (SPEC §4): "Seat 2 to move", "Seat 1 wins:
    seat 2 resigned"."""
    people = names_of(play.record.players) if names else {}

    def say(seat: int, capital: bool = True) -> str:
        return people.get(seat) or f"{'Seat' if capital else 'seat'} {seat}"

    outcome = play.outcome(ply)
    if outcome is None:
        return f"{say(play.to_move(ply))} to move"
    if outcome.summary:
        return named(outcome.summary, people)
    reason, winners = named(outcome.reason, people), outcome.winners
    if not winners:
        return f"Draw: {reason}"
    if len(winners) == 1:
        return f"{say(winners[0])} wins: {reason}"
    if not any(seat in people for seat in winners):
        return f"Seats {', '.join(map(str, winners))} win: {reason}"
    words = [say(seat, capital=not index) for index, seat in enumerate(winners)]
    return f"{', '.join(words[:-1])} and {words[-1]} win: {reason}"


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
            author = who(play, play.line[number].mover, capital=False)
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
        mover = who(play, play.line[ply].mover, capital=False)
        last = f"Ply {ply}: {play.last_move(ply)} ({mover})"
    position = play.position(ply)
    lines = game.final_status_lines(position) if play.outcome(ply) is not None else game.status_lines(position)
    return Header(
        title=f"{game.name} ({game.credit}) · {option_summary(play.options)}",
        players=players,
        legend=[(k.key, k.glyph, k.label) for k in kinds],
        last=last,
        # The rules write their lines with seat numbers ("Seat 2 cannot place."): in names here.
        status=[in_words(play, line) for line in lines] + standing_lines(play, ply, now),
        result=result_words(play, ply),
        comment=last_comment(play, ply),
        ply=ply,
        mover=mover,
    )


def standing_lines(play: Replay, ply: int, now: dt.datetime | None) -> list[str]:
    """What stands after `ply` besides the position (SPEC §6, §12): a draw offer awaiting its
    answer, the clock as it stands at `now` (by default when the ply was made), and the
    conditional line left for the next ply."""
    standing, to_move = play.line[ply].standing, play.to_move(ply)
    lines = []
    if standing.offer is not None and to_move is not None:
        lines.append(f"{who(play, standing.offer)} offers a draw: {who(play, to_move, capital=False)} "
                     "may answer 'accept draw', or play on to decline")
    if standing.clock is not None:
        names = {seat: who(play, seat) for seat in (1, 2)}
        lines += sentences(standing.clock, to_move, standing.clock.last if now is None else now, names)
    line = standing_words(play, ply)
    return lines + [line] if line else lines


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
