"""The compiled TOML reader (rtoml) against tomllib, the reference (README: Performance).

Wherever `toml_reading.load_toml` takes rtoml's reading, tomllib must read the same text to the very
same values — the same types, date-times with the same kind of time zone, ints as ints and
floats as floats — and wherever either refuses a text, the referee's verdict and message must
be tomllib's own, line number included. Both readers run over every sample record, the fuzz
corpus, and records mangled the way the fuzz tests mangle them.
"""

from __future__ import annotations

import datetime as dt
import math
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest
from hypothesis import given

from fuzz_support import CORPUS, SAMPLE_BYTES, damaged_bytes, fuzz_settings, mutated_records
from referee.record import toml_reading
from referee.errors import RecordError
from referee.record.toml_reading import BOM, _quick_read, load_toml

needs_rtoml = pytest.mark.skipif(toml_reading.rtoml is None, reason="rtoml has no wheel here")


def same(a, b) -> bool:
    """Equal values of the same types all the way down (nan equal to nan, -0.0 not to 0.0)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) == math.copysign(1, b))
    if isinstance(a, (dt.datetime, dt.time)):
        return a == b and type(a.tzinfo) is type(b.tzinfo) and a.utcoffset() == b.utcoffset() \
            and a.replace(tzinfo=None) == b.replace(tzinfo=None)
    return a == b


def reference(data: bytes, name: str = "case.toml"):
    """What load_toml gives with tomllib alone: the document, or the RecordError's words."""
    saved = toml_reading.rtoml
    toml_reading.rtoml = None
    try:
        return load_toml(data, name)[0]
    except RecordError as exc:
        return str(exc)
    finally:
        toml_reading.rtoml = saved


def check(data: bytes) -> None:
    """The two readers agree on these bytes, as load_toml uses them."""
    try:
        got = load_toml(data, "case.toml")[0]
    except RecordError as exc:
        got = str(exc)
    expected = reference(data)
    assert same(got, expected), (got, expected)
    try:
        text = data.removeprefix(BOM).decode("utf-8")
    except UnicodeDecodeError:
        return
    quick = _quick_read(text)
    if quick is not None:  # what the compiled reader accepted, tomllib accepts the same
        assert same(quick, tomllib.loads(text))


# -- every sample and the corpus -------------------------------------------------------------


@needs_rtoml
@pytest.mark.parametrize("name", sorted(SAMPLE_BYTES))
def test_every_sample_is_read_by_rtoml_to_tomllibs_values(name):
    text = SAMPLE_BYTES[name].decode("utf-8")
    quick = _quick_read(text)
    assert quick is not None, "a sample record should take the quick path"
    assert same(quick, tomllib.loads(text))


@pytest.mark.parametrize("path", sorted(CORPUS.glob("*.toml")), ids=lambda p: p.name)
def test_the_fuzz_corpus_gets_tomllibs_verdicts(path):
    check(path.read_bytes())


# -- mangled records -------------------------------------------------------------------------


@fuzz_settings(300)
@given(mutated_records())
def test_mutated_records_get_the_same_reading_or_refusal(case):
    check(case[1])


@fuzz_settings(300)
@given(damaged_bytes())
def test_damaged_bytes_get_the_same_reading_or_refusal(case):
    check(case[1])


@pytest.mark.slow
@fuzz_settings(3000)
@given(mutated_records())
def test_many_mutated_records_get_the_same_reading_or_refusal(case):
    check(case[1])


@pytest.mark.slow
@fuzz_settings(3000)
@given(damaged_bytes())
def test_many_damaged_records_get_the_same_reading_or_refusal(case):
    check(case[1])


# -- where the two part, or might ----------------------------------------------------------------

# Texts on which rtoml 0.14 and tomllib were tried one against the other: carriage returns in and
# out of multi-line strings, a second byte-order mark, DEL and other control characters, escapes
# of surrogates, of NUL and past U+10FFFF. Each must be read as tomllib reads it (or refused
# with its message).
PARTING = [
    b'a = """x\r\ny"""\n',  # rtoml kept the "\r" of a CRLF inside a multi-line string
    b"a = '''x\r\ny'''\n",  # and of a multi-line literal string
    b'a = """\r\nx\r\n"""\r\n',  # the CRLF right after the opening quotes, too
    b'a = """x \\\r\n   y"""\n',  # a line-ending backslash before a CRLF
    b"# {\r\na = '''x\r\ny'''\n",  # the same, with a brace in a comment
    BOM + BOM + b"a = 1\n",  # rtoml strips a second byte-order mark, tomllib refuses it
    BOM + BOM,
    BOM + b"a = 1\r\n",
    b'a = """x\ry"""\n',  # a lone CR: both refuse, in and out of strings
    b"a = '''x\ry'''\n",
    b"a = 1\rb = 2\n",
    b"a = 1 # x\ry\n",
    b'a = "x\x7fy"\n',  # DEL: both refuse it in strings and comments
    b"a = '''\x7f'''\n",
    b"a = 1 # \x7f\n",
    b'a = "\x00"\n',
    b'a = "\\u0000"\n',  # an escaped NUL: both read it
    b'a = "\\U00000000"\n',
    b'a = "\\uD800"\n',  # escapes of surrogates and past the last code point: both refuse
    b'a = "\\U0000DFFF"\n',
    b'a = "\\U00110000"\n',
    b'a = "\\U0010FFFF"\n',
    "a = '\ufeff'\n# \ufeff\n".encode(),  # a byte-order mark inside a string or a comment is text
    b"a = -1e-400\nb = -nan\nc = 1e-400\n",  # floats at the edges: signs of zero and NaN alike
]


@pytest.mark.parametrize("data", PARTING, ids=repr)
def test_where_the_readers_part_the_referee_reads_as_tomllib_does(data):
    check(data)


@needs_rtoml
def test_crlf_line_ends_outside_multiline_strings_keep_the_quick_path():
    """A record saved by an editor with CRLF line ends is read by rtoml: the two agree on it."""
    data = SAMPLE_BYTES[sorted(SAMPLE_BYTES)[0]].replace(b"\n", b"\r\n")
    assert b'"""' not in data and b"'''" not in data
    assert _quick_read(data.decode("utf-8")) is not None
    check(data)


def test_crlf_in_multiline_string_reads_as_tomllib_does(cli):
    """rtoml kept the "\r" of a CRLF inside a multi-line string where tomllib reads a newline,
    and a harmless `# {` line sent a text from one reader to the other: a sealed record with
    such a comment was invalid with one reader and valid with the other."""
    data = b'a = """one\r\ntwo"""\n'
    assert load_toml(data, "c.toml")[0] == {"a": "one\ntwo"} == tomllib.loads(data.decode())
    assert load_toml(b"a = '''one\r\ntwo'''\n", "c.toml")[0] == {"a": "one\ntwo"}
    # A sealed ply whose comment is then written as a multi-line string with a CRLF.
    assert cli("new", "odd", "-O", "size=3", "-O", "min_group=2", "-o", "g.toml").exit_code == 0
    assert cli("move", "g.toml", "b a1", "--comment", "one\ntwo").exit_code == 0
    text = Path("g.toml").read_text(encoding="utf-8")
    assert 'comment = "one\\ntwo"\n' in text and "digest" in text
    sealed = text.replace('comment = "one\\ntwo"\n', 'comment = """one\r\ntwo"""\n')
    Path("plain.toml").write_bytes(sealed.encode())
    Path("brace.toml").write_bytes(("# {\n" + sealed).encode())
    verdicts = [cli("validate", name) for name in ("plain.toml", "brace.toml")]
    assert [v.exit_code for v in verdicts] == [0, 0], [v.output for v in verdicts]


def test_doubled_bom_reads_as_tomllib_does():
    """One byte-order mark is stripped (SPEC §8); a second is text, which tomllib refuses and
    rtoml stripped as well: the record is refused, with tomllib's message and line."""
    data = BOM + BOM + b'format = 1\ngame = "odd"\n'
    with pytest.raises(RecordError) as info:
        load_toml(data, "bom.toml")
    assert info.value.reason.startswith("broken TOML: ") and info.value.line == 1
    assert str(info.value) == reference(data, "bom.toml")
    assert load_toml(BOM + b'format = 1\ngame = "odd"\n', "bom.toml")[0] == {"format": 1, "game": "odd"}


# -- what only one of them reads, and how the referee says so ----------------------------------

NEWER_TOML = [  # TOML 1.1, which rtoml reads and tomllib (TOML 1.0) refuses
    'at = 2026-01-05T21:00Z',
    'at = 2026-01-05T21:00',
    'at = 2026-01-05 21:00',
    'at = 21:00',
    'at = [21:00, 22:00]',
    'move = "\\e[31m"',
    'move = "\\x41"',
    'p = {a = 1,\nb = 2}',
    'p = {a = 1,}',
]




@needs_rtoml
def test_a_table_declared_after_one_inside_it_keeps_tomllibs_order():
    # rtoml would put [players] first: it places a table where it is declared.
    text = '[[setup.deck]]\nid = 1\n[players]\n1 = "Ann"\n[setup]\ndeal = [1]\n'
    assert _quick_read(text) is None
    assert list(load_toml(text.encode(), "o.toml")[0]) == ["setup", "players"]
    # and a record rtoml would read but tomllib refuses
    data = b"[[a.a]]\n[a]\na.b.c = 2\n"
    assert "broken TOML" in reference(data)
    with pytest.raises(RecordError):
        load_toml(data, "case.toml")


@pytest.mark.parametrize("text", NEWER_TOML)
def test_newer_toml_is_refused_with_tomllibs_message(text):
    data = f'format = 1\ngame = "odd"\n{text}\n'.encode()
    with pytest.raises(RecordError) as info:
        load_toml(data, "new.toml")
    assert info.value.reason.startswith("broken TOML: ")
    assert str(info.value) == reference(data, "new.toml")
    assert info.value.line == 3


@needs_rtoml
def test_rtoml_refusals_go_to_tomllib_which_may_read_them():
    # A float past the double range: rtoml refuses it, tomllib reads it.
    assert _quick_read("x = 1e999") is None
    assert same(load_toml(b"x = 1e999", "x.toml")[0], tomllib.loads("x = 1e999"))
    # Long integers, decimal and hexadecimal, read alike up to the digits Python converts.
    for text in ("n = 99999999999999999999999", "n = 0xffffffffffffffffffffffff",
                 "n = " + "9" * 4300, "n = " + "9" * 4301):
        check(text.encode())


def test_broken_toml_keeps_tomllibs_message_and_line():
    data = b'format = 1\ngame = "odd"\n\n[[moves]]\nmove = "b e5"\nat = 2026-13-01T00:00:00Z\n'
    with pytest.raises(RecordError) as info:
        load_toml(data, "broken.toml")
    assert info.value.line == 6
    assert str(info.value) == reference(data, "broken.toml")
    try:
        tomllib.loads(data.decode())
    except tomllib.TOMLDecodeError as exc:
        assert info.value.reason == "broken TOML: " + str(exc).split(" (at line")[0]


def test_keys_of_many_dotted_parts_are_still_refused_before_any_reader():
    data = b"format = 1\n" + b".".join([b"a"] * 100) + b" = 1\n"
    with pytest.raises(RecordError) as info:
        load_toml(data, "deep.toml")
    assert "dotted parts" in info.value.reason and info.value.line == 2


def test_offsets_become_tomllibs_time_zones():
    text = "a = 2026-01-05T21:00:00Z\nb = 2026-01-05T21:00:00+05:30\nc = [2026-01-05T21:00:00-00:00]\n"
    doc = load_toml(text.encode(), "t.toml")[0]
    assert same(doc, tomllib.loads(text))
    assert doc["a"].tzinfo is dt.timezone.utc


def test_without_rtoml_the_referee_reads_with_tomllib():
    """Where no wheel exists the import fails, and every record is read by tomllib."""
    script = (
        "import sys, tomllib\n"
        "sys.modules['rtoml'] = None  # `import rtoml` now raises ImportError\n"
        "from referee.record import toml_reading\n"
        "assert toml_reading.rtoml is None\n"
        "from fuzz_support import SAMPLE_BYTES\n"
        "for data in SAMPLE_BYTES.values():\n"
        "    assert toml_reading.load_toml(data, 's.toml')[0] == tomllib.loads(data.decode())\n"
        "print('read', len(SAMPLE_BYTES))\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                          cwd=Path(__file__).parent, timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("read ")
