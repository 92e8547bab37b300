"""The game file: a new game written, and a turn (SPEC §4, §6, §9) — under the record's lock,
the record replayed, the move taken as one transaction on a fork (play/turn.py), the engine's
replies added, the new record built once and written once. A refused move writes nothing.
"""

from __future__ import annotations

import datetime as dt
import os
from typing import Any, Callable, Mapping, NamedTuple

from referee.play.bots import NAME as BOT_NAME, bot_table, check_bots, partner_round, replies
from referee.play.choices import data_files, game_named, game_options, game_players, seat_named
from referee.record.clock import Control, now
from referee.errors import RefereeError, UsageError
from referee.games import Game
from referee.games.base import count
from referee.record.files import STDIN, check_output, locked, write_atomic
from referee.play.keys import note_cipher, private_key
from referee.record.values import MAX_PLIES, MAX_RECORD_BYTES, MAX_TEXT_CHARS, Record

MAX_NOTE_BYTES = 5_000  # of text: sealed and in base64 it stays within a ply's limit of 10,000
from referee.play.words import in_words, result_words, who_and_seat
from referee.play.replay import ACCEPT, CLAIM, RESIGN, Replay, start
from referee.play.reports import load
from referee.play.turn import take_turn

ENDINGS = (RESIGN, CLAIM, ACCEPT)


def new_game(game_name: str, options_given: Mapping[str, str] | None, names: list[tuple[int, str]] | None,
             keys: list[tuple[int, str]] | None, output: str, force: bool, clock: str | None = None,
             leave: float | None = None, bots: list[tuple[int, float]] | None = None,
             winnable: bool = False) -> Turn:
    """Write a new record: the game, its options (`-O` values), players ((seat, name) and
    (seat, public key) pairs, and the (seat, seconds) of the seats the engine plays) and
    [setup] (the data files' content and a deal, for games that deal), and its [clock] when one
    is asked for, started now. Where the engine has the first move, it plays it. Returns the
    game as written. `winnable`: a deal the solver proves winnable from the start (SPEC §10)."""
    game = game_named(game_name)
    options = game_options(game, options_given)
    if winnable and game.id != "crab":
        raise UsageError(f"--winnable is for crab, whose record holds its deal; not {game.name}")
    players = game_players(game, options, names, keys)
    if bots:
        check_bots(bots, game.seat_count(options))
        for seat, seconds in bots:
            player = players.setdefault(seat, {"name": BOT_NAME})
            if "key" in player:
                raise UsageError(f"--bot {seat}: the engine never signs, so its seat takes no --key")
            player["bot"] = bot_table(seconds)
    clock_table = None
    if leave is not None and clock is None:
        raise UsageError("--leave gives the days of leave of a clock: give --clock too")
    if clock is not None:
        if game.cooperative or game.seat_count(options) != 2:
            raise UsageError(f"--clock: clocks are for games of two seats, not {game.name}")
        try:
            clock_table = Control.parse(clock, leave or 0.0).table(now())
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    check_output(output, force)
    files = data_files(game, options)
    try:
        # 63 random bits for games that shuffle (the os module is loaded anyway; secrets is not).
        entropy = int.from_bytes(os.urandom(8), "big") >> 1
        if winnable:
            options, setup = _winnable(game, options, files, entropy)
        else:
            setup = game.new_setup(options, files, entropy)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    # SPEC §9: a random identity, sealed in digest 0, so no ply can be carried into another game.
    record = Record(game.id, options, players, setup, path=str(output), id=os.urandom(16).hex(),
                    clock=clock_table)
    done = replies(start(record))  # the engine's first move, when it has it
    write_atomic(output, done.play.record.to_toml(), force=True)
    return Turn(done.play, done.notes)


def _winnable(game: Game, options: dict[str, Any], files: dict[str, Any], entropy: int):
    """The options with the seed of a deal proven winnable, and its [setup]: seeds tried in
    turn from the one given (or drawn), up to a bound in time (then exit 2: asked for what it
    could not find, no rule broken)."""
    from referee.search.solver import HUNT_SECONDS, winnable_deal  # the solver: only here

    hunt = winnable_deal(game, options, files, options.get("seed", entropy))
    if hunt.seed is None:
        again = "another -O seed" if "seed" in options else "again"
        raise UsageError(f"--winnable: no deal proven winnable within {HUNT_SECONDS:g} s "
                         f"({count(hunt.tried, 'deal')}, seeds {hunt.first}…{hunt.last}); try {again}, "
                         f"or without --winnable")
    return {**options, "seed": hunt.seed}, hunt.setup


class Turn(NamedTuple):
    play: Replay
    notes: list[str]


def play_turn(path: str, move: str | None, *, seat: int | str | None = None, comment: str | None = None,
              conditions: list[tuple[str, str]] | None = None, lines: list[str] | None = None,
              key_file: str | None = None,
              picture: tuple[str, Callable[[Replay], str]] | None = None, force: bool = False,
              leave: tuple[dt.datetime, dt.datetime] | None = None, offer_draw: bool = False,
              note: str | None = None, note_key_file: str | None = None) -> Turn:
    """`referee move`: under the record's lock, replay it, take the turn as one transaction,
    write the picture (when asked: its path and how it is drawn, which is the drawing layer's
    to say) and then the record, once. A refused move
    writes nothing.
    `leave` is the span of leave declared with the move; `note` a note sealed with it under the
    note key of the private key in `note_key_file`, which signs the move too (SPEC §12).
    Without a move (None), the engine
    replies where its seat is to move (SPEC §14: a received record left it so, or one command's
    thinking ran out), and nothing else is done."""
    if comment is not None and len(comment) > MAX_TEXT_CHARS:
        raise UsageError(f"--comment: at most {MAX_TEXT_CHARS} characters, not {len(comment)}")
    if path == STDIN:
        raise UsageError("move needs a record file to write back to, not - (standard input)")
    if move is None and (seat is not None or comment is not None or conditions or lines or key_file or leave
                         or offer_draw or note is not None or note_key_file):
        raise UsageError("--as, --comment, --if, --line, --sign, --leave, --offer-draw and --note go with a "
                         "move: give MOVE")
    if (note is None) != (note_key_file is None):
        raise UsageError("--note and --key go together: the note is sealed with your key "
                         "(referee move FILE MOVE --note TEXT --key KEYFILE)")
    if note is not None and len(note.encode("utf-8")) > MAX_NOTE_BYTES:
        raise UsageError(f"--note: at most {MAX_NOTE_BYTES:,} bytes of text")
    check_output(picture and picture[0], force=True)  # the picture, refreshed at every move
    check_output(path, force=True)  # a read-only record is refused before any work
    key = private_key(key_file) if key_file else None
    if note_key_file:
        note_signer = private_key(note_key_file)
        if key is not None and key.public != note_signer.public:
            raise UsageError("--sign and --key name two keys: your move is signed with the key that "
                             "seals your note; give one of them")
        key = note_signer
    with locked(path):
        play = load(path)
        if move is None:
            done = _engine_turn(play, path)
        else:
            mover = seat_named(play, str(seat)) if seat is not None else None
            if note is not None:
                note = _sealed_note(play, mover or play.to_move(), key, note)
            # The engine places for its seats within the player's round; a resignation is
            # the team's own word.
            partner = bool(play.record.bots()) and play.game.cooperative and not _ending(move)
            if partner:
                try:
                    move = partner_round(play, move)
                except RefereeError as exc:
                    raise exc.located(file=path, ply=play.plies + 1, move=move.strip()).named(
                        lambda reason: in_words(play, reason))
            done = take_turn(play, move, seat=mover, comment=comment, at=now(),
                             conditions=conditions or [], lines=lines or [], key=key, leave=leave,
                             offer_draw=offer_draw, bot=partner, note=note)
            done = replies(done.play, done.notes)
        text = done.play.record.to_toml()
        check_size(text, done.play.plies)
        # The picture first: if it cannot be written the command fails before the record
        # changes, so an exit code other than 0 always means the move was not recorded.
        if picture is not None:
            write_atomic(picture[0], picture[1](done.play))
        write_atomic(path, text)
    return Turn(done.play, done.notes)


def _sealed_note(play: Replay, seat: int | None, key: Any, text: str) -> str:
    """`text` sealed for the next ply by `seat`, under the note key of its private key `key`
    (SPEC §12): only a seat with a key writes notes, in a game with an id."""
    keys = play.record.keys()
    if seat is None or seat not in keys:
        raise UsageError(f"notes need a key: `referee key new`, given to {who_and_seat(play, seat or 1)} "
                         "when the game is made (referee new … --key SEAT=PUBLIC_KEY)")
    if keys[seat] != key.public:
        raise UsageError(f"--key: that key is not {who_and_seat(play, seat)}'s key in [players]")
    if play.record.id is None:
        raise UsageError("notes are sealed to the game's id, and this record has none (records made by "
                         "`referee new` have one)")
    cipher = note_cipher("sealed notes: ")
    return cipher.seal_note(cipher.note_key(key, play.record.id), play.record.id, play.plies + 1, text)


def _ending(move: str) -> bool:
    return " ".join(move.lower().split()) in ENDINGS


def _engine_turn(play: Replay, path: str) -> Turn:
    """`referee move FILE` without a move: the engine's replies, where its seat is to move."""
    seat = play.to_move()
    if seat is None:
        raise UsageError(f"{path}: the game is over ({result_words(play)}): there is no move to make")
    if play.game.cooperative or seat not in play.record.bots():
        whose = f"{who_and_seat(play, seat)} is to move, not the engine: " if play.record.bots() else ""
        raise UsageError(f"{path}: {whose}give the move: referee move {path} MOVE")
    return Turn(*replies(play))


def check_size(text: str, plies: int) -> None:
    """No command writes a record it would refuse to read (SPEC §9)."""
    if plies > MAX_PLIES or len(text.encode("utf-8")) > MAX_RECORD_BYTES:
        raise UsageError(
            f"the record would hold {plies} plies in {len(text.encode('utf-8')):,} bytes, past what "
            f"a record may hold ({MAX_PLIES} plies, {MAX_RECORD_BYTES // 1_000_000} MB): "
            "no referee would read it back"
        )

