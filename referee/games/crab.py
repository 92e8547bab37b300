"""Hermit: Small crab, big wave (Amelie Le-Roche 2023): a solo card game, cooperative for 2–4
seats. Each round a card from the hand goes into the play area; recreating the pattern of the
Coast card right of Hermie moves him on, the Wave drifts left, stays or moves right, and Hermie
reaching the Wave wins (R-CR1…R-CR9).

The published card faces are not public (R-CR1): cards come from a deck file, and the shipped
`sample` deck is a stand-in. The deal is fixed before the first round in the record's [setup]
(SPEC §3), so a replay never shuffles.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import dataclass, replace
from typing import Any, Mapping

from referee.errors import IllegalMoveError, NotationError, UsageError
from referee.games.base import Game, Move, Option, Outcome, count

SHELLS = ("red", "orange", "yellow", "blue")
STAR, CAP, POOL, BLANK = "star", "cap", "pool", "."
PATTERN_SYMBOLS = SHELLS + (STAR,)  # R-CR2a: seashells and starfish make patterns
SYMBOLS = PATTERN_SYMBOLS + (CAP, POOL)
DRIFTWOOD = "*"
ROTATIONS = (0, 90, 180, 270)
COAST = 10  # Coast slots 1–10 (R-CR2)
DEAL = 16  # cards in a deck and in a deal (R-CR2)
ROWS, COLUMNS = 2, 3  # a card's footprint at rotation 0 (SPEC §5)
TASKS = ("base", "garbage", "sandcastle", "big-beach", "dunes", "crab-dance", "nature-reserve",
         "crashing-waves")
SANDCASTLE = 6  # R-CR8: every footprint inside one 6×6 square
BIG_BEACH = 2  # R-CR8: never cover more than 2 symbols in one placement
DUNES = 2  # R-CR8: 2+ cards left in pile and hand
CRASHING_WAVES = 4  # R-CR8: 4+ Coast slots right of the Wave
STAND_IN = "a stand-in, not the published cards (R-CR1)"

Point = tuple[int, int]  # (x, y): x grows right, y grows down (SPEC §5)


# -- the deck --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Face:
    """One cell of a card's seashell side: a symbol or BLANK, maybe on driftwood."""

    symbol: str
    drift: bool = False


@dataclass(frozen=True)
class Card:
    id: int
    beach: tuple[str, str, str]  # the pattern on the beach side, left to right
    grid: tuple[tuple[Face, ...], ...]  # ROWS rows of COLUMNS faces at rotation 0, top first

    def faces(self, rotation: int) -> dict[Point, Face]:
        """The faces by offset from the footprint's top-left cell after turning the card
        `rotation` degrees clockwise."""
        out = {}
        for r, row in enumerate(self.grid):
            for c, face in enumerate(row):
                if rotation == 0:
                    dx, dy = c, r
                elif rotation == 90:
                    dx, dy = ROWS - 1 - r, c
                elif rotation == 180:
                    dx, dy = COLUMNS - 1 - c, ROWS - 1 - r
                else:
                    dx, dy = r, COLUMNS - 1 - c
                out[(dx, dy)] = face
        return out

    def canonical_rotation(self, rotation: int) -> int:
        """The smallest rotation giving the same footprint and faces (SPEC §5)."""
        if rotation >= 180 and self.faces(rotation) == self.faces(rotation - 180):
            return rotation - 180
        return rotation


def parse_deck(cards: Any) -> dict[int, Card]:
    """The deck from its [[cards]] tables; raises ValueError naming the card and the fault."""
    if not isinstance(cards, list) or not all(isinstance(c, dict) for c in cards):
        raise ValueError("a deck is a list of [[cards]] tables")
    if len(cards) != DEAL:
        raise ValueError(f"a deck has {DEAL} cards (R-CR2: 10 on the Coast, 6 in the pile), "
                         f"this one has {len(cards)}")
    deck: dict[int, Card] = {}
    for number, table in enumerate(cards, 1):
        card = _card(table, number)
        if card.id in deck:
            raise ValueError(f"card {number}: id {card.id} is used twice")
        deck[card.id] = card
    return deck


def _card(table: Mapping[str, Any], number: int) -> Card:
    where = f"card {number}"
    unknown = [k for k in table if k not in ("id", "beach", "grid")]
    if unknown:
        raise ValueError(f"{where}: unknown key {unknown[0]!r} (a card has id, beach and grid)")
    card_id = table.get("id")
    if not isinstance(card_id, int) or isinstance(card_id, bool) or card_id < 1:
        raise ValueError(f"{where}: id must be a whole number from 1, not {card_id!r}")
    where = f"card {number} (id {card_id})"
    beach = table.get("beach")
    words = beach.split() if isinstance(beach, str) else None
    if words is None or len(words) != 3 or any(w not in PATTERN_SYMBOLS for w in words):
        raise ValueError(
            f"{where}: beach must be 3 seashells or starfish ({', '.join(PATTERN_SYMBOLS)}) "
            f"separated by spaces, not {beach!r} (R-CR2a)"
        )
    grid = table.get("grid")
    if not isinstance(grid, list) or len(grid) != ROWS or not all(isinstance(r, str) for r in grid):
        raise ValueError(f"{where}: grid must be {ROWS} strings, one per row, not {grid!r}")
    rows = []
    for r, text in enumerate(grid, 1):
        cells = text.split()
        if len(cells) != COLUMNS:
            raise ValueError(f"{where}: grid row {r} has {len(cells)} cells, a row has {COLUMNS}")
        rows.append(tuple(_face(cell, f"{where}, grid row {r}") for cell in cells))
    return Card(card_id, (words[0], words[1], words[2]), tuple(rows))


def _face(text: str, where: str) -> Face:
    drift = text.endswith(DRIFTWOOD)
    symbol = text.removesuffix(DRIFTWOOD)
    if symbol not in SYMBOLS and symbol != BLANK:
        raise ValueError(f"{where}: {text!r} is not a symbol ({', '.join(SYMBOLS)} or '.')")
    if drift and symbol not in PATTERN_SYMBOLS:
        raise ValueError(f"{where}: only a seashell or starfish lies on driftwood, not {symbol!r} (R-CR2a)")
    return Face(symbol, drift)


def check_deal(deal: Any, deck: Mapping[int, Card], where: str) -> tuple[int, ...]:
    """A deal is every card id of the deck once (SPEC §3); raises ValueError."""
    if not isinstance(deal, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in deal):
        raise ValueError(f"{where} must be a list of {DEAL} card ids")
    unknown = [i for i in deal if i not in deck]
    if unknown:
        raise ValueError(f"{where}: card {unknown[0]} is not in the deck")
    if len(deal) != DEAL or len(set(deal)) != DEAL:
        twice = sorted({i for i in deal if deal.count(i) > 1})
        missing = sorted(set(deck) - set(deal))
        detail = f"card {twice[0]} twice" if twice else f"card {missing[0]} missing"
        raise ValueError(f"{where} must hold each of the {DEAL} cards once ({detail})")
    return tuple(deal)


def deal_from_seed(deck: Mapping[int, Card], seats: int, seed: int) -> list[list[int]]:
    """One shuffle of the whole deck per seat, seat 1 first, all from one seed."""
    rng = random.Random(seed)
    deals = []
    for _ in range(seats):
        ids = sorted(deck)
        rng.shuffle(ids)
        deals.append(ids)
    return deals


# -- positions -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Cell:
    """What shows on a cell of a play area: the top card's face there."""

    symbol: str
    drift: bool
    layer: int  # the index in Area.placed of the card it belongs to


@dataclass(frozen=True)
class Place:
    """One card put into a play area."""

    card: int
    x: int
    y: int
    rotation: int

    def __str__(self) -> str:
        return f"{self.card} {self.x},{self.y} {self.rotation}"


@dataclass(frozen=True)
class Area:
    """One seat's cards: the play area, the hand and the pile (top first)."""

    placed: tuple[Place, ...]
    visible: Mapping[Point, Cell]  # a fresh dict per position, never changed afterwards
    hand: tuple[int, ...]
    pile: tuple[int, ...]
    pools_in_row: bool = False  # crab-dance: 3 pools in a row were visible at some moment
    recreated: tuple[Point, ...] = ()  # the triple that recreated the pattern this round

    def caps(self) -> int:
        return sum(1 for cell in self.visible.values() if cell.symbol == CAP)


@dataclass(frozen=True)
class CrabState:
    deck: Mapping[int, Card]
    deck_name: str
    driftwood: int
    wave_start: int
    task: str
    coast: tuple[int | None, ...]  # slots 1–10 left to right; None once drawn (R-CR3)
    hermie: int  # 0 before the first card (R-CR2)
    wave: int  # COAST + 1 once it has left the Coast (R-CR7)
    areas: tuple[Area, ...]
    rounds: int = 0
    won: bool | None = None  # None while the game goes on
    reason: str = ""
    events: tuple[str, ...] = ()  # what the referee worked out in the last round

    @property
    def over(self) -> bool:
        return self.won is not None

    @property
    def pattern(self) -> tuple[str, str, str] | None:
        """The pattern to recreate: the Coast card right of Hermie (R-CR5)."""
        if self.hermie >= COAST:
            return None
        card = self.coast[self.hermie]  # slot hermie + 1
        return None if card is None else self.deck[card].beach


@dataclass(frozen=True)
class Round(Move):
    """One entry: a placement per seat, in seat order (SPEC §5)."""

    places: tuple[Place, ...]

    def __str__(self) -> str:
        if len(self.places) == 1:
            return str(self.places[0])
        return " | ".join(f"{seat}: {p}" for seat, p in enumerate(self.places, 1))


# -- the game --------------------------------------------------------------------------------


class SeedOption(Option):
    """`seed`: any whole number, random when absent (SPEC §1); only `referee new` uses it."""

    def describe(self) -> str:
        return f"{self.name} = random (any whole number)"

    def from_text(self, text: str) -> int:
        try:
            return int(text.strip())
        except ValueError:
            raise ValueError(f"option {self.name} takes a whole number, not {text!r}") from None

    def check(self, value: Any, minimum: int | None = None, maximum: int | None = None) -> int:
        if not isinstance(value, int) or isinstance(value, bool):
            raise ValueError(f"option {self.name} takes a whole number, not {value!r}")
        return value


class WaveStartOption(Option):
    """`wave_start`: slot 6 or slot 8, nothing between (R-CR2; resolve_options refuses 7)."""

    def describe(self) -> str:
        return f"{self.name} = {self.default} (6 or 8)"


# [0-9], not \d: a move is written in ASCII digits ("٣" is a digit to Python's \d).
_PLACE = r"([0-9]+)\s+(-?[0-9]+)\s*,\s*(-?[0-9]+)\s+([0-9]+)"
_SOLO = re.compile(rf"\s*(?:1\s*:\s*)?{_PLACE}\s*")
_SEAT = re.compile(rf"\s*([0-9]+)\s*:\s*{_PLACE}\s*")
MAX_DIGITS = 6  # no card id, grid position or rotation comes near a million


class Crab(Game):
    id = "crab"
    name = "Hermit: Small crab, big wave"
    credit = "Amelie Le-Roche 2023"
    rules = "hermit-crab-cards.txt"
    seats = (1, 4)
    cooperative = True  # the seats win or lose together; a resignation loses for all
    options = (
        Option("players", 1, "seats, each with its own deck (2–4: cooperative, R-CR9)", 1, 4),
        Option("driftwood", 1, "pattern symbols on driftwood needed to reach the Wave (R-CR5)", 1, 2),
        WaveStartOption("wave_start", 6, "the Wave's first Coast slot (R-CR2)", 6, 8),
        Option("task", "base", "an extra task (R-CR8)", choices=TASKS),
        Option("deck", "sample", "the built-in stand-in deck 'sample', or a deck file to read (R-CR1)"),
        SeedOption("seed", "random", "the shuffle of `referee new`; the deal is recorded in [setup]"),
    )
    setup_keys = ("deal", "deals", "deck")
    data_options = {"deck": "crab-deck"}
    notation = "<card> <x>,<y> <rotation>: '7 2,0 90'; cooperative: '1: 7 2,0 90 | 2: 3 0,1 0'"

    # -- options and setup -------------------------------------------------------------------

    def resolve_options(self, given: Mapping[str, Any]) -> dict[str, Any]:
        wave = given.get("wave_start")
        if isinstance(wave, int) and not isinstance(wave, bool) and wave not in (6, 8):
            raise ValueError(f"option wave_start must be 6 or 8 (R-CR2), not {wave}")
        resolved = super().resolve_options(given)
        if "seed" not in given:
            del resolved["seed"]  # absent means random at `new`; nothing to write down
        return resolved

    def seat_count(self, options: Mapping[str, Any]) -> int:
        return options["players"]

    def setup_from_file(self, option: str, content: Mapping[str, Any]) -> list[dict[str, Any]]:
        unknown = [k for k in content if k != "cards"]
        if unknown:
            raise ValueError(f"unknown key {unknown[0]!r} in the deck file (it holds [[cards]] tables)")
        cards = content.get("cards")
        parse_deck(cards)
        return [dict(card) for card in cards]

    def new_setup(
        self, options: Mapping[str, Any], files: Mapping[str, Mapping[str, Any]], entropy: int
    ) -> dict[str, Any]:
        try:
            cards = self.setup_from_file("deck", files["deck"])
        except ValueError as exc:
            raise ValueError(f"deck {options['deck']!r}: {exc}") from None
        seed = options.get("seed", entropy)
        deals = deal_from_seed(parse_deck(cards), options["players"], seed)
        setup: dict[str, Any] = {"deal": deals[0]}
        if len(deals) > 1:
            setup["deals"] = {str(seat): d for seat, d in enumerate(deals[1:], 2)}
        setup["deck"] = cards
        return setup

    def start(self, options: Mapping[str, Any], setup: Mapping[str, Any]) -> CrabState:
        try:
            deck = parse_deck(setup["deck"])
        except ValueError as exc:
            raise ValueError(f"[[setup.deck]]: {exc}") from None
        players = options["players"]
        deals = self._deals(setup, deck, players, options.get("seed", 0))
        coast, pile = deals[0][:COAST], deals[0][COAST:]
        areas = [_opening_area(deck, pile)] + [_opening_area(deck, d) for d in deals[1:]]
        deck_name = options["deck"]
        state = CrabState(
            deck=deck,
            deck_name=f"sample, {STAND_IN}" if deck_name == "sample" else f"from the file {deck_name}",
            driftwood=options["driftwood"],
            wave_start=options["wave_start"],
            task=options["task"],
            coast=tuple(coast),
            hermie=0,
            wave=options["wave_start"],
            areas=tuple(areas),
        )
        return _draw(state)  # R-CR2: the first Phase 1 draws the opening hand

    def _deals(self, setup: Mapping[str, Any], deck: Mapping[int, Card], players: int, seed: int):
        if "deal" not in setup:
            if "deals" in setup:
                raise ValueError("[setup] gives deals for other seats but no deal for seat 1")
            # A record that gives no deal is dealt from its seed, so it still replays the same.
            return [tuple(d) for d in deal_from_seed(deck, players, seed)]
        deals = [check_deal(setup["deal"], deck, "setup.deal")]
        others = setup.get("deals", {})
        if not isinstance(others, dict):
            raise ValueError("setup.deals must be a table of deals by seat, e.g. deals.\"2\" = [...]")
        expected = [str(seat) for seat in range(2, players + 1)]
        for key in others:
            if key not in expected:
                seats = f"seats {', '.join(expected)}" if expected else "no other seat (players = 1)"
                raise ValueError(f"setup.deals has a deal for seat {key}, but this game has {seats}")
        for key in expected:
            if key not in others:
                raise ValueError(f"setup.deals has no deal for seat {key} (R-CR9: each seat deals its own deck)")
            deals.append(check_deal(others[key], deck, f"setup.deals.{key}"))
        return deals

    # -- reading and checking a round ----------------------------------------------------------

    def parse(self, state: CrabState, text: str) -> Round:
        seats = len(state.areas)
        if seats == 1:
            match = _SOLO.fullmatch(text)
            if not match:
                raise NotationError("expected '<card> <x>,<y> <rotation>', e.g. '7 2,0 90'")
            return Round((self._place(state, *match.groups()),))
        parts = text.split("|")
        places = []
        for seat, part in enumerate(parts, 1):
            match = _SEAT.fullmatch(part)
            if not match:
                raise NotationError(
                    f"expected one placement per seat, '1: <card> <x>,<y> <rotation> | 2: …', "
                    f"e.g. '1: 7 2,0 90 | 2: 3 0,1 0'; part {seat} is {part.strip()!r}"
                )
            if len(match[1]) > MAX_DIGITS or int(match[1]) != seat:
                raise NotationError(f"placements go in seat order: part {seat} is for seat {match[1]} (R-CR9)")
            places.append(self._place(state, *match.groups()[1:]))
        if len(places) != seats:
            raise NotationError(f"this game has {seats} seats: give one placement for each (R-CR9)")
        return Round(tuple(places))

    def _place(self, state: CrabState, card: str, x: str, y: str, rotation: str) -> Place:
        # Python refuses to read a number of thousands of digits; refuse it first, and clearly.
        if any(len(n.lstrip("-")) > MAX_DIGITS for n in (card, x, y, rotation)):
            raise NotationError(f"a number of more than {MAX_DIGITS} digits: no card, position "
                                f"or rotation is that large")
        card_id, turn = int(card), int(rotation)
        if card_id not in state.deck:
            raise NotationError(f"the deck has no card {card_id} (cards {min(state.deck)}–{max(state.deck)})")
        if turn not in ROTATIONS:
            raise NotationError(f"rotation is 0, 90, 180 or 270 degrees clockwise, not {turn}")
        return Place(card_id, int(x), int(y), state.deck[card_id].canonical_rotation(turn))

    def why_not(self, state: CrabState, seat: int, place: Place) -> str | None:
        """Why `seat` may not make this placement (R-CR4, R-CR8), or None when it may."""
        area = state.areas[seat - 1]
        where = "" if len(state.areas) == 1 else f"seat {seat}: "
        if place.card not in area.hand:
            held = ", ".join(map(str, area.hand)) or "nothing"
            return f"{where}card {place.card} is not in the hand (the hand holds {held})"
        cells = _footprint(state.deck[place.card], place)
        occupied = area.visible
        touches = any(c in occupied for c in cells) or any(
            n in occupied for c in cells for n in _neighbours(c)
        )
        if not touches:
            return (f"{where}{place} neither covers nor touches an edge of a card in the play area "
                    f"(R-CR4)")
        covered = [occupied[c] for c in cells if c in occupied]
        if state.task == "garbage" and any(cell.symbol == CAP for cell in covered):
            return f"{where}{place} covers a bottle cap, and the task is garbage (R-CR8)"
        if state.task == "big-beach":
            symbols = sum(1 for cell in covered if cell.symbol != BLANK)
            if symbols > BIG_BEACH:
                return (f"{where}{place} covers {symbols} symbols, and the task big-beach allows "
                        f"{BIG_BEACH} (R-CR8)")
        if state.task == "sandcastle":
            xs = [p[0] for p in (*occupied, *cells)]
            ys = [p[1] for p in (*occupied, *cells)]
            width, height = max(xs) - min(xs) + 1, max(ys) - min(ys) + 1
            if width > SANDCASTLE or height > SANDCASTLE:
                return (f"{where}{place} makes the play area {width}×{height}, and the task "
                        f"sandcastle keeps it inside {SANDCASTLE}×{SANDCASTLE} (R-CR8)")
        return None

    def apply(self, state: CrabState, move: Move) -> CrabState:
        if not isinstance(move, Round):
            raise IllegalMoveError(f"{move} is not a move in {self.name}")
        if state.over:
            raise IllegalMoveError("the game is already over")
        for seat, place in enumerate(move.places, 1):
            reason = self.why_not(state, seat, place)
            if reason:
                raise IllegalMoveError(reason)
        areas = tuple(
            _put(state.deck, area, place) for area, place in zip(state.areas, move.places)
        )
        return _after_placing(replace(state, areas=areas, rounds=state.rounds + 1, events=()))

    # -- listing moves ---------------------------------------------------------------------------

    def seat_moves(self, state: CrabState, seat: int) -> list[Place]:
        """Every legal placement of every card in the seat's hand, one per distinct outcome."""
        area = state.areas[seat - 1]
        if state.over or not area.visible:
            return []
        xs = [p[0] for p in area.visible]
        ys = [p[1] for p in area.visible]
        places = []
        for card_id in sorted(area.hand):
            card = state.deck[card_id]
            for rotation in ROTATIONS:
                if card.canonical_rotation(rotation) != rotation:
                    continue  # the same footprint and faces as a smaller rotation (SPEC §5)
                width, height = _size(rotation)
                for y in range(min(ys) - height, max(ys) + 2):
                    for x in range(min(xs) - width, max(xs) + 2):
                        place = Place(card_id, x, y, rotation)
                        if self.why_not(state, seat, place) is None:
                            places.append(place)
        return places

    def legal_moves(self, state: CrabState) -> list[Move]:
        # Cooperative rounds combine every seat's placements; the listing and the random move
        # below take the seats one at a time instead of building this product.
        per_seat = [self.seat_moves(state, seat) for seat in range(1, len(state.areas) + 1)]
        return [Round(combo) for combo in itertools.product(*per_seat)]

    def move_listing(self, state: CrabState, after: str | None) -> dict[str, Any]:
        if after is not None:
            raise UsageError(f"--after is for games with several actions a turn; {self.name} has one")
        seats = len(state.areas)
        if seats == 1:
            return {"moves": [str(p) for p in self.seat_moves(state, 1)]}
        # SPEC §4: the product of every seat's placements is unreasonably long; give the form
        # and each seat's own placements instead.
        form = " | ".join(f"{seat}: <card> <x>,<y> <rotation>" for seat in range(1, seats + 1))
        return {
            "moves": [],
            "pattern": form,
            "placements": {str(s): [str(p) for p in self.seat_moves(state, s)] for s in range(1, seats + 1)},
        }

    def random_move(self, state: CrabState, rng: random.Random) -> Move:
        return Round(tuple(rng.choice(self.seat_moves(state, s)) for s in range(1, len(state.areas) + 1)))

    # -- the end and the words -----------------------------------------------------------------

    def to_move(self, state: CrabState) -> int | None:
        return None if state.over else 1  # SPEC §4: seat 1 records every round

    def outcome(self, state: CrabState) -> Outcome | None:
        if not state.over:
            return None
        if state.won:
            return Outcome(tuple(range(1, len(state.areas) + 1)), state.reason)
        return Outcome((), state.reason, summary=f"Lost: {state.reason}")

    def score(self, state: CrabState) -> dict[str, Any]:
        hands = {str(s): list(a.hand) for s, a in enumerate(state.areas, 1)}
        piles = {str(s): len(a.pile) for s, a in enumerate(state.areas, 1)}
        if len(state.areas) == 1:
            return {"hermie": state.hermie, "wave": state.wave, "hand": hands["1"], "pile": piles["1"]}
        return {"hermie": state.hermie, "wave": state.wave, "hand": hands, "pile": piles}

    def status_extra(self, state: CrabState) -> dict[str, Any]:
        return {
            "pattern": " ".join(state.pattern) if state.pattern and not state.over else None,
            "coast": list(state.coast),
            "caps": {str(s): a.caps() for s, a in enumerate(state.areas, 1)},
            "deck": state.deck_name,
        }

    def status_lines(self, state: CrabState) -> list[str]:
        lines = [f"Round {state.rounds}; deck: {state.deck_name}"]
        lines.append(f"Coast: {coast_line(state)}")
        lines.append(f"Hermie on {_slot_words(state.hermie)}; the Wave on {_slot_words(state.wave)}")
        if state.pattern and not state.over:
            goal = "the Wave's card" if state.hermie + 1 == state.wave else f"slot {state.hermie + 1}"
            drift = count(state.driftwood, "symbol")
            need = f" with {drift} on driftwood" if state.hermie + 1 == state.wave else ""
            lines.append(f"Pattern to recreate ({goal}): {' '.join(state.pattern)}{need}")
        task = "base game" if state.task == "base" else f"task {state.task}"
        lines.append(f"Driftwood {state.driftwood}, Wave from slot {state.wave_start}, {task}")
        limit = hand_limit(state)
        for seat, area in enumerate(state.areas, 1):
            who = "Hand" if len(state.areas) == 1 else f"Seat {seat}: hand"
            hand = ", ".join(map(str, area.hand)) or "empty"
            lines.append(
                f"{who} {hand}; pile {len(area.pile)}; "
                f"{count(area.caps(), 'visible bottle cap')}; hand limit {limit}"
            )
        if state.task == "crab-dance":
            waiting = [str(s) for s, a in enumerate(state.areas, 1) if not a.pools_in_row]
            seats = f" (seat {', '.join(waiting)})" if waiting and len(state.areas) > 1 else ""
            lines.append("Crab dance: 3 pools in a row " + (f"not yet seen{seats}" if waiting else "seen"))
        lines.extend(state.events)
        return lines

    def picture(self, state: CrabState, last: Move | None) -> "CrabPicture":
        return crab_picture(state, last if isinstance(last, Round) and state.rounds else None)


# -- the rules, as pure helpers ----------------------------------------------------------------


def _size(rotation: int) -> tuple[int, int]:
    """A footprint's width and height at this rotation."""
    return (COLUMNS, ROWS) if rotation in (0, 180) else (ROWS, COLUMNS)


def _footprint(card: Card, place: Place) -> dict[Point, Face]:
    return {(place.x + dx, place.y + dy): face for (dx, dy), face in card.faces(place.rotation).items()}


def _neighbours(p: Point) -> tuple[Point, ...]:
    x, y = p
    return ((x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1))


def _opening_area(deck: Mapping[int, Card], pile: tuple[int, ...]) -> Area:
    """R-CR2, R-CR9: the top card of the pile starts the play area at 0,0 rotation 0."""
    start = Place(pile[0], 0, 0, 0)
    return _put(deck, Area((), {}, (start.card,), tuple(pile[1:])), start)


def _put(deck: Mapping[int, Card], area: Area, place: Place) -> Area:
    layer = len(area.placed)
    visible = dict(area.visible)
    for point, face in _footprint(deck[place.card], place).items():
        visible[point] = Cell(face.symbol, face.drift, layer)
    hand = tuple(c for c in area.hand if c != place.card)
    return replace(
        area,
        placed=area.placed + (place,),
        visible=visible,
        hand=hand,
        pools_in_row=area.pools_in_row or _three_pools(visible),
        recreated=(),
    )


def _three_pools(visible: Mapping[Point, Cell]) -> bool:
    """R-CR8 crab-dance: 3 visible pools consecutive in a row or column."""
    pools = {p for p, cell in visible.items() if cell.symbol == POOL}
    return any(
        (x + dx, y + dy) in pools and (x + 2 * dx, y + 2 * dy) in pools
        for x, y in pools for dx, dy in ((1, 0), (0, 1))
    )


def _triples(area: Area) -> list[tuple[Point, Point, Point]]:
    """Every three orthogonally consecutive cells with at least one on the newest card."""
    newest = len(area.placed) - 1
    found = []
    for point, cell in area.visible.items():
        if cell.layer != newest:
            continue
        x, y = point
        for dx, dy in ((1, 0), (0, 1)):
            for back in range(3):
                first = (x - back * dx, y - back * dy)
                triple = tuple((first[0] + i * dx, first[1] + i * dy) for i in range(3))
                if triple not in found:
                    found.append(triple)
    return found


def recreations(area: Area, pattern: tuple[str, str, str]) -> list[tuple[Point, Point, Point]]:
    """R-CR5: the triples that read the pattern, in order or reversed, with at least one symbol
    on the card just placed."""
    matches = []
    for triple in _triples(area):
        symbols = tuple(area.visible[p].symbol if p in area.visible else None for p in triple)
        if symbols == pattern or symbols[::-1] == pattern:
            matches.append(triple)
    return matches


def _on_driftwood(area: Area, triple: tuple[Point, ...]) -> int:
    return sum(1 for p in triple if area.visible[p].drift)


def _adjacent_pair(area: Area, symbols: tuple[str, ...], only: set[Point] | None = None) -> bool:
    """Two orthogonally adjacent visible cells showing the same symbol from `symbols`, one of
    them on the newest card (and, when `only` is given, that one among `only`)."""
    newest = len(area.placed) - 1
    for point, cell in area.visible.items():
        if cell.layer != newest or cell.symbol not in symbols:
            continue
        if only is not None and point not in only:
            continue
        for n in _neighbours(point):
            other = area.visible.get(n)
            if other is not None and other.symbol == cell.symbol:
                return True
    return False


def hand_limit(state: CrabState) -> int:
    """R-CR3, R-CR9: 2, or 1 when a play area shows 2 or more bottle caps."""
    return 1 if any(a.caps() >= 2 for a in state.areas) else 2


def _draw(state: CrabState) -> CrabState:
    """Phase 1 (R-CR3, R-CR9): fill the hands; the game is lost when a seat cannot draw enough."""
    limit = hand_limit(state)
    coast = list(state.coast)
    areas = []
    short = []
    for seat, area in enumerate(state.areas, 1):
        need = limit - len(area.hand) if limit == 2 else (1 if not area.hand else 0)
        need = max(need, 0)
        pile = list(area.pile)
        hand = list(area.hand)
        while need and pile:
            hand.append(pile.pop(0))
            need -= 1
        if seat == 1:
            # R-CR3: then from the Coast slots strictly left of Hermie, leftmost first.
            for slot in range(state.hermie - 1):
                if need and coast[slot] is not None:
                    hand.append(coast[slot])
                    coast[slot] = None
                    need -= 1
        if need:
            short.append(seat)
        areas.append(replace(area, hand=tuple(hand), pile=tuple(pile)))
    state = replace(state, areas=tuple(areas), coast=tuple(coast))
    if short:
        who = "you" if len(state.areas) == 1 else f"seat {short[0]}"
        return replace(state, won=False,
                       reason=f"{who} could not draw enough cards in Phase 1 (R-CR3)")
    return state


def _after_placing(state: CrabState) -> CrabState:
    """Phases 3 and 4 of a round, then Phase 1 of the next (R-CR5…R-CR7, R-CR9)."""
    solo = len(state.areas) == 1
    pattern = state.pattern
    target = state.hermie + 1
    onto_wave = target == state.wave
    found = [recreations(area, pattern) for area in state.areas]
    # One triple must meet every condition at once (R-CR5): prefer the one with most driftwood.
    best = [max(m, key=lambda t: _on_driftwood(a, t)) if m else () for a, m in zip(state.areas, found)]
    areas = tuple(replace(a, recreated=t) for a, t in zip(state.areas, best))
    events = []
    recreated = [bool(m) for m in found]
    moves = all(recreated) and (
        not onto_wave or all(_on_driftwood(a, t) >= state.driftwood for a, t in zip(areas, best))
    )
    state = replace(state, areas=areas)
    if all(recreated) and not moves:
        events.append(f"Pattern recreated, but Hermie may not step onto the Wave: fewer than "
                      f"{count(state.driftwood, 'symbol')} of it on driftwood (R-CR5)")
    elif any(recreated) and not moves:
        missing = ", ".join(str(s) for s, r in enumerate(recreated, 1) if not r)
        events.append(f"Hermie stays: not every seat recreated the pattern (seat {missing}; R-CR9)")
    elif not moves:
        events.append("Pattern not recreated: Hermie stays (R-CR5)")
    if moves:
        state = replace(state, hermie=target)
        events.append(f"Pattern recreated: Hermie moves to slot {target} (R-CR5)")
        if onto_wave:
            return _won(replace(state, events=tuple(events)))
    # Phase 4 (R-CR6; cooperative R-CR9).
    if solo:
        pools = moves and _adjacent_pair(areas[0], (POOL,))
        same = moves and _adjacent_pair(areas[0], PATTERN_SYMBOLS)
    else:
        pools = any(r and _adjacent_pair(a, (POOL,)) for a, r in zip(areas, recreated))
        # The symbol on the new card must be in the seat's recreated pattern: any triple that
        # recreated it will do.
        same = moves and any(
            _adjacent_pair(a, PATTERN_SYMBOLS, {p for t in m for p in t}) for a, m in zip(areas, found)
        )
    wave = state.wave
    if pools and wave - 1 == state.hermie:
        events.append("Two pools side by side, but the Wave may not land on Hermie: it stays (R-CR6)")
    elif pools:
        wave -= 1
        events.append(f"Two pools side by side: the Wave moves left to slot {wave} (R-CR6)")
    elif same:
        events.append("Two identical symbols side by side: the Wave stays (R-CR6)")
    else:
        wave += 1
        events.append(f"The Wave moves right to {_slot_words(wave)} (R-CR6)")
    state = replace(state, wave=wave, events=tuple(events))
    if wave > COAST:
        return replace(state, won=False, reason="the Wave left the rightmost card (R-CR7)")
    return _draw(state)


def _won(state: CrabState) -> CrabState:
    """R-CR7, R-CR8: Hermie reached the Wave; an unmet end task turns the win into a loss."""
    unmet = _unmet_task(state)
    if unmet:
        return replace(state, won=False, reason=f"Hermie reached the Wave, but {unmet} (R-CR8)")
    return replace(state, won=True, reason=f"Hermie reached the Wave on slot {state.wave} (R-CR7)")


def _unmet_task(state: CrabState) -> str | None:
    task = state.task
    if task == "dunes":
        short = [s for s, a in enumerate(state.areas, 1) if len(a.pile) + len(a.hand) < DUNES]
        if short:
            return f"the task dunes needs {DUNES} unused cards in pile and hand{_seats(state, short)}"
    if task == "crab-dance":
        short = [s for s, a in enumerate(state.areas, 1) if not a.pools_in_row]
        if short:
            return f"the task crab-dance needs 3 pools in a row at some moment{_seats(state, short)}"
    if task == "nature-reserve":
        short = [s for s, a in enumerate(state.areas, 1) if a.caps()]
        if short:
            return f"the task nature-reserve allows no visible bottle cap at the end{_seats(state, short)}"
    if task == "crashing-waves" and COAST - state.wave < CRASHING_WAVES:
        return (f"the task crashing-waves needs {CRASHING_WAVES} Coast slots right of the Wave, "
                f"not {COAST - state.wave}")
    return None


def _seats(state: CrabState, seats: list[int]) -> str:
    if len(state.areas) == 1:
        return ""
    return f" (not met by seat {', '.join(map(str, seats))})"


def _slot_words(slot: int) -> str:
    if slot == 0:
        return "the shore left of slot 1"
    if slot > COAST:
        return "no slot: it has left the Coast"
    return f"slot {slot}"



# -- the position as plain data for the diagrams ---------------------------------------------------


@dataclass(frozen=True)
class CellView:
    x: int
    y: int
    symbol: str  # a symbol or BLANK
    drift: bool
    new: bool  # on the card placed this round
    pattern: bool  # in the triple that recreated the pattern this round


@dataclass(frozen=True)
class AreaView:
    seat: int
    cells: tuple[CellView, ...]
    new_card: tuple[int, int, int, int, int] | None  # card id, x, y, width, height
    hand: tuple[int, ...]
    pile: int
    caps: int


@dataclass(frozen=True)
class SlotView:
    slot: int
    card: int | None  # None once drawn
    beach: tuple[str, str, str] | None
    hermie: bool
    wave: bool
    target: bool  # the card whose pattern is to be recreated


@dataclass(frozen=True)
class CrabPicture:
    """The play areas and the Coast strip; drawn by referee/render/crab.py."""

    areas: tuple[AreaView, ...]
    coast: tuple[SlotView, ...]
    hermie_ashore: bool  # Hermie still left of slot 1
    wave_gone: bool  # the Wave has left the Coast
    deck: str


def crab_picture(state: CrabState, last: Round | None) -> CrabPicture:
    areas = []
    for seat, area in enumerate(state.areas, 1):
        newest = len(area.placed) - 1 if last is not None else None
        pattern = set(area.recreated)
        cells = tuple(
            CellView(x, y, cell.symbol, cell.drift, cell.layer == newest, (x, y) in pattern)
            for (x, y), cell in sorted(area.visible.items(), key=lambda item: (item[0][1], item[0][0]))
        )
        new_card = None
        if newest is not None:
            place = area.placed[newest]
            new_card = (place.card, place.x, place.y, *_size(place.rotation))
        areas.append(AreaView(seat, cells, new_card, area.hand, len(area.pile), area.caps()))
    coast = tuple(
        SlotView(
            slot,
            card,
            None if card is None else state.deck[card].beach,
            state.hermie == slot,
            state.wave == slot,
            not state.over and slot == state.hermie + 1,
        )
        for slot, card in enumerate(state.coast, 1)
    )
    return CrabPicture(tuple(areas), coast, state.hermie == 0, state.wave > COAST, state.deck_name)


def coast_line(state: CrabState) -> str:
    """The Coast in one line: card ids by slot, '-' for a drawn slot, H for Hermie, W the Wave
    (a lone H before slot 1 while Hermie is ashore, a lone W after slot 10 once it has left)."""
    words = ["H"] if state.hermie == 0 else []
    for slot, card in enumerate(state.coast, 1):
        word = "-" if card is None else str(card)
        marks = ("H" if state.hermie == slot else "") + ("W" if state.wave == slot else "")
        words.append(f"{word}{'(' + marks + ')' if marks else ''}")
    if state.wave > COAST:
        words.append("W")
    return " ".join(words)
