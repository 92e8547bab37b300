"""Who a seat's player is: the name and mail address a `[players]` entry spells, which seat
a player means when they name themselves (`--as Ann`, `--as ann@example.org`, a mail's `To`),
and the players' names in the sentences a player reads (SPEC §8b: "Bo ran out of time").

A player is known by the mail address in a `[players]` name ("Ann <ann@example.org>"),
compared case-insensitively; a name without an address by the name itself, compared
case-insensitively with its spaces normalised. The standings count games by this identity, and
`--as` and `receive` find a seat by it.
"""

from __future__ import annotations

import re
import unicodedata
from typing import Mapping, NamedTuple

from referee.errors import CONTROL

_WITH_ADDRESS = re.compile(r"(?P<name>.*?)\s*<\s*(?P<address>[^<>\s]+@[^<>\s]+?)\s*>\s*")
_BARE_ADDRESS = re.compile(r"[^<>\s@]+@[^<>\s@]+")


class Identity(NamedTuple):
    key: str  # what two spellings of one player share
    address: str | None  # lower-case, when the spelling has one
    short: str  # the name without its address (the address where there is no name)


def identity(spelling: str) -> Identity | None:
    """Who a `[players]` name stands for; None for a name of nothing but spaces."""
    text = unicodedata.normalize("NFKC", spelling).strip()
    match = _WITH_ADDRESS.fullmatch(text)
    if match:
        address = match["address"].lower()
        return Identity("mail:" + address, address, " ".join(match["name"].split()) or address)
    if _BARE_ADDRESS.fullmatch(text):
        return Identity("mail:" + text.lower(), text.lower(), text)
    name = " ".join(text.split())
    return Identity("name:" + name.casefold(), None, name) if name else None


# What `name_problem` calls a character a name may not hold, where Unicode gives it no name.
_LINE_BREAKS = "\n\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029"


def name_problem(name: str) -> str | None:
    """Why `name` may not be a player's name, in words ("it has a line break in it"); None
    when it may. SPEC §9: a name never carries control, bidi override or zero-width characters
    into a terminal, a diagram or a mail header, so `new` takes none of them: the rule `mail`
    holds a header to, said when the name is given rather than games later."""
    for char in name:
        if ord(char) not in CONTROL:
            continue
        if char in _LINE_BREAKS:
            return "it has a line break in it"
        if char == "\t":
            return "it has a tab in it"
        spelled = unicodedata.name(char, "")
        return f"it holds {spelled + ' ' if spelled else 'a control character '}(U+{ord(char):04X})"
    return None


MAX_NAME = 40  # a name longer than this is cut where it stands in a sentence


def short_name(name: str | None) -> str | None:
    """The name a sentence uses: "Ann <ann@example.org>" without its address, cut when long;
    None when the record gives no name (then the seat's number is used)."""
    if not name:
        return None
    bare = re.sub(r"\s*<[^<>]*>\s*$", "", name).strip().strip('"').strip()
    if not bare:
        return None
    return bare if len(bare) <= MAX_NAME else bare[: MAX_NAME - 1] + "…"


def names_of(players: Mapping[int, Mapping[str, str]]) -> dict[int, str]:
    """The name a sentence uses for each seat whose `[players]` entry gives one."""
    names = {seat: short_name(player.get("name")) for seat, player in players.items()}
    return {seat: name for seat, name in names.items() if name}


# "seat 2", "Seat 2": how the rules and the replay name a seat in their reasons ("seats 1–2"
# names no one seat, and is left as it is).
_SEAT = re.compile(r"\b[Ss]eat (\d{1,9})\b")


def named(text: str, names: Mapping[int, str]) -> str:
    """`text` as a player reads it: every seat it names ("seat 2", "Seat 2") that has a
    player's name (`names`, from `names_of`) called by that name: "seat 2 ran out of time"
    becomes "Bo ran out of time". The one place where reasons written with seat numbers (the
    rules, the replay, the record's [result]) meet the players' names."""
    if not names or "eat " not in text:
        return text
    return _SEAT.sub(lambda match: names.get(int(match[1]), match[0]), text)


def seat_problem(seat: int, seats: range, game_name: str) -> str | None:
    """Why `seat` is no seat of a game with `seats`, in words; None when it is one of them.
    The one check of a seat number, wherever one comes from (`--player`, `--as`, [players])."""
    if seat in seats:
        return None
    which = "only seat 1" if len(seats) == 1 else f"seats {seats[0]}–{seats[-1]}"
    return f"{game_name} has {which} here, not {seat}"


def seat_number(text: str) -> int | None:
    """A seat number as a player types it: ASCII digits ("²" is a digit to str.isdigit, but
    no number to int), short enough to be a seat."""
    text = text.strip()
    return int(text) if text.isascii() and text.isdigit() and len(text) <= 9 else None


def _folded(text: str) -> str:
    return " ".join(unicodedata.normalize("NFKC", text).split()).casefold()


def seats_called(players: Mapping[int, Mapping[str, str]], text: str) -> list[int]:
    """The seats whose player `text` names: the whole `[players]` name, the name without its
    address, or the address, each compared case-insensitively (spaces normalised)."""
    wanted = _folded(text)
    found = []
    for seat, player in sorted(players.items()):
        name = player.get("name", "")
        person = identity(name)
        if wanted and person is not None and wanted in {_folded(name), person.short.casefold(), person.address}:
            found.append(seat)
    return found


def seats_at(players: Mapping[int, Mapping[str, str]], addresses: list[str]) -> list[int]:
    """The seats whose `[players]` address is one of `addresses` (a mail's To)."""
    wanted = {a.lower() for a in addresses}
    found = []
    for seat, player in sorted(players.items()):
        person = identity(player.get("name", ""))
        if person is not None and person.address in wanted:
            found.append(seat)
    return found
