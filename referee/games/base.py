"""The one shape every game has (`Game`), and the small value types it speaks in.

A game object is stateless apart from its constants; positions are immutable values it creates
and transforms. The referee calls these hooks, in this order for a ply: `parse` (text → move,
NotationError), then `apply` (move → new position, IllegalMoveError). A search calls the same
hooks, and walks a turn of several actions with `begin_turn` … `end_turn`.
Rules code does no I/O: no files, no printing, no clock.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, ClassVar, Iterator, Mapping, NamedTuple

from referee.errors import IllegalMoveError, NotationError, UsageError

if TYPE_CHECKING:
    import random  # the caller brings its own generator

class Outcome(NamedTuple):
    """The end of a game: who won (empty for a draw or a lost solo game) and why, in words.

    `summary` is the whole result sentence where "Seat N wins: …" or "Draw: …" would not fit,
    e.g. a lost solo game.
    """

    winners: tuple[int, ...]
    reason: str
    summary: str | None = None


MAX_OPTION_CHARS = 200  # an option's value: a word, a number or a file's path


class Option(NamedTuple):
    """One `-O key=value` option: its default and the values it admits."""

    name: str
    default: int | str
    help: str
    minimum: int | None = None
    maximum: int | None = None
    choices: tuple[str, ...] = ()

    def describe(self) -> str:
        if self.choices:
            return f"{self.name} = {self.default!r} ({' / '.join(self.choices)})"
        if self.minimum is None:
            return f"{self.name} = {self.default!r}"
        return f"{self.name} = {self.default} ({self.minimum}–{self.maximum})"

    def from_text(self, text: str) -> int | str:
        """Convert a command-line value; raises ValueError with a message for the user."""
        if isinstance(self.default, int):
            try:
                return int(text.strip())
            except ValueError:
                raise ValueError(f"option {self.name} takes a whole number, not {text!r}") from None
        return text.strip()

    def check(self, value: Any, minimum: int | None = None, maximum: int | None = None) -> int | str:
        """Check a value's type and range; raises ValueError with a message for the user."""
        lo = self.minimum if minimum is None else minimum
        hi = self.maximum if maximum is None else maximum
        if isinstance(self.default, int):
            # bool is an int to Python but never a size to a player.
            if not isinstance(value, int) or isinstance(value, bool):
                raise ValueError(f"option {self.name} takes a whole number, not {value!r}")
            if not lo <= value <= hi:
                raise ValueError(f"option {self.name} must be {lo}–{hi}, not {value}")
            return value
        if not isinstance(value, str):
            raise ValueError(f"option {self.name} takes a word, not {value!r}")
        if self.choices and value.lower() not in self.choices:
            raise ValueError(
                f"option {self.name} must be one of {', '.join(self.choices)}, not {value!r}"
            )
        return value.lower() if self.choices else value


def count(n: int, singular: str, plural: str | None = None) -> str:
    """'1 group', '3 groups': numbers in reasons and status lines read as words do."""
    return f"{n} {singular if n == 1 else plural or singular + 's'}"


class Move:
    """A parsed move: a value, never changed once made. `str(move)` is its canonical notation
    (SPEC §5). Every move type is a frozen dataclass: equal when of one type with equal fields.
    """

    __slots__ = ()

    def __str__(self) -> str:  # pragma: no cover - every move type overrides it
        raise NotImplementedError


@dataclass(frozen=True)
class Pass(Move):
    """The pass of a seat that cannot act (R-G3)."""

    def __str__(self) -> str:
        return "pass"


class CanAct(Mapping[int, bool]):
    """Side (1 or 2: a seat, or a colour) → whether it can act in a position, each side searched
    for only when first asked. In games where a side that cannot act passes (R-G3), that search
    is most of what replaying a ply would cost; but a legal move shows by itself that its side
    can act (`found`), so after most plies no search runs at all."""

    __slots__ = ("_search", "_known")

    def __init__(self, search: Callable[[int], bool]):
        self._search = search
        self._known: dict[int, bool] = {}

    def __getitem__(self, side: int) -> bool:
        if side not in (1, 2):
            raise KeyError(side)
        known = self._known.get(side)
        if known is None:
            known = self._known[side] = self._search(side)
        return known

    def found(self, side: int) -> None:
        """`side` can act here: one of its moves was just found legal."""
        self._known[side] = True

    def __iter__(self) -> Iterator[int]:
        return iter((1, 2))

    def __len__(self) -> int:
        return 2


class TurnSoFar(NamedTuple):
    """A turn being made, action by action: the position it began from, the position after
    the actions chosen so far, those actions, and whatever else the game keeps of the turn
    (`progress`: Hermetica's spent actions, say). A value: acting makes a new one."""

    before: Any
    after: Any
    actions: tuple[Any, ...] = ()
    progress: Any = None


class Game(ABC):
    """A game's rules behind the hooks the referee and a search call. Every game is written in
    the order of the sections below (README, Development: the shape of a game):

    1. metadata and options   class constants; `resolve_options`, `seat_count`
    2. setup                  `setup_from_file`, `new_setup`, `start` (the position before ply 1)
    3. moves                  `parse` (text → move); `str(move)` is the canonical notation
    4. play                   `to_move`, `legal_moves`, `apply`, `outcome`, `returns`,
                              `must_pass`, `mover`; a turn action by action: `begin_turn`,
                              `legal_actions`, `act`, `turn_may_end`, `end_turn`,
                              `move_actions`; for a search, `random_move`, `finish_turn`,
                              `priority`, `playout`, `evaluate`, `action_codes`,
                              `action_code`
    5. words                  `score`, `status_extra`, `status_lines`, `final_status_lines`,
                              `move_listing`
    6. view model             `picture`, `blank_picture`

    Positions are immutable values; a hook never changes the position it is given.
    """

    # -- 1. metadata and options --------------------------------------------------------------

    id: ClassVar[str]
    name: ClassVar[str]
    credit: ClassVar[str]  # designer and year, as the rule text gives them
    seats: ClassVar[tuple[int, int]] = (2, 2)  # fewest and most seats
    # True for a solo or cooperative game, where the seats win or lose together: a
    # resignation there is a loss for every seat, not a win for the others (R-G2).
    cooperative: ClassVar[bool] = False
    options: ClassVar[tuple[Option, ...]] = ()
    setup_keys: ClassVar[tuple[str, ...]] = ()  # the keys a record's [setup] may hold
    # Options that name a data file: a built-in one (shipped in referee/data as
    # "<kind>-<value>.toml") or a path. Option name → kind. The file's content goes into the
    # record's [setup] under the option's name (SPEC §1, §3), through `setup_from_file`.
    data_options: ClassVar[dict[str, str]] = {}
    notation: ClassVar[str]  # one line that teaches the move form

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        """Fill in defaults and check every value; raises ValueError naming the option. The one
        check of a record's [options] and of `-O key=value`."""
        known = {o.name: o for o in self.options}
        for key, value in given.items():
            if key not in known:
                names = ", ".join(known) or "none"
                raise ValueError(f"{self.id} has no option {key!r} (options: {names})")
            # Every diagram's title shows the options: their length is bounded (SPEC §9).
            if isinstance(value, (str, int)) and len(text := str(value)) > MAX_OPTION_CHARS:
                raise ValueError(f"option {key} is {len(text)} characters long: at most {MAX_OPTION_CHARS}")
        return {o.name: o.check(given[o.name]) if o.name in given else o.default for o in self.options}

    def seat_count(self, options: Mapping[str, Any]) -> int:
        """How many seats a game with these options has."""
        return self.seats[1]

    # -- 2. setup -----------------------------------------------------------------------------

    def setup_from_file(self, option: str, content: Mapping[str, Any]) -> Any:
        """What [setup] holds for a data option, given the parsed file; raises ValueError."""
        return dict(content)

    def new_setup(
        self, options: Mapping[str, Any], files: Mapping[str, Mapping[str, Any]], entropy: int
    ) -> dict[str, Any]:
        """The [setup] that `referee new` writes: the data files' content, and whatever the game
        fixes before the first ply (a deal). `entropy` is a random number from outside the rules,
        for games that shuffle; raises ValueError for a bad data file."""
        return {name: self.setup_from_file(name, content) for name, content in files.items()}

    @abstractmethod
    def start(self, options: Mapping[str, Any], setup: Mapping[str, Any]) -> Any:
        """The position before the first ply."""

    # -- 3. moves -----------------------------------------------------------------------------

    @abstractmethod
    def parse(self, state: Any, text: str) -> Move:
        """Read one record entry; raises NotationError. `str()` of the move writes it back in
        canonical notation (SPEC §5)."""

    def parse_part(self, state: Any, text: str) -> dict[int, Any]:
        """Some seats' parts of a cooperative round, by seat ("1: … | 3: …"), where the engine
        makes the others' (SPEC §10); raises NotationError. A game whose turn is one seat's
        has no parts."""
        raise NotationError(f"a turn of {self.name} is one seat's: there are no parts to give")

    # -- 4. play ------------------------------------------------------------------------------

    @abstractmethod
    def to_move(self, state: Any) -> int | None:
        """The seat that can act now, None once the game is over."""

    @abstractmethod
    def legal_moves(self, state: Any) -> list[Move]:
        """Every legal entry for the seat to move, in board order. (A game whose turn is several
        actions lists its turns of one action here: whole turns are too many; `legal_actions`
        walks a turn.)"""

    @abstractmethod
    def apply(self, state: Any, move: Move) -> Any:
        """The position after `move`; raises IllegalMoveError and leaves `state` as it was."""

    @abstractmethod
    def outcome(self, state: Any) -> Outcome | None:
        """How the game ended, or None while it goes on."""

    def returns(self, state: Any) -> tuple[float, ...]:
        """What the finished game is worth to each seat (index seat − 1): 1 to a winner, 0 to a
        loser, ½ to each in a draw. What a search maximises. This is for two seats; a game of
        more seats gives its own."""
        outcome = self.outcome(state)
        if outcome is None:
            raise ValueError("the game is not over")
        if not outcome.winners:
            return (0.5, 0.5)
        return tuple(1.0 if seat in outcome.winners else 0.0 for seat in (1, 2))

    def mover(self, state: Any, move: Move) -> int:
        """The seat that makes `move` in `state` (a pass is made by a seat that cannot act)."""
        return self.to_move(state)

    def must_pass(self, state: Any) -> bool:
        """True when the seat whose turn it is cannot act and must pass (R-G3). Its pass is
        implied by the other seat's move: a search never needs to play it."""
        return False

    # A turn, action by action. In most games a turn is one action, its move, and these
    # defaults say so; Hermetica (up to three actions) and the cooperative crab game (one
    # placement per seat) take a turn apart. `apply` of a whole move and these hooks agree:
    # begin, act once per action, end.

    def begin_turn(self, state: Any) -> TurnSoFar:
        """The turn of the seat to move, before its first action."""
        return TurnSoFar(state, state)

    def legal_actions(self, turn: TurnSoFar) -> list[Any]:
        """Every legal next action of the turn (empty once no action may follow)."""
        return [] if turn.actions else self.legal_moves(turn.before)

    def act(self, turn: TurnSoFar, action: Any) -> TurnSoFar:
        """The turn after one more action; raises IllegalMoveError and leaves `turn` as it was."""
        if turn.actions:
            raise IllegalMoveError("a turn of this game is one move")
        return TurnSoFar(turn.before, self.apply(turn.before, action), (action,))

    def turn_may_end(self, turn: TurnSoFar) -> bool:
        """Whether the turn may end after the actions chosen so far."""
        return bool(turn.actions)

    def end_turn(self, turn: TurnSoFar) -> tuple[Move, Any]:
        """The whole turn as one record entry, and the position after it."""
        return turn.actions[0], turn.after

    def finish_turn(self, turn: TurnSoFar, rng: random.Random) -> Any:
        """The rest of a turn under way played at random, as a playout would play it: the
        position after the turn. This lists the legal next actions at every step; a game with
        a cheaper way to draw one may give it."""
        while actions := self.legal_actions(turn):
            if self.turn_may_end(turn) and rng.random() < 0.1:
                break
            turn = self.act(turn, rng.choice(actions))
        return self.end_turn(turn)[1]

    def priority(self, turn: TurnSoFar, action: Any) -> int:
        """How early a search should try `action` among the next actions of `turn` (higher
        first; the rest in random order): what a game knows of its moves without looking
        ahead, such as a move that wins at once. Knowing nothing: all alike."""
        return 0

    def playout(self, state: Any, rng: random.Random, limit: int = 1000,
                codes: list[int] | None = None) -> tuple[float, ...]:
        """Random legal moves from `state` until the game ends, or for `limit` plies at most:
        then what the game is worth to each seat, by `returns`, or by `evaluate` when cut short.
        What a search asks of a position it has not yet looked into. This plays the hooks
        above move by move; a game may give a faster path to the same distribution of ends.

        `codes`, where given (a game with `action_codes`), hears the code of every action the
        playout made (`action_code`), in any order: what a search's all-moves-as-first
        statistics learn from. Asking for them changes nothing else: the same generator gives
        the same playout and the same returns."""
        for _ in range(limit):
            if self.outcome(state) is not None:
                return self.returns(state)
            move = self.random_move(state, rng)
            if codes is not None:
                actions = self.move_actions(move)
                for i, action in enumerate(actions):
                    codes.append(self.action_code(TurnSoFar(state, state, actions[:i]), action))
            state = self.apply(state, move)
        return self.returns(state) if self.outcome(state) is not None else self.evaluate(state)

    # All moves as first (AMAF; RAVE, GRAVE): a search may value an action by the playouts in
    # which it was made anywhere below a position, not only first. That pays where an action is
    # worth much the same whenever it is made — a stone placed — and a game says so by
    # numbering its actions: `action_codes` of them, 0 … n − 1. Whether a code is one seat's
    # or either seat's is the game's choice (its module says why); two actions with one code
    # are one action to the statistics. Knowing nothing: no codes, and the search keeps none.

    def action_codes(self, state: Any) -> int:
        """How many action codes there are in games of `state`'s options (0: none)."""
        return 0

    def action_code(self, turn: TurnSoFar, action: Any) -> int:
        """The code of `action`, made as the next action of `turn` (which it may read for the
        seat making it: `turn.before` and `turn.actions`)."""
        raise NotImplementedError(f"{self.name} has no action codes")

    def move_actions(self, move: Move) -> tuple[Any, ...]:
        """The actions of a whole move, in the order `act` takes them (a turn of one action:
        the move itself)."""
        return (move,)

    def evaluate(self, state: Any) -> tuple[float, ...]:
        """A guess, without looking ahead, of what an unfinished position is worth to each seat
        (each between 0 and 1), for a playout cut short. Knowing nothing: even."""
        return (0.5, 0.5)

    def random_move(self, state: Any, rng: random.Random) -> Move:
        """A legal move chosen at random, action by action, for property tests and sample
        games: where a turn may end early, it ends after each action with a chance of 1 in 10.
        """
        turn = self.begin_turn(state)
        while actions := self.legal_actions(turn):
            if self.turn_may_end(turn) and rng.random() < 0.1:
                break
            turn = self.act(turn, rng.choice(actions))
        return self.end_turn(turn)[0]

    # -- 5. words -----------------------------------------------------------------------------

    @abstractmethod
    def score(self, state: Any) -> dict[str, Any]:
        """The `score` object of `status --json` (SPEC §4)."""

    def status_extra(self, state: Any) -> dict[str, Any]:
        """Keys that `status --json` gives beside the common ones (e.g. harmijan's colours)."""
        return {}

    @abstractmethod
    def status_lines(self, state: Any) -> list[str]:
        """What a player wants to read under the diagram: counts, parity, reserves."""

    def final_status_lines(self, state: Any) -> list[str]:
        """The status lines once the game is over, by the rules or by a resignation: no line
        may then forecast a winner, for the result says who won."""
        return self.status_lines(state)

    def move_listing(self, state: Any, after: str | None) -> dict[str, Any]:
        """What `moves --json` prints besides `to_move`: the legal entries (SPEC §4).

        Games with several actions a turn list the next actions, after those in `after`.
        """
        if after is not None:
            raise UsageError(f"--after is for games with several actions a turn; {self.name} has one")
        return {"moves": [str(m) for m in self.legal_moves(state)]}

    # -- 6. view model ------------------------------------------------------------------------

    @abstractmethod
    def picture(self, state: Any, last: Move | None) -> Any:
        """The position as plain data for a drawer: a `Picture` for the grid games, the game's
        own view model otherwise; its `style` names the drawer (render/diagram.py)."""

    def blank_picture(self, options: Mapping[str, Any], setup: Mapping[str, Any]) -> Any:
        """The empty board for the printable sheet, or None for a game with no board. `setup`
        holds the game's data files, loaded as `start` gets them."""
        return None
