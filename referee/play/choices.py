"""What a player chose, by name: the game, its options and their data files, the players of a
new game, and the seat a player means by a number, a name or an address (SPEC §4, §8b).

The command line has already taken the words apart (cli/syntax.py); here they are checked
against the game: whether it has that option or seat, whether a value fits it.
"""

from __future__ import annotations

from typing import Any, Mapping

from referee.data import data_file
from referee.errors import UsageError
from referee.games import GAMES, Game
from referee.record.players import name_problem, seat_number, seat_problem, seats_called
from referee.record.values import MAX_TEXT_CHARS
from referee.play.replay import Replay


def game_named(name: str) -> Game:
    game = GAMES.get(name.strip().lower())
    if game is None:
        raise UsageError(f"unknown game {name!r}; the games are: {', '.join(GAMES)}")
    return game


def game_options(game: Game, given: Mapping[str, str] | None) -> dict[str, Any]:
    """The options of `-O key=value` values, defaults filled in and every value checked."""
    known = {o.name: o for o in game.options}
    values: dict[str, Any] = {}
    for key, text in (given or {}).items():
        if key not in known:
            raise UsageError(f"{game.id} has no option {key!r} (options: {', '.join(known) or 'none'})")
        try:
            values[key] = known[key].from_text(text)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    try:
        return game.resolve_options(values)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def game_players(game: Game, options: dict[str, Any], names: list[tuple[int, str]] | None,
                 keys: list[tuple[int, str]] | None) -> dict[int, dict[str, str]]:
    """[players] from (seat, name) pairs (`--player`) and (seat, public key) pairs (`--key`)."""
    players: dict[int, dict[str, str]] = {}
    seats = range(1, game.seat_count(options) + 1)
    for seat, name in names or []:
        problem = seat_problem(seat, seats, game.name)
        if problem:
            raise UsageError(f"--player {seat}=…: {problem}")
        if len(name) > MAX_TEXT_CHARS:
            raise UsageError(f"--player {seat}=…: a name of over {MAX_TEXT_CHARS} characters")
        problem = name_problem(name.strip())
        if problem:
            raise UsageError(f"--player {seat}=…: seat {seat}'s name cannot be used: {problem}; "
                             "give it on one line of plain text, without control, bidi or "
                             f"zero-width characters, e.g. --player \"{seat}=Ann <ann@example.org>\"")
        players[seat] = {"name": name.strip()}
    for seat, public in keys or []:
        if seat not in players:
            raise UsageError(f"--key {seat}=…: give seat {seat} a name with --player too")
        players[seat]["key"] = public
    return players


def data_files(game: Game, options: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The content of every data file the options name (a board, a deck), by option."""
    return {name: data_file(kind, options[name], name, game.name) for name, kind in game.data_options.items()}


def seat_named(play: Replay, text: str, option: str = "--as") -> int:
    """The seat `text` names (SPEC §8b): a seat number, or a player's name or address as written
    in [players] (case-insensitive). Anything else is exit 2, saying what the seats are."""
    seats = play.seats
    number = seat_number(text)
    if number is not None and seat_problem(number, seats, play.game.name) is None:
        return number
    found = seats_called(play.record.players, text) if number is None else []
    if len(found) == 1:
        return found[0]
    listed = ", ".join(f"{s} {play.record.player_name(s)}" if play.record.player_name(s) else str(s)
                       for s in seats)
    if len(found) > 1:
        raise UsageError(f"{option} {text}: names seats {' and '.join(map(str, found))}; give the seat number")
    raise UsageError(f"{option} {text}: no seat of this game is {text!r} (seats: {listed})")


def games_listing() -> list[dict[str, Any]]:
    """`games --json`: every game, its seats, options with defaults and notation."""
    return [
        {
            "id": g.id, "name": g.name, "credit": g.credit, "seats": list(g.seats),
            "options": {o.name: o.default for o in g.options}, "notation": g.notation,
        }
        for g in GAMES.values()
    ]


def games_lines() -> list[str]:
    """`games` in words: a line a game, one an option, one for its notation."""
    lines = []
    for g in GAMES.values():
        seats = f"{g.seats[0]}" if g.seats[0] == g.seats[1] else f"{g.seats[0]}–{g.seats[1]}"
        lines.append(f"{g.id:<10} {g.name} ({g.credit}), {seats} seats")
        lines += [f"{'':<12}-O {option.describe()}: {option.help}" for option in g.options]
        lines.append(f"{'':<12}moves: {g.notation}")
    return lines
