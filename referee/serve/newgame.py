"""`new GAME [-O key=value…] vs ADDRESS [clock CONTROL [leave DAYS]] [bot [SECONDS]]` by mail
(SPEC §15): a game between the sender (seat 1) and ADDRESS, or the engine. The record is
written as `referee new` writes it (play/game_file.py `new_game`), and each player is mailed,
privately, a token to copy into every command.
"""

from __future__ import annotations

import email.utils
import re
import tempfile
from pathlib import Path

from referee.data import builtin_data
from referee.errors import RefereeError, UsageError
from referee.play.bots import DEFAULT_SECONDS
from referee.play.choices import game_named
from referee.play.game_file import new_game as write_new_game
from referee.play.replay import replay
from referee.play.reports import record_in
from referee.serve.commands import Command
from referee.serve.letters import Context
from referee.serve.letters import game_mail, pictures, token_news
from referee.serve.reminders import due_thresholds
from referee.serve.state import Game, Seat
from referee.serve.tokens import new_token, token_hash
from referee.text import plain

ADDRESS = re.compile(r"[^\s<>@,;:\"()\[\]\\]{1,64}@[A-Za-z0-9.-]{1,190}")


def new_game(ctx: Context, command: Command, key: str | None) -> None:
    """One `new` line: the record committed, the players told, each with their token; or the
    reason it cannot start, to the sender. `key`: the sender's public key (a `key` line)."""
    try:
        game, short, text, seats = _start(ctx, command, key)
    except RefereeError as exc:
        ctx.tell_sender(f"Refused: {plain(command.text)[:80]}", f"error: {exc}\n\nSend help for the commands.\n")
        return
    path = str(ctx.folder / f"{short}.toml")
    play = replay(record_in(text.encode("utf-8"), f"{short}.toml"))
    ctx.decision.writes[path] = text
    ctx.decision.games.append((Game(play.record.id, short, path), ctx.now.isoformat()))
    tokens = {}
    for seat, address in seats.items():
        tokens[seat] = new_token()
        ctx.decision.seats.append((play.record.id, seat, Seat(address, token_hash(tokens[seat]))))
    for days in due_thresholds(play, ctx.now):
        ctx.decision.reminders.append((play.record.id, play.plies, days))
    drawn = pictures(play, short)
    for seat, address in seats.items():
        news = token_news(play, short, seat, tokens[seat], starter=1)
        reply = ctx.reply if address == ctx.sender else None
        ctx.send(address, game_mail(ctx.robot, play, short, seat, play.record.player_name(seat) or address,
                                    news, reply, drawn))
    ctx.log(f"new game {short} ({game}) for {', '.join(seats.values())}")


def _start(ctx: Context, command: Command, key: str | None) -> tuple[str, str, str, dict[int, str]]:
    """The game's id, its GAMEID, the record's text and each player's address by seat."""
    name, options, address, clock, leave, bot, problem = command.args
    if problem:
        raise UsageError(problem)
    game = game_named(name)
    if game.cooperative or game.seats != (2, 2):
        raise UsageError(f"{game.name} is not a game of two opponents: the robot plays those by mail "
                         "(odd, dustin, hermit, harmijan, hermetica)")
    for option, kind in game.data_options.items():
        if option in options and builtin_data(kind, options[option]) is None:
            raise UsageError(f"-O {option}={options[option]}: by mail, only the built-in ones")
    if bot is None and address is None:
        raise UsageError("new needs an opponent: vs ADDRESS, or bot (the engine)")
    if bot is not None and address is not None:
        raise UsageError("new: vs ADDRESS or bot, not both")
    names = [(1, ctx.sender_name)]
    seats = {1: ctx.sender}
    if address is not None:
        _, bare = email.utils.parseaddr(address)
        if not ADDRESS.fullmatch(bare or ""):
            raise UsageError(f"vs {address}: not a mail address such as bo@example.org")
        if bare.lower() == ctx.robot.address:
            raise UsageError(f"vs {address}: the robot referees and never plays; against the engine: bot")
        names.append((2, bare.lower()))
        seats[2] = bare.lower()
    bots = [(2, float(bot) if bot else DEFAULT_SECONDS)] if bot is not None else None
    try:
        leave_days = float(leave) if leave is not None else None
    except ValueError:
        raise UsageError(f"leave {leave}: the days of leave each seat may take, e.g. leave 14") from None
    with tempfile.TemporaryDirectory(prefix="referee-serve-") as folder:
        for _ in range(8):  # a GAMEID taken already: one chance in four billion, each time
            output = Path(folder) / "new.toml"
            turn = write_new_game(name, options, names, [(1, key)] if key else None, str(output), True,
                                  clock, leave_days, bots)
            short = turn.play.record.id[:8]
            if ctx.store.game(short) is None and not (ctx.folder / f"{short}.toml").exists() \
                    and not any(g.short == short for g, _ in ctx.decision.games):
                return game.id, short, output.read_text(encoding="utf-8"), seats
    raise UsageError("no free game id found; try again")
