"""The application layer: what each command does, as one call that returns plain values.

The command line (cli.py) parses its arguments, makes one call here and prints what comes
back; it never reads or edits a record itself. Everything between the player's words and the
library lives here: choosing the game and its options, loading data files, the turn as one
transaction (replay, play on a fork, build the new record once, write once), mail in and out,
and the reports (status, validate, moves, verify) as plain data.

Heavy libraries (Jinja for drawing, the email package, resvg for PNG, cryptography for keys)
are imported by the functions that need them, so a command that draws nothing, such as
`referee status`, does not pay for them at start (README: Performance).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import gc
import hashlib
import os
from pathlib import Path
from typing import Any, Iterator, NamedTuple

from referee import seal
from referee.clock import Control, bounded, now, report as clock_report, short_words, stamp, words
from referee.data import data_file
from referee.errors import RecordError, RefereeError, UsageError
from referee.files import STDIN, check_output, locked, read_input, record_files, write_atomic
from referee.games import GAMES, Game
from referee.players import seat_number, seats_at, seats_called
from referee.record import MAX_PLIES, MAX_RECORD_BYTES, MAX_TEXT_CHARS, Record, parse_record, read_record
from referee.render.header import header, plain, text_head
from referee.replay import CLAIM, Replay, replay, start

# SPEC §8: without --format, an output's extension names its format.
EXTENSIONS = {".txt": "text", ".svg": "svg", ".png": "png", ".pdf": "pdf", ".html": "html",
              ".gif": "gif", ".eml": "eml"}
SHOW_FORMATS = ("text", "svg", "png", "html", "gif")
BOARD_FORMATS = ("svg", "pdf")
ATTACHMENTS = ("html",)
# The review page and the animation draw every ply (about 5 ms a ply for the page, 0.1 s for a
# GIF frame), so a record of thousands of plies, real or hostile, is refused rather than left
# to run for minutes (SPEC §9: bounded work).
MAX_REVIEW_PLIES = 1_000
# SPEC §9: how long before the game reached a receiver its clock may have started, unasked.
START_SLACK = 86_400.0


# -- the time --------------------------------------------------------------------------------


def leave_span(text: str) -> tuple[dt.datetime, dt.datetime]:
    """`--leave 2026-12-20..2027-01-03`: two dates (00:00 UTC) or date-times."""
    begin, sep, end = text.partition("..")

    def moment(part: str) -> dt.datetime:
        part = part.strip()
        try:
            value = dt.datetime.fromisoformat(part.replace("z", "Z"))
        except ValueError:
            raise UsageError(f"--leave takes FROM..TO, e.g. 2026-12-20..2027-01-03, not {text!r}") from None
        try:
            bounded(value, "--leave")
        except ValueError as exc:
            raise UsageError(str(exc)) from None
        return value.replace(tzinfo=dt.timezone.utc) if value.tzinfo is None else value.astimezone(dt.timezone.utc)

    if not sep:
        raise UsageError(f"--leave takes FROM..TO, e.g. 2026-12-20..2027-01-03, not {text!r}")
    return moment(begin), moment(end)


# -- games, options, players -------------------------------------------------------------------


def game_named(name: str) -> Game:
    game = GAMES.get(name.strip().lower())
    if game is None:
        raise UsageError(f"unknown game {name!r}; the games are: {', '.join(GAMES)}")
    return game


def game_options(game: Game, pairs: list[str] | None) -> dict[str, Any]:
    """The options of `-O key=value` pairs, defaults filled in and every value checked."""
    known = {o.name: o for o in game.options}
    given: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep:
            raise UsageError(f"-O takes key=value, e.g. -O size=5, not {pair!r}")
        if key not in known:
            raise UsageError(f"{game.id} has no option {key!r} (options: {', '.join(known) or 'none'})")
        try:
            given[key] = known[key].from_text(value)
        except ValueError as exc:
            raise UsageError(str(exc)) from None
    try:
        return game.resolve_options(given)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def seat_named(play: Replay, text: str, option: str = "--as") -> int:
    """The seat `text` names (SPEC §8b): a seat number, or a player's name or address as written
    in [players] (case-insensitive). Anything else is exit 2, saying what the seats are."""
    seats = play.seats
    number = seat_number(text)
    if number is not None and number in seats:
        return number
    found = seats_called(play.record.players, text) if number is None else []
    if len(found) == 1:
        return found[0]
    listed = ", ".join(f"{s} {play.record.player_name(s)}" if play.record.player_name(s) else str(s)
                       for s in seats)
    if len(found) > 1:
        raise UsageError(f"{option} {text}: names seats {' and '.join(map(str, found))}; give the seat number")
    raise UsageError(f"{option} {text}: no seat of this game is {text!r} (seats: {listed})")


def game_players(game: Game, options: dict[str, Any], names: list[str] | None,
                 keys: list[str] | None) -> dict[int, dict[str, str]]:
    """[players] from `--player SEAT=NAME` and `--key SEAT=ed25519:…`."""
    players: dict[int, dict[str, str]] = {}
    for item in names or []:
        seat_text, sep, name = item.partition("=")
        seat = seat_number(seat_text)
        if not sep or seat is None or not name.strip():
            raise UsageError(f"--player takes SEAT=NAME, e.g. --player 1=Ann, not {item!r}")
        seats = game.seat_count(options)
        if not 1 <= seat <= seats:
            raise UsageError(f"{game.name} has seats 1–{seats} here, not {seat}")
        if len(name) > MAX_TEXT_CHARS:
            raise UsageError(f"--player {seat}=…: a name of over {MAX_TEXT_CHARS} characters")
        players[seat] = {"name": name.strip()}
    for item in keys or []:
        seat_text, sep, public = item.partition("=")
        seat = seat_number(seat_text)
        if not sep or seat is None or not public.strip().startswith(seal.KEY_PREFIX):
            raise UsageError(f"--key takes SEAT=ed25519:…, e.g. --key 1=ed25519:AAAA…, not {item!r}")
        if seat not in players:
            raise UsageError(f"--key {seat}=…: give seat {seat} a name with --player too")
        players[seat]["key"] = public.strip()
    return players


def data_files(game: Game, options: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """The content of every data file the options name (a board, a deck), by option."""
    return {name: data_file(kind, options[name], name, game.name) for name, kind in game.data_options.items()}


def output_format(output: str | None, fmt: str | None, formats: tuple[str, ...]) -> str:
    """What to write (SPEC §8): --format when given, else the format OUT's extension names,
    else the command's first format. A --format that contradicts the extension, or a format
    or extension the command cannot write, is exit 2."""
    suffix = Path(output).suffix.lower() if output else ""
    named = EXTENSIONS.get(suffix)
    if suffix and named is None and fmt is None:
        raise UsageError(f"{output}: cannot tell the format from {suffix!r}: name the file "
                         f"{' or '.join('.' + ext_of(f) for f in formats)}, or give --format")
    if fmt is not None and named is not None and fmt != named:
        raise UsageError(f"{output}: --format {fmt} but the name says {named}; make them agree")
    chosen = fmt or named or formats[0]
    if chosen not in formats:
        raise UsageError(f"this command writes {', '.join(formats)}, not {chosen}")
    return chosen


def ext_of(fmt: str) -> str:
    return next(ext[1:] for ext, name in EXTENSIONS.items() if name == fmt)


def save(path: str, data: str | bytes) -> None:
    """Write an output (a picture, a sheet, a message) whole or not at all."""
    write_atomic(path, data)


# -- the commands ----------------------------------------------------------------------------


def load(path: str) -> Replay:
    """A record file, read and replayed: every rule, the result and the seal checked."""
    return replay(read_record(path))


def new_game(game_name: str, option_pairs: list[str] | None, names: list[str] | None,
             keys: list[str] | None, output: str, force: bool, clock: str | None = None,
             leave: float | None = None) -> Replay:
    """Write a new record: the game, its options, players and [setup] (the data files' content
    and a deal, for games that deal), and its [clock] when one is asked for, started now.
    Returns the empty game."""
    game = game_named(game_name)
    options = game_options(game, option_pairs)
    players = game_players(game, options, names, keys)
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
        setup = game.new_setup(options, files, int.from_bytes(os.urandom(8), "big") >> 1)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    # SPEC §9: a random identity, sealed in digest 0, so no ply can be carried into another game.
    record = Record(game.id, options, players, setup, path=str(output), id=os.urandom(16).hex(),
                    clock=clock_table)
    write_atomic(output, record.to_toml(), force=True)
    return start(record)


class Turn(NamedTuple):
    play: Replay
    notes: list[str]


def play_turn(path: str, move: str, *, seat: int | str | None = None, comment: str | None = None,
              conditions: list[tuple[str, str]] | None = None, key_file: str | None = None,
              svg: str | None = None, force: bool = False, leave: str | None = None,
              offer_draw: bool = False) -> Turn:
    """`referee move`: under the record's lock, replay it, take the turn as one transaction,
    write the picture (when asked) and then the record, once. A refused move writes nothing."""
    from referee.turn import take_turn  # only `move` loads the turn's writer

    if comment is not None and len(comment) > MAX_TEXT_CHARS:
        raise UsageError(f"--comment: at most {MAX_TEXT_CHARS} characters, not {len(comment)}")
    if path == STDIN:
        raise UsageError("move needs a record file to write back to, not - (standard input)")
    check_output(svg, force=True)  # the picture of the game, refreshed at every move
    check_output(path, force=True)  # a read-only record is refused before any work
    key = private_key(key_file) if key_file else None
    span = leave_span(leave) if leave is not None else None
    with locked(path):
        play = load(path)
        mover = seat_named(play, str(seat)) if seat is not None else None
        done = take_turn(play, move, seat=mover, comment=comment, at=now(),
                         conditions=conditions or [], key=key, leave=span, offer_draw=offer_draw)
        text = done.play.record.to_toml()
        check_size(text, done.play.plies)
        # The picture first: if it cannot be written the command fails before the record
        # changes, so an exit code other than 0 always means the move was not recorded.
        if svg is not None:
            write_atomic(svg, svg_diagram(done.play))
        write_atomic(path, text)
    return Turn(done.play, done.notes)


def check_size(text: str, plies: int) -> None:
    """No command writes a record it would refuse to read (SPEC §9)."""
    if plies > MAX_PLIES or len(text.encode("utf-8")) > MAX_RECORD_BYTES:
        raise UsageError(
            f"the record would hold {plies} plies in {len(text.encode('utf-8')):,} bytes, past what "
            f"a record may hold ({MAX_PLIES} plies, {MAX_RECORD_BYTES // 1_000_000} MB): "
            "no referee would read it back"
        )


def status(play: Replay) -> dict[str, Any]:
    """`status --json` (SPEC §4, and §6 for a game with a clock)."""
    outcome = play.outcome()
    extra = {"clock": clock_report(play.clock, play.to_move(), now())} if play.clock is not None else {}
    return {
        "game": play.game.id,
        "ply": play.plies,
        "to_move": play.to_move(),
        "over": outcome is not None,
        "winners": list(outcome.winners) if outcome else [],
        "result": play.result_sentence(),
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
    return {"to_move": to_move, **listing}


def history(play: Replay) -> dict[str, Any]:
    """`history --json` (SPEC §8): every ply with its seat, player, move, time and comment."""
    from referee.record import toml_datetime

    plies = []
    for ply, (entry, seat, move) in enumerate(zip(play.record.moves, play.movers, play.entries), 1):
        plies.append({
            "ply": ply, "seat": seat, "player": play.record.player_name(seat), "move": move,
            "at": toml_datetime(entry.at) if entry.at is not None else None,
            "comment": entry.comment,
        })
    return {"plies": plies}


def history_lines(play: Replay) -> list[str]:
    """`history` in words: one line a ply, its comment on the line below."""
    lines = []
    for item in history(play)["plies"]:
        who = item["player"] or f"seat {item['seat']}"
        when = item["at"][:16].replace("T", " ") + " UTC" if item["at"] else ""
        if len(item["move"]) <= 14:
            lines.append(_fit(plain(f"{item['ply']:>4}. {item['move']:<14} {when:<20} {who}".rstrip())))
        else:  # a whole Hermetica turn: the move on a line of its own
            lines.append(_fit(plain(f"{item['ply']:>4}. {item['move']}")))
            lines.append(_fit(plain(f"{'':>6}{'':<14} {when:<20} {who}".rstrip())))
        if item["comment"]:
            lines.append(_fit(plain(f"      “{item['comment']}”")))
    return lines or ["No moves yet."]


def _fit(line: str, width: int = 78) -> str:
    """A line cut to a mail's width, with an ellipsis where it was cut."""
    return line if len(line) <= width else line[: width - 1] + "…"


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
        record = parse_record(data, str(path))
        plies = len(record.moves)
        play = replay(record)
        return Judgement(play, None, plies, _signature_note(play), content)
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
        return Verdict(report, None, judged.play.result_sentence() + judged.note)
    return _invalid(path, judged.fault, judged.plies)


def crashed(path: str, exc: Exception) -> Verdict:
    """`validate`'s verdict on a record whose judging raised what no record should make the
    referee raise: INVALID, "internal error: …" (SPEC §9, archive.py)."""
    from referee.archive import internal_error

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
    """`validate` of each file, in their order; a long list judged on every core (archive.py)."""
    from referee.archive import judge_each

    return judge_each(validate, files, crashed)


# -- pictures --------------------------------------------------------------------------------


def text_diagram(play: Replay, ply: int | None = None) -> str:
    """The diagram after `ply` (default the last) as text."""
    with _collector_paused():
        from referee.render.diagram import text_diagram as draw

        return draw(play, ply, _clock_moment(play, ply))


def svg_diagram(play: Replay, ply: int | None = None) -> str:
    with _collector_paused():
        from referee.render.diagram import svg_diagram as draw

        return draw(play, ply, _clock_moment(play, ply))


@contextlib.contextmanager
def _collector_paused() -> Iterator[None]:
    """The first drawing of a command imports Jinja and compiles a template: thousands of
    objects that live to the end of the command, which the garbage collector would walk again
    and again meanwhile. So it is paused, as the entry point pauses it for the imports
    (referee/__main__.py, README: Performance); a drawing makes no cycles to collect."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        global _drawn
        if not _drawn:
            _drawn = True
            gc.freeze()  # what the first drawing imported and compiled, out of every later walk
        if was_enabled:
            gc.enable()


_drawn = False  # whether a drawing has run in this process (its imports then frozen)


def _clock_moment(play: Replay, ply: int | None) -> dt.datetime | None:
    """When a diagram shows the clock: now at the last ply; at an earlier ply, as it stood
    when that ply was made (None: the drawer takes the ply's own stamp)."""
    if play.clock is None or ply not in (None, play.plies):
        return None
    return now()


def diagram(path: str, ply: int | None, fmt: str | None = None, output: str | None = None,
            force: bool = False) -> str | bytes:
    """`referee show`: the position after `ply` (default the last) as text, SVG or PNG (by
    `fmt`, or by the name of `output`), for `output` (refused if it exists, unless `force`).
    As HTML, the review page of the whole game, opening at `ply`; as GIF, the animation of
    plies 0 to `ply`."""
    fmt = output_format(output, fmt, SHOW_FORMATS)
    check_output(output, force)
    play = load(path)
    if ply is not None and not 0 <= ply <= play.plies:
        raise UsageError(f"{path}: --ply {ply} is beyond the record, which has plies 0–{play.plies}")
    if fmt == "text":
        return text_diagram(play, ply)
    if fmt == "html":
        return review_page(play, ply)
    if fmt == "gif":
        return animation(play, ply)
    picture = svg_diagram(play, ply)
    if fmt == "svg":
        return picture
    from referee.render.png import svg_to_png

    return svg_to_png(picture)


def _bounded(play: Replay, plies: int, what: str) -> None:
    if plies > MAX_REVIEW_PLIES:
        raise UsageError(f"{play.record.path}: {what} of {plies} plies: at most {MAX_REVIEW_PLIES} "
                         "(the text, SVG or PNG of any single ply can still be shown with --ply)")


def review_page(play: Replay, opening: int | None = None) -> str:
    """The review page (SPEC §7): one self-contained HTML file to step through the whole game,
    opening at ply `opening` (default: the last) unless its address says `#ply=N`."""
    from referee.render.review import page

    _bounded(play, play.plies, "a review page")
    return page(play, opening)


def animation(play: Replay, last: int | None = None) -> bytes:
    """The animated GIF (SPEC §7): one frame per ply, from ply 0 (the start) to `last`
    (default: the last ply), that one held longer."""
    from referee.render.animation import gif
    from referee.render.png import svg_to_png

    last = play.plies if last is None else last
    _bounded(play, last, "an animation")
    return gif([svg_to_png(svg_diagram(play, ply)) for ply in range(last + 1)])


def blank_board(game_name: str, option_pairs: list[str] | None, paper: str,
                output: str | None = None, force: bool = False, fmt: str | None = None) -> str | bytes:
    """`referee board`: the empty board of a game as a printable sheet, for `output`: an SVG
    in millimetres, or a PDF page of exactly the paper's size (SPEC §8)."""
    from referee.render.diagram import paper_board

    fmt = output_format(output, fmt, BOARD_FORMATS)
    game = game_named(game_name)
    options = game_options(game, option_pairs)
    check_output(output, force)
    files = data_files(game, options)
    try:
        setup = {name: game.setup_from_file(name, content) for name, content in files.items()}
        sheet = paper_board(game, options, setup, paper)
    except ValueError as exc:  # a board file without the scheme asked for
        raise UsageError(f"{options.get('board', game.name)}: {exc}") from None
    if fmt == "pdf":
        from referee.render.pdf import svg_sheet_to_pdf

        return svg_sheet_to_pdf(sheet)
    return sheet


# -- correspondence by mail ------------------------------------------------------------------


def mail(path: str, to: str | None, output: str | None = None, force: bool = False,
         attach: list[str] | None = None):
    """`referee mail`: the message to send, as an EmailMessage (the record read once).
    `attach` names extra attachments: "html", the review page of the whole game."""
    output_format(output, None, ("eml",))
    for extra in attach or []:
        if extra not in ATTACHMENTS:
            raise UsageError(f"--attach takes {', '.join(ATTACHMENTS)}, not {extra!r}")
    check_output(output, force)
    data = read_input(path, "record")
    play = replay(parse_record(data, path))
    name = Path(path).name
    body = text_diagram(play) + (
        "\nThe record is attached. To answer:\n"
        f"  referee receive THIS-MESSAGE.eml --mine {name}\n"
        f"  referee move {name} \"<your move>\"\n"
        f"  referee mail {name} -o reply.eml\n"
    )
    page = review_page(play) if "html" in (attach or []) else None
    if page is not None:
        body += "The review page of the whole game is attached: open it in a web browser.\n"
    return _message(play, data, name, body, to, html=page)


def remind(path: str, to: str | None = None, output: str | None = None, force: bool = False):
    """`referee remind`: a reminder to the seat to move of a game with a clock, with its time
    left and deadline (SPEC §6)."""
    output_format(output, None, ("eml",))
    check_output(output, force)
    data = read_input(path, "record")
    play = replay(parse_record(data, path))
    seat, clock = play.to_move(), play.clock
    if clock is None:
        raise UsageError(f"{path}: the game has no clock: there is no time to remind of")
    if seat is None:
        raise UsageError(f"{path}: the game is over ({play.result_sentence()}): nobody is to move")
    moment = now()
    left = clock.left(seat, moment, True)
    name = Path(path).name
    when = stamp(clock.deadline(seat))
    if left > 0:
        news = f"Seat {seat}, it is your move in {play.game.name}: {words(left)} left, until {when}."
    else:
        news = (f"Seat {seat}, it is your move in {play.game.name}, and your time ran out at {when}: "
                "your opponent may claim the game (claim time).")
    body = (news + "\n\n" + text_diagram(play) + "\nTo answer:\n"
            f"  referee move {name} \"<your move>\"\n  referee mail {name} -o reply.eml\n")
    title = f"Reminder: {play.game.name}, your move ({short_words(left)} left, until {when})" if left > 0 \
        else f"Reminder: {play.game.name}, your move (out of time since {when})"
    return _message(play, data, name, body, to, title=title, seats=[seat])


def _message(play: Replay, data: bytes, name: str, body: str, to: str | None, **extra: Any):
    from referee.mail import build_message
    from referee.render.png import svg_to_png

    picture = svg_diagram(play)
    return build_message(play, record_name=name, record_data=data, body=body, svg=picture,
                         png=svg_to_png(picture), to=to, now=now(), **extra)


class Received(NamedTuple):
    play: Replay
    saved_to: str | None  # None when nothing was saved: my copy is ahead
    first: bool  # the first mail of a game: no copy of ours to compare yet
    mine: int | None = None  # the plies of my copy, when it was compared
    warnings: list[str] = []  # stamps that do not fit when the mail was sent


def receive(message_file: str, output: str | None, mine: str | None, force: bool,
            seat: str | None = None, accept_start: bool = False) -> Received:
    """`referee receive`: take the record out of a message, check it, and, with `mine`, check
    that it extends my copy and that nobody moved for me (SPEC §9: my seat from `seat`, else
    from the mail's To; a clock that ran before the game reached me only with `accept_start`);
    then save it, under the lock of the file written. An older mail, whose record my copy
    already extends, changes nothing."""
    from referee.mail import record_from_message

    target = output or mine
    if target is None:
        raise UsageError("say where to save the record: -o FILE, or --mine MY_COPY")
    if mine is None and (seat is not None or accept_start):
        raise UsageError("--as and --accept-start say whose copy --mine is: give --mine MY_COPY too")
    if output and output != mine:
        check_output(output, force)
    attached = record_from_message(read_input(message_file, "message"), message_file)
    name = attached.name
    label = message_file if name == Path(message_file).name else f"{message_file} ({name})"
    theirs = replay(parse_record(attached.record, label))
    check_signatures(theirs)
    if mine is None:
        with locked(target):  # written as one with any move on it: no move made meanwhile is lost
            write_atomic(target, attached.record)
        return Received(theirs, target, False, warnings=_odd_stamps(theirs, 0, attached.sent))
    with locked(target):
        first = not Path(mine).exists()
        my_copy = None if first else load(mine)
        if my_copy is not None:
            if theirs.plies < my_copy.plies and seal.divergence(theirs, my_copy) is None:
                return Received(theirs, None, False, my_copy.plies)  # an older mail: nothing new
            problem = seal.divergence(my_copy, theirs)
            if problem:
                raise RefereeError(f"{message_file} does not extend {mine}: {problem}")
        me = _receiver(theirs, seat, attached.to)
        if me is not None:
            _check_not_moved_for(theirs, my_copy, me, attached.sent, accept_start, message_file)
        write_atomic(target, attached.record)
    known = my_copy.plies if my_copy is not None else 0
    return Received(theirs, target, first, warnings=_odd_stamps(theirs, known, attached.sent))


def _receiver(play: Replay, seat: str | None, to: list[str]) -> int | None:
    """The receiver's seat (SPEC §9): from --as, else from the mail's To when it names the
    address of exactly one seat; never guessed from the record. None in games where nobody
    can move for another (one seat, or partners)."""
    if len(play.seats) != 2 or play.game.cooperative:
        return None
    if seat is not None:
        return seat_named(play, seat)
    found = seats_at(play.record.players, to)
    if len(found) == 1:
        return found[0]
    why = "the mail's To is the address of no seat, or of both" if to else "a file, or a mail without To"
    raise UsageError(f"say which seat is yours: --as SEAT (a seat number, or your name or address "
                     f"as in [players]); the record does not tell ({why})")


def _check_not_moved_for(theirs: Replay, mine: Replay | None, me: int, sent: dt.datetime | None,
                         accept_start: bool, message_file: str) -> None:
    """Refuse what was done in my seat's name (SPEC §9): a new ply of mine that I did not make,
    and, while I had no move of my own yet, a clock that started long before the game reached
    me (unless I accept it) or a time claim against me."""
    problem = seal.moved_for(mine, theirs, me)
    if problem:
        raise RecordError(problem, file=message_file)
    exempt = set(seal.written_for(theirs.record, theirs.entries, theirs.movers, theirs.forced_passes()))
    if any(seat == me and ply not in exempt for ply, seat in enumerate(theirs.movers, 1)):
        return  # I have moved in this game: its clock is one I have played under
    clock = theirs.record.clock
    if clock is None:
        return
    if theirs.ended is not None and str(theirs.played[theirs.ended[0] - 1]) == CLAIM:
        ply = theirs.ended[0]
        raise RecordError(f"ply {ply} (claim time) claims a win on time against seat {me}, your seat, "
                          "which had not moved yet: the game never reached you in time to play",
                          file=message_file)
    reached = sent or now()
    if not accept_start and (reached - clock["start"]).total_seconds() > START_SLACK:
        raise RecordError(
            f"the clock started {stamp(clock['start'])}, more than a day before this game reached you "
            f"({stamp(reached)}): it would charge you time you never had; receive it with "
            "--accept-start if you agreed to that start", file=message_file)


def _odd_stamps(play: Replay, known: int, sent: dt.datetime | None) -> list[str]:
    """Warnings for the plies after `known` stamped in the future, or more than a day before
    the message's Date header: a clock cannot be cheated by backdating a move unnoticed."""
    moment, warnings = now(), []
    for ply, entry in enumerate(play.record.moves[known:], known + 1):
        if entry.at is None or entry.at.tzinfo is None:
            continue
        # Differences, not sums: a Date of year 1 or 9999 must not overflow (SPEC §9).
        if (entry.at - moment).total_seconds() > 300:
            warnings.append(f"ply {ply} ({play.entries[ply - 1]}) is stamped {stamp(entry.at)}, in the future")
        elif sent is not None and (sent - entry.at).total_seconds() > 86_400:
            warnings.append(f"ply {ply} ({play.entries[ply - 1]}) is stamped {stamp(entry.at)}, more than a "
                            f"day before the mail was sent ({stamp(sent)}): a backdated move?")
    return warnings


def verify(path: str, against: str | None) -> list[str]:
    """`referee verify`: what the seal and the signatures say, line by line; raises at the
    first ply where digests, signatures or the two copies disagree."""
    play = load(path)  # a bad digest is found here, at its ply
    record = play.record
    loose = seal.unsealed(record)
    lines = [f"{path}: {play.plies} plies, " + (
        "all sealed" if not loose else f"{len(loose)} unsealed (no digest): plies {_ranges(loose)}"
    )]
    if any(e.signature for e in record.moves):
        check_signatures(play)
        bare = seal.unsigned(record)
        lines.append("signatures: all valid" + (f"; unsigned plies {_ranges(bare)}" if bare else ""))
    else:
        lines.append("signatures: none")
    if against is not None:
        problem = seal.divergence(load(against), play)
        if problem:
            raise RefereeError(f"{path} does not extend {against}: {problem}")
        lines.append(f"{against}: agrees with {path} up to its last ply")
    return lines


def check_signatures(play: Replay) -> None:
    """Raise the first bad signature of a record, if it has signed plies."""
    if not any(e.signature for e in play.record.moves):
        return
    problems = signing(f"{play.record.path}: has signed plies; ").signature_problems(
        play.record, play.digests, play.movers)
    if problems:
        raise problems[0]


def _signature_note(play: Replay) -> str:
    """Check a record's signatures where the signing library is installed; say so where not."""
    try:
        check_signatures(play)
    except UsageError:
        return " (signatures not checked: pip install 'referee[sign]')"
    return ""


def _ranges(plies: list[int]) -> str:
    spans, first = [], None
    for i, ply in enumerate(plies):
        if first is None:
            first = ply
        if i + 1 == len(plies) or plies[i + 1] != ply + 1:
            spans.append(str(first) if first == ply else f"{first}–{ply}")
            first = None
    return ", ".join(spans)


# -- keys ------------------------------------------------------------------------------------


def signing(context: str = ""):
    """The signing module (the `sign` extra), or a clear refusal where it is not installed."""
    try:
        from referee import signing as module
    except ImportError:
        raise UsageError(
            f"{context}signed moves need the cryptography package: pip install 'referee[sign]'"
        ) from None
    return module


def private_key(path: str):
    """The private key in a file made by `referee key new`, ready to sign."""
    module = signing()
    try:
        return module.load_signer(read_input(path, "key file"))
    except ValueError as exc:
        raise UsageError(f"{path}: {exc}") from None


def new_key(output: str, force: bool) -> str:
    """`referee key new`: write a new private key to `output`; returns the public key."""
    check_output(output, force)
    pem, public = signing().new_key_pair()
    write_atomic(output, pem, force=True, mode=0o600)  # private from its first byte
    return public
