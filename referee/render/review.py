"""The review page (SPEC §7): one self-contained HTML file to step through a whole game.

Everything the page shows is worked out here, as a view model; templates/review.html.j2 only
places the values, templates/review.css is its one style sheet and templates/review.js its one
script (the same for every game and every page: the game itself travels as data).

The board is drawn alone (the drawers' `bare` SVG), as wide as its column: the title, the
players, the legend, what each ply did and the status are the page's own text, and so is the
position in words (the SVG's <desc>) in each ply's panel, for a screen reader.

Room for the board: in a wide window the page is the window's height, the board on the left as
large as that height lets the tallest ply's picture be, the controls, the legend, the ply's
panel and the move list on the right; so the board with the last move, the legend and the
move's entry in the list are all in view as the page opens (a finished Hermetica game in a
1200 × 900 window). The page measures its pictures for its style sheet (board_room): their
narrowest shape, and the narrowest the board may be shown with its words still legible, on a
phone as in a wide window (a crab game's picture no longer shrinks its words to 5 px).

Safety comes in three layers, so that no single mistake lets a record run a script:
- every name, comment, option and line of words from a record goes through Jinja's
  autoescaping (the html environment of render/templates.py), control characters taken out;
- the diagrams are never markup in the page: each is an <img> of a `data:` URL. A picture drawn
  as an image runs no script, fetches nothing it names and keeps its own <style> to itself; the
  SVG text was moreover escaped by the SVG templates, and in the page it sits in a JSON data
  block (never executed) with every `<` written as a \\u escape, so nothing in it can close
  the block;
- a Content-Security-Policy in the page allows the one script and the one style sheet by their
  SHA-256 (computed here when the page is made), images from `data:` URLs, and nothing else:
  even if escaping failed, no injected script or style would run and nothing would be fetched.

Size: the whole SVG of every ply would make a long game's page several megabytes (4.6 MB for a
163-ply Harmijan). Consecutive diagrams share most of their lines (the board, the legend), so the
page holds each distinct line once and every ply as runs of line numbers, which the script joins
again (375 kB for that game). The opening ply is also drawn as a plain image, so the page shows
the board where scripts do not run (a mail program's preview) and before the script has run.
"""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re
from dataclasses import dataclass
from urllib.parse import quote

from markupsafe import Markup

from referee.record.players import short_name
from referee.record.values import toml_datetime
from referee.render.drawing import Drawn, drawn
from referee.text import cut
from referee.render.templates import asset, render
from referee.play.replay import Replay

# JSON written inside <script type="application/json">: the HTML parser ends such a block only
# at `</script` and reads no character reference in it, so with no `<` there is no way out of
# it (nor into the `<!--` states). Line separators are escaped for older JavaScript engines.
_JSON_ESCAPES = str.maketrans({"<": "\\u003c", "\u2028": "\\u2028", "\u2029": "\\u2029"})


@dataclass(frozen=True)
class PlyView:
    """One ply as the page shows it: in the move list and in the panel beside the board."""

    number: int
    move: str | None  # canonical; None for ply 0, the start
    seat: int | None
    player: str | None
    name: str | None  # who made it, as the move list says it: "Bo Sample", else "seat 2"
    at: str | None  # the time stamp as the record writes it (RFC 3339), for <time datetime>
    when: str | None  # the same, for a reader: "2026-11-22 14:01 UTC"
    comment: list[str]  # the comment, line by line
    last: str | None  # "Ply 3: b e6 (seat 1)"
    lines: list[str]  # what the ply did (a Hermetica turn: one line per action) and the status
    result: str  # "Seat 2 to move", "Seat 1 wins: …"
    current: bool  # the ply the page opens at
    words: str  # the position in words, as the picture's <desc> gives it


@dataclass(frozen=True)
class KeyView:
    """One entry of the legend, written as text under the board: its swatch (a data: URL of a
    small SVG in the picture's style, or None where the words say it all) and its words."""

    image: str | None
    words: str


@dataclass(frozen=True)
class Page:
    title: str
    game: str
    players: list[str]
    options: list[tuple[str, str]]
    result: str
    length: str  # "25 plies"
    plies: list[PlyView]
    opening: int
    last: int
    image: str  # the opening ply's diagram as a data: URL
    width: float  # its size as drawn, so that the page keeps its room before it is shown
    height: float
    legend: list[KeyView]  # every entry any ply's picture needs, once
    style: Markup
    script: Markup
    style_hash: str
    script_hash: str
    frames: Markup  # every ply's diagram, as JSON (see frames())
    palette: str  # the page's own colours follow the pictures' (review.css)


def page(play: Replay, opening: int | None = None, palette: str | None = None) -> str:
    """The review page of a replayed game, opening at ply `opening` (default: the last) when
    its address names no `#ply=N`."""
    drawings = [drawn(play, ply, palette) for ply in range(play.plies + 1)]
    return render("review.html.j2", page=view(play, drawings, opening, palette))


def view(play: Replay, drawings: list[Drawn], opening: int | None = None, palette: str | None = None,
         more_style: str = "") -> Page:
    """The review page's view model, from every ply's drawing (ply 0 to the last). A page
    built on this one (the analysis page, render/analysis.py) passes drawings it has added to
    and the lines of its own style sheet, which the policy allows with the rest."""
    opening = play.plies if opening is None else opening
    svgs = [d.svg for d in drawings]
    style, script = board_room(svgs) + asset("review.css") + more_style, asset("review.js")
    width, height = stated_size(svgs[opening])
    final = drawings[-1].head
    return Page(
        title=final.title,
        game=play.game.name,
        players=final.players,
        options=[(name, str(value)) for name, value in play.options.items()],
        result=final.result,
        length="1 ply" if play.plies == 1 else f"{play.plies} plies",
        plies=[_ply_view(play, ply, drawing, ply == opening) for ply, drawing in enumerate(drawings)],
        opening=opening,
        last=play.plies,
        image=data_url(svgs[opening]),
        width=width,
        height=height,
        legend=legend(drawings),
        style=Markup(style),
        script=Markup(script),
        style_hash=csp_hash(style),
        script_hash=csp_hash(script),
        frames=Markup(frames(svgs)),
        palette=palette or "default",
    )


# -- the board's room ----------------------------------------------------------------------------

LEGIBLE = 11.0  # px: the board is not shown so small that its words fall below this…
SHRINK = 0.85  # …nor, where its words are drawn smaller than that, below this part of its size

_SIZE = re.compile(r'<svg [^>]*?width="([\d.]+)" height="([\d.]+)"')
_RULE = re.compile(r"^\s*((?:\.[\w-]+)+) \{([^}]*)\}", re.M)
_FONT = re.compile(r"font-size:\s*([\d.]+)px")
_TEXT = re.compile(r'<text class="([^"]*)"')


def stated_size(svg: str) -> tuple[float, float]:
    """The width and height a diagram states: the size a browser draws it at, as an image."""
    match = _SIZE.search(svg)
    return (float(match[1]), float(match[2])) if match else (1.0, 1.0)


def smallest_words(svg: str) -> float | None:
    """The font size of the smallest words a diagram writes (its style sheet's rules are one or
    more classes each, as render/palette.py writes them; a word takes the size of the most
    specific rule that sets one, the later of two alike)."""
    rules = [(frozenset(selector.split(".")[1:]), float(size[1]))
             for selector, body in _RULE.findall(svg) if (size := _FONT.search(body))]
    sizes = []
    for classes in set(_TEXT.findall(svg)):
        have = set(classes.split())
        fitting = [(len(selector), order, size) for order, (selector, size) in enumerate(rules) if selector <= have]
        if fitting:
            sizes.append(max(fitting)[2])
    return min(sizes, default=None)


def least_width(svgs: list[str]) -> float:
    """The narrowest the board may be shown, in CSS px: as narrow as keeps every word of every
    ply's picture at LEGIBLE px or more (the image is one width for every ply, each picture
    scaled into it), or at SHRINK of the picture's own width where that is narrower (the hex
    names of Hermetica, drawn at 10 px: the board still fits a 1200 × 900 window whole)."""
    least = 0.0
    for svg in svgs:
        width, size = stated_size(svg)[0], smallest_words(svg)
        if size is not None:
            least = max(least, min(width * LEGIBLE / size, width * SHRINK))
    return math.ceil(least)


def board_room(svgs: list[str]) -> str:
    """The page's own measures of its board, as CSS custom properties for review.css: the
    narrowest shape of any ply's picture (width / height), so that the board, as wide as that
    shape allows, fits the window's height whatever the ply; and the narrowest the board may be
    shown (least_width), on a phone as in a wide window."""
    ratio = min(w / h for w, h in map(stated_size, svgs))
    return f":root {{ --board-ratio: {ratio:.4f}; --board-least: {least_width(svgs)}px; }}\n"


def legend(drawings: list[Drawn]) -> list[KeyView]:
    """The legend of the whole game: every entry of every ply's legend, once, in the order
    they first appear (a Harmijan stone's move has its entry from its first move on)."""
    seen: dict[str, KeyView] = {}
    for drawing in drawings:
        for swatch, words in drawing.key:
            seen.setdefault(words, KeyView(None if swatch is None else data_url(swatch), words))
    return list(seen.values())


def _ply_view(play: Replay, ply: int, drawing: Drawn, current: bool) -> PlyView:
    if ply == 0:
        return PlyView(0, None, None, None, None, None, None, [], None, _unwrapped(drawing.lines),
                       drawing.head.result, current, drawing.words)
    entry, step = play.record.moves[ply - 1], play.line[ply]
    seat = step.mover
    at = toml_datetime(entry.at) if entry.at is not None else None
    return PlyView(
        number=ply,
        move=str(step.move),
        seat=seat,
        player=_in_line(play.record.player_name(seat)),
        name=short_name(play.record.player_name(seat)) or f"seat {seat}",
        at=at,
        when=_readable_time(at),
        comment=entry.comment.splitlines() if entry.comment else [],
        last=drawing.head.last,
        lines=_unwrapped(drawing.lines),
        result=drawing.head.result,
        current=current,
        words=drawing.words,
    )


def _in_line(name: str | None, width: int = 120) -> str | None:
    """A player's name as each ply's line repeats it: whole when it is a name, cut with "…"
    when it is thousands of characters (the header above shows it whole, once), so that the page
    does not grow by the name's length for every ply."""
    return name if name is None else cut(name, width)


def _unwrapped(lines: list[str]) -> list[str]:
    """The lines of a diagram with their continuations (wrapped to a mail's width, indented)
    joined again: the page wraps words to its own width."""
    joined: list[str] = []
    for line in lines:
        if joined and line[:1].isspace():
            joined[-1] += " " + line.strip()
        else:
            joined.append(line)
    return joined


def _readable_time(at: str | None) -> str | None:
    """2026-11-22T14:01:00Z as "2026-11-22 14:01 UTC"; a time with an offset or none as written."""
    if at is None:
        return None
    if at.endswith("Z") and len(at) >= 16:
        return at[:16].replace("T", " ") + " UTC"
    return at.replace("T", " ")


def frames(svgs: list[str]) -> str:
    """Every diagram, each distinct line stored once: `{"lines": [...], "plies": [[first, count,
    first, count, …], …]}`, ply k being the lines first…first+count−1 of each run in turn,
    joined by line breaks. Written as JSON safe inside an HTML <script> data block."""
    numbers: dict[str, int] = {}
    lines: list[str] = []
    plies = []
    for svg in svgs:
        runs: list[int] = []
        for line in svg.split("\n"):
            number = numbers.setdefault(line, len(lines))
            if number == len(lines):
                lines.append(line)
            if runs and runs[-2] + runs[-1] == number:
                runs[-1] += 1
            else:
                runs += [number, 1]
        plies.append(runs)
    text = json.dumps({"lines": lines, "plies": plies}, ensure_ascii=False, separators=(",", ":"))
    return text.translate(_JSON_ESCAPES)


def unpack(data: str) -> list[str]:
    """The diagrams of frames(), one per ply (what the page's script does; for tests)."""
    value = json.loads(data)
    return ["\n".join(line for first, count in zip(runs[::2], runs[1::2])
                      for line in value["lines"][first:first + count])
            for runs in value["plies"]]


def data_url(svg: str) -> str:
    """An SVG as a data: URL, percent-encoded (base64 would do as well, but percent-encoding
    leaves no `//` in the page that a reader could mistake for an address)."""
    return "data:image/svg+xml;charset=utf-8," + quote(svg, safe=",;:=()!*")


def csp_hash(text: str) -> str:
    """The Content-Security-Policy source that allows exactly this inline script or style."""
    return "sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode("ascii")
