"""Data files: the boards and decks that game options name, shipped with the referee or given
as a path.

A shipped file is called "<kind>-<name>.toml" (e.g. "crab-deck-sample.toml"). Everything a data
option names is loaded here and only here — by `referee new` and `referee board`, which copy it
into the record's [setup] or draw it — so the rules never touch the file system and a record
never depends on a file its reader may lack (SPEC §1). rules_text.py gives `referee rules`
its texts, shipped here too.

May import: referee.record (files, toml_reading), referee.games, referee.errors.
"""

from __future__ import annotations

import copy
from functools import cache
from typing import Any

from referee.errors import RecordError, RefereeError, UsageError
from referee.record.files import read_input
from referee.record.toml_reading import load_toml


MAX_NAME = 64  # a built-in file's name; anything longer is a path (or no file at all)


@cache
def _builtin(kind: str, name: str) -> dict[str, Any] | None:
    if len(name) > MAX_NAME or not name.replace("-", "").isalnum():
        return None  # a path, not a name (and never a file name the system would refuse)
    # Imported here: only games with data files (crab, hermetica) look one up, and
    # importlib.resources (which brings tempfile and random) costs every other command's
    # start-up 3–4 ms.
    from importlib import resources

    resource = resources.files(__package__).joinpath(f"{kind}-{name}.toml")
    if not resource.is_file():
        return None
    return load_toml(resource.read_bytes(), resource.name)[0]  # the one TOML reader


def builtin_data(kind: str, name: str) -> dict[str, Any] | None:
    """The parsed built-in file `<kind>-<name>.toml` (the caller's own copy), or None."""
    content = _builtin(kind, name)
    return None if content is None else copy.deepcopy(content)


def data_file(kind: str, value: str, option: str, game_name: str) -> dict[str, Any]:
    """The content of the file a data option names: built in, or a path read from the current
    folder with the one input limit. Raises UsageError naming the file and the fault."""
    content = builtin_data(kind, value)
    if content is not None:
        return content
    what = f"{option} file for {game_name}"
    try:
        data = read_input(value, what)
    except RefereeError as exc:  # missing, unreadable, or longer than any data file
        raise UsageError(f"{value}: cannot read the {what}: {exc.reason}") from None
    try:
        return load_toml(data, value)[0]
    except RecordError as exc:  # the same reader as records: its limits, its messages
        where = f" (line {exc.line})" if exc.line is not None else ""
        reason = exc.reason.removeprefix("broken TOML: ")
        raise UsageError(f"{value}: the {option} file is not valid TOML{where}: {reason}") from None
