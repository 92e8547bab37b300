"""What a record says, as plain values for the command line to print (SPEC §4, §8, §9): the
record read and replayed (`load`), its status, the legal moves, its history, `validate`'s
verdict on one record or many, and what `verify` finds in its seal and signatures.

Nothing here draws or writes: `status`, `validate` and `verify` start without the drawing
libraries (README: Performance).
"""

from __future__ import annotations

import hashlib
import itertools
from typing import Any, Iterator, NamedTuple

from referee.record import seal
from referee.play.archive import internal_error, judge_each
from referee.record.clock import now, report as clock_report
from referee.errors import IllegalMoveError, RefereeError, UsageError, within
from referee.record.files import looks_like_mail, read_input
from referee.play.keys import check_signatures, signature_note
from referee.record.values import Record, toml_datetime
from referee.record.reading import parse_record
from referee.games.base import count
from referee.text import TEXT_WIDTH, columns, cut, plain
from referee.play.words import header, in_words, result_words, text_head, who
from referee.play.replay import Replay, replay


def load(path: str) -> Replay:
    """A record file, read and replayed: every rule, the result and the seal checked."""
    return replay(record_in(read_input(path, "record"), path))


def record_in(data: bytes, path: str) -> Record:
    """The record in the bytes of a record file. A mail given where a record belongs is told
    for what it is (SPEC §8b), not read as broken TOML."""
    if looks_like_mail(data):
        raise UsageError("this is a mail: use `referee receive FILE`", file=str(path))
    return parse_record(data, str(path))



def status(play: Replay) -> dict[str, Any]:
    """`status --json` (SPEC §4, and §6 for a game with a clock)."""
    outcome = play.outcome()
    extra = {"clock": clock_report(play.clock, play.to_move(), now())} if play.clock is not None else {}
    standing = play.record.standing_conditions() if play.plies and outcome is None else []
    if standing:  # SPEC §12: the conditional moves left for the next ply, as the record holds them
        extra["conditional"] = {"seat": play.line[-1].mover, "pending": standing}
    return {
        "game": play.game.id,
        "ply": play.plies,
        "to_move": play.to_move(),
        "over": outcome is not None,
        "winners": list(outcome.winners) if outcome else [],
        "result": result_words(play, names=False),  # SPEC §4: seats by number
        "score": play.game.score(play.state),
        **play.game.status_extra(play.state),
        "options": play.options,
        "players": {str(s): play.record.player_name(s) for s in play.record.players},
        **extra,
    }


def status_lines(play: Replay) -> list[str]:
    """`status` in words: the game, its players, the last move, the game's own lines and the
    result, each safe to print (a name from the record must not forge lines)."""
    head = header(play, play.plies, play.game.picture(play.state, play.last_move()), now())
    last = f"Ply {play.plies}" + (f"; last move {play.last_move()} ({head.mover})" if play.plies else "")
    words = text_head(head._replace(last=last))
    return [plain(line) for line in (*words.title, *words.players, *words.last, *words.status, *words.result)]


def moves(play: Replay, after: str | None) -> dict[str, Any]:
    """`moves --json`: the seat to move and its legal entries (SPEC §4)."""
    to_move = play.to_move()
    listing = play.game.move_listing(play.state, after) if to_move is not None else {"moves": []}
    bots = play.record.bots()
    if bots and "placements" in listing and "pattern" in listing:
        # A cooperative round in which the engine places for its seats (SPEC §10): the player
        # gives the others' placements, and only those are theirs to choose.
        listing["placements"] = {seat: own for seat, own in listing["placements"].items() if int(seat) not in bots}
        listing["pattern"] = " | ".join(f"{seat}: <card> <x>,<y> <rotation>" for seat in listing["placements"])
        listing["engine"] = sorted(bots)
    return {"to_move": to_move, **listing}


def moves_lines(play: Replay, listing: dict[str, Any]) -> list[str]:
    """`moves` in words: the player to move and their moves (or, in a multi-action game, the
    pattern of a turn), listed to a mail's width. Hermetica's turn is listed action by action,
    as "legal first actions" or "legal next actions" after `--after`; the crab game's
    placements that move Hermie come first, marked `*` (SPEC §8b)."""
    to_move = listing["to_move"]
    if to_move is None:
        return ["The game is over: no moves."]
    moves = listing["moves"]
    placements = listing.get("placements", {})
    player = who(play, to_move)
    if "pattern" in listing:
        # Four seats' form is wider than a mail: broken between seats where it must be.
        lines = _listed(f"{player} plays: {listing['pattern']}".split(" | "), separator=" | ")
        if listing.get("engine"):
            seats = ", ".join(str(seat) for seat in listing["engine"])
            lines.append(f"The engine places for seat {seats} within your round.")
        if placements:
            lines += ["A placement marked * recreates the pattern: Hermie moves if every seat's",
                      "does. The Wave's step shown is the one if every seat placed alike."]
        # A cooperative round takes one placement per seat: each seat's own choices.
        for seat, own in placements.items():
            lines += [f"{who(play, int(seat))} can place ({len(own)}):", *_placement_lines(own, together=True)]
        return [plain(line) for line in lines]
    if placements:
        marked = sum(p["hermie"] for p in placements["1"])
        which = f"the {marked} marked * move Hermie" if marked else "none moves Hermie"
        return [plain(f"{player} has {count(len(moves), 'legal placement')}; {which}:"),
                *_placement_lines(placements["1"])]
    if listing.get("phase") == "turns":
        return _action_lines(play, listing)
    return [plain(f"{player} has {count(len(moves), 'legal move')}:"), *_listed(moves)]


def _action_lines(play: Replay, listing: dict[str, Any]) -> list[str]:
    """A turn of several actions (Hermetica): its first actions, or its next ones after those
    already chosen, and how the turn may end instead."""
    seat, moves, left = listing["to_move"], listing["moves"], listing["actions_left"]
    done = listing.get("after")
    which = "next" if done else "first"
    how_many = count(len(moves), f"legal {which} action") if moves else f"no legal {which} action"
    stop = ":" if moves else "."
    if done is None:
        lines = [plain(f"{who(play, seat)} has {how_many} (a turn: up to {left}, joined by '; '){stop}")]
        end = "'pass': a turn of no action."
    else:
        lines = [plain(f"After '{done}' ({count(left, 'action')} left), {who(play, seat, capital=False)} has {how_many}{stop}")]
        end = f"end the turn there: '{done}'."
    lines += _listed(moves) if moves else []
    if listing["turn_may_end"]:
        lines.append(("Or " if moves else "So ") + end)
    return lines


WAVE_STEP = {-1: "the Wave moves left", 0: "the Wave stays", 1: "the Wave moves right"}


def _placement_lines(placements: list[dict[str, Any]], together: bool = False) -> list[str]:
    """A seat's placements (the crab game), as the listing orders them: those that move Hermie
    first, marked `*`; a heading for each run of placements alike for Hermie and the Wave.
    `together`: a cooperative game, where a seat's placement only does its part for Hermie."""
    lines: list[str] = []
    for (hermie, wave), run in itertools.groupby(placements, key=lambda p: (p["hermie"], p["wave"])):
        if together:
            lines.append(f"{'Recreating' if hermie else 'Not recreating'} the pattern, {WAVE_STEP[wave]}:")
        else:
            lines.append(f"Hermie {'moves' if hermie else 'stays'}, {WAVE_STEP[wave]}:")
        lines += _listed([("*" if hermie else "") + p["move"] for p in run])
    return lines


def _listed(items: list[str], width: int = TEXT_WIDTH, separator: str = ", ") -> list[str]:
    """Items such as moves, joined by `separator`, on lines of at most `width` columns. Not
    `wrap`: a move holds spaces ("b e5"), and a line breaks only between two moves."""
    lines, line = [], ""
    for item in items:
        if line and columns(line) + columns(separator) + columns(item) > width:
            lines.append(line)
            line = ""
        line = f"{line}{separator}{item}" if line else item
    return lines + [line]


def solve(path: str, seconds: float) -> dict[str, Any]:
    """`solve --json` (SPEC §10): whether the crab game can still be won from the record's
    position, with a winning line, a proof of loss, or null when `seconds` ran out."""
    from referee.search.solver import SOLVABLE, solve as solve_within  # the solver: only here

    within("--seconds", seconds, (0.1, 600), spec="")  # written as it was given
    play = load(path)
    if play.game.id not in SOLVABLE:
        raise UsageError(f"{path}: solve is for games with a known deal and no opponent "
                         f"({', '.join(SOLVABLE)}), not {play.game.id}")
    if play.outcome() is not None:
        raise IllegalMoveError(f"the game is over ({result_words(play)}): nothing to solve",
                               file=play.record.path)
    found, took = solve_within(play.state, seconds)
    report: dict[str, Any] = {"winnable": found.winnable}
    if found.winnable:
        report |= {"line": list(found.line), "rounds": len(found.line)}
    return report | {"searched": found.searched, "seconds": round(took, 2)}


def solve_lines(report: dict[str, Any]) -> list[str]:
    """`solve` in words, wrapped to a mail's width."""
    searched = f"{report['searched']:,} positions searched in {report['seconds']:g} s"
    if report["winnable"] is None:
        return [f"Unknown: not settled in time ({searched}); more --seconds may settle it."]
    if not report["winnable"]:
        return [f"Not winnable: every way on loses ({searched})."]
    # One form for every seat count: a round a line, each ready to paste into `move` (a
    # cooperative round, every seat's placement, is too long to run on in a sentence).
    rounds = count(report["rounds"], "round")
    return [f"Winnable in {rounds} ({searched}), round by round:"] + [
        f"{n:>3}. {entry}" for n, entry in enumerate(report["line"], 1)]


def history(play: Replay) -> dict[str, Any]:
    """`history --json` (SPEC §8): every ply with its seat, player, move, time and comment, and
    `engine`: the seats whose part of it the engine chose (SPEC §10: a bot seat's move; in a
    cooperative round, the placements of the seats it plays, within the player's entry)."""
    plies = []
    bots = sorted(play.record.bots())
    for ply, (entry, step) in enumerate(zip(play.record.moves, play.line[1:]), 1):
        seat = step.mover
        engine = [] if not entry.bot else bots if play.game.cooperative else [seat]
        plies.append({
            "ply": ply, "seat": seat, "player": play.record.player_name(seat), "move": str(step.move),
            "at": toml_datetime(entry.at) if entry.at is not None else None,
            "comment": entry.comment, "engine": engine,
        })
    return {"plies": plies}


def history_lines(play: Replay) -> list[str]:
    """`history` in words: one line a ply, its comment on the line below. A ply the engine
    chose says so: "Bo (engine)"; a cooperative round names the seats it placed for."""
    lines = []
    for item in history(play)["plies"]:
        player = item["player"] or f"seat {item['seat']}"
        if item["engine"] == [item["seat"]] and not play.game.cooperative:
            player += "" if player.casefold() == "engine" else " (engine)"
        elif item["engine"]:
            seats = item["engine"]
            player += (f"; the engine placed for seat {seats[0]}" if len(seats) == 1 else
                       f"; the engine placed for seats {', '.join(map(str, seats[:-1]))} and {seats[-1]}")
        when = item["at"][:16].replace("T", " ") + " UTC" if item["at"] else ""
        if len(item["move"]) <= 14:
            lines.append(cut(plain(f"{item['ply']:>4}. {item['move']:<14} {when:<20} {player}".rstrip()), TEXT_WIDTH))
        else:  # a whole Hermetica turn: the move on a line of its own
            lines.append(cut(plain(f"{item['ply']:>4}. {item['move']}"), TEXT_WIDTH))
            lines.append(cut(plain(f"{'':>6}{'':<14} {when:<20} {player}".rstrip()), TEXT_WIDTH))
        if item["comment"]:
            lines.append(cut(plain(f"      “{item['comment']}”"), TEXT_WIDTH))
    return lines or ["No moves yet."]


class Judgement(NamedTuple):
    """One record judged: replayed, or the fault that stopped it; the plies the file holds
    (0 when it could not be read); a note on the signatures (empty, or why they were not
    checked); the SHA-256 of the file's bytes (None when it could not be read), by which the
    standings know two identical files."""

    play: Replay | None
    fault: RefereeError | None
    plies: int
    note: str
    content: str | None = None


def judge(path: str) -> Judgement:
    """Read, replay and check one record (rules, result, seal, signatures where the signing
    library is installed): what `validate` and `standings` judge by. A fault of the record is
    returned, never raised; a fault of the referee itself (any other exception) is raised, and
    archive.judge_each makes it the record's verdict."""
    plies, content = 0, None
    try:
        data = read_input(path, "record")
        content = hashlib.sha256(data).hexdigest()
        record = record_in(data, path)
        plies = len(record.moves)
        play = replay(record)
        return Judgement(play, None, plies, signature_note(play), content)
    except RefereeError as exc:
        return Judgement(None, exc, plies, "", content)


class Verdict(NamedTuple):
    """One record judged by `validate`: its `validate --json` object, the fault if any, and
    the result sentence when valid."""

    report: dict[str, Any]
    fault: RefereeError | None
    summary: str


def validate(path: str) -> Verdict:
    judged = judge(path)
    if judged.fault is None:
        report: dict[str, Any] = {"file": str(path), "valid": True, "plies": judged.plies, "error": None}
        if judged.play.clock is not None:
            report["clock"] = clock_report(judged.play.clock, judged.play.to_move(), now())
        return Verdict(report, None, result_words(judged.play) + judged.note)
    return _invalid(path, judged.fault, judged.plies)


def crashed(path: str, exc: Exception) -> Verdict:
    """`validate`'s verdict on a record whose judging raised what no record should make the
    referee raise: INVALID, "internal error: …" (SPEC §9, play/archive.py)."""
    return _invalid(path, internal_error(path, exc), 0)


def _invalid(path: str, exc: RefereeError, plies: int) -> Verdict:
    report: dict[str, Any] = {"file": str(path), "valid": False, "plies": plies, "error": None}
    if exc.ply is not None:
        report["plies"] = exc.ply - 1
    report["error"] = {"ply": exc.ply, "move": exc.move, "message": exc.reason}
    if exc.action is not None:
        report["error"]["action"] = exc.action
    return Verdict(report, exc, "")


def validations(files: list[str]) -> Iterator[Verdict]:
    """`validate` of each file, in their order; a long list judged on every core (play/archive.py)."""
    return judge_each(validate, files, crashed)



def verify(path: str, against: str | None) -> list[str]:
    """`referee verify`: what the seal and the signatures say, line by line; raises at the
    first ply where digests, signatures or the two copies disagree."""
    play = load(path)  # a bad digest is found here, at its ply
    record = play.record
    loose = seal.unsealed(record)
    lines = [f"{path}: {count(play.plies, 'ply', 'plies')}, " + (
        "all sealed" if not loose else f"{len(loose)} unsealed (no digest): {_ranges(loose)}"
    )]
    if any(e.signature for e in record.moves):
        check_signatures(play)
        bare = seal.unsigned(record)
        lines.append("signatures: all valid" + (f"; unsigned {_ranges(bare)}" if bare else ""))
    else:
        lines.append("signatures: none")
    if record.reveals:
        check_signatures(play)  # SPEC §12: each reveal signed by its seat, and its notes open
        lines.append(f"revealed notes: {count(len(record.reveals), 'seat')}, all open")
    if against is not None:
        problem = seal.divergence(load(against), play)
        if problem:
            raise RefereeError(f"{path} does not extend {against}: {in_words(play, problem)}")
        lines.append(f"{against}: agrees with {path} up to its last ply")
    return lines




def _ranges(plies: list[int]) -> str:
    """"ply 3", "plies 1–4, 7": plies by number, runs of them as ranges."""
    spans, first = [], None
    for i, ply in enumerate(plies):
        if first is None:
            first = ply
        if i + 1 == len(plies) or plies[i + 1] != ply + 1:
            spans.append(str(first) if first == ply else f"{first}–{ply}")
            first = None
    return ("ply " if len(plies) == 1 else "plies ") + ", ".join(spans)

