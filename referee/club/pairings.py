"""`referee pairings`: the rounds of a round robin (club/berger.py computes them), and with
`--new` every game's blank record written, as `referee new` writes one, with its players
filled in (README, Club play).
"""

from __future__ import annotations

import os
from typing import Any, Mapping, NamedTuple

from referee.club.berger import Round, berger_rounds, file_name
from referee.errors import UsageError
from referee.play.choices import game_named, game_options
from referee.play.game_file import new_game
from referee.record.files import check_output
from referee.record.players import identity
from referee.text import plain


class Schedule(NamedTuple):
    players: list[str]
    rounds: list[Round]
    files: dict[tuple[int, int], str]  # (round, game) → the record written, with --new

    def lines(self) -> list[str]:
        """The schedule in words: each round's games, seat 1 first, and who sits out."""
        names = _labels(self.players)
        lines = []
        for round_ in self.rounds:
            lines.append(f"Round {round_.number}")
            for number, game in enumerate(round_.games, 1):
                lines.append(plain(f"  {number}. {names[game.first]} – {names[game.second]}"))
                written = self.files.get((round_.number, number))
                if written:
                    lines.append(plain(f"     {written}"))
            if round_.bye is not None:
                lines.append(plain(f"  bye: {names[round_.bye]}"))
        return lines

    def json(self) -> dict[str, Any]:
        return {
            "players": self.players,
            "rounds": [
                {
                    "round": r.number,
                    "games": [
                        {"seat1": self.players[g.first], "seat2": self.players[g.second],
                         "file": self.files.get((r.number, n))}
                        for n, g in enumerate(r.games, 1)
                    ],
                    "bye": None if r.bye is None else self.players[r.bye],
                }
                for r in self.rounds
            ],
        }


def pairings(players: list[str], double: bool = False, game: str | None = None,
             folder: str | None = None, options_given: Mapping[str, str] | None = None,
             force: bool = False) -> Schedule:
    """`referee pairings`: the rounds of a round robin by Berger tables; with `folder`, every
    game's blank record written there (as `referee new` writes one) with its players filled in.
    Everything is checked before the first record is written."""
    names = [name.strip() for name in players]
    _check_players(names)
    if folder is not None and game is None:
        raise UsageError("--new writes records: say of which game with --game, e.g. --game odd")
    if options_given and game is None:
        raise UsageError("-O sets a game's options: say which game with --game")
    if game is not None:
        chosen = game_named(game)
        options = game_options(chosen, options_given)
        if chosen.cooperative or chosen.seat_count(options) != 2:
            raise UsageError(f"{chosen.name} is not played one against one: no round robin to pair")
    rounds = berger_rounds(len(names), double)
    files: dict[tuple[int, int], str] = {}
    if folder is not None:
        files = _plan(folder, names, rounds)
        for path in files.values():
            check_output(path, force)
        os.makedirs(folder, exist_ok=True)
        for (number, index), path in files.items():
            pairing = rounds[number - 1].games[index - 1]
            seats = [(1, names[pairing.first]), (2, names[pairing.second])]
            new_game(game, options_given, seats, None, path, force)
    return Schedule(names, rounds, files)


def _labels(players: list[str]) -> list[str]:
    """Each player's name without the address, unless two would then look alike."""
    shorts = [identity(name).short for name in players]
    folded = [short.casefold() for short in shorts]
    return [short if folded.count(short.casefold()) == 1 else name for short, name in zip(shorts, players)]


def _check_players(names: list[str]) -> None:
    if len(names) < 2:
        raise UsageError("a round robin needs at least two players")
    seen: dict[str, str] = {}
    for name in names:
        person = identity(name)
        if person is None:
            raise UsageError("a player without a name: give each player a name, e.g. 'Ann <ann@example.org>'")
        if person.key in seen:
            raise UsageError(f"{seen[person.key]!r} and {name!r} are the same player (one address, or one name)")
        seen[person.key] = name


def _plan(folder: str, names: list[str], rounds: list[Round]) -> dict[tuple[int, int], str]:
    if os.path.exists(folder) and not os.path.isdir(folder):
        raise UsageError(f"{folder}: not a folder; --new writes the records into a folder")
    plan = {}
    for round_ in rounds:
        for index, pairing in enumerate(round_.games, 1):
            name = file_name(round_.number, index, names[pairing.first], names[pairing.second], len(rounds))
            plan[(round_.number, index)] = os.path.join(folder, name)
    return plan

