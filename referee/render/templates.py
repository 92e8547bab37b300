"""The Jinja environments. Templates ship inside the installed package as `referee.templates`.

SVG output is autoescaped; text output passes every value through `plain`, which takes out
control characters, so a player's name cannot inject terminal escapes or fake lines into a mail.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import jinja2

from referee.render.header import plain


def _load(name: str) -> str:
    try:
        # The package's folder, as installed (a wheel is unpacked, never zipped). Not
        # importlib.resources: its import costs a command that draws milliseconds of start-up.
        from referee import templates

        folder = Path(templates.__file__).parent
    except ImportError:
        # Run from a source checkout without installing: the templates sit beside the package.
        folder = Path(__file__).resolve().parents[2] / "templates"
    return folder.joinpath(name).read_text(encoding="utf-8")


@cache
def environment(kind: str) -> jinja2.Environment:
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
