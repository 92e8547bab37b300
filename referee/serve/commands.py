"""The commands of a mail to the robot (SPEC §15), read from its text: one a line, keywords in
any case, every other line ignored. Pure: text in, values out.

    new GAME [-O key=value…] vs ADDRESS [clock CONTROL [leave DAYS]] [bot [SECONDS]]
    [GAMEID] move MOVE            [GAMEID] if X then Y        [GAMEID] line M1 M2 …
    [GAMEID] resign | offer draw | accept draw | claim time | leave FROM..TO | status
    [GAMEID] token TOKEN          [GAMEID] signature ed25519:… at TIME
    key ed25519:…                 help

GAMEID is the game's id, its first 8 hex digits or all 32; a line without one is for the game
whose [GAMEID] the subject carries. Reading stops where a reply's quotation of the robot's own
mail begins — a quoted line ("> …"), a signature's "-- ", "On … wrote:" — so that what the robot
wrote is never read back as a player's command.
"""

from __future__ import annotations

import re
from typing import NamedTuple

MAX_COMMANDS = 20  # SPEC §15: a mail of more is refused once, unread
MAX_LINE = 2_000  # characters of a line looked at: a command is far shorter
GAME_ID = re.compile(r"[0-9a-f]{8}(?:[0-9a-f]{24})?")
SUBJECT_ID = re.compile(r"\[([0-9a-fA-F]{32}|[0-9a-fA-F]{8})\]")

# Where the quotation of an earlier mail begins, in the forms mail programs write it.
_QUOTED = re.compile(r"^(--|-- |_{10,}|-{3,}\s*original message\s*-{3,}|on .{0,300} wrote:|"
                     r"le .{0,300} a écrit\s?:|am .{0,300} schrieb .{0,300}:)$", re.IGNORECASE)

# The verbs a line may start with (after its GAMEID), and the words they take.
ENDINGS = {"resign": "resign", "accept draw": "accept draw", "claim time": "claim time"}
GAME_VERBS = ("move", "if", "line", "resign", "offer", "accept", "claim", "leave", "status",
              "token", "signature")


class Command(NamedTuple):
    verb: str  # new, move, if, line, resign, offer, accept, claim, leave, status, token,
    #            signature, key, help, unknown
    game: str | None  # the id the line gives (lower case), else None
    args: tuple  # what the verb takes, as text (see `read_line`)
    text: str  # the line as written, for messages


class Mail(NamedTuple):
    commands: list[Command]
    subject_game: str | None  # the [GAMEID] of the subject, lower case

    def for_game(self, command: Command) -> str | None:
        return command.game or self.subject_game


def subject_game(subject: str) -> str | None:
    found = SUBJECT_ID.search(subject or "")
    return found.group(1).lower() if found else None


def read_commands(body: str, subject: str = "") -> Mail:
    """Every command line of `body`, in order (at most MAX_COMMANDS + 1: one more is enough
    to refuse the mail)."""
    commands: list[Command] = []
    for raw in body.splitlines():
        line = " ".join(raw[:MAX_LINE].split())
        if raw.startswith(">") or line.startswith(">"):
            continue
        if _QUOTED.match(line) or raw.rstrip("\r\n") == "-- ":
            break
        command = read_line(line)
        if command is not None:
            commands.append(command)
            if len(commands) > MAX_COMMANDS:
                break
    return Mail(commands, subject_game(subject))


def read_line(line: str) -> Command | None:
    """One line as a command, or None when it is none (the line is ignored)."""
    words = line.split(" ")
    if not line:
        return None
    game = None
    if GAME_ID.fullmatch(words[0].lower()) and len(words) > 1:
        game, words = words[0].lower(), words[1:]
    verb = words[0].lower()
    rest = " ".join(words[1:])
    if game is None and verb == "new":
        return _new(line, words[1:])
    if game is None and verb == "help" and len(words) == 1:
        return Command("help", None, (), line)
    if game is None and verb == "key" and len(words) == 2:
        return Command("key", None, (words[1],), line)
    lowered = " ".join(w.lower() for w in words)
    if lowered in ENDINGS:
        return Command(ENDINGS[lowered], game, (), line)
    if lowered == "offer draw":
        return Command("offer", game, (), line)
    if lowered == "status":
        return Command("status", game, (), line)
    if verb == "move" and rest:
        return Command("move", game, (rest,), line)
    if verb == "if" and rest:
        found = re.fullmatch(r"(.+?)\s+then\s+(.+)", rest, re.IGNORECASE)
        if found:
            return Command("if", game, (found.group(1), found.group(2)), line)
        return Command("unknown", game, ("if X then Y",), line)
    if verb == "line" and rest:
        return Command("line", game, tuple(words[1:]), line)
    if verb == "leave" and rest:
        return Command("leave", game, (rest,), line)
    if verb == "token" and len(words) == 2:
        return Command("token", game, (words[1].lower(),), line)
    if verb == "signature" and len(words) in (2, 4) and (len(words) == 2 or words[2].lower() == "at"):
        return Command("signature", game, (words[1], words[3] if len(words) == 4 else None), line)
    if game is not None:
        # A line that names a game is meant as a command: say that it is not one.
        return Command("unknown", game, (), line)
    return None


def _new(line: str, words: list[str]) -> Command:
    """`new GAME [-O key=value…] vs ADDRESS [clock CONTROL [leave DAYS]] [bot [SECONDS]]`: args
    are (game, options {key: value}, address or None, clock or None, leave or None, bot
    seconds or None, a problem or None)."""
    game, options = (words[0].lower() if words else ""), {}
    address = clock = leave = bot = problem = None
    index = 1
    while index < len(words) and problem is None:
        word, low = words[index], words[index].lower()
        nxt = words[index + 1] if index + 1 < len(words) else None
        if low.startswith("-o") and (len(word) > 2 or nxt is not None):
            pair = word[2:] if len(word) > 2 else nxt
            index += 1 if len(word) > 2 else 2
            pairs = [pair]
            while index < len(words) and "=" in words[index] and not words[index].lower().startswith("-o"):
                pairs.append(words[index])
                index += 1
            for item in pairs:
                key, sep, value = item.partition("=")
                if not sep or not key:
                    problem = f"-O takes key=value, e.g. -O size=5, not {item!r}"
                options[key.lower()] = value
            continue
        if low == "vs" and nxt is not None and nxt.lower() not in ("bot", "engine"):
            address, index = nxt, index + 2
        elif low == "vs" and nxt is not None:
            index += 1  # `vs bot`: the engine, read as `bot` next
        elif low == "clock" and nxt is not None:
            clock, index = nxt, index + 2
        elif low == "leave" and nxt is not None:
            leave, index = nxt, index + 2
        elif low in ("bot", "engine"):
            bot, index = "", index + 1
            if nxt is not None and re.fullmatch(r"\d+(\.\d+)?", nxt):
                bot, index = nxt, index + 1
        else:
            problem = f"{word!r} is not part of new GAME [-O key=value…] vs ADDRESS [clock CONTROL] [bot]"
    if not game:
        problem = problem or "new needs a game: new odd vs bo@example.org"
    return Command("new", None, (game, options, address, clock, leave, bot, problem), line)
