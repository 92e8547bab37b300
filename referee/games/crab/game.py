"""Hermit: Small crab, big wave (Amelie Le-Roche 2023): a solo card game, cooperative for 2–4
seats. Each round a card from the hand goes into the play area; recreating the pattern of the
Coast card right of Hermie moves him on, the Wave drifts left, stays or moves right, and Hermie
reaching the Wave wins (R-CR1…R-CR9).

This module is the Game: options, setup and deals, reading a round, listing moves and the words
of the status; the rules themselves are in rules.py, the cards in deck.py.
"""

from __future__ import annotations

import itertools
import random
import re
from dataclasses import replace
from typing import Any, Mapping

from referee.errors import IllegalMoveError, NotationError, UsageError
from referee.games.base import Game, Move, Option, Outcome, count
from referee.games.crab.deck import (
    COAST, ROTATIONS, Card, check_deal, deal_from_seed, footprint_size, parse_deck,
)
from referee.games.crab.picture import CrabPicture, coast_line, crab_picture
from referee.games.crab.rules import (
    TASKS, after_placing, draw_cards, hand_limit, opening_area, put, refusal, slot_words,
)
from referee.games.crab.state import CrabState, Place, Round

STAND_IN = "a stand-in, not the published cards (R-CR1)"


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
        areas = [opening_area(deck, pile)] + [opening_area(deck, d) for d in deals[1:]]
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
        return draw_cards(state)  # R-CR2: the first Phase 1 draws the opening hand

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
        return refusal(state, seat, place)

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
            put(state.deck, area, place) for area, place in zip(state.areas, move.places)
        )
        return after_placing(replace(state, areas=areas, rounds=state.rounds + 1, events=()))

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
                width, height = footprint_size(rotation)
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
        lines.append(f"Hermie on {slot_words(state.hermie)}; the Wave on {slot_words(state.wave)}")
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

    def picture(self, state: CrabState, last: Move | None) -> CrabPicture:
        return crab_picture(state, last if isinstance(last, Round) and state.rounds else None)
