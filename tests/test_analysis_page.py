"""The analysis page (SPEC §11, `analyse --html OUT`): the review page of §7 with the analysis on
it — the graph of seat 1's chance under the board, the marks in the move list, the best move on
the board at a marked ply — and every page rule of §7 and §9 still holding.

The analysis is data here (the plies of `analyse --json`), written by hand for sample games, so
that what the page shows can be checked against numbers known in advance.
"""

from __future__ import annotations

import re
import shutil

import pytest

from referee.play.reports import load
from referee.render.analysis import analysis_page, best_drawn, cell_places
from referee.render.review import unpack
from test_review import browser  # noqa: F401 (the fixture: Chromium through DevTools)
from test_review import HOSTILE_NAME_2, HOSTILE_RECORD, NAMESPACES, ODD, SAMPLES, Page, sha256_source

HERMIT_PASSES = SAMPLES / "hermit-hex" / "hermit-hex-passes.toml"  # seat 1 passes, forced, from ply 37
HARMIJAN = SAMPLES / "harmijan" / "harmijan-5-handwritten.toml"
CRAB = SAMPLES / "crab" / "crab-coop-2-win.toml"
MARKS = {5: "inaccuracy", 9: "mistake", 14: "blunder"}
LOSS = {"inaccuracy": 0.12, "mistake": 0.22, "blunder": 0.35}


def plies_of(play, marks=MARKS, best=None, first=1, last=None):
    """An analysis as `analyse --json` gives it: the mover's chance before ply k is
    (k mod 10) / 10 + 0.05, after it 0.02 less, or the mark's loss less at a marked ply; the
    best move at a marked ply is the next ply's move (a legal cell for Odd), else the move
    played. A forced pass has no values."""
    found = []
    for ply in range(first, (last or play.plies) + 1):
        step = play.line[ply]
        move = str(step.move)
        if move == "pass":
            found.append({"ply": ply, "seat": step.mover, "move": move, "before": None, "after": None,
                          "best": None, "best_value": None, "loss": None, "mark": None, "proven": False})
            continue
        mark = marks.get(ply)
        before = (ply % 10) / 10 + 0.05
        after = round(before - LOSS.get(mark, 0.02), 3) if before > LOSS.get(mark, 0.02) else 0.0
        chosen = (best or {}).get(ply) or (str(play.line[ply + 1].move) if mark and ply < play.plies else move)
        found.append({"ply": ply, "seat": step.mover, "move": move, "before": before, "after": after,
                      "best": chosen, "best_value": before, "loss": round(before - after, 3), "mark": mark,
                      "proven": False})
    return found


def graph_points(text: str) -> list[tuple[float, float]]:
    (line,) = re.findall(r'<polyline class="chance" points="([^"]*)"', text)
    return [tuple(map(float, pair.split(","))) for pair in line.split()]


def move_entries(text: str) -> dict[int, str]:
    return {int(n): body for n, body in re.findall(r'<li data-move="(\d+)"[^>]*>(.*?)</li>', text)}


def test_the_graph_has_a_point_a_ply_each_seat_1s_chance():
    """One point for the start of the range (the first mover's chance before it) and one after
    each ply; a ply by seat 2 shows 1 − its mover's chance. The plot's y is 100 − chance in %."""
    play = load(str(ODD))
    plies = plies_of(play)
    text = analysis_page(play, plies)
    found = graph_points(text)
    assert len(found) == play.plies + 1 == 26
    expected = [plies[0]["before"]] + [p["after"] if p["seat"] == 1 else 1 - p["after"] for p in plies]
    assert [round(100 - y, 1) for _, y in found] == [round(v * 100, 1) for v in expected]
    assert [x for x, _ in found] == sorted(x for x, _ in found) and found[0][0] == 0 and found[-1][0] == 1000
    assert {p["seat"] for p in plies} == {1, 2}
    # each ply has its spot on the graph, a link to it; the one shown is marked
    assert re.findall(r'data-spot="(\d+)"', text) == [str(n) for n in range(26)]
    assert re.findall(r'class="spot current" data-spot="(\d+)"', text) == ["25"]
    # the marked plies are dots on the line, at their points
    dots = re.findall(r'<line class="dot mark-(\w+)" x1="([\d.]+)" y1="([\d.]+)"', text)
    assert [(mark, (float(x), float(y))) for mark, x, y in dots] == [(MARKS[n], found[n]) for n in sorted(MARKS)]


def test_the_marks_are_in_the_move_list_with_their_words_and_counted_by_seat():
    play = load(str(ODD))
    text = analysis_page(play, plies_of(play))
    entries = move_entries(text)
    symbols = {n: re.findall(r'<abbr class="mark mark-(\w+)" title="([^"]*)">([^<]*)</abbr>', body)
               for n, body in entries.items()}
    assert {n for n, found in symbols.items() if found} == set(MARKS)
    assert symbols[5] == [("inaccuracy", f"inaccuracy: best {play.line[6].move} (55\u00a0%)", "?!")]
    assert symbols[9][0][0::2] == ("mistake", "?")
    assert symbols[14][0][0::2] == ("blunder", "??")
    seat = {n: play.line[n].mover for n in MARKS}
    assert seat == {5: 1, 9: 1, 14: 2}
    assert "Seat 1 (Dagny Testperson): 1 inaccuracy, 1 mistake, no blunder" in text
    assert "Seat 2 (Emeka Demo): no inaccuracy, no mistake, 1 blunder" in text
    # the ply's panel says the chances and the best move
    assert re.search(r'<p class="analysis mark-blunder"><abbr class="symbol"[^>]*>\?\?</abbr> Seat 2 \(Emeka Demo\)'
                     r"&#39;s chance 45\u00a0% → 10\u00a0% · blunder · best w f7 \(45\u00a0%\), drawn on the board</p>",
                     text)


def test_the_best_move_is_ringed_at_the_marked_plies_only():
    play = load(str(ODD))
    text = analysis_page(play, plies_of(play))
    frames = unpack(Page(text).data)
    assert [n for n, svg in enumerate(frames) if '<g class="best"' in svg] == sorted(MARKS)
    for ply in MARKS:
        cell = str(play.line[ply + 1].move).split()[1]
        x, y, radius = cell_places(frames[ply])[cell]
        (ring,) = re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="([\d.]+)" stroke="#009e73"', frames[ply])
        assert float(ring[0]) == pytest.approx(x, abs=0.01) and float(ring[1]) == pytest.approx(y, abs=0.01)
        assert radius * 0.7 < float(ring[2]) < radius
        assert f"<title>The best move: {play.line[ply + 1].move}</title>" in frames[ply]
    # the legend says what the ring is, and what the marks are
    assert "<span>the best move, at a marked ply</span>" in text
    assert "<span>?! an inaccuracy, ? a mistake, ?? a blunder (the chance lost" in text


def test_no_ring_where_nothing_is_marked_and_no_legend_for_it():
    play = load(str(ODD))
    text = analysis_page(play, plies_of(play, marks={}))
    assert '<g class="best"' not in "".join(unpack(Page(text).data))
    assert "the best move, at a marked ply" not in text and "a blunder (the chance lost" not in text
    assert '<abbr class="mark' not in text and 'class="dot' not in text


def test_a_path_is_an_arrow_and_a_placement_a_ring_a_pass_and_a_crab_card_words_only():
    """Harmijan's `c1-d2 i7`: an arrow from c1 to d2 and a ring on i7. A move that names no
    cell of the picture (a pass; the crab game's cards, which have no cells) is drawn nowhere:
    the ply's panel gives it in words."""
    play = load(str(HARMIJAN))
    svg = unpack(Page(analysis_page(play, [])).data)[2]
    places = cell_places(svg)
    drawn = best_drawn(svg, "c1-d2 i7")
    (ring,) = re.findall(r'<circle cx="([\d.]+)" cy="([\d.]+)" r="[\d.]+" stroke="#009e73"', drawn)
    assert tuple(map(float, ring)) == pytest.approx(places["i7"][:2], abs=0.01)
    (path,) = re.findall(r'<polyline points="([^"]*)" stroke="#009e73"[^>]*marker-end', drawn)
    start, end = (tuple(map(float, p.split(","))) for p in path.split())
    assert start == pytest.approx(places["c1"][:2], abs=0.01)
    assert end != pytest.approx(places["d2"][:2], abs=1)  # stops short, so its head shows
    assert best_drawn(svg, "pass") is None
    crab = load(str(CRAB))
    (crab_svg, *_) = unpack(Page(analysis_page(crab, [])).data)
    assert best_drawn(crab_svg, str(crab.line[1].move)) is None
    # in mono the ring is black and dashed
    mono = best_drawn(svg, "i7", "mono")
    assert 'stroke="#000000" stroke-width="' in mono and "stroke-dasharray" in mono


def test_forced_passes_are_listed_not_judged_and_the_line_runs_on():
    play = load(str(HERMIT_PASSES))
    plies = plies_of(play, marks={})
    passes = [p["ply"] for p in plies if p["move"] == "pass"]
    assert len(passes) == 9
    text = analysis_page(play, plies)
    assert len(graph_points(text)) == play.plies + 1 - len(passes)
    page = Page(text)
    assert page.all("section", "data-panel")
    panel = re.search(r'data-panel="37".*?</section>', text, re.S)[0]
    assert "Seat 1 (" in panel and "a forced pass, not judged" in panel


def test_a_range_of_plies_is_graphed_from_the_ply_before_it():
    play = load(str(ODD))
    text = analysis_page(play, plies_of(play, first=10, last=20))
    assert re.findall(r'data-spot="(\d+)"', text) == [str(n) for n in range(9, 21)]
    assert len(graph_points(text)) == 12
    assert re.findall(r'<text x="([\d.]+)%" y="12">(\d+)</text>', text)[0] == ("9.09", "10")
    assert {n for n, body in move_entries(text).items() if "<abbr" in body} == {14}


def test_hostile_names_and_moves_are_escaped_and_the_policy_allows_the_pages_own_only(tmp_path):
    record = tmp_path / "hostile.toml"
    record.write_text(HOSTILE_RECORD, encoding="utf-8")
    play = load(str(record))
    plies = plies_of(play, marks={1: "blunder", 2: "mistake"},
                     best={1: "<img src=x onerror=alert(6)>", 2: 'c1"><script>alert(7)</script>'})
    text = analysis_page(play, plies)
    for raw in ("<script>alert", "<img src=x", "onerror=alert(2)>", "<script>alert(7)"):
        assert raw not in text.replace("<script>(function", "")
    assert "Seat 1 (&lt;script&gt;alert(1)&lt;/script&gt;)" in text  # the tally and the graph's title
    assert "Seat 1 (&lt;script&gt;alert(1)&lt;/script&gt;)&#39;s chance along the plies" in text
    assert "best &lt;img src=x onerror=alert(6)&gt;" in text
    page = Page(text)
    scripts = [body for attrs, body in page.scripts if attrs.get("type") != "application/json"]
    assert len(scripts) == 1 and len(page.styles) == 1
    assert sha256_source(scripts[0]) in page.csp and sha256_source(page.styles[0]) in page.csp
    assert "default-src 'none'" in page.csp and "unsafe" not in page.csp
    # nothing is fetched: every address in the page is a data: URL or a ply of it
    for tag, attribute in (("img", "src"), ("a", "href"), ("link", "href")):
        assert all(a[attribute].startswith(("data:", "#ply=")) for a in page.all(tag, attribute))
    assert HOSTILE_NAME_2 not in text
    (style,) = page.styles
    assert "url(" not in style and "@import" not in style
    rest = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", text)
    for namespace in NAMESPACES:
        rest = rest.replace(namespace, "").replace(namespace.replace("/", "%2F"), "")
    assert "//" not in rest and "http:" not in rest and "https:" not in rest


# -- in a real browser ---------------------------------------------------------------------------


def test_the_page_in_a_real_browser_shows_the_graph_and_follows_the_ply(browser, tmp_path):
    """No console error and no request but the page; the graph is drawn under the board, as
    wide as it; its cursor follows the ply shown, and a click on the graph shows that ply."""
    shutil.copy(ODD, tmp_path / "game.toml")
    play = load(str(tmp_path / "game.toml"))
    page = tmp_path / "analysis.html"
    page.write_text(analysis_page(play, plies_of(play)), encoding="utf-8")
    browser.open(page.as_uri())
    box = lambda selector: browser.value(  # noqa: E731
        f"(() => {{ const r = document.querySelector({selector!r}).getBoundingClientRect();"
        " return [r.left, r.top, r.width, r.height]; })()")
    board, graph, plot = box(".board"), box(".graph"), box(".graph .plot")
    assert plot[2] > 300 and plot[3] > 60
    assert graph[1] >= board[1] + board[3] - 1 and abs(graph[2] - board[2]) < 2  # under it, as wide
    assert graph[1] + graph[3] <= 900  # in view as the page opens, at 1200 × 900
    current = lambda: browser.value("document.querySelector('.spot.current').dataset.spot")  # noqa: E731
    visible = "getComputedStyle(document.querySelector('.spot.current .cursor')).visibility"
    assert current() == "25" and browser.value(visible) == "visible"
    browser.press("Home")
    assert current() == "0"
    browser.press("ArrowRight")
    assert current() == "1"
    # a click on the graph, at ply 14's spot: the page shows ply 14
    spot = browser.value("(() => { const r = document.querySelector('[data-spot=\"14\"] .band')"
                         ".getBoundingClientRect(); return [r.left + r.width / 2, r.top + r.height / 2]; })()")
    for kind in ("mousePressed", "mouseReleased"):
        browser.call("Input.dispatchMouseEvent", {"type": kind, "x": spot[0], "y": spot[1], "button": "left",
                                                  "clickCount": 1})
    browser.until(lambda: browser.value("document.documentElement.getAttribute('data-ply')") == "14")
    assert current() == "14"
    assert browser.value("document.getElementById('diagram').decode().then(() => "
                         "document.getElementById('diagram').naturalWidth)", wait=True) > 100
    assert browser.problems() == []
    assert all(u.startswith(("file:", "data:", "about:")) for u in browser.requests()), browser.requests()


def test_a_cooperative_games_graph_is_every_seats_chance():
    """In the cooperative crab game the seats win or lose together: the graph is their one
    chance, whichever seat the analysis names, never its complement."""
    play = load(str(CRAB))
    plies = [{"ply": n, "seat": 1 + n % 2, "move": str(play.line[n].move), "before": 0.5, "after": n / 20,
              "best": None, "best_value": 0.5, "loss": 0.0, "mark": None, "proven": False}
             for n in range(1, play.plies + 1)]
    text = analysis_page(play, plies)
    assert [round(100 - y, 1) for _, y in graph_points(text)] == [50.0] + [n * 5.0 for n in range(1, play.plies + 1)]
    assert "The seats&#39; chance along the plies" in text
