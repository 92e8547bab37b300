"""The formats the referee writes stand in one table (referee/formats.py): what the command
line offers and accepts, and what `show` and `board` draw, all follow it (SPEC §8)."""

from __future__ import annotations

import pytest

from referee.render import formats, show as pictures
from referee.cli.app import SheetFormat, ShowFormat
from referee.cli.syntax import output_format
from referee.errors import UsageError


def test_every_format_show_and_board_write_has_its_writer_and_no_other():
    assert tuple(pictures.SHOWN) == formats.written_by("show") == tuple(f.value for f in ShowFormat)
    assert tuple(pictures.SHEETS) == formats.written_by("board") == tuple(f.value for f in SheetFormat)


@pytest.mark.parametrize("command", ["show", "board", "mail", "remind"])
def test_each_format_is_told_by_its_extension_and_the_first_is_the_default(command):
    for name in formats.written_by(command):
        ext = formats.extension(name)
        assert output_format(f"out{ext.upper()}", None, command) == name
    assert output_format(None, None, command) == formats.written_by(command)[0]


def test_an_extension_of_a_format_another_command_writes_is_refused():
    with pytest.raises(UsageError, match="this command writes svg, pdf, not png"):
        output_format("sheet.png", None, "board")
