"""Data files shipped with the referee: boards and decks named by game options.

A file here is called "<kind>-<name>.toml" (e.g. "crab-deck-sample.toml") and is read only
through `builtin_data`, so the rules never touch the file system.
"""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Any


@cache
def builtin_data(kind: str, name: str) -> dict[str, Any] | None:
    """The parsed built-in file `<kind>-<name>.toml`, or None when there is none."""
    if not name.replace("-", "").isalnum():
        return None  # a path, not a name
    from importlib import resources  # here: it costs milliseconds, and few commands need it

    resource = resources.files(__package__).joinpath(f"{kind}-{name}.toml")
    if not resource.is_file():
        return None
    return tomllib.loads(resource.read_text(encoding="utf-8"))
