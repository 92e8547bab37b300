"""Club standings (SPEC §7, §8b): who played whom, the results, points, Sonneborn-Berger and
Elo ratings, worked out from records already judged. Players are ranked by points, then
Sonneborn-Berger, then wins, then name; the Elo rating is shown, never a tie-break.

Pure computation: the records arrive as `Judged` summaries (club/standings.py reads and replays the
files), and what comes back is plain data for the JSON, the text crosstable and the HTML page.
No file, no clock, no printing here.

A player is known by the mail address in a `[players]` name ("Ann <ann@example.org>"),
compared case-insensitively; a name without an address is known by the name itself, compared
case-insensitively with its spaces normalised. Each player is shown under the spelling the
records use most (ties: the spelling seen first).

Ratings are plain Elo (start 1500, K = 32), updated game by game in the order the games
finished: by the time stamp of the last stamped ply, then by file name; games without any time
stamp come after the stamped ones, by file name. Why by hand and not a library: README, Club play.
"""

from __future__ import annotations

from collections import Counter
from typing import Any, Iterable, Iterator, Mapping, NamedTuple

from referee.record.players import Identity, identity

START_RATING = 1500.0
K_FACTOR = 32.0


DIGEST_BYTES = 16  # of each seal digest in `Judged.chain`: 128 bits, no collision to be made


class Judged(NamedTuple):
    """One record as the standings need it: what club.judge learnt from reading and replaying
    it. `error` is set (and the rest left empty) when the record is invalid; `names` holds the
    `[players]` name of every seat in order (None for a seat without one); `ended` is the POSIX
    time of the last stamped ply; `content` the SHA-256 of the file's bytes; `chain` (records
    with an `id`) the seal digest of the header and of every ply, DIGEST_BYTES each, so that
    digest k is equal in two copies exactly when their header and first k plies are; `same_file`
    the file met before that this one is a link to (then it was not judged again). Small and
    picklable: it comes back from worker processes."""

    file: str
    error: str | None = None
    exit_code: int = 0
    game: str = ""
    game_name: str = ""
    cooperative: bool = False
    names: tuple[str | None, ...] = ()
    over: bool = False
    winners: tuple[int, ...] = ()
    ended: float | None = None
    plies: int = 0
    id: str | None = None
    content: str | None = None
    chain: bytes = b""
    same_file: str | None = None


# -- who is who ------------------------------------------------------------------------------


def seat_label(players: Mapping[int, Mapping[str, Any]], seat: int) -> str | None:
    """The name a seat counts under: its player's `[players]` name, or for a seat the engine
    plays, the engine's ("referee 0.1.0 (engine)"), never the name written beside it (SPEC §14:
    a bot seat's games are not a person's). None for a seat without a name."""
    player = players.get(seat)
    if player is None:
        return None
    if "bot" in player:
        return f"{player['bot']['engine']} (engine)"
    return player.get("name")

# -- results ---------------------------------------------------------------------------------


class Seated(NamedTuple):
    """A seat's player: the name as this record spells it, and who that is."""

    name: str
    person: Identity


class Cell(NamedTuple):
    """One game between two players, from one side: its score (1, ½, 0; None while it goes on)
    and the record it comes from."""

    score: float | None
    file: str


class Row(NamedTuple):
    number: int  # the player's place, and their column in the crosstable
    key: str
    player: str  # the spelling shown
    short: str
    address: str | None
    played: int  # finished games
    wins: int
    losses: int
    draws: int
    unfinished: int
    points: float
    sonneborn_berger: float
    rating: float


class Table(NamedTuple):
    """The standings of one competitive game: rows by place, and every game between two
    players (`cells[(a, b)]`, from a's side, in the order the games finished; those still
    going on last)."""

    game: str
    name: str
    rows: list[Row]
    cells: dict[tuple[str, str], list[Cell]]
    finished: int
    unfinished: int


class CoopRow(NamedTuple):
    key: str
    player: str
    short: str
    address: str | None
    played: int
    wins: int
    losses: int
    unfinished: int
    solo: tuple[int, int, int]  # played, wins, losses of games alone
    coop: tuple[int, int, int]  # … and of games with others


class CoopTable(NamedTuple):
    """A solo or cooperative game: no opponents, only wins and losses against the game."""

    game: str
    name: str
    rows: list[CoopRow]


class Standings(NamedTuple):
    games: dict[str, Table]
    cooperative: dict[str, CoopTable]
    invalid: list[tuple[str, str]]  # (file, error)
    skipped: list[tuple[str, str]]  # (file, why it counts nowhere)
    records: int
    worst_exit: int  # the highest exit code among the invalid records, 0 when none


def expected_score(rating: float, opponent: float) -> float:
    """Elo's expected score of a player rated `rating` against `opponent`."""
    return 1.0 / (1.0 + 10.0 ** ((opponent - rating) / 400.0))


def elo_change(rating: float, opponent: float, score: float, k: float = K_FACTOR) -> float:
    """What one game that scored `score` (1, ½, 0) against `opponent` adds to `rating`."""
    return k * (score - expected_score(rating, opponent))


def pair_score(seat: int, other: int, winners: tuple[int, ...]) -> float:
    """Seat's score against another seat of a finished game: 1 when it won and the other did
    not, 0 the other way round, ½ for a draw (no winner, or both)."""
    won, lost = seat in winners, other in winners
    return 1.0 if won and not lost else 0.0 if lost and not won else 0.5


def standings(judged: Iterable[Judged]) -> Standings:
    """The standings of every game among the records, in the order given (file order)."""
    judged = list(judged)
    invalid = [(j.file, j.error) for j in judged if j.error is not None]
    worst = max((j.exit_code for j in judged if j.error is not None), default=0)
    valid, skipped, conflicting = _one_copy_each([j for j in judged if j.error is None])
    if conflicting:
        invalid += conflicting
        worst = max(worst, 1)
    competitive: dict[str, list[tuple[Judged, list[Seated]]]] = {}
    cooperative: dict[str, list[tuple[Judged, list[Seated]]]] = {}
    for record in valid:
        people = [Seated(name, person) for name in record.names
                  if name is not None and (person := identity(name)) is not None]
        if record.cooperative:
            if not people:
                skipped.append((record.file, "no player named in [players]"))
            else:
                cooperative.setdefault(record.game, []).append((record, people))
        elif len(people) < len(record.names):
            skipped.append((record.file, "a seat has no name in [players]"))
        elif len({p.person.key for p in people}) < len(people):
            skipped.append((record.file, "one player holds more than one seat"))
        else:
            competitive.setdefault(record.game, []).append((record, people))
    order = {j.file: i for i, j in enumerate(judged)}
    skipped.sort(key=lambda item: order[item[0]])
    invalid.sort(key=lambda item: order[item[0]])
    return Standings(
        games={game: _table(records) for game, records in sorted(competitive.items())},
        cooperative={game: _coop_table(records) for game, records in sorted(cooperative.items())},
        invalid=invalid,
        skipped=skipped,
        records=len(judged),
        worst_exit=worst,
    )


# -- copies of one game ----------------------------------------------------------------------


def _one_copy_each(valid: list[Judged]) -> tuple[list[Judged], list[tuple[str, str]], list[tuple[str, str]]]:
    """Each game counted once, and only the real one (SPEC §9): the records to count, those
    not counted (file, why) and the copies in conflict (file, error).

    A link to a file met before, or a file of the same bytes as one met before, is that file
    again. Records with the same `id` are copies of one game — both players' copies often sit
    in one archive — and count once, from the longest, when each is the start of it. Copies
    that disagree (a ply, or the header: game, options, setup, keys) are each listed as
    conflicting and none of that game counts: which one is real, the records cannot say."""
    kept: list[Judged] = []
    skipped: list[tuple[str, str]] = []
    by_content: dict[str, str] = {}
    copies: dict[str, list[Judged]] = {}
    for record in valid:
        if record.same_file is not None:
            skipped.append((record.file, f"the same file as {record.same_file} (a link)"))
        elif record.content is not None and record.content in by_content:
            skipped.append((record.file, f"the same bytes as {by_content[record.content]}"))
        else:
            if record.content is not None:
                by_content[record.content] = record.file
            kept.append(record)
            if record.id is not None and record.chain:
                copies.setdefault(record.id, []).append(record)
    conflicting: list[tuple[str, str]] = []
    dropped: set[str] = set()
    for game_id, group in copies.items():
        if len(group) > 1:
            for file, reason, conflict in _copies(game_id, group):
                dropped.add(file)
                (conflicting if conflict else skipped).append((file, reason))
    return [r for r in kept if r.file not in dropped], skipped, conflicting


def _copies(game_id: str, group: list[Judged]) -> list[tuple[str, str, bool]]:
    """The copies of one game (file order) that do not count: (file, why, in conflict?).

    Copy X of n plies is the start of copy Y exactly when Y's digest n is X's last (digests
    are chained and hold the ply's number), so a set of every digest of the group answers
    "is X the start of another copy?" at once. The copies that are the start of no other are
    the game's ends; one end: it counts, the rest are its starts. Several: the copies that
    are the start of every end agree with all (skipped); every other copy is in conflict with
    an end, named with the first ply at which the two differ."""
    first_of: dict[bytes, Judged] = {}  # a copy per distinct last digest: the first in file order
    for record in group:
        first_of.setdefault(_last(record), record)
    holding: Counter[bytes] = Counter()  # digest → how many distinct copies contain it
    for record in first_of.values():
        holding.update(_digests(record))
    ends = [record for digest, record in first_of.items() if holding[digest] == 1]
    if len(ends) == 1:
        kept = ends[0]
        return [(r.file, f"another copy of the game in {kept.file}", False) for r in group if r is not kept]
    in_ends: Counter[bytes] = Counter()
    for end in ends:
        in_ends.update(_digests(end))
    # Every copy is measured against the first end: the end that parts from it soonest is
    # the one a copy following the first end past that point disagrees with.
    first = ends[0]
    parting = [(_first_difference(first, end), end) for end in ends[1:]]
    soonest, soonest_end = min(parting, key=lambda item: item[0])
    dropped = []
    for record in group:
        last = _last(record)
        if in_ends[last] == len(ends):
            dropped.append((record.file, f"an earlier copy of game {game_id}, whose later copies "
                                         f"conflict", False))
            continue
        if _digest(first, _length(record)) == last:  # the start of the first end, not of all
            other, ply = soonest_end, soonest
        else:
            other, ply = first, _first_difference(first, record)
        where = f"at ply {ply}" if ply > 0 else "in its header (game, options, setup or keys)"
        dropped.append((record.file, f"{record.file}: conflicting copies of game {game_id}: "
                                     f"{other.file} differs {where}", True))
    return dropped


def _length(record: Judged) -> int:
    return len(record.chain) // DIGEST_BYTES - 1  # plies: the header's digest comes first


def _digest(record: Judged, ply: int) -> bytes | None:
    """The digest of the header and the first `ply` plies; None beyond the copy's end."""
    if ply > _length(record):
        return None
    return record.chain[ply * DIGEST_BYTES:(ply + 1) * DIGEST_BYTES]


def _last(record: Judged) -> bytes:
    return record.chain[-DIGEST_BYTES:]


def _digests(record: Judged) -> Iterator[bytes]:
    chain = record.chain
    return (chain[at:at + DIGEST_BYTES] for at in range(0, len(chain), DIGEST_BYTES))


def _first_difference(a: Judged, b: Judged) -> int:
    """The first ply (0: the header) at which two copies differ, found by halving: once two
    chains part they never meet again. One past the shorter copy when it is the other's start."""
    low, high = 0, min(_length(a), _length(b)) + 1  # equal below `low`, different from `high` on
    while low < high:
        middle = (low + high) // 2
        if _digest(a, middle) == _digest(b, middle):
            low = middle + 1
        else:
            high = middle
    return low


class _Player:
    """What the standings learn of one player, game by game."""

    def __init__(self, person: Identity):
        self.key, self.address = person.key, person.address
        self.spellings: Counter[str] = Counter()
        self.shorts: dict[str, str] = {}
        self.wins = self.losses = self.draws = self.unfinished = 0
        self.rating = START_RATING

    def seen_as(self, spelling: str, person: Identity) -> None:
        self.spellings[spelling] += 1  # a Counter keeps first-seen order among equal counts
        self.shorts.setdefault(spelling, person.short)

    @property
    def spelling(self) -> str:
        return self.spellings.most_common(1)[0][0]

    @property
    def points(self) -> float:
        return self.wins + self.draws / 2


def _finish_order(record: Judged) -> tuple[bool, float, str]:
    return (record.ended is None, record.ended or 0.0, record.file)


def _players_of(records: list[tuple[Judged, list[Seated]]]) -> dict[str, _Player]:
    """Every player of these records, with every spelling, in the order first seen; a player
    holding several seats of one game (cooperative games allow it) is seen once there."""
    players: dict[str, _Player] = {}
    for _, people in records:
        once: dict[str, Seated] = {}
        for seated in people:
            once.setdefault(seated.person.key, seated)
        for key, seated in once.items():
            players.setdefault(key, _Player(seated.person)).seen_as(seated.name, seated.person)
    return players


def _table(records: list[tuple[Judged, list[Seated]]]) -> Table:
    players = _players_of(records)
    finished = sorted((r for r in records if r[0].over), key=lambda r: _finish_order(r[0]))
    going_on = [r for r in records if not r[0].over]
    cells: dict[tuple[str, str], list[Cell]] = {}
    scores: list[tuple[str, str, float]] = []  # (player, opponent, score) of every finished pairing
    for record, people in finished:
        seats = [(seat, p.person.key) for seat, p in enumerate(people, 1)]
        no_winner = not record.winners or set(record.winners) >= {seat for seat, _ in seats}
        for seat, key in seats:
            player = players[key]
            if no_winner:
                player.draws += 1
            elif seat in record.winners:
                player.wins += 1
            else:
                player.losses += 1
        # Elo: every two seats played each other; all ratings move from those before the game.
        before = {key: players[key].rating for _, key in seats}
        for seat, key in seats:
            for other, opponent in seats:
                if other != seat:
                    score = pair_score(seat, other, record.winners)
                    scores.append((key, opponent, score))
                    cells.setdefault((key, opponent), []).append(Cell(score, record.file))
                    players[key].rating += elo_change(before[key], before[opponent], score)
    for record, people in going_on:
        for seated in people:
            players[seated.person.key].unfinished += 1
            for other in people:
                if other.person.key != seated.person.key:
                    cells.setdefault((seated.person.key, other.person.key), []).append(Cell(None, record.file))
    berger = dict.fromkeys(players, 0.0)
    for key, opponent, score in scores:
        berger[key] += score * players[opponent].points
    # SPEC §8b: points, then Sonneborn-Berger, then wins, then the name; the rating is shown,
    # never a tie-break (it depends on the order the games finished in).
    ranked = sorted(players.values(), key=lambda p: (-p.points, -berger[p.key], -p.wins,
                                                     p.shorts[p.spelling].casefold(), p.spelling.casefold(), p.key))
    rows = [
        Row(number, p.key, p.spelling, p.shorts[p.spelling], p.address, p.wins + p.losses + p.draws,
            p.wins, p.losses, p.draws, p.unfinished, p.points, berger[p.key], p.rating)
        for number, p in enumerate(ranked, 1)
    ]
    first = records[0][0]
    return Table(first.game, first.game_name, rows, cells, len(finished), len(going_on))


def _coop_table(records: list[tuple[Judged, list[Seated]]]) -> CoopTable:
    players = _players_of(records)
    tally = {key: {"solo": [0, 0, 0], "coop": [0, 0, 0]} for key in players}  # played, wins, losses
    for record, people in records:
        for key in {p.person.key for p in people}:
            player = players[key]
            if not record.over:
                player.unfinished += 1
                continue
            counts = tally[key]["solo" if len(record.names) == 1 else "coop"]
            won = bool(record.winners)
            player.wins += won
            player.losses += not won
            counts[0] += 1
            counts[1 if won else 2] += 1
    ranked = sorted(players.values(), key=lambda p: (-p.wins, p.losses, p.spelling.casefold(), p.key))
    rows = [
        CoopRow(p.key, p.spelling, p.shorts[p.spelling], p.address, p.wins + p.losses, p.wins, p.losses, p.unfinished,
                tuple(tally[p.key]["solo"]), tuple(tally[p.key]["coop"]))
        for p in ranked
    ]
    first = records[0][0]
    return CoopTable(first.game, first.game_name, rows)


# -- JSON (SPEC §7) --------------------------------------------------------------------------


def to_json(result: Standings) -> dict:
    """`standings --json`: SPEC §7's keys, and a few more (the place, Sonneborn-Berger, the
    cooperative games, the records counted nowhere)."""
    return {
        "games": {
            game: {
                "name": table.name,
                "finished": table.finished,
                "unfinished": table.unfinished,
                "players": [
                    {
                        "player": row.player, "address": row.address, "played": row.played,
                        "wins": row.wins, "losses": row.losses, "draws": row.draws,
                        "unfinished": row.unfinished, "points": row.points,
                        "rating": round(row.rating, 1), "place": row.number,
                        "sonneborn_berger": row.sonneborn_berger,
                    }
                    for row in table.rows
                ],
            }
            for game, table in result.games.items()
        },
        "cooperative": {
            game: {
                "name": table.name,
                "players": [
                    {
                        "player": row.player, "address": row.address, "played": row.played,
                        "wins": row.wins, "losses": row.losses, "unfinished": row.unfinished,
                        "solo": dict(zip(("played", "wins", "losses"), row.solo)),
                        "coop": dict(zip(("played", "wins", "losses"), row.coop)),
                    }
                    for row in table.rows
                ],
            }
            for game, table in result.cooperative.items()
        },
        "invalid": [{"file": file, "error": error} for file, error in result.invalid],
        "skipped": [{"file": file, "reason": reason} for file, reason in result.skipped],
        "records": result.records,
    }
