"""A mail's commands for one game (SPEC §15): who may act, then the ply judged exactly as `move`
judges it — the one turn transaction (play/turn.py `take_turn`), the engine's replies
(play/bots.py `replies`), the record's limits (play/game_file.py `check_size`) — and the
hidden conditional replies it triggers (conditions.py), then a mail to each player.

Who may act: a command for a seat carries that seat's token and comes from that seat's address
(both, or it is refused, and the refusal goes to the seat's address, never to the sender). A
seat with a key signs its plies instead: `signature ed25519:… at TIME`, the signature `referee
move --sign` made over the ply stamped TIME.
"""

from __future__ import annotations

import datetime as dt
from typing import NamedTuple

from referee.errors import IllegalMoveError, RefereeError, UsageError
from referee.play.bots import replies
from referee.play.lines import set_words
from referee.play.game_file import check_size
from referee.play.keys import signing
from referee.play.replay import Replay, replay
from referee.play.reports import record_in
from referee.play.turn import take_turn
from referee.play.words import in_words, result_words, who, who_and_seat
from referee.record.clock import bounded, leave_span, now
from referee.record.files import locked, read_input
from referee.serve import conditions
from referee.serve.commands import Command
from referee.serve.letters import Context
from referee.serve.letters import Pictures, game_mail, pictures, plain_mail
from referee.serve.state import Game
from referee.serve.tokens import token_matches
from referee.text import plain

PLIES = ("move", "resign", "accept draw", "claim time")  # the commands that make a ply
WITH_A_MOVE = ("offer", "leave")
SIGNED_SLACK = dt.timedelta(days=1)  # how old a signed ply's stamp may be when it arrives
MAX_TOKENS = 4  # tokens of one mail tried against a seat's hash (each costs a scrypt)
WHAT = {"move": "move", "resign": "resign", "accept draw": "accept a draw", "claim time": "claim time",
        "offer": "offer a draw", "leave": "take leave", "if": "leave conditional moves",
        "line": "leave conditional moves", "status": "ask for the status"}


class Signed(NamedTuple):
    """A signature sent by mail, standing in for the private key take_turn signs with: it
    `signs` a ply only when it is that ply's signature (made by `referee move --sign`)."""

    public: str
    signature: str

    def sign(self, digest: str) -> str:
        if not signing("signature: ").signature_valid(self.public, digest, self.signature):
            raise IllegalMoveError("the signature is not your key's signature of this ply (sign the move as "
                                   "`referee move --sign` does, on your copy, and send the `at` it was stamped)")
        return self.signature


def game_commands(ctx: Context, game: Game, commands: list[Command]) -> None:
    """Everything one mail asks of `game`."""
    path = str(ctx.folder / f"{game.short}.toml")
    name = f"{game.short}.toml"
    with locked(path):
        # A write committed but not yet made never waits here: robot.py finishes those first.
        try:
            play = record_in_folder(path, name)
        except RefereeError as exc:  # the keeper moved or spoilt it: nothing can be judged
            ctx.log(f"{game.short}: its record cannot be read: {exc}")
            ctx.tell_sender(f"[{game.short}] Refused: the game's record cannot be read",
                            f"error: {exc}\nNothing in your mail was played; the robot's keeper is told.\n")
            return
        seats = ctx.store.seats(game.id)
        acts = [c for c in commands if c.verb not in ("token", "signature")]
        seat, refusal = _who(ctx, play, seats, commands, acts)
        if refusal is not None:
            _refuse(ctx, play, game, seats, seat, acts, refusal)
            return
        _act(ctx, play, game, path, seat, commands, acts)


def record_in_folder(path: str, name: str) -> Replay:
    """A record of the robot's folder, read and replayed; messages name it by its file name
    alone (GAMEID.toml), never by where the robot keeps it."""
    return replay(record_in(read_input(path, "record"), name))


def _who(ctx: Context, play: Replay, seats: dict, commands: list[Command],
         acts: list[Command]) -> tuple[int | None, str | None]:
    """The seat the mail acts for, and why it may not (None when it may)."""
    tokens = list(dict.fromkeys(c.args[0] for c in commands if c.verb == "token"))[:MAX_TOKENS]
    by_address = [s for s, row in sorted(seats.items()) if row.address == ctx.sender]
    # The sender's own seats are tried first: each try costs a scrypt, and theirs is the seat
    # an honest mail is for.
    ordered = by_address + [s for s in sorted(seats) if s not in by_address]
    by_token = next((s for s in ordered for t in tokens if token_matches(t, seats[s].token_hash)), None)
    signed = any(c.verb == "signature" for c in commands)
    if by_token is not None:
        if by_token in by_address:
            return by_token, None
        return by_token, "it did not come from your address"
    if by_address:
        # Both seats may be one address's (a game against oneself): the seat the command is for.
        seat = _natural_seat(play, acts) if len(by_address) > 1 else by_address[0]
        keyed = seat in play.record.keys()
        if signed and keyed and all(c.verb in (*PLIES, *WITH_A_MOVE) for c in acts):
            return seat, None  # the signature is checked with the ply itself
        return seat, "it did not carry your token" + (" (or, for a ply, your signature)" if keyed else "")
    return _natural_seat(play, acts), "it neither carried your token nor came from your address"


def _natural_seat(play: Replay, acts: list[Command]) -> int | None:
    """The seat a command speaks for when nothing in the mail says: the seat to move, but for a
    time claim or conditional moves (the other seat's)."""
    to_move = play.to_move()
    if to_move is None or not acts or len(play.seats) != 2:
        return to_move
    if all(c.verb in ("claim time", "if", "line") for c in acts):
        return 3 - to_move
    return None if all(c.verb == "status" for c in acts) else to_move


def _refuse(ctx: Context, play: Replay, game: Game, seats: dict, seat: int | None,
            acts: list[Command], why: str) -> None:
    """SPEC §15: the refusal goes to the seat's registered address, never to the sender."""
    what = ", ".join(dict.fromkeys(WHAT.get(c.verb, c.verb) for c in acts)) or "act"
    ctx.log(f"refused ({why}): {ctx.sender} for game {game.short}, seat {seat}")
    if seat is None or seat not in seats:
        return  # nobody to tell: nothing was tried in a player's name
    lines = [f"A mail tried to {what} for you in game {game.short} ({play.game.name}, ply {play.plies}).",
             f"It was refused: {why}.",
             f"It came from {ctx.sender}, and said:", ""]
    lines += [f"  {plain(c.text)[:120]}" for c in acts[:20]]
    lines += ["", "Nothing was played. If it was you, send it again from your address with your",
              "token (from the mail that began the game) on a line of its own; if it was not,",
              "you need do nothing."]
    address = seats[seat].address
    ctx.send(address, plain_mail(ctx.robot, address, f"[{game.short}] A mail tried to act for you",
                                 "\n".join(lines) + "\n", None))


def _act(ctx: Context, play: Replay, game: Game, path: str, seat: int, commands: list[Command],
         acts: list[Command]) -> None:
    """The commands of an authorised seat: at most one ply, the conditional moves, the status."""
    errors: list[str] = []
    plies = [c for c in acts if c.verb in PLIES]
    extras = [c for c in acts if c.verb in WITH_A_MOVE]
    conditional = [c for c in acts if c.verb in ("if", "line")]
    unknown = [c for c in acts if c.verb == "unknown"]
    for command in unknown:
        errors.append(f"not a command: {plain(command.text)[:120]} (send help for the commands)")
    for command in plies[1:]:
        errors.append(f"{plain(command.text)[:120]}: one ply a mail (the first, {plies[0].text[:60]}, was taken)")
    if extras and not (plies and plies[0].verb == "move"):
        errors.append(f"{extras[0].text[:60]}: goes with a move, in the same mail")
    trees = ctx.store.conditionals(game.id)
    work, news = play, {s: [] for s in play.seats}
    if plies and not errors:
        try:
            work = _ply(ctx, play, seat, plies[0], extras, [c for c in commands if c.verb == "signature"],
                        trees, news)
        except RefereeError as exc:
            errors.append(f"error: {exc}")
    if conditional and not errors:
        try:
            conditions.refuse_for_signed_or_engine(work, seat)
            tree = conditions.checked_tree(work, seat, [c.args for c in conditional if c.verb == "if"],
                                           [" ".join(c.args) for c in conditional if c.verb == "line"])
            trees[seat] = (work.plies, tree)
            news[seat].append(set_words(tree, who(work, work.to_move(), capital=False)))
        except RefereeError as exc:
            # As `move --if` refuses the whole move for a bad condition, nothing is played; the
            # refusal is worded and located as `move` words it (play/turn.py): the record, the
            # ply and the move for a move the line cannot hold, the line alone for its shape.
            if isinstance(exc, IllegalMoveError):
                made = plies[0] if work is not play else None
                exc.located(file=f"{game.short}.toml", ply=play.plies + 1,
                            move=None if made is None else made.args[0] if made.verb == "move" else made.verb)
            errors.append(f"error: {exc.named(lambda reason: in_words(work, reason))}")
            work, trees = play, ctx.store.conditionals(game.id)
    if work is not play:
        try:
            work = conditions.answer(work, trees, work.record.moves[-1].at, news)
            check_size(work.record.to_toml(), work.plies)
        except RefereeError as exc:
            errors.append(f"error: {exc}")
            work, trees = play, ctx.store.conditionals(game.id)
    if work is not play:
        _complete_name(ctx, work, seat)
        ctx.decision.writes[path] = work.record.to_toml()
        _reminded_already(ctx, work, game)
    if work is not play or (conditional and not errors):
        for s in work.seats:
            ctx.decision.conditionals[(game.id, s)] = trees.get(s)
    if errors:
        _tell_errors(ctx, work, game, errors)
    if work is not play:
        _tell_players(ctx, work, game, news, trees)
    elif any(c.verb == "status" for c in acts) or (conditional and not errors):
        _tell(ctx, work, game, seat, news.get(seat, []), trees)


def _ply(ctx: Context, play: Replay, seat: int, command: Command, extras: list[Command],
         signatures: list[Command], trees: dict, news: dict[int, list[str]]) -> Replay:
    """The ply, judged and written as `move` writes it: the one turn transaction, then the
    engine's replies where it plays the other seat."""
    text = command.args[0] if command.verb == "move" else command.verb
    leave = next((leave_span(c.args[0], "leave") for c in extras if c.verb == "leave"), None)
    offer = any(c.verb == "offer" for c in extras)
    at, key = ctx.now, None
    public = play.record.keys().get(seat)
    if signatures and public is None:
        raise UsageError(f"{who_and_seat(play, seat)} has no key in the record: sign nothing, send your token")
    if public is not None:
        if not signatures:
            raise UsageError(f"{who_and_seat(play, seat)} signs every move: add the line "
                             "`signature ed25519:… at TIME` that `referee move --sign` made on your copy")
        at, key = _signed_at(play, signatures[0]), Signed(public, signatures[0].args[0])
    try:
        done = take_turn(play, text, seat=seat, at=at, key=key, leave=leave, offer_draw=offer)
        done = replies(done.play, done.notes)
    except RefereeError as exc:
        raise exc.located(file=play.record.path, ply=play.plies + 1, move=text.strip())
    check_size(done.play.record.to_toml(), done.play.plies)
    work = done.play
    made = work.entries[play.plies]
    done_words = {"resign": "resigned", "accept draw": "accepted the draw", "claim time": "claimed the game on time"}
    for s in work.seats:
        if command.verb != "move":
            news[s].append(f"{'You' if s == seat else who(work, seat)} {done_words[command.verb]} (ply {play.plies + 1}).")
        elif s == seat:
            news[s].append(f"Your move {made} is recorded (ply {play.plies + 1}).")
        else:
            news[s].append(f"{who(work, seat)} played {made} (ply {play.plies + 1}).")
        news[s] += [n for n in done.notes if not n.startswith("Your ")] if s != seat else list(done.notes)
    if trees.get(seat):
        news[seat].append("Your conditional moves were dropped: you moved yourself.")
        del trees[seat]
    return work


def _complete_name(ctx: Context, play: Replay, seat: int) -> None:
    """A player invited by address alone gets the name their mail program gives (names are
    outside the seal: SPEC §9), with the first ply they make."""
    player = play.record.players.get(seat, {})
    if player.get("name", "").lower() == ctx.sender and ctx.sender_name != ctx.sender:
        play.record.players = {**play.record.players, seat: {**player, "name": ctx.sender_name}}


def _signed_at(play: Replay, command: Command) -> dt.datetime:
    """The stamp a signed ply was signed with: not before the last ply's, nor older than a day."""
    text = command.args[1]
    if text is None:
        raise UsageError("signature: give the time the ply was stamped with: signature ed25519:… at TIME")
    try:
        at = bounded(dt.datetime.fromisoformat(text.replace("z", "Z")), "at")
    except ValueError:
        raise UsageError(f"signature: {text!r} is no date-time such as 2026-11-22T14:01:00Z") from None
    if at < now() - SIGNED_SLACK:
        raise UsageError(f"signature: the ply was stamped {text}, over a day ago: sign it again")
    last = play.record.moves[-1].at if play.record.moves else None
    if last is not None and at < last:
        raise UsageError(f"signature: the ply was stamped {text}, before the ply it answers")
    return at.replace(microsecond=0)


def _reminded_already(ctx: Context, play: Replay, game: Game) -> None:
    """The reminders a ply's own mail makes needless: the seat to move reads its time left in
    it, so a deadline already within 3 days (or 1) is not reminded of again."""
    from referee.serve.reminders import due_thresholds

    for days in due_thresholds(play, ctx.now):
        ctx.decision.reminders.append((game.id, play.plies, days))


def _tell_errors(ctx: Context, play: Replay, game: Game, errors: list[str]) -> None:
    body = "\n".join(plain(e) for e in errors) + f"\n\nGame {game.short} ({play.game.name}), ply {play.plies}: " \
        f"{result_words(play)}.\nNothing else in your mail was played.\n"
    ctx.tell_sender(f"[{game.short}] Refused: {plain(errors[0]).removeprefix('error: ')[:120]}", body)


def _tell_players(ctx: Context, play: Replay, game: Game, news: dict[int, list[str]], trees: dict) -> None:
    """After the plies: each player's mail, the mover's confirmation and the other's "your move"."""
    drawn = pictures(play, game.short)
    for seat in ctx.store.seats(game.id):
        lines = list(news.get(seat, []))
        if play.to_move() == seat:
            lines.append("It is your move.")
        elif play.outcome() is not None:
            lines.append(f"The game is over: {result_words(play)}.")
        _tell(ctx, play, game, seat, lines, trees, drawn)


def _tell(ctx: Context, play: Replay, game: Game, seat: int, news: list[str], trees: dict,
          drawn: Pictures | None = None) -> None:
    """A mail about the game to one seat (never the engine's, which reads no mail), with the
    hidden conditional moves that seat alone has standing."""
    lines = list(news)
    if trees.get(seat):
        lines.append("Your conditional moves, kept by the robot and shown to nobody until played:")
        lines += [f"  {line}" for line in conditions.tree_lines(trees[seat][1])]
    address = ctx.store.seats(game.id)[seat].address
    reply = ctx.reply if address == ctx.sender else None
    ctx.send(address, game_mail(ctx.robot, play, game.short, seat, play.record.player_name(seat) or address,
                                lines, reply, drawn or pictures(play, game.short)))
