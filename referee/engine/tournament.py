"""Who plays whom in a match (SPEC §13): the game pairs of two engines, or of every two of
several (a round robin), or of the first against each of the others (a gauntlet); the games'
numbers, seats and openings; the engines' names as the records show them, and the records'
file names. Pure: the same settings give the same schedule on every machine, which is what
lets a stopped match resume and a cluster's workers play any pair.

A pair is two games from one opening, the engines' seats swapped: in game 2p − 1 the pair's
first engine has seat 1, in game 2p the other. Pairs are played round by round — the first
pair of every pairing, then the second of every pairing, … — so that a stopped tournament has
played every pairing alike; the k-th pair of every pairing starts from the k-th opening (round
again once every opening has been played).
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Sequence

from referee.club.berger import slug
from referee.engine.match_files import Opening
from referee.record.players import identity

ENGINE = " (engine)"  # after an engine's name in the records (SPEC §14)


@dataclass(frozen=True)
class Pair:
    """Two games from one opening: `engines` (a, b) by their place among the ENGINEs (0 for
    the first), a at seat 1 in game `numbers[0]` and b at seat 1 in game `numbers[1]`."""

    index: int  # 1, 2, … over the whole match
    engines: tuple[int, int]
    opening: Opening | None
    numbers: tuple[int, int]

    def seats(self, number: int) -> tuple[int, int]:
        """The engines at seat 1 and seat 2 of game `number` (one of the pair's)."""
        a, b = self.engines
        return (a, b) if number == self.numbers[0] else (b, a)


def pairings(engines: int, gauntlet: bool) -> list[tuple[int, int]]:
    """Every two engines that meet: all of them (a round robin), or the first with each of
    the others (a gauntlet)."""
    if gauntlet:
        return [(0, other) for other in range(1, engines)]
    return [(a, b) for a in range(engines) for b in range(a + 1, engines)]


def pairs_per_pairing(games: int) -> int:
    """`--games` counts games: rounded up to whole pairs."""
    return (games + 1) // 2


def schedule(engines: int, games: int, gauntlet: bool, openings: Sequence[Opening]) -> list[Pair]:
    """Every pair of the match, in the order they are played (see the top)."""
    pairs = []
    for round_ in range(pairs_per_pairing(games)):
        opening = openings[round_ % len(openings)] if openings else None
        for meeting in pairings(engines, gauntlet):
            index = len(pairs) + 1
            pairs.append(Pair(index, meeting, opening, (2 * index - 1, 2 * index)))
    return pairs


def told_apart(names: Sequence[str | None], argv: Sequence[Sequence[str]]) -> tuple[str, ...]:
    """The players' names: each engine's `id name` (else its program's name) shown as an
    engine's, "(engine)" added (SPEC §14): an engine may call itself "Bob <bob@example.org>",
    but it is no person, and the standings must not count its games as Bob's. "(engine I)",
    I its place among the ENGINEs, where the standings would take two for one player."""
    bare = [(name or os.path.basename(words[0]) or "engine").removesuffix(ENGINE)
            for name, words in zip(names, argv)]
    keys = [identity(name + ENGINE) for name in bare]
    shown = []
    for number, (name, key) in enumerate(zip(bare, keys), 1):
        alike = key is None or sum(other is not None and other.key == key.key for other in keys) > 1
        shown.append(f"{name} (engine {number})" if alike else name + ENGINE)
    return tuple(shown)


def record_path(folder: str, pair: Pair, number: int, names: Sequence[str], total: int) -> str:
    """Where game `number` of `pair` is written: FOLDER/003-referee-vs-random.toml."""
    return os.path.join(folder, file_name(number, pair.seats(number), names, total))


def file_name(number: int, seats: tuple[int, int], names: Sequence[str], total: int) -> str:
    """`003-referee-0-1-0-vs-random.toml`: the game's number, then seat 1's engine and seat 2's."""
    first, second = (_bare(names[e]) for e in seats)
    width = max(3, len(str(total)))
    return f"{number:0{width}d}-{slug(first)}-vs-{slug(second)}.toml"


def _bare(name: str) -> str:
    """A name without its "(engine)" (but with "(engine 1)": two alike stay apart)."""
    return name.removesuffix(ENGINE)
