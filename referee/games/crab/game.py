"""Hermit: Small crab, big wave behind the referee's hooks.

The game behind the referee's hooks: options, setup and deals, a round as a turn of one
placement per seat, the words of the status; the rules themselves are in rules.py, the cards
in deck.py.
"""

from __future__ import annotations

import functools

import itertools
from dataclasses import replace
from typing import Any, Mapping

from referee.errors import IllegalMoveError, UsageError
from referee.games.base import Game, Move, Option, Outcome, TurnSoFar, count
from referee.games.crab.deck import (
    COAST, ROTATIONS, Card, check_deal, deal_from_seed, footprint_size, parse_deck,
)
from referee.games.crab.picture import CrabPicture, coast_line, crab_picture
from referee.games.crab.rules import (
    TASKS, after_placing, draw_cards, hand_limit, opening_area, put, refusal, slot_words,
)
from referee.games.crab.moves import Place, Round, parse_parts, parse_round
from referee.games.crab.position import CrabState

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




class Crab(Game):
    # -- 1. metadata and options --------------------------------------------------------------

    id = "crab"
    name = "Hermit: Small crab, big wave"
    credit = "Amelie Le-Roche 2023"
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
    notation = "<card> <x>,<y> <rotation>: '7 2,0 90'; cooperative: '1: 7 2,0 90 | 2: 6 0,1 0'"

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

    # -- 2. setup -----------------------------------------------------------------------------

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

    # -- 3. moves -----------------------------------------------------------------------------

    def parse(self, state: CrabState, text: str) -> Round:
        return parse_round(state.deck, len(state.areas), text)

    def parse_part(self, state: CrabState, text: str) -> dict[int, Place]:
        return parse_parts(state.deck, len(state.areas), text)

    # -- 4. play ------------------------------------------------------------------------------

    def to_move(self, state: CrabState) -> int | None:
        return None if state.over else 1  # SPEC §4: seat 1 records every round

    def legal_moves(self, state: CrabState) -> list[Move]:
        # Cooperative rounds combine every seat's placements; the listing and a search take
        # the seats one at a time instead of building this product (`legal_actions`).
        per_seat = [self.seat_moves(state, seat) for seat in range(1, len(state.areas) + 1)]
        return [Round(combo) for combo in itertools.product(*per_seat)]

    def apply(self, state: CrabState, move: Move) -> CrabState:
        if not isinstance(move, Round):
            raise IllegalMoveError(f"{move} is not a move in {self.name}")
        turn = self.begin_turn(state)
        for place in move.places:
            turn = self.act(turn, place)
        if not self.turn_may_end(turn):
            raise IllegalMoveError(f"this game has {len(state.areas)} seats: a round places one card for each (R-CR9)")
        return self.end_turn(turn)[1]

    def outcome(self, state: CrabState) -> Outcome | None:
        if not state.over:
            return None
        if state.won:
            return Outcome(tuple(range(1, len(state.areas) + 1)), state.reason)
        return Outcome((), state.reason, summary=f"Lost: {state.reason}")

    def returns(self, state: CrabState) -> tuple[float, ...]:
        if not state.over:
            raise ValueError("the game is not over")
        return (1.0 if state.won else 0.0,) * len(state.areas)

    # AMAF codes: a placement is its seat, its card and the card's rotation — where it goes is
    # left out, as a position is read from the seat's own area, which moves on (R-CR4). By
    # seat: a seat places only cards of its own hand and pile. Every seat's returns are one
    # (a cooperative game), so each reads the statistics alike.

    def action_codes(self, state: CrabState) -> int:
        return len(state.areas) * len(state.deck) * len(ROTATIONS)

    def action_code(self, turn: TurnSoFar, action: Place) -> int:
        deck = turn.before.deck
        seat = len(turn.actions)  # 0-based: the seats place in order (R-CR9)
        index = _card_index(tuple(deck))[action.card]
        return (seat * len(deck) + index) * len(ROTATIONS) + ROTATIONS.index(action.rotation)

    def move_actions(self, move: Round) -> tuple[Place, ...]:
        return move.places

    # A round is a turn of one placement per seat, in seat order (R-CR9): each seat's own
    # area, hand and pile, so a seat's placement never depends on another's this round.

    def legal_actions(self, turn: TurnSoFar) -> list[Place]:
        seat = len(turn.actions) + 1
        return self.seat_moves(turn.after, seat) if seat <= len(turn.after.areas) else []

    def act(self, turn: TurnSoFar, place: Place) -> TurnSoFar:
        state, seat = turn.after, len(turn.actions) + 1
        if state.over:
            raise IllegalMoveError("the game is already over")
        if seat > len(state.areas):
            raise IllegalMoveError("every seat has placed its card this round (R-CR9)")
        reason = self.why_not(state, seat, place)
        if reason:
            raise IllegalMoveError(reason)
        areas = list(state.areas)
        areas[seat - 1] = put(state.deck, areas[seat - 1], place)
        return TurnSoFar(turn.before, replace(state, areas=tuple(areas)), (*turn.actions, place))

    def turn_may_end(self, turn: TurnSoFar) -> bool:
        return len(turn.actions) == len(turn.before.areas)

    def end_turn(self, turn: TurnSoFar) -> tuple[Move, CrabState]:
        state = turn.after
        return Round(turn.actions), after_placing(replace(state, rounds=state.rounds + 1, events=()))

    def why_not(self, state: CrabState, seat: int, place: Place) -> str | None:
        """Why `seat` may not make this placement (R-CR4, R-CR8), or None when it may."""
        return refusal(state, seat, place)

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

    # -- 5. words -----------------------------------------------------------------------------

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

    def move_listing(self, state: CrabState, after: str | None) -> dict[str, Any]:
        """`moves --json`: the placements in canonical notation, and for each seat, every
        placement with what it does to Hermie and the Wave (SPEC §8b), those that move Hermie
        first; `moves` lists them in that order."""
        if after is not None:
            raise UsageError(f"--after is for games with several actions a turn; {self.name} has one")
        seats = len(state.areas)
        placements = {str(s): self.placement_effects(state, s) for s in range(1, seats + 1)}
        if seats == 1:
            return {"moves": [p["move"] for p in placements["1"]], "placements": placements}
        # SPEC §4: the product of every seat's placements is unreasonably long; give the form
        # and each seat's own placements instead.
        form = " | ".join(f"{seat}: <card> <x>,<y> <rotation>" for seat in range(1, seats + 1))
        return {"moves": [], "pattern": form, "placements": placements}

    def placement_effects(self, state: CrabState, seat: int) -> list[dict[str, Any]]:
        """Each legal placement of `seat` as {"move", "hermie", "wave"}: whether Hermie moves
        (R-CR5) and the Wave's step, -1, 0 or 1 (R-CR6), if it is played; those that move
        Hermie first, the Wave's smallest step first, else in the order of `seat_moves`.

        Each is played with `apply`, on a round in which every seat places as this one does:
        in a solo game that is the round itself. In a cooperative one Hermie moves only when
        every seat recreates the pattern (R-CR9), so `hermie` says this placement does its
        seat's part, and `wave` is the step that follows if every seat's did as this one."""
        # Two alike seats play a cooperative round as any number would (R-CR9 asks "every
        # seat" and "some seat"), at half the cost of four.
        seats = min(len(state.areas), 2)
        alike = replace(state, areas=(state.areas[seat - 1],) * seats)
        found = []
        for place in self.seat_moves(state, seat):
            after = self.apply(alike, Round((place,) * seats))
            found.append({"move": str(place), "hermie": after.hermie != state.hermie,
                          "wave": after.wave - state.wave})
        found.sort(key=lambda p: (not p["hermie"], p["wave"]))  # stable: seat_moves' order
        return found

    # -- 6. view model ------------------------------------------------------------------------

    def picture(self, state: CrabState, last: Move | None) -> CrabPicture:
        return crab_picture(state, last if isinstance(last, Round) and state.rounds else None)


@functools.lru_cache(maxsize=8)
def _card_index(ids: tuple[int, ...]) -> dict[int, int]:
    """A deck's card ids numbered 0 … n − 1 in their order (the deck's, fixed by its file)."""
    return {card: index for index, card in enumerate(ids)}
