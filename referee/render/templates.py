"""The Jinja environments. Templates ship inside the installed package as `referee.templates`.

SVG output is autoescaped; text output passes every value through `plain`, which takes out
control characters, so a player's name cannot inject terminal escapes or fake lines into a mail.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import jinja2


# Control characters, line separators and the two characters XML forbids outright, each to "?"
# (a translation table: `status` prints through `plain`, and compiling the equivalent regular
# expression would cost it half a millisecond at every start).
_CONTROL = dict.fromkeys([*range(0x20), *range(0x7F, 0xA0), 0x2028, 0x2029, 0xFFFE, 0xFFFF], "?")


def plain(value: object) -> object:
    """Make a value safe for a diagram: control characters become '?', so a player's name can
    neither inject terminal escapes or fake lines into a mail nor make an SVG unreadable XML.
    (In SVG, Jinja's autoescaping then takes care of markup.)"""
    if isinstance(value, str):
        return value.translate(_CONTROL)
    return value


def _load(name: str) -> str:
    from importlib import resources  # here: `status` uses this module but loads no template

    try:
        folder = resources.files("referee.templates")
    except ModuleNotFoundError:
        # Run from a source checkout without installing: the templates sit beside the package.
        folder = Path(__file__).resolve().parents[2] / "templates"
    return folder.joinpath(name).read_text(encoding="utf-8")


@cache
def environment(kind: str) -> "jinja2.Environment":
    import jinja2  # here, not at the top: commands that draw nothing need not load Jinja

    loader = jinja2.FunctionLoader(_load)
    if kind == "svg":
        return jinja2.Environment(
            loader=loader, autoescape=True, trim_blocks=True, lstrip_blocks=True,
            finalize=plain, undefined=jinja2.StrictUndefined,
        )
    return jinja2.Environment(
        loader=loader, autoescape=False, trim_blocks=True, lstrip_blocks=True,
        keep_trailing_newline=True, finalize=plain, undefined=jinja2.StrictUndefined,
    )


def render(template: str, **context: object) -> str:
    kind = "svg" if template.endswith(".svg.j2") else "text"
    return environment(kind).get_template(template).render(**context)
