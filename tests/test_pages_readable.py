"""What a player sees, readable at first sight (from a new user's trial): the review page of a
finished Hermetica game whole in a 1200 × 900 window, a crab game's picture legible on a phone,
the move list by the players' names, the Hermetica pictures' hex names and Shield letters clear
of the units and of each other, and the standings in one notation and within a phone's width.

Most is read from the HTML, the CSS and the SVG; what only a browser can tell (what is in
view, how large a word is drawn) is measured in a headless Chromium where one is installed,
and skipped where none is.
"""

from __future__ import annotations

import json
import math
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from referee.render import diagram as diagrams, show as pictures
from referee.play import reports
from referee.render import review
from referee.render.drawing import drawn
from referee.club.standings_page import page as standings_page, points, text as standings_text
from referee.club.ranking import Judged, standings
from test_review import CHROMIUM, DevTools

SAMPLES = Path(__file__).resolve().parents[1] / "sample_games"
HERMETICA = SAMPLES / "hermetica" / "hermetica-dawn-won.toml"  # 22 plies, a comment on the last
CRAB = SAMPLES / "crab" / "crab-crayfish-win.toml"
NS = "{http://www.w3.org/2000/svg}"
PHONE, WIDE = (390, 844), (1200, 900)


def frames(path: Path) -> list[str]:
    """Every ply's picture as the review page draws it (the board alone)."""
    play = reports.load(str(path))
    return [drawn(play, ply).svg for ply in range(play.plies + 1)]


def page_style(text: str) -> str:
    return re.search(r"<style>(.*?)</style>", text, re.S)[1]


# -- the move list ------------------------------------------------------------------------------


def move_list(text: str) -> dict[int, str]:
    """Each entry of the move list: its words, tags taken out."""
    items = re.findall(r'<li data-move="(\d+)"[^>]*>(.*?)</li>', text, re.S)
    return {int(number): re.sub(r"<[^>]+>", " ", body) for number, body in items}


def test_the_move_list_names_who_made_each_move_by_name():
    entries = move_list(pictures.diagram(str(HERMETICA), None, "html"))
    assert len(entries) == 23
    assert "Ann Example" in entries[1] and "Bo Sample" in entries[2]  # seat 1, then seat 2
    assert "Bo Sample" in entries[22] and "Ann Example" not in entries[22]
    assert not any("seat" in words.lower() for words in entries.values())
    assert not any("example.org" in words for words in entries.values())  # the name, not the address


def test_the_move_list_says_seat_where_the_record_names_no_one(tmp_path):
    record = tmp_path / "game.toml"
    record.write_text('format = 1\ngame = "odd"\n\n[options]\nsize = 3\nmin_group = 2\n\n'
                      '[[moves]]\nmove = "b a1"\n\n[[moves]]\nmove = "w b2"\n', encoding="utf-8")
    entries = move_list(pictures.diagram(str(record), None, "html"))
    assert "seat 1" in entries[1] and "seat 2" in entries[2]


def test_a_hostile_name_in_the_move_list_is_escaped(tmp_path):
    hostile = '<img src=x onerror=alert(1)>"&'
    record = tmp_path / "game.toml"
    record.write_text('format = 1\ngame = "odd"\n\n[options]\nsize = 3\nmin_group = 2\n\n'
                      f'[players]\n1 = {json.dumps(hostile)}\n2 = "Bo"\n\n'
                      '[[moves]]\nmove = "b a1"\n', encoding="utf-8")
    text = pictures.diagram(str(record), None, "html")
    assert "<img src=x" not in text
    (entry,) = re.findall(r'<li data-move="1"[^>]*>(.*?)</li>', text, re.S)
    assert "&lt;img src=x onerror=alert(1)&gt;&#34;&amp;" in entry


# -- the board's room on the page -----------------------------------------------------------------


def test_a_crab_picture_is_never_shown_with_words_below_11_px():
    """The page never shows the board narrower than --board-least (review.css), and at that
    width every word of every ply's picture is 11 px or more."""
    svgs = frames(CRAB)
    text = pictures.diagram(str(CRAB), None, "html")
    least = float(re.search(r"--board-least: ([\d.]+)px", page_style(text))[1])
    assert re.search(r"#diagram \{[^}]*min-width: var\(--board-least", page_style(text))
    for svg in svgs:
        width, _ = review.stated_size(svg)
        assert review.smallest_words(svg) * least / width >= 11


def test_a_crab_picture_fits_a_phone_with_its_words_at_11_px():
    """The review page's picture of a crab game takes the Coast in two rows: about 430 px wide
    for a play area of ten columns, so a 390 px phone shows it whole (no sideways scrolling)
    with every word at 11 px or more. Words are drawn at 13 px (they were 10 px on a picture
    of 810 px, drawn at 5 px on a phone)."""
    svgs = frames(CRAB)
    assert min(review.smallest_words(svg) for svg in svgs) >= 13
    assert review.least_width(svgs) <= 370  # a 390 px window less the page's margins
    assert all(review.stated_size(svg)[0] <= 440 for svg in svgs)


def test_the_board_fits_a_wide_windows_height_by_its_shape():
    """The page states the narrowest shape of its pictures, from which the wide layout makes
    the board as wide as the window's height allows."""
    text = pictures.diagram(str(HERMETICA), None, "html")
    ratio = float(re.search(r"--board-ratio: ([\d.]+);", page_style(text))[1])
    width, height = review.stated_size(frames(HERMETICA)[-1])
    assert ratio == pytest.approx(width / height, abs=1e-4)
    assert "(100cqh - 1.2rem - 2px) * var(--board-ratio, 1)" in page_style(text)


def test_the_smallest_words_follow_the_most_specific_rule():
    svg = ('<svg xmlns="http://www.w3.org/2000/svg" width="100" height="50"><style>\n'
           "    .a { font-size: 14px; }\n    .a.b { font-size: 9px; }\n    .c { fill: red; }\n</style>"
           '<text class="a" x="1" y="1">x</text><text class="c a" x="1" y="1">y</text></svg>')
    assert review.smallest_words(svg) == 14
    assert review.smallest_words(svg.replace('class="c a"', 'class="b a"')) == 9
    assert review.stated_size(svg) == (100.0, 50.0)


# -- Hermetica pictures: hex names, units and Shield letters ---------------------------------------


def _sizes(svg: str) -> list[tuple[frozenset[str], float]]:
    return [(frozenset(sel.split(".")[1:]), float(size)) for sel, size in
            re.findall(r"^\s*((?:\.[\w-]+)+) \{[^}]*font-size: ([\d.]+)px", svg, re.M)]


def _box(element, sizes) -> tuple[float, float, float, float]:
    """The box a word's letters take (centred, `dominant-baseline: central`), in DejaVu Sans'
    proportions: letters and digits 0.62 em wide (bold capitals 0.75 em), from 0.38 em above
    the given y to 0.36 em below it."""
    classes = set(element.get("class").split())
    size = max((len(sel), i, s) for i, (sel, s) in enumerate(sizes) if sel <= classes)[2]
    bold = classes & {"shieldlabel", "primelabel", "newlabel"}
    width = len(element.text) * (0.75 if bold else 0.62) * size
    x, y = float(element.get("x")), float(element.get("y"))
    return (x - width / 2, y - 0.38 * size, x + width / 2, y + 0.36 * size)


def _units(root) -> list[tuple[str, float, float, float]]:
    """Each unit's shape: a Sun circle (centre, radius) or a Moon diamond (centre, reach)."""
    shapes = []
    for element in root.iter():
        css = element.get("class", "")
        if element.tag == NS + "circle" and css.startswith("unit-"):
            shapes.append(("circle", float(element.get("cx")), float(element.get("cy")), float(element.get("r"))))
        elif element.tag == NS + "polygon" and css.startswith("unit-"):
            points = [tuple(map(float, p.split(","))) for p in element.get("points").split()]
            cx, cy = sum(p[0] for p in points) / 4, sum(p[1] for p in points) / 4
            shapes.append(("diamond", cx, cy, max(abs(x - cx) + abs(y - cy) for x, y in points)))
    return shapes


def _enters(box, shape) -> bool:
    """Whether a word's box reaches into a unit's shape."""
    kind, cx, cy, reach = shape
    dx = max(box[0] - cx, 0, cx - box[2])
    dy = max(box[1] - cy, 0, cy - box[3])
    return (math.hypot(dx, dy) if kind == "circle" else dx + dy) < reach


def _meet(a, b) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


HERMETICA_SAMPLES = sorted((SAMPLES / "hermetica").glob("*.toml"))


@pytest.mark.parametrize("sample", HERMETICA_SAMPLES, ids=lambda p: p.stem)
def test_hermetica_hex_names_and_shield_letters_stay_clear_of_units_and_each_other(sample):
    """Every ply of every sample, as `show --format svg|png` draws it: no hex name reaches into
    a unit (they hid under the units' tops), no Shield letter meets a unit or another word
    (an S or M stood over a neighbouring Prime hex's PRIME in 20 plies of the samples)."""
    play = reports.load(str(sample))
    for ply in range(play.plies + 1):
        svg = diagrams.svg_diagram(play, ply)
        root, sizes = ET.fromstring(svg), _sizes(svg)
        units = _units(root)
        kinds = ("cellname", "shieldlabel", "primelabel", "newlabel", "coord")
        words = [(e.get("class"), e.text, _box(e, sizes)) for e in root.iter(NS + "text")
                 if e.get("class", "").split()[0] in kinds]
        for css, name, box in words:
            if css.startswith("cellname"):
                assert not any(_enters(box, unit) for unit in units), (sample.stem, ply, name)
            if css == "shieldlabel":
                assert not any(_enters(box, unit) for unit in units), (sample.stem, ply, name)
                others = [w for w in words if w[0] != "shieldlabel" and _meet(box, w[2])]
                assert not others, (sample.stem, ply, name, others)


def test_hermetica_hex_names_are_drawn_over_units_lines_and_rings_with_a_halo():
    """Drawn after every unit, line and ring, each with a halo of its hex's colour: a line or a
    Shield's ring passes under a name, never across it (PNG: resvg draws the same SVG)."""
    svg = diagrams.svg_diagram(reports.load(str(SAMPLES / "hermetica" / "hermetica-power-shield-capture.toml")))
    first_name = svg.index('<text class="cellname')
    for drawn_before in ('class="unit-1"', 'class="unit-2"', 'class="path"', 'class="end"',
                         'class="shield-moon"', 'class="arrow-'):
        assert svg.rindex(drawn_before) < first_name, drawn_before
    assert svg.index('<text class="shieldlabel') > svg.rindex('<text class="cellname')
    for rule in (r"\.cellname \{[^}]*paint-order: stroke; stroke: #f3e6c4",  # the mat's colour
                 r"\.cellname\.on-sun \{ stroke: #f7d37a", r"\.cellname\.on-moon \{ stroke: #b9c6e4",
                 r"\.cellname\.onwall \{ fill: #f4f4f4; stroke: #4a4a4a",
                 r"\.shieldlabel \{[^}]*paint-order: stroke"):
        assert re.search(rule, svg), rule
    assert re.search(r'<text class="cellname on-moon" x="[\d.]+" y="[\d.]+">d12</text>', svg)


# -- standings: one notation for fractions, whole Elo ----------------------------------------------


def test_scores_are_written_in_halves_and_quarters():
    assert [points(v) for v in (0, 0.25, 0.5, 0.75, 1, 1.25, 2.5, 2.75, 12)] == \
        ["0", "¼", "½", "¾", "1", "1¼", "2½", "2¾", "12"]


def _round_robin() -> list[Judged]:
    """A–B 1-0, A–C ½-½, A–D 1-0, B–C 1-0, B–D ½-½, C–D 1-0: points A 2½, B 1½, C 1½, D ½;
    Sonneborn-Berger A 2.75, B 1.75, C 1.75, D 0.75."""
    games = [("A", "B", (1,)), ("A", "C", ()), ("A", "D", (1,)),
             ("B", "C", (1,)), ("B", "D", ()), ("C", "D", (1,))]
    return [Judged(f"g{i}.toml", game="odd", game_name="Odd", names=(a, b), over=True, winners=w,
                   ended=float(i), plies=10) for i, (a, b, w) in enumerate(games, 1)]


def test_standings_write_sonneborn_berger_like_points_and_elo_whole_in_text_and_html():
    result = standings(_round_robin())
    rows = {line.split()[1]: line.split()[-3:] for line in standings_text(result)
            if re.match(r"\d  [A-D] ", line)}
    assert rows["A"][:2] == ["2½", "2¾"] and rows["B"][:2] == ["1½", "1¾"] and rows["D"][:2] == ["½", "¾"]
    html = standings_page(result, {f"g{i}.toml": f"g{i}.toml" for i in range(1, 7)})
    for name, (pts, sb, elo) in rows.items():
        assert re.fullmatch(r"\d{4}", elo)
        row = re.search(rf'scope="row" title="{name}">{name}</th>.*?</tr>', html)[0]
        assert f'<td class="points">{pts}</td><td>{sb}</td><td>{elo}</td></tr>' in row


def test_every_standings_table_scrolls_in_its_own_box(cli, tmp_path):
    """The crosstables and the cooperative table alike: a table wider than a phone scrolls
    sideways inside its box, never the page."""
    assert cli("standings", str(SAMPLES), "--html", "standings.html").exit_code == 0
    html = (tmp_path / "standings.html").read_text(encoding="utf-8")
    tables = html.count("<table>")
    assert tables == 6 and html.count('<div class="wide">\n<table>') == tables
    assert "Solo and cooperative games" in html
    assert re.search(r"div\.wide \{ overflow-x: auto;", html)


# -- in a real browser ----------------------------------------------------------------------------


@pytest.fixture
def browser(tmp_path):
    if CHROMIUM is None:
        pytest.skip("no Chromium installed: the pages are checked without a browser only")
    tools = DevTools(tmp_path / "profile")
    try:
        target = tools.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        tools.session = tools.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log"):
            tools.call(f"{domain}.enable")
        yield tools
    finally:
        tools.close()


def _open(browser, url: str, size: tuple[int, int]) -> None:
    browser.call("Emulation.setDeviceMetricsOverride",
                 {"width": size[0], "height": size[1], "deviceScaleFactor": 1, "mobile": size[0] < 600})
    browser.open("about:blank")
    browser.open(url)
    browser.value("document.getElementById('diagram') ? document.getElementById('diagram').decode() : null",
                  wait=True)


IN_VIEW = """(() => {
  const whole = (e, box) => { const r = e.getBoundingClientRect();
    return r.top >= box.top - 0.5 && r.bottom <= box.bottom + 0.5
        && r.left >= box.left - 0.5 && r.right <= box.right + 0.5; };
  const window_ = {top: 0, left: 0, bottom: innerHeight, right: innerWidth};
  const list = document.getElementById('moves'), current = document.querySelector('[aria-current]');
  const listBox = list.getBoundingClientRect();
  const tops = [...list.children].map(li => li.offsetTop);
  return {board: whole(document.getElementById('diagram'), window_),
          legend: whole(document.querySelector('.legend'), window_),
          entry: whole(current, window_) && whole(current, listBox),
          aligned: tops.includes(list.scrollTop) || list.scrollTop === 0,
          pageScrolls: document.documentElement.scrollHeight > innerHeight + 1
                       || document.documentElement.scrollWidth > innerWidth};
})()"""


def test_a_finished_hermetica_game_is_whole_in_a_1200_by_900_window(browser, tmp_path):
    """The board (its last move on a1, in its bottom row), the legend and the last move's entry
    in the move list are all in view as the page opens, with no scrolling; opened at a ply,
    that ply's entry shows whole and the list's top entry is not cut."""
    page = tmp_path / "game.html"
    page.write_text(pictures.diagram(str(HERMETICA), None, "html"), encoding="utf-8")
    for address in ("", "#ply=8", "#ply=15"):
        _open(browser, page.as_uri() + address, WIDE)
        seen = browser.value(IN_VIEW)
        expected = {"board": True, "legend": True, "entry": True, "aligned": True, "pageScrolls": False}
        assert seen == expected, (address, seen)
    assert browser.problems() == []


def test_a_crab_game_on_a_phone_draws_every_word_at_11_px_or_more(browser, tmp_path):
    page = tmp_path / "game.html"
    page.write_text(pictures.diagram(str(CRAB), None, "html"), encoding="utf-8")
    smallest = min(review.smallest_words(svg) for svg in frames(CRAB))
    _open(browser, page.as_uri(), PHONE)
    shown, natural, page_width = browser.value(
        "(() => { const i = document.getElementById('diagram');"
        " return [i.getBoundingClientRect().width, i.naturalWidth, document.documentElement.scrollWidth]; })()")
    assert smallest * shown / natural >= 11, (shown, natural)
    assert page_width <= PHONE[0]  # the page itself does not scroll sideways
    assert browser.problems() == []


def test_the_standings_page_does_not_scroll_sideways_on_a_phone(browser, cli, tmp_path):
    assert cli("standings", str(SAMPLES), "--html", "standings.html").exit_code == 0
    _open(browser, (tmp_path / "standings.html").as_uri(), PHONE)
    page_width, window, widest_table = browser.value(
        "[document.documentElement.scrollWidth, innerWidth,"
        " Math.max(...[...document.querySelectorAll('table')].map(t => t.getBoundingClientRect().width))]")
    assert page_width <= window == PHONE[0] < widest_table  # the tables are wider than the phone, the page not
