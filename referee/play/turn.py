"""A player's turn as one transaction: play on a fork, then build the new record once.

`take_turn` checks the move (and the seat, when given), plays it and the passes it forces
(R-G3), answers standing conditional moves, checks new ones, and only then builds the whole
new record: every entry in canonical form (SPEC §3), the new plies stamped, [result] once the
game ends, the conditions left standing, every ply sealed and the new ply signed. Nothing is
changed in place: on any error the caller's replay and record are exactly as they were, and
on success it gets a new replay whose record is ready to be written.

Conditional moves: correspondence players save a round trip by sending conditions openly with
their move: "if you play X, I reply Y", and lines going on from there (play/lines.py). When
the opponent's next move is one of the X, the referee plays the matching Y at once, and the
rest of that line stands after it; otherwise the conditions are dropped. If the reply is
played and the opponent sent conditions of their own, those are matched against that reply
straight away, and so on while a tree holds a reply. The match is on the canonical text of
the whole entry (a whole turn in games with several actions).
"""

from __future__ import annotations

import datetime as dt
from typing import Any, NamedTuple

from referee.record import seal
from referee.errors import IllegalMoveError, RefereeError, UsageError
from referee.games.base import Pass
from referee.record.players import seat_problem
from referee.record.values import Entry, Record
from referee.play.words import in_words, result_words, who, who_and_seat
from referee.play.lines import Line, checked_tree, given_lines, matching, set_words
from referee.play.replay import Ending, Replay, bot_fault


class TurnResult(NamedTuple):
    play: Replay  # the game after the turn; its record is the new record
    notes: list[str]  # what the player should be told: passes, conditional replies


def take_turn(
    play: Replay,
    text: str,
    *,
    seat: int | None = None,
    comment: str | None = None,
    at: dt.datetime | None = None,
    conditions: list[tuple[str, str]] | tuple = (),
    lines: list[str] | tuple = (),
    key: Any = None,
    leave: tuple[dt.datetime, dt.datetime] | None = None,
    offer_draw: bool = False,
    bot: bool = False,
    note: str | None = None,
) -> TurnResult:
    """Play `text` for the seat to move (refused unless it is `seat`, when given) and whatever
    conditional replies it triggers; leave `conditions` (--if/--then pairs) and `lines` (--line,
    SPEC §12) standing for the opponent's replies; sign the new ply with `key` (a
    signing.Signer) when given; declare `leave` and offer a draw with it (SPEC §6); `bot`: the
    engine chose `text`, for a seat it plays (SPEC §10); `note`: a sealed note, already
    encrypted for its ply (SPEC §12). Every new ply is stamped `at`: the passes it forces and
    the conditional replies it triggers carry the stamp of the move that made them. Raises a
    located RefereeError."""
    try:
        return _turn(play, text, seat=seat, comment=comment, at=at, given=given_lines(conditions, lines),
                     key=key, leave=leave, offer_draw=offer_draw, bot=bot, note=note)
    except RefereeError as exc:
        # The seats a refusal names, by their players' names (SPEC §8b).
        raise exc.named(lambda reason: in_words(play, reason))


def _turn(play: Replay, text: str, *, seat: int | None, comment: str | None, at: dt.datetime | None,
          given: list[Line], key: Any, leave: tuple[dt.datetime, dt.datetime] | None,
          offer_draw: bool, bot: bool, note: str | None) -> TurnResult:
    work = play.fork()
    before = play.plies
    mover = work.to_move()
    _play(work, text, at, seat, leave=leave, offer="draw" if offer_draw else None)
    engine = play.record.bots()
    first = work.line[before + 1]
    # SPEC §14: nobody speaks for a bot seat. In a cooperative round the player's entry holds
    # the engine's placements (made by partner_round), and a resignation is the team's.
    ending = isinstance(first.move, Ending)
    if not bot and engine and (not ending if play.game.cooperative else first.mover in engine):
        how = "" if play.game.cooperative or ending else \
            f"; to let it reply: referee move {play.record.path or 'FILE'} (without a move)"
        refusal = IllegalMoveError(f"seat {first.mover} is played by the engine, which makes its own moves{how}")
        refusal.said = f"{who_and_seat(work, first.mover)} is played by the engine, which makes its own moves{how}"
        raise refusal.located(file=play.record.path, ply=before + 1, move=text.strip())
    if engine and given:
        raise UsageError("conditional moves wait for a player's reply; the engine replies at once")
    notes = [f"{who(work, ply.mover)} cannot act and passes (R-G3)."
             for ply in work.line[before + 1:] if isinstance(ply.move, Pass)]
    owner = play.line[-1].mover  # who left the standing conditions (None at the start)
    standing = play.record.standing_conditions()
    trees: dict[int, list[dict[str, Any]]] = {}  # each seat's tree still standing
    carried: dict[int, list[dict[str, Any]]] = {}  # the tree each new ply holds, by its index
    if standing and owner is not None and owner != mover:
        trees[owner] = standing
    elif standing and owner == mover:  # SPEC §12: a new ply of the seat's own ends its line
        notes.append("Your conditional moves were dropped: you moved yourself.")
    if given:
        try:
            trees[mover] = checked_tree(work, mover, given)
        except IllegalMoveError as exc:
            raise exc.located(file=play.record.path, ply=before + 1, move=text.strip())
        carried[before] = trees[mover]
    if _answer_lines(work, trees, carried, mover, notes, at) and owner in trees:
        notes.append(f"{who(work, owner)}'s conditional moves were dropped: it is not their turn.")
    if carried.get(before) and carried[before] is trees.get(mover):
        notes.append(set_words(trees[mover], who(work, work.to_move(), capital=False)))
    work.record = _new_record(play, work, at=at, comment=comment, pending=carried, leave=leave,
                              offer="draw" if offer_draw else None, bot=bot, note=note)
    for ply in range(before + 1, work.plies + 1) if engine else ():
        fault = bot_fault(work, ply)  # a claim against the engine, say, or a reply stamped late
        if fault is not None:
            raise IllegalMoveError(fault).located(file=play.record.path, ply=ply, move=work.entries[ply - 1])
    work.digests = play.digests + seal.extend(
        play.digests[-1] if play.digests else seal.header_digest(play.record),
        before + 1, work.entries[before:], work.record.moves[before:],
    )
    _seal(work, first=before, key=key)
    return TurnResult(work, notes)


def _play(work: Replay, text: str, at: dt.datetime | None, seat: int | None = None, **extra: Any) -> None:
    """Check and play one entry and the passes it forces, on `work`; a refusal is located at
    the record's file, the new ply and the move."""
    ply = work.plies + 1  # the ply being played, named in any refusal
    try:
        if work.outcome() is not None:
            raise IllegalMoveError(f"the game is over ({result_words(work)})")
        problem = seat_problem(seat, work.seats, work.game.name) if seat is not None else None
        if problem:
            raise UsageError(f"--as {seat}: {problem}")
        to_move = work.to_move()
        work.push(text, at=at, **extra)
        # Checked once the entry is read: a time claim is made by the seat not to move. (A
        # refusal here leaves `work` changed, but only the player's own move has a seat, and
        # its refusal ends the whole turn.)
        if seat is not None and seat != work.line[-1].mover:
            refusal = IllegalMoveError(f"seat {seat} is not to move: seat {to_move} is")
            refusal.said = f"{who_and_seat(work, seat)} is not to move: {who(work, to_move)} is"
            raise refusal
    except RefereeError as exc:
        raise exc.located(file=work.record.path, ply=ply, move=text.strip())
    work.push_forced_passes(at)


def _answer_lines(work: Replay, trees: dict[int, list[dict[str, Any]]], carried: dict[int, list[dict[str, Any]]],
                  runner: int, notes: list[str], at: dt.datetime | None) -> bool:
    """Play the conditional replies the standing trees hold, on `work`, while the seat to move
    has a tree (SPEC §9, §12): its branch for the last ply is played and carries its `next`;
    the first ply that leaves a tree ends it. `runner` is the seat at the keyboard, whose own
    reply is a ply of its own (its tree stands on its last ply alone, and a reply from it is
    signed as its own, as ever); the other seat's reply is written for it, and each carries
    the rest of its line (`carried`, by the index of the ply). True when no tree was answered
    at all: the first ply after the runner's was not the other seat's to make."""
    answered = False
    while True:
        seat = work.to_move()
        tree = trees.get(seat)
        if not tree or work.line[-1].mover == seat:
            return not answered
        answered = True
        whose = "Your" if seat == runner else f"{who(work, seat)}'s"
        last = work.entries[-1]
        node = matching(work, tree, work.plies)
        if seat == runner:  # the runner's tree moves on from the ply that held it, or ends
            carried.pop(next((i for i, t in carried.items() if t is tree), -1), None)
        if node is None:
            trees.pop(seat)
            notes.append(f"Your conditional moves were dropped: {who(work, work.line[-1].mover, capital=False)} "
                         f"replied {last}." if seat == runner else
                         f"{whose} conditional moves were dropped: none was for {last}.")
            return False
        reply, note = _answer(work, whose, last, node["then"], at)
        notes.append(note)
        if reply is None:
            trees.pop(seat)
            return False
        trees[seat] = node.get("next") or []
        carried[_index_of_reply(work, seat)] = trees[seat]


def _index_of_reply(work: Replay, seat: int) -> int:
    """The index (into the entries) of `seat`'s last ply, the reply just played: forced passes
    of the other seat may follow it."""
    ply = work.plies
    while work.line[ply].mover != seat:
        ply -= 1
    return ply - 1


def _new_record(
    play: Replay, work: Replay, *, at: dt.datetime | None, comment: str | None,
    pending: dict[int, list[dict[str, Any]]], leave: tuple[dt.datetime, dt.datetime] | None,
    offer: str | None, bot: bool = False, note: str | None = None,
) -> Record:
    """The record after the turn: the old plies in canonical form with their stamps, comments,
    conditions and signatures, the new plies stamped `at` (the first with the comment, the
    sealed note and the draw offer), the conditions each new ply leaves standing (`pending`,
    by index: SPEC §9 seals them with it), and [result] once the game is over. An older
    record's top-level [[pending]] has been answered or dropped by this turn. Digests are
    added by `_seal`."""
    old = play.record
    before = play.plies
    entries = [
        Entry(move, entry.at, entry.comment, signature=entry.signature, line=entry.line,
              pending=entry.pending, leave=entry.leave, offer=entry.offer, bot=entry.bot, note=entry.note)
        for move, entry in zip(work.entries, old.moves)
    ]
    entries += [Entry(move, at, comment, pending=pending.get(ply), leave=leave, offer=offer, bot=bot, note=note)
                if ply == before else Entry(move, at, pending=pending.get(ply))
                for ply, move in enumerate(work.entries[before:], before)]
    outcome = work.outcome()
    result = old.result
    if outcome is not None:
        result = {"winners": list(outcome.winners), "reason": outcome.reason}
    return Record(old.game, old.options, old.players, old.setup, entries, result=result,
                  path=old.path, id=old.id, clock=old.clock, reveals=old.reveals)


def _seal(work: Replay, *, first: int, key: Any) -> None:
    """Write every ply's digest into the new record (the referee seals whatever it writes) and
    sign the new plies that need a signature (SPEC §9: every ply of a seat with a key, bar
    forced passes and replies from its own sealed conditional moves) with `key`, which must be
    their seat's. A ply that needs another seat's signature is refused: nobody moves for you."""
    record = work.record
    for entry, digest in zip(record.moves, work.digests):
        entry.digest = digest
    keys = record.keys()
    if key is not None:
        seat = work.line[first + 1].mover
        if seat not in keys:
            raise UsageError(
                f"seat {seat} has no key in [players]: add  {seat} = {{ name = \"…\", key = "
                f"\"{key.public}\" }}  first"
            )
        if keys[seat] != key.public:
            raise UsageError(f"that key is not seat {seat}'s key in [players]")
    if not keys:
        return
    for ply in seal.needs_signature(record, work.movers, work.written_for()):
        if ply <= first:
            continue  # an earlier ply: its signature came with it (and the replay checked it)
        seat = work.line[ply].mover
        if key is None or keys[seat] != key.public:
            raise UsageError(
                f"seat {seat} signs every move (with the key in [players]): ply {ply} "
                f"({work.entries[ply - 1]}) needs --sign with seat {seat}'s key"
            )
        entry = record.moves[ply - 1]
        entry.signature = key.sign(entry.digest)


def _answer(work: Replay, whose: str, condition: str, then: str,
            at: dt.datetime | None) -> tuple[str | None, str]:
    """Play `then`, the conditional reply `whose` left for `condition`: the reply as played (or
    None when it cannot be, the position having changed in a way its sender could not foresee),
    and the note that says so."""
    start = work.plies
    try:
        _play(work, then, at)
    except RefereeError as exc:
        return None, f"{whose} conditional reply {then} was dropped: {in_words(work, exc.reason)}."
    reply = work.entries[start]
    return reply, f"{whose} conditional reply was played: if {condition} then {reply}."
