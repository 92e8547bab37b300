"""The review page and the animated replay (SPEC §7).

The page is checked without a browser (its content, its escaping, its Content-Security-Policy,
that nothing in it names an address) and once in a real headless Chromium, driven through the
DevTools protocol over a pipe with the standard library alone: real key presses and clicks, the
console and every request the page makes watched.
"""

from __future__ import annotations

import base64
import email
import email.policy
import fcntl
import hashlib
import io
import json
import os
import re
import select
import shutil
import subprocess
import time
from html.parser import HTMLParser
from pathlib import Path

import pytest
from PIL import Image

from referee.correspondence import sending as correspondence
from referee.render import diagram as diagrams, show as pictures
from referee.play import reports
from referee.play.words import result_words
from referee.render.diagram import svg_to_png
from referee.render.drawing import drawn
from referee.render.review import unpack

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "sample_games"
ODD = SAMPLES / "odd" / "odd-5-resign.toml"  # 25 plies, comments and time stamps
NAMESPACES = ("http://www.w3.org/2000/svg", "http://www.w3.org/1999/xlink")

HOSTILE_NAME_1 = "<script>alert(1)</script> <ann@example.org>"
HOSTILE_NAME_2 = '"><img src=x onerror=alert(2)> <bo@example.org>'
HOSTILE_COMMENT = "</script><script>alert(3)</script><!-- & '"
HOSTILE_COMMENT_2 = "<svg onload=alert(4)>\n</style><style>body{display:none}</style>"
HOSTILE_RECORD = f'''format = 1
game = "odd"

[options]
size = 3
min_group = 2

[players]
1 = {json.dumps(HOSTILE_NAME_1)}
2 = {json.dumps(HOSTILE_NAME_2)}

[[moves]]
move = "b a1"
at = 2026-11-22T14:01:00Z
comment = {json.dumps(HOSTILE_COMMENT)}

[[moves]]
move = "w b2"
comment = {json.dumps(HOSTILE_COMMENT_2)}
'''
HOSTILE_DECK = '"><img src=x onerror=alert(5)>.toml'


class Page(HTMLParser):
    """The parts of a review page the tests look at."""

    def __init__(self, text: str):
        super().__init__(convert_charrefs=True)
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.styles: list[str] = []
        self._in: tuple[str, dict] | None = None
        self._text: list[str] = []
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag in ("script", "style"):
            self._in, self._text = (tag, attributes), []

    def handle_data(self, data):
        if self._in is not None:
            self._text.append(data)

    def handle_endtag(self, tag):
        if self._in is not None and tag == self._in[0]:
            text = "".join(self._text)
            if tag == "script":
                self.scripts.append((self._in[1], text))
            else:
                self.styles.append(text)
            self._in = None

    def all(self, tag: str, attribute: str | None = None) -> list[dict[str, str | None]]:
        return [a for t, a in self.tags if t == tag and (attribute is None or attribute in a)]

    @property
    def csp(self) -> str:
        (meta,) = [a for t, a in self.tags
                   if t == "meta" and (a.get("http-equiv") or "").lower() == "content-security-policy"]
        return meta["content"]

    @property
    def data(self) -> str:
        (text,) = [text for attrs, text in self.scripts if attrs.get("type") == "application/json"]
        return text


def sha256_source(text: str) -> str:
    return "'sha256-" + base64.b64encode(hashlib.sha256(text.encode("utf-8")).digest()).decode() + "'"


@pytest.fixture
def hostile(tmp_path) -> Path:
    path = tmp_path / "hostile.toml"
    path.write_text(HOSTILE_RECORD, encoding="utf-8")
    return path


def page_of(path: Path, ply: int | None = None) -> str:
    return pictures.diagram(str(path), ply, "html")


# -- the page without a browser --------------------------------------------------------------


def test_no_name_or_comment_of_a_record_reaches_the_page_unescaped_SPEC_7(hostile):
    text = page_of(hostile)
    for raw in (HOSTILE_NAME_1, HOSTILE_NAME_2, HOSTILE_COMMENT, "<script>alert", "<img src=x",
                "<svg onload", "</style><style>", "alert(3)</script>"):
        assert raw not in text
    # The page's own two scripts and one style sheet, nothing more.
    assert text.count("<script") == 2 and text.count("</script>") == 2
    # The images: the board and the legend's swatches, each an SVG of a data: URL.
    assert text.count("<style") == 1 and text.count("<img") == 1 + text.count('<li><img src="data:image/svg+xml')
    # Shown, escaped, where a reader sees them: the names and every line of every comment.
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &lt;ann@example.org&gt;" in text
    assert "&#34;&gt;&lt;img src=x onerror=alert(2)&gt; &lt;bo@example.org&gt;" in text
    assert "&lt;/script&gt;&lt;script&gt;alert(3)&lt;/script&gt;&lt;!-- &amp; &#39;" in text
    assert "&lt;svg onload=alert(4)&gt;" in text and "&lt;/style&gt;&lt;style&gt;body{display:none}" in text
    page = Page(text)
    # No element but the page's own carries an event handler, a script address or a style.
    for tag, attributes in page.tags:
        assert not any(name.startswith("on") or name == "style" for name in attributes), (tag, attributes)
    assert {tag for tag, _ in page.tags} <= {
        "html", "head", "meta", "title", "link", "style", "body", "header", "h1", "h2", "ul", "li",
        "span", "p", "main", "section", "nav", "button", "img", "aside", "time", "blockquote",
        "ol", "a", "script", "details", "summary",
    }


def test_the_diagram_data_cannot_leave_its_block_and_the_svgs_are_escaped(hostile):
    page = Page(page_of(hostile))
    assert "<" not in page.data  # so no `</script>` and no `<!--` inside the block
    svgs = unpack(page.data)
    assert all("<script" not in svg and "onerror=" not in svg.replace("onerror=alert(2)&gt;", "") for svg in svgs)
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in svgs[-1]


def test_a_hostile_option_is_escaped_too(cli, tmp_path):
    shutil.copy(ROOT / "referee" / "data" / "crab-deck-sample.toml", tmp_path / HOSTILE_DECK)
    assert cli("new", "crab", "-o", "crab.toml", "-O", f"deck={HOSTILE_DECK}", "-O", "seed=3").exit_code == 0
    result = cli("show", "crab.toml", "-o", "crab.html")
    assert result.exit_code == 0, result.output
    text = (tmp_path / "crab.html").read_text(encoding="utf-8")
    assert "<img src=x" not in text and text.count("<img") == 1 + text.count('<li><img src="data:image/svg+xml')
    assert "&#34;&gt;&lt;img src=x onerror=alert(5)&gt;.toml" in text


def test_the_content_security_policy_allows_the_pages_own_script_and_style_alone(hostile):
    page = Page(page_of(hostile))
    policy = dict(
        (part.split()[0], part.split()[1:]) for part in page.csp.split(";") if part.strip()
    )
    (script,) = [text for attrs, text in page.scripts if "type" not in attrs]
    (style,) = page.styles
    assert policy["default-src"] == ["'none'"]
    assert policy["img-src"] == ["data:"]
    assert policy["script-src"] == [sha256_source(script)]
    assert policy["style-src"] == [sha256_source(style)]
    assert policy["base-uri"] == ["'none'"] and policy["form-action"] == ["'none'"]
    # The policy comes before anything it governs.
    text = page_of(hostile)
    assert text.index("Content-Security-Policy") < text.index("<style") < text.index("<script")


@pytest.mark.parametrize("path", [ODD, SAMPLES / "hermetica" / "hermetica-dawn-won.toml",
                                  SAMPLES / "crab" / "crab-coop-2-win.toml"])
def test_nothing_in_the_page_names_an_address(path):
    """Self-contained: no request can leave the page. The only `//` is in the SVG namespace."""
    text = page_of(path)
    page = Page(text)
    for attributes in page.all("img", "src") + page.all("link", "href"):
        assert attributes.get("src", attributes.get("href")).startswith("data:")
    for attributes in page.all("a", "href"):
        assert re.fullmatch(r"#ply=\d+", attributes["href"])
    assert not page.all("iframe") and not page.all("object") and not page.all("embed")
    assert not page.all("script", "src") and not page.all("form")
    (style,) = page.styles
    assert "url(" not in style and "@import" not in style
    rest = re.sub(r'<meta http-equiv="Content-Security-Policy"[^>]*>', "", text)  # base64 digests
    assert rest != text
    for namespace in NAMESPACES:  # as written in the data, and percent-encoded in the image
        rest = rest.replace(namespace, "").replace(namespace.replace("/", "%2F"), "")
    assert "//" not in rest and "http:" not in rest and "https:" not in rest


def test_every_ply_is_in_the_page_with_its_move_time_comment_and_status():
    play = reports.load(str(ODD))
    text = page_of(ODD)
    page = Page(text)
    assert page.all("html")[0]["data-ply"] == str(play.plies)
    svgs = unpack(page.data)
    assert len(svgs) == play.plies + 1
    assert svgs == [drawn(play, ply).svg for ply in range(play.plies + 1)]
    assert [a["data-move"] for a in page.all("li", "data-move")] == [str(k) for k in range(play.plies + 1)]
    assert [a["data-panel"] for a in page.all("section", "data-panel")] == [str(k) for k in range(play.plies + 1)]
    shown = [a for a in page.all("section", "data-panel") if "hidden" not in a]
    assert [a["data-panel"] for a in shown] == [str(play.plies)]
    (current,) = page.all("li", "aria-current")
    assert current["data-move"] == str(play.plies)
    for item in reports.history(play)["plies"]:
        assert f'href="#ply={item["ply"]}"' in text and item["move"] in text
        if item["at"]:
            assert f'datetime="{item["at"]}"' in text
        if item["comment"]:
            assert item["comment"].replace("'", "&#39;") in text
    assert result_words(play) in text and f"{result_words(play, 0)}<" in text and "size</span> 5" in text
    # The opening ply is also a plain image, for where scripts do not run.
    (image,) = [a for a in page.all("img") if a.get("id") == "diagram"]
    assert image["src"].startswith("data:image/svg+xml;charset=utf-8,")


def test_ply_opens_the_page_there_and_the_name_chooses_html(cli, tmp_path):
    shutil.copy(ODD, tmp_path / "game.toml")
    result = cli("show", "game.toml", "--ply", "3", "-o", "game.html")
    assert result.exit_code == 0, result.output
    page = Page((tmp_path / "game.html").read_text(encoding="utf-8"))
    assert page.all("html")[0]["data-ply"] == "3"
    assert [a["data-panel"] for a in page.all("section", "data-panel") if "hidden" not in a] == ["3"]
    assert cli("show", "game.toml", "--format", "html").stdout.startswith("<!DOCTYPE html>")
    assert cli("show", "game.toml", "--format", "gif", "-o", "x.html").exit_code == 2
    assert cli("show", "game.toml", "--ply", "26", "--format", "html").exit_code == 2


def test_hermetica_shows_the_actions_of_each_turn_and_crab_every_play_area():
    hermetica = SAMPLES / "hermetica" / "hermetica-dawn-won.toml"
    text = page_of(hermetica)
    assert "1. A b7-c7*b7: Shield redeployed from b10 to b7" in text  # ply 10, action by action
    crab = SAMPLES / "crab" / "crab-coop-2-win.toml"
    svgs = unpack(Page(page_of(crab)).data)
    assert all("Seat 1, play area" in svg and "Seat 2, play area" in svg and "Coast" in svg for svg in svgs)


def test_a_record_too_long_to_review_is_refused(cli, monkeypatch, tmp_path):
    shutil.copy(ODD, tmp_path / "game.toml")
    monkeypatch.setattr(pictures, "MAX_REVIEW_PLIES", 10)
    result = cli("show", "game.toml", "-o", "x.html")
    assert result.exit_code == 2 and "at most 10" in result.stderr and not (tmp_path / "x.html").exists()
    # The animation bounds its own frames instead (test_gif_bounds.py): every record has one.
    assert cli("show", "game.toml", "-o", "x.gif").exit_code == 0


def test_the_page_of_the_longest_sample_stays_small():
    """A 163-ply Harmijan: each distinct line of the diagrams is stored once (about 0.6 MB where
    the SVGs whole would take 4.6 MB)."""
    longest = max(SAMPLES.glob("harmijan/*.toml"), key=lambda p: len(reports.load(str(p)).record.moves))
    assert len(page_of(longest).encode("utf-8")) < 1_000_000


# -- the animation ----------------------------------------------------------------------------


def frames_of(data: bytes) -> list[Image.Image]:
    picture = Image.open(io.BytesIO(data))
    frames = []
    for number in range(picture.n_frames):
        picture.seek(number)
        frames.append(picture.convert("RGB"))
    return frames


def test_the_gif_has_one_frame_per_ply_from_the_start_and_holds_the_last(cli, tmp_path):
    shutil.copy(ODD, tmp_path / "game.toml")
    result = cli("show", "game.toml", "-o", "game.gif")
    assert result.exit_code == 0, result.output
    data = (tmp_path / "game.gif").read_bytes()
    picture = Image.open(io.BytesIO(data))
    play = reports.load(str(ODD))
    assert picture.format == "GIF" and picture.n_frames == play.plies + 1  # ply 0 … 25
    assert picture.info["loop"] == 0
    durations = []
    for number in range(picture.n_frames):
        picture.seek(number)
        durations.append(picture.info["duration"])
    assert durations[:-1] == [1000] * play.plies and durations[-1] == 5000
    # The frames are the pictures of the plies (colours reduced to a palette: nearly equal).
    frames = frames_of(data)
    for ply in (0, 7, play.plies):
        png = Image.open(io.BytesIO(svg_to_png(diagrams.svg_diagram(play, ply)))).convert("RGBA")
        expected = Image.new("RGB", frames[ply].size, (255, 255, 255))
        expected.paste(png, (0, 0), png)
        difference = [abs(a - b) for a, b in zip(expected.tobytes(), frames[ply].tobytes())]
        assert sum(d > 40 for d in difference) < len(difference) / 1000


def test_the_gif_is_the_same_bytes_every_time(cli, tmp_path):
    shutil.copy(ODD, tmp_path / "game.toml")
    assert cli("show", "game.toml", "--ply", "6", "-o", "a.gif").exit_code == 0
    assert cli("show", "game.toml", "--ply", "6", "--format", "gif", "-o", "b.gif").exit_code == 0
    assert (tmp_path / "a.gif").read_bytes() == (tmp_path / "b.gif").read_bytes()
    assert Image.open(tmp_path / "a.gif").n_frames == 7


def png_of(size: tuple[int, int], colour: tuple[int, int, int, int]) -> bytes:
    out = io.BytesIO()
    Image.new("RGBA", size, colour).save(out, "PNG")
    return out.getvalue()


def test_gif_frames_of_different_sizes_are_padded_to_the_largest_and_alike_ones_kept():
    from referee.render.animation import gif

    pngs = [png_of((40, 30), (200, 0, 0, 255)), png_of((60, 20), (0, 0, 200, 255)),
            png_of((60, 20), (0, 0, 200, 255)), png_of((50, 50), (0, 0, 0, 0))]
    picture = Image.open(io.BytesIO(gif(pngs)))
    assert picture.size == (60, 50) and picture.n_frames == 4  # the repeated picture included
    red, blue, again, clear = frames_of(gif(pngs))
    assert red.getpixel((0, 0)) == (200, 0, 0) and red.getpixel((45, 35)) == (255, 255, 255)
    assert blue.getpixel((55, 5)) == (0, 0, 200) and blue.getpixel((5, 25)) == (255, 255, 255)
    assert again.tobytes() == blue.tobytes()
    assert clear.getcolors() == [(60 * 50, (255, 255, 255))]  # a transparent picture on white


@pytest.mark.slow
def test_a_crab_game_whose_play_areas_grow_animates_at_the_largest_size():
    play = reports.load(str(SAMPLES / "crab" / "crab-coop-2-win.toml"))
    sizes = {Image.open(io.BytesIO(svg_to_png(diagrams.svg_diagram(play, ply)))).size
             for ply in range(play.plies + 1)}
    assert len(sizes) > 1
    picture = Image.open(io.BytesIO(pictures.animation(play)))
    assert picture.size == (max(w for w, _ in sizes), max(h for _, h in sizes))
    assert picture.n_frames == play.plies + 1


# -- the mail ---------------------------------------------------------------------------------


def test_mail_attach_html_adds_the_review_page_and_receive_still_finds_the_record(cli, tmp_path):
    shutil.copy(ODD, tmp_path / "game.toml")
    result = cli("mail", "game.toml", "--attach", "html", "-o", "to-bo.eml")
    assert result.exit_code == 0, result.output
    message = email.message_from_bytes((tmp_path / "to-bo.eml").read_bytes(), policy=email.policy.default)
    parts = {part.get_filename(): part for part in message.iter_attachments()}
    assert set(parts) == {"game.toml", "game.svg", "game.png", "game.html"}
    page = parts["game.html"]
    assert page.get_content_type() == "text/html"
    assert page.get_content().startswith("<!DOCTYPE html>")
    assert "review page" in message.get_body(("plain",)).get_content()
    result = cli("receive", "to-bo.eml", "-o", "copy.toml")
    assert result.exit_code == 0, result.output
    assert (tmp_path / "copy.toml").read_bytes() == (tmp_path / "game.toml").read_bytes()
    without = email.message_from_bytes(bytes(correspondence.mail("game.toml", None)), policy=email.policy.default)
    assert "game.html" not in {part.get_filename() for part in without.iter_attachments()}


# -- in a real browser ------------------------------------------------------------------------

CHROMIUM = next((p for p in (shutil.which("chromium"), shutil.which("chromium-browser"),
                             shutil.which("google-chrome"), "/usr/bin/chromium") if p and os.path.exists(p)), None)
KEYS = {"Home": 36, "End": 35, "ArrowLeft": 37, "ArrowRight": 39}


class DevTools:
    """Chromium, headless, driven through the DevTools protocol over --remote-debugging-pipe:
    JSON messages ending in a NUL byte, written to the browser's fd 3 and read from its fd 4."""

    def __init__(self, profile: Path, timeout: float = 30.0):
        to_browser, self._out = os.pipe()
        self._in, from_browser = os.pipe()
        # Above any number the child needs, so the dup2 into 3 and 4 cannot clobber each other.
        high = [fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, 10) for fd in (to_browser, from_browser)]
        os.close(to_browser)
        os.close(from_browser)

        def pipes_at_3_and_4():
            os.dup2(high[0], 3)
            os.dup2(high[1], 4)

        self.process = subprocess.Popen(
            [CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu", "--remote-debugging-pipe",
             "--disable-background-networking", "--disable-component-update", "--no-first-run",
             "--no-default-browser-check", "--disable-extensions", "--mute-audio",
             f"--user-data-dir={profile}", "--window-size=1200,900", "about:blank"],
            pass_fds=(3, 4), preexec_fn=pipes_at_3_and_4,
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )
        for fd in high:
            os.close(fd)
        self.deadline = time.monotonic() + timeout
        self.buffer = b""
        self.events: list[dict] = []
        self.number = 0
        self.session: str | None = None

    def close(self) -> None:
        try:
            self.call("Browser.close", browser=True)
        except Exception:
            pass
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()
        os.close(self._in)
        os.close(self._out)

    def _receive(self) -> dict:
        while b"\0" not in self.buffer:
            left = self.deadline - time.monotonic()
            if left <= 0 or not select.select([self._in], [], [], left)[0]:
                raise TimeoutError("the browser did not answer in time")
            chunk = os.read(self._in, 1 << 20)
            if not chunk:
                raise EOFError("the browser closed the pipe")
            self.buffer += chunk
        message, self.buffer = self.buffer.split(b"\0", 1)
        return json.loads(message)

    def call(self, method: str, params: dict | None = None, browser: bool = False) -> dict:
        self.number += 1
        message = {"id": self.number, "method": method, "params": params or {}}
        if self.session and not browser:
            message["sessionId"] = self.session
        os.write(self._out, json.dumps(message).encode() + b"\0")
        while True:
            answer = self._receive()
            if answer.get("id") == self.number:
                if "error" in answer:
                    raise RuntimeError(f"{method}: {answer['error']}")
                return answer.get("result", {})
            self.events.append(answer)

    def wait_for(self, method: str) -> dict:
        while True:
            for event in self.events:
                if event.get("method") == method:
                    self.events.remove(event)
                    return event
            self.events.append(self._receive())

    def open(self, url: str) -> None:
        self.events = [e for e in self.events if e.get("method") != "Page.loadEventFired"]
        self.call("Page.navigate", {"url": url})
        self.wait_for("Page.loadEventFired")

    def value(self, expression: str, wait: bool = False):
        answer = self.call("Runtime.evaluate", {"expression": expression, "returnByValue": True,
                                                "awaitPromise": wait})
        assert "exceptionDetails" not in answer, answer
        return answer["result"].get("value")

    def until(self, condition, seconds: float = 20.0) -> None:
        """Wait for what the page does after an event, not at once (a hashchange); generous, as
        a loaded machine slows the browser."""
        end = time.monotonic() + seconds
        while not condition():
            assert time.monotonic() < end, "the page did not follow"
            time.sleep(0.02)

    def press(self, key: str) -> None:
        code = KEYS[key]
        for kind in ("rawKeyDown", "keyUp"):
            self.call("Input.dispatchKeyEvent", {"type": kind, "key": key, "code": key,
                                                 "windowsVirtualKeyCode": code, "nativeVirtualKeyCode": code})

    def click(self, selector: str) -> None:
        """A real mouse click at the element's centre, once the element is in view and is what
        lies at that point: on a loaded machine the scroll may still be under way when the box
        is first read, and a click then lands on whatever scrolled past. The element is scrolled
        into view again while it is not hit (a late layout of the page's nested scroll boxes can
        move it away). Where no point of it can be hit at all (a browser whose fonts lay the page
        out otherwise), the click is the element's own: the page's answer to it is still checked."""
        quoted = json.dumps(selector)
        scroll = f"document.querySelector({quoted}).scrollIntoView({{block: 'center'}})"
        where = (f"(() => {{ const e = document.querySelector({quoted}), r = e.getClientRects()[0];"
                 " if (!r) return null;"
                 " const x = Math.min(Math.max(r.x + r.width / 2, 1), innerWidth - 1),"
                 " y = Math.min(Math.max(r.y + r.height / 2, 1), innerHeight - 1),"
                 " at = document.elementFromPoint(x, y);"
                 " return at && (at === e || e.contains(at)) ? [x, y] : null; })()")
        end = time.monotonic() + 10.0
        while time.monotonic() < end:
            first = self.value(where)
            if first is None:
                self.value(scroll)
            elif first == self.value(where):  # in view and still: two reads alike
                for kind in ("mousePressed", "mouseReleased"):
                    self.call("Input.dispatchMouseEvent", {"type": kind, "x": first[0], "y": first[1],
                                                           "button": "left", "clickCount": 1})
                return
            time.sleep(0.05)
        self.value(f"document.querySelector({quoted}).click()")

    def problems(self) -> list[dict]:
        """Console errors and warnings, uncaught exceptions (a blocked script or style is one)."""
        found = []
        for event in self.events:
            method, params = event.get("method"), event.get("params", {})
            if method == "Runtime.exceptionThrown":
                found.append(params)
            elif method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "warning", "assert"):
                found.append(params)
            elif method == "Log.entryAdded" and params["entry"]["level"] in ("error", "warning"):
                found.append(params["entry"])
        return found

    def requests(self) -> list[str]:
        return [e["params"]["request"]["url"] for e in self.events if e.get("method") == "Network.requestWillBeSent"]


@pytest.fixture
def browser(tmp_path):
    if CHROMIUM is None:
        pytest.skip("no Chromium installed (looked for chromium, chromium-browser, google-chrome): "
                    "the review page is then checked without a browser only")
    tools = DevTools(tmp_path / "profile")
    try:
        target = tools.call("Target.createTarget", {"url": "about:blank"})["targetId"]
        tools.session = tools.call("Target.attachToTarget", {"targetId": target, "flatten": True})["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            tools.call(f"{domain}.enable")
        yield tools
    finally:
        tools.close()


def test_the_page_in_a_real_browser_keys_buttons_links_address_and_no_request(browser, tmp_path, hostile):
    """Opens at the last ply, or at #ply=N; Home, End and the arrows (real key events), the
    buttons and the move list step and keep data-ply and the address in step; the picture is
    drawn; no console error, no request but the page itself; and a hostile record runs nothing."""
    shutil.copy(ODD, tmp_path / "game.toml")
    page = tmp_path / "game.html"
    page.write_text(pictures.diagram(str(tmp_path / "game.toml"), None, "html"), encoding="utf-8")
    url = page.as_uri()
    ply = lambda: browser.value("document.documentElement.getAttribute('data-ply')")  # noqa: E731
    address = lambda: browser.value("location.hash")  # noqa: E731
    shown = lambda: browser.value(  # noqa: E731
        "[...document.querySelectorAll('[data-panel]')].filter(s => !s.hidden).map(s => s.dataset.panel).join()")
    drawn = lambda: browser.value(  # noqa: E731
        "document.getElementById('diagram').decode().then(() => document.getElementById('diagram').naturalWidth)",
        wait=True)

    browser.open(url)
    assert ply() == "25" and shown() == "25" and address() == "" and drawn() > 100
    browser.open("about:blank")
    browser.open(url + "#ply=3")
    assert ply() == "3" and shown() == "3" and drawn() > 100
    assert browser.value("document.getElementById('counter').textContent") == "Ply 3 of 25"
    assert browser.value("document.querySelector('[aria-current]').dataset.move") == "3"

    browser.press("End")
    assert ply() == "25" and address() == "#ply=25"
    browser.press("ArrowRight")  # past the end: stays
    assert ply() == "25"
    browser.press("Home")
    assert ply() == "0" and address() == "#ply=0" and shown() == "0"
    browser.press("ArrowLeft")  # before the start: stays
    assert ply() == "0"
    browser.press("ArrowRight")
    browser.press("ArrowRight")
    assert ply() == "2" and address() == "#ply=2"
    browser.press("ArrowLeft")
    assert ply() == "1" and address() == "#ply=1"
    assert "after%20ply%201%20" in browser.value("document.getElementById('diagram').src") and drawn() > 100

    browser.click("[data-step='last']")
    assert ply() == "25" and browser.value("document.querySelector(\"[data-step='forward']\").disabled")
    browser.click("[data-step='back']")
    assert ply() == "24"
    browser.click("[data-step='first']")
    assert ply() == "0"
    browser.click("[data-step='forward']")
    assert ply() == "1"
    browser.click("[data-move='12'] a")
    browser.until(lambda: ply() == "12")  # a link changes the address; the page follows (hashchange)
    assert address() == "#ply=12" and shown() == "12"
    assert browser.value("document.querySelector('[aria-current]').dataset.move") == "12"

    assert browser.problems() == []
    assert all(u.startswith(("file:", "data:", "about:")) for u in browser.requests()), browser.requests()

    # A hostile record: its page runs nothing, and neither would a script that escaping let
    # through (simulated by writing one into the page): the policy blocks it, and says so.
    (tmp_path / "hostile.html").write_text(pictures.diagram(str(hostile), None, "html"), encoding="utf-8")
    browser.open((tmp_path / "hostile.html").as_uri())
    assert ply() == "2" and browser.value("document.querySelectorAll('script, #diagram').length") == 3
    assert browser.problems() == []
    assert not [e for e in browser.events if e.get("method") == "Page.javascriptDialogOpening"]
    forged = (tmp_path / "hostile.html").read_text(encoding="utf-8").replace(
        "<main>", '<main><script>document.title = "ran"</script><img src="https://example.invalid/x.png">')
    (tmp_path / "forged.html").write_text(forged, encoding="utf-8")
    browser.open((tmp_path / "forged.html").as_uri())
    assert browser.value("document.title") != "ran" and ply() == "2"
    blocked = " ".join(p.get("text", str(p)) for p in browser.problems())
    assert "Content Security Policy" in blocked
    (forbidden,) = [e["params"] for e in browser.events if e.get("method") == "Network.requestWillBeSent"
                    and "example.invalid" in e["params"]["request"]["url"]]
    failed = [e["params"] for e in browser.events if e.get("method") == "Network.loadingFailed"
              and e["params"]["requestId"] == forbidden["requestId"]]
    assert [f["blockedReason"] for f in failed] == ["csp"]  # refused before it left
    assert "Loading the image 'https://example.invalid/x.png' violates" in blocked


@pytest.mark.parametrize("sample", ["odd/odd-5-resign", "hermetica/hermetica-dawn-won", "crab/crab-coop-2-win"])
def test_the_board_takes_at_least_90_percent_of_its_column_at_1200_and_390_px_SPEC_8b(browser, tmp_path, sample):
    """Measured in the browser: the board picture's drawn width against its column's (the
    board section's inner width), at a 1200 px and a 390 px (phone) wide window; the picture
    keeps its proportions (no room left around a shrunk board)."""
    page = tmp_path / "game.html"
    page.write_text(pictures.diagram(str(SAMPLES / f"{sample}.toml"), None, "html"), encoding="utf-8")
    measure = ("(() => { const img = document.getElementById('diagram'); const column = img.parentElement;"
               " const style = getComputedStyle(column); const box = img.getBoundingClientRect();"
               " return [box.width, box.height, column.clientWidth - parseFloat(style.paddingLeft)"
               " - parseFloat(style.paddingRight), img.naturalWidth, img.naturalHeight]; })()")
    for width, height, mobile in ((1200, 900, False), (390, 844, True)):
        browser.call("Emulation.setDeviceMetricsOverride",
                     {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile})
        browser.open(page.as_uri())
        browser.value("document.getElementById('diagram').decode()", wait=True)
        shown, tall, column, natural_w, natural_h = browser.value(measure)
        assert shown >= 0.9 * column, (width, shown, column)
        assert abs(tall - shown * natural_h / natural_w) <= 1.5  # drawn whole, not letterboxed
    assert browser.problems() == []
