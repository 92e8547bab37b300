"""Round-robin pairings by Berger tables, as chess clubs use them (FIDE Handbook C.05,
Annex 1): every player meets every other once (twice in a double round robin, seats swapped
in the second half), and seat 1 alternates as evenly as a round robin allows.

Pure: the names in, the rounds out. With an odd number of players a bye takes the last
number, and whoever would meet it sits the round out.
"""

from __future__ import annotations

import re
import unicodedata
from typing import NamedTuple


class Pairing(NamedTuple):
    """One game of a round: `first` has seat 1, `second` seat 2 (players by their index in
    the list given)."""

    first: int
    second: int


class Round(NamedTuple):
    number: int  # from 1
    games: list[Pairing]
    bye: int | None  # the player who sits this round out


def berger_rounds(players: int, double: bool = False) -> list[Round]:
    """The rounds of a round robin of `players` players (0-based indices), by Berger tables.

    Players are numbered 1…n (n even, a bye added for an odd count). Round r (from 0) lists the
    players 1…n−1 starting from number (r·n/2 mod (n−1)) + 1; the first of that list meets
    player n, with seat 1 in even rounds and seat 2 in odd ones, and the others meet from the
    outside in, the earlier in the list with seat 1. For six players that gives round 1:
    1–6, 2–5, 3–4; round 2: 6–4, 5–3, 1–2; … as the tables print them."""
    if players < 2:
        raise ValueError("a round robin needs at least two players")
    n = players + players % 2
    bye = players if n > players else None  # the number n, 0-based
    rounds = []
    for r in range(n - 1):
        order = [(r * n // 2 + i) % (n - 1) for i in range(n - 1)]
        table = [(order[0], n - 1) if r % 2 == 0 else (n - 1, order[0])]
        table += [(order[i], order[n - 1 - i]) for i in range(1, n // 2)]
        games = [Pairing(a, b) for a, b in table if bye not in (a, b)]
        out = next((a if b == bye else b for a, b in table if bye in (a, b)), None)
        rounds.append(Round(r + 1, games, out))
    if double:
        rounds += [
            Round(len(rounds) + r.number, [Pairing(g.second, g.first) for g in r.games], r.bye)
            for r in rounds
        ]
    return rounds


def file_name(round_number: int, game_number: int, first: str, second: str, rounds: int) -> str:
    """The record of one game: `r01-g1-ann-vs-bo.toml`, safe on every file system."""
    width = max(2, len(str(rounds)))
    return f"r{round_number:0{width}d}-g{game_number}-{slug(first)}-vs-{slug(second)}.toml"


def slug(name: str) -> str:
    """A name as a part of a file name: its words without the mail address, in lower-case
    ASCII letters and digits joined by '-', at most 24 characters ("player" when none is left)."""
    words = re.sub(r"<[^<>]*>", " ", name)
    ascii_text = unicodedata.normalize("NFKD", words).encode("ascii", "ignore").decode("ascii")
    text = re.sub(r"[^a-z0-9]+", "-", ascii_text.lower()).strip("-")
    return text[:24].rstrip("-") or "player"
