"""The standings drawn: a text crosstable for the club's mail and a self-contained HTML page.

Crosstables as clubs print them: players numbered by place, one column per opponent by
number, each cell the results of their games in the order played (1 win, ½ draw, 0 loss,
* still going on), then points, Sonneborn-Berger and the Elo rating. The text fits 78 columns
for up to eight players or so, names cut to the room left; the page links every result to its
record and holds no script (a Content-Security-Policy forbids any, and allows only its own
style, by hash).

A crosstable grows with the square of its players: a game of more than CROSSTABLE_PLAYERS
players is shown as the list of its rows, without the opponents' columns, and both the text
and the page say so (SPEC §9: a page of thousands of players stays a few MB). A cell of many
games between two players shows the score of the pair ("7½/12") rather than every result.
"""

from __future__ import annotations

import base64
import hashlib
from collections import Counter
from typing import NamedTuple

from markupsafe import Markup

from referee.games.base import count
from referee.text import cut, plain
from referee.render.templates import asset, render
from referee.club.ranking import Cell, CoopRow, CoopTable, Standings, Table

WIDTH = 78  # a mail's line
MIN_NAME = 8  # below this a name no longer tells players apart: the table grows wider instead
SYMBOLS = {1.0: "1", 0.5: "½", 0.0: "0", None: "*"}
LISTED = 10  # records not counted, listed one by one; beyond that counted
# Beyond this many players a crosstable is no longer read as a table (a hundred columns are
# already several screens wide), while its page would grow with the square of the players:
# 100 players make at most 10,000 cells, some hundreds of KB, besides one link a game.
CROSSTABLE_PLAYERS = 100
CELL_RESULTS = 6  # results written one by one in a text cell; more are summed up as "7½/12"


QUARTERS = {0: "", 1: "¼", 2: "½", 3: "¾"}


def points(value: float) -> str:
    """A score as crosstables write it, points and Sonneborn-Berger alike (one notation in
    the text and on the page): 3.5 as 3½, 2.75 as 2¾, a fraction alone without its 0 (½, ¼).
    Scores are whole, half or quarter points (a game scores 1, ½ or 0, and Sonneborn-Berger
    multiplies such scores by points); anything else, which no game scores, keeps its decimals."""
    quarters = value * 4
    if quarters != round(quarters) or value < 0:
        return f"{value:.2f}".rstrip("0").rstrip(".")
    whole, part = divmod(int(round(quarters)), 4)
    return ("" if part and whole == 0 else str(whole)) + QUARTERS[part]


def rating(value: float) -> str:
    """An Elo rating as the text and the page show it: whole points (--json keeps a decimal)."""
    return f"{value:.0f}"


def labels(table: Table | CoopTable) -> dict[str, str]:
    """The name shown for each player: the name without its address, unless two players of
    the table would then look alike."""
    shorts = Counter(row.short.casefold() for row in table.rows)
    return {row.key: row.short if shorts[row.short.casefold()] == 1 else row.player for row in table.rows}


def crosstable_shown(table: Table) -> bool:
    return len(table.rows) <= CROSSTABLE_PLAYERS


def left_out(table: Table) -> str:
    """What a table too large for a crosstable says in its place."""
    return f"The crosstable is left out: {len(table.rows):,} players, more than {CROSSTABLE_PLAYERS} to a table"


def _cells(table: Table, key: str, opponent: str) -> list[Cell]:
    return table.cells.get((key, opponent), [])


# -- text --------------------------------------------------------------------------------------


def _text_cell(cells: list[Cell]) -> str:
    """A pair's results one by one, or past CELL_RESULTS their sum: "6/12" (points of the
    finished games), "+1*" for those going on, so a column stays a few characters wide."""
    if len(cells) <= CELL_RESULTS:
        return "".join(SYMBOLS[c.score] for c in cells)
    scores = [c.score for c in cells if c.score is not None]
    going = len(cells) - len(scores)
    return f"{points(sum(scores))}/{len(scores)}" + (f"+{going}*" if going else "")


def crosstable_lines(table: Table) -> list[str]:
    """The crosstable in text; for a table too large for one (CROSSTABLE_PLAYERS), the rows
    alone: place, name, points, Sonneborn-Berger and rating."""
    rows = table.rows
    names = labels(table)
    columns = rows if crosstable_shown(table) else []
    games = max((len(_text_cell(cells)) for cells in table.cells.values()), default=1)  # widest cell
    column = max(games, len(str(len(rows))))
    number = len(str(len(rows)))
    tail = f"  {'Pts':>5} {'SB':>6} {'Elo':>5}"
    room = WIDTH - number - 2 - len(columns) * (1 + column) - len(tail)
    longest = max(len(plain(names[row.key])) for row in rows)
    name_width = max(min(longest, room), min(longest, MIN_NAME), 6)
    head = f"{'#':>{number}}  {'Player':<{name_width}}" + "".join(
        f" {row.number:<{column}}" for row in columns
    ) + tail
    lines = [head]
    for row in rows:
        cells = "".join(
            " " + ("X" * games if other.key == row.key else
                   _text_cell(_cells(table, row.key, other.key))).ljust(column)
            for other in columns
        )
        lines.append(
            f"{row.number:>{number}}  {cut(plain(names[row.key]), name_width):<{name_width}}{cells}"
            f"  {points(row.points):>5} {points(row.sonneborn_berger):>6} {rating(row.rating):>5}"
        )
    return [line.rstrip() for line in lines]


def _title(name: str, what: str) -> str:
    return cut(plain(f"{name}: {what}"), WIDTH)


def text(result: Standings) -> list[str]:
    """`referee standings` without --json: a crosstable per game, the cooperative games, then
    the records counted nowhere and why."""
    lines: list[str] = []
    for table in result.games.values():
        lines += [_title(table.name, _summary(table)), ""]
        if not crosstable_shown(table):
            lines += [cut(left_out(table) + ".", WIDTH), ""]
        lines += crosstable_lines(table) + [""]
    for coop in result.cooperative.values():
        lines += [_title(coop.name, "solo and cooperative games"), ""] + coop_lines(coop) + [""]
    if result.invalid:
        lines.append(f"Invalid records, counted nowhere ({len(result.invalid)}):")
        lines += [f"  {plain(error)}" for _, error in result.invalid]
        lines.append("")
    if result.skipped:
        lines.append(f"Valid records not counted ({len(result.skipped)}):")
        lines += [cut(plain(f"  {file}: {reason}"), WIDTH) for file, reason in result.skipped[:LISTED]]
        if len(result.skipped) > LISTED:
            lines.append(f"  … and {len(result.skipped) - LISTED} more (--json lists them all)")
        lines.append("")
    lines.append(_records(result))
    return lines


def coop_lines(table: CoopTable) -> list[str]:
    names = labels(table)
    width = max(6, min(max(len(plain(names[row.key])) for row in table.rows), 30))
    lines = [f"{'Player':<{width}}  Played  Won Lost  Going on  Solo W-L  Coop W-L"]
    for row in table.rows:
        solo, coop = f"{row.solo[1]}-{row.solo[2]}", f"{row.coop[1]}-{row.coop[2]}"
        lines.append(f"{cut(plain(names[row.key]), width):<{width}}  {row.played:>6} {row.wins:>4} "
                     f"{row.losses:>4}  {row.unfinished:>8}  {solo:>8}  {coop:>8}")
    return lines


# -- HTML --------------------------------------------------------------------------------------


class Result(NamedTuple):
    symbol: str
    href: str
    title: str


class HtmlRow(NamedTuple):
    number: int
    player: str  # the whole spelling, shown on hover
    label: str
    cells: list[list[Result] | None]  # one per opponent by number; None on the diagonal
    played: int
    wins: int
    draws: int
    losses: int
    unfinished: int
    points: str
    sonneborn_berger: str
    rating: str


class HtmlTable(NamedTuple):
    name: str
    summary: str
    rows: list[HtmlRow]
    left_out: str | None  # why the opponents' columns are not drawn, when they are not


class HtmlCoop(NamedTuple):
    name: str
    rows: list[tuple[str, CoopRow]]  # (the name shown, the row)


def page(result: Standings, links: dict[str, str]) -> str:
    """The standings as one HTML file: `links` maps each record file to its address from the
    page (relative, made by the caller, who knows where the page goes)."""
    style = Markup(" ".join(asset("standings.css").split()))
    digest = base64.b64encode(hashlib.sha256(style.encode("utf-8")).digest()).decode("ascii")
    return render(
        "standings.html.j2", style=style, style_hash=f"sha256-{digest}",
        tables=[_html_table(table, links) for table in result.games.values()],
        coop=[HtmlCoop(t.name, [(labels(t)[row.key], row) for row in t.rows]) for t in result.cooperative.values()],
        invalid=result.invalid, skipped=result.skipped,
        summary=_records(result),
    )


def _records(result: Standings) -> str:
    """"20 records: 18 counted, 2 invalid, 0 not counted"."""
    counted = result.records - len(result.invalid) - len(result.skipped)
    return (f"{count(result.records, 'record')}: {counted} counted, {len(result.invalid)} invalid, "
            f"{len(result.skipped)} not counted")


def _summary(table: Table) -> str:
    going = f", {table.unfinished} going on" if table.unfinished else ""
    return f"{len(table.rows)} players, {count(table.finished, 'game')} finished{going}"


def _html_table(table: Table, links: dict[str, str]) -> HtmlTable:
    names = labels(table)
    columns = table.rows if crosstable_shown(table) else []
    rows = []
    for row in table.rows:
        cells: list[list[Result] | None] = []
        for other in columns:
            if other.key == row.key:
                cells.append(None)
                continue
            cells.append([
                Result(SYMBOLS[c.score], links[c.file],
                       f"{names[row.key]} against {names[other.key]}: "
                       f"{'going on' if c.score is None else points(c.score)} ({c.file})")
                for c in _cells(table, row.key, other.key)
            ])
        rows.append(HtmlRow(row.number, row.player, names[row.key], cells, row.played, row.wins,
                            row.draws, row.losses, row.unfinished, points(row.points),
                            points(row.sonneborn_berger), rating(row.rating)))
    return HtmlTable(table.name, _summary(table), rows, None if columns else left_out(table))
