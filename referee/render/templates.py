"""The Jinja environments. Templates ship inside the installed package as `referee.templates`.

SVG and HTML output is autoescaped (the kind follows the template's suffix: `.svg.j2`,
`.html.j2`); every value in every output passes through `plain`, which takes out control
characters, so a player's name cannot inject terminal escapes or fake lines into a mail.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jinja2
from markupsafe import Markup

from referee.text import plain

try:
    # The package's folder, as installed (a wheel is unpacked, never zipped). Not
    # importlib.resources: its import costs a command that draws milliseconds of start-up.
    from referee import templates as _installed

    FOLDER = Path(_installed.__file__).parent
except ImportError:
    # Run from a source checkout without installing: the templates sit beside the package.
    FOLDER = Path(__file__).resolve().parents[2] / "templates"


def _load(name: str) -> str:
    return FOLDER.joinpath(name).read_text(encoding="utf-8")


def asset(name: str) -> str:
    """A file shipped beside the templates (the review page's style sheet and script)."""
    return _load(name)


def _plain_text(value: object) -> object:
    """`plain` for every value but Markup, which the view model built and escaped itself (the
    review page's script, style and diagram data, where a line break is no forgery)."""
    return value if isinstance(value, Markup) else plain(value)


@cache
def environment(kind: str) -> jinja2.Environment:
    loader = jinja2.FunctionLoader(_load)
    if kind == "html":
        return jinja2.Environment(
            loader=loader, autoescape=True, trim_blocks=True, lstrip_blocks=True,
            finalize=_plain_text, undefined=jinja2.StrictUndefined,
        )
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
    kind = next((k for k in ("svg", "html") if template.endswith(f".{k}.j2")), "text")
    return environment(kind).get_template(template).render(**context)
