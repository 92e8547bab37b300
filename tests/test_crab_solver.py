"""The crab game's exact solver (SPEC §10 `solve`): its packed rules agree with the referee's,
its answers agree with plain exhaustive searches (no memory, no bounds, no ordering), its lines
win when played, and it answers alike every time.

Hand-made positions deal the made-up deck of test_crab.py: cards 1–10 on the Coast (slot n holds
card n), card 11 starting the play area at 0,0, 12 and 13 in hand, 14–16 the pile; cards not
given are blank. Most stand one round from the end — Hermie on slot 9 next to the Wave on 10,
so that any round that does not win loses — and a plain search through the referee's own hooks
can try every placement.
"""

from __future__ import annotations

import itertools
import random
from dataclasses import replace

import pytest

from referee.games import GAMES
from referee.games.crab import packed
from referee.games.crab.bounds import hopeless, rounds_possible
from referee.games.crab.deck import PATTERN_SYMBOLS, SYMBOLS
from referee.games.crab.moves import Place
from referee.games.crab.position import CrabState
from referee.games.crab.rules import TASKS, opening_area, put
from referee.games.crab.solver import Search, _key, solve

CRAB = GAMES["crab"]
BLANK = [". . .", ". . ."]
STARS = ["star star star", "star star star"]
PATTERN = "red blue yellow"


def deck(coast: dict[int, str] | None = None, cards: dict[int, list[str]] | None = None) -> list[dict]:
    coast, cards = coast or {}, cards or {}
    return [{"id": i, "beach": coast.get(i, "red red red"), "grid": cards.get(i, BLANK)} for i in range(1, 17)]


def state(cards=None, coast=None, **options) -> CrabState:
    resolved = CRAB.resolve_options(options)
    setup = {"deck": deck(coast, cards), "deal": list(range(1, 17))}
    if resolved["players"] > 1:
        setup["deals"] = {str(s): list(range(1, 17)) for s in range(2, resolved["players"] + 1)}
    return CRAB.start(resolved, setup)


def last_round(cards, **options) -> CrabState:
    """Hermie on slot 9, the Wave on 10 showing the pattern: win now or never."""
    s = state(cards, {10: PATTERN}, **options)
    return replace(s, hermie=9, wave=10)


# -- plain searches, to check the solver against -----------------------------------------------


def through_hooks(s: CrabState) -> bool:
    """Every round the referee's own hooks allow, to the end of the game."""
    if s.over:
        return s.won

    def rounds(turn):
        actions = CRAB.legal_actions(turn)
        if not actions:
            yield CRAB.end_turn(turn)[1]
        for action in actions:
            yield from rounds(CRAB.act(turn, action))

    return any(through_hooks(after) for after in rounds(CRAB.begin_turn(s)))


class TooBig(Exception):
    pass


def plain(s: CrabState, limit: int = 10**6) -> bool:
    """Every round of the packed rules, to the end: no memory, no bound, no order."""
    cards, counted = packed.Cards(s.deck), [0]

    def search(shared, seats) -> bool:
        counted[0] += 1
        if counted[0] > limit:
            raise TooBig
        pattern = packed.pattern_of(cards, shared)
        options = [packed.placements(cards, seat, s.task, pattern, len(seats) > 1) for seat in seats]
        for plays in itertools.product(*options):
            verdict, hermie, wave = packed.round_end(shared, plays, seats, s.driftwood, s.task)
            if verdict == packed.WON:
                return True
            if verdict is None:
                drawn = packed.draw(shared, hermie, wave, tuple(packed.put(a, p) for a, p in zip(seats, plays)))
                if drawn is not None and search(*drawn):
                    return True
        return False

    return search(*packed.packed_state(s))


def wins(s: CrabState, line: tuple[str, ...]) -> bool:
    for entry in line:
        assert not s.over
        s = CRAB.apply(s, CRAB.parse(s, entry))
    return s.won is True


def agree(s: CrabState, hooks: bool = True) -> bool:
    """The solver's answer, checked against the plain searches; a winning line must win."""
    found = solve(s)
    assert found.winnable is plain(s)
    if hooks:
        assert found.winnable is through_hooks(s)
    if found.winnable:
        assert wins(s, found.line)
    return found.winnable


# -- R-CR8: each task that changes whether a position can be won -------------------------------

ONE_STEP = {11: ["red blue .", ". . ."], 12: ["yellow* . .", ". . ."]}


def test_a_position_one_placement_from_the_win_is_winnable_and_the_line_wins():
    s = last_round(ONE_STEP)
    assert agree(s) is True
    assert solve(s).line == ("12 2,0 0",)


def test_without_the_symbol_it_needs_the_position_is_lost():
    assert agree(last_round({11: ["red blue .", ". . ."], 12: ["blue* . .", ". . ."]})) is False


def test_r_cr5_driftwood_two_needs_two_symbols_on_driftwood():
    assert agree(last_round(ONE_STEP, driftwood=2)) is False
    assert agree(last_round({11: ["red blue* .", ". . ."], 12: ONE_STEP[12]}, driftwood=2)) is True


def test_r_cr8_garbage_loses_when_the_win_covers_a_bottle_cap():
    cards = {11: ["red blue cap", ". . ."], 12: ONE_STEP[12]}
    assert agree(last_round(cards)) is True
    assert agree(last_round(cards, task="garbage")) is False


def _area(deck_cards, places: list[tuple[int, int, int]]):
    """A play area of the given cards at (card, x, y), card 11 first at 0,0."""
    s = state(deck_cards)
    area = opening_area(s.deck, (11,))
    for card, x, y in places:
        area = put(s.deck, replace(area, hand=(card,)), Place(card, x, y, 0))
    return area


def test_r_cr8_big_beach_loses_when_every_win_covers_three_symbols():
    # The only red lies among stars on every side: blue and yellow must cover two of them,
    # and every footprint that puts them there covers a third.
    cards = {11: ["red star star", "star star star"], 14: STARS, 15: STARS, 16: STARS, 12: ["blue yellow* .", ". . ."]}
    area = _area(cards, [(14, -3, 0), (15, 0, -2), (16, 0, 2)])
    for task, winnable in (("base", True), ("big-beach", False)):
        s = last_round(cards, task=task)
        s = replace(s, areas=(replace(area, hand=(12, 13), pile=()),))
        assert agree(s) is winnable


def test_r_cr8_sandcastle_loses_when_the_win_leaves_the_6_by_6_square():
    # The play area is 6 wide; yellow must go right of blue, at x = 6.
    cards = {11: ["star star star", ". . ."], 14: ["star red blue", ". . ."], 12: ONE_STEP[12]}
    area = _area(cards, [(14, 3, 0)])
    for task, winnable in (("base", True), ("sandcastle", False)):
        s = last_round(cards, task=task)
        s = replace(s, areas=(replace(area, hand=(12, 13), pile=()),))
        assert agree(s) is winnable


def test_r_cr8_dunes_needs_two_cards_left_after_the_win():
    s = last_round(ONE_STEP, task="dunes")
    assert agree(replace(s, areas=(replace(s.areas[0], pile=(14,)),))) is True  # 13 and 14 left
    assert agree(replace(s, areas=(replace(s.areas[0], pile=()),))) is False


def test_r_cr8_dunes_can_never_be_won_from_the_start_solo():
    # 5 cards before the Coast (2 in hand, 3 in the pile), 2 of them kept: 3 rounds, and Hermie
    # cannot cover 6 slots in 3 (R-CR6: at most 2 a round, and never onto the Wave by its pool).
    for seed in range(5):
        s = CRAB.start(CRAB.resolve_options({"task": "dunes", "seed": seed}),
                       CRAB.new_setup(CRAB.resolve_options({"task": "dunes", "seed": seed}),
                                      {"deck": {"cards": deck()}}, seed))
        found = solve(s)
        assert found.winnable is False and found.searched == 1


def test_r_cr8_crab_dance_needs_three_pools_in_a_row_by_the_win():
    three = {11: ["red blue .", "pool pool ."], 12: ["yellow* . .", "pool . ."]}
    two = {11: ["red blue .", "pool . ."], 12: ["yellow* . .", "pool . ."]}
    assert agree(last_round(three, task="crab-dance")) is True
    assert agree(last_round(two)) is True
    assert agree(last_round(two, task="crab-dance")) is False


def test_r_cr8_nature_reserve_loses_when_a_cap_stays_visible():
    cards = {11: ["red blue .", "cap . ."], 12: ONE_STEP[12]}
    assert agree(last_round(cards)) is True
    assert agree(last_round(cards, task="nature-reserve")) is False


def test_r_cr8_crashing_waves_needs_four_slots_right_of_the_wave():
    # One round and no more: the pile is empty and no Coast card lies behind Hermie.
    for wave, winnable in ((6, True), (7, False)):
        s = state(ONE_STEP, {wave: PATTERN}, task="crashing-waves")
        s = replace(s, hermie=wave - 1, wave=wave, coast=(None,) * (wave - 2) + s.coast[wave - 2:],
                    areas=(replace(s.areas[0], pile=()),))
        assert agree(s) is winnable


# -- R-CR9: cooperative games ----------------------------------------------------------------------


def test_r_cr9_every_seat_must_recreate_the_pattern():
    # Seat 2 deals the same cards: it starts with card 1 and holds 2 and 3.
    both = {**ONE_STEP, 1: ["red blue .", ". . ."], 2: ["yellow* . .", ". . ."]}
    assert agree(last_round(both, players=2), hooks=False) is True
    one = {**ONE_STEP, 1: ["red blue .", ". . ."]}
    assert agree(last_round(one, players=2), hooks=False) is False


def test_r_cr9_garbage_binds_every_seat():
    both = {11: ["red blue cap", ". . ."], 12: ONE_STEP[12], 1: ["red blue .", ". . ."], 2: ["yellow* . .", ". . ."]}
    assert agree(last_round(both, players=2), hooks=False) is True
    assert agree(last_round(both, players=2, task="garbage"), hooks=False) is False


def test_a_cooperative_line_gives_every_seat_its_placement_each_round():
    both = {**ONE_STEP, 1: ["red blue .", ". . ."], 2: ["yellow* . .", ". . ."]}
    found = solve(last_round(both, players=2))
    assert found.line == ("1: 12 2,0 0 | 2: 2 2,0 0",)


# -- against plain searches on many small positions ------------------------------------------------

SMALL = ("red", "blue", "star", "pool", "cap", ".")


def _small_deck(rng: random.Random) -> list[dict]:
    cards = []
    for i in range(1, 17):
        cells = [rng.choice(SMALL) for _ in range(6)]
        shells = [k for k, c in enumerate(cells) if c in ("red", "blue", "star")]
        if shells and rng.random() < 0.7:
            cells[rng.choice(shells)] += "*"
        cards.append({"id": i, "beach": " ".join(rng.choice(("red", "blue", "star")) for _ in range(3)),
                      "grid": [" ".join(cells[:3]), " ".join(cells[3:])]})
    return cards


def endgame(seed: int, players: int = 1) -> CrabState | None:
    """A random position a few rounds from the end: few symbols, few cards left."""
    rng = random.Random(seed)
    options = CRAB.resolve_options({"players": players, "driftwood": rng.choice([1, 2]),
                                    "wave_start": rng.choice([6, 8]), "task": rng.choice(TASKS)})
    deals = [rng.sample(range(1, 17), 16) for _ in range(players)]
    setup = {"deck": _small_deck(rng), "deal": deals[0]}
    if players > 1:
        setup["deals"] = {str(i): d for i, d in enumerate(deals[1:], 2)}
    s = CRAB.start(options, setup)
    for _ in range(rng.randrange(0, 3)):
        if not s.over:
            s = CRAB.apply(s, CRAB.random_move(s, rng))
    if s.over:
        return None
    wave = rng.randrange(3, 11)
    hermie = max(0, wave - rng.choice([1, 1, 2, 2, 3]))
    coast = tuple(None if i < hermie - 1 and rng.random() < 0.8 else c for i, c in enumerate(s.coast))
    areas = tuple(replace(a, hand=a.hand[:rng.choice([1, 1, 2])], pile=a.pile[:rng.choice([0, 0, 1])])
                  for a in s.areas)
    return replace(s, hermie=hermie, wave=wave, coast=coast, areas=areas)


def _compare(seeds, players: int, limit: int) -> dict[bool, int]:
    answers = {True: 0, False: 0}
    for seed in seeds:
        s = endgame(seed, players)
        if s is None:
            continue
        try:
            truth = plain(s, limit)
        except TooBig:
            continue
        found = solve(s)
        assert found.winnable is truth, seed
        if truth:
            assert wins(s, found.line), seed
        answers[truth] += 1
    return answers


def test_the_solver_agrees_with_a_plain_search_on_small_solo_endgames():
    answers = _compare(range(40), 1, 10)
    assert answers[True] >= 3 and answers[False] >= 3


@pytest.mark.slow
def test_the_solver_agrees_with_a_plain_search_on_many_small_endgames():
    solo = _compare(range(40, 400), 1, 300)
    coop = _compare(range(30), 2, 40)
    assert solo[True] >= 20 and solo[False] >= 20 and coop[False] >= 5


def test_the_solver_agrees_with_the_referees_hooks_on_small_endgames():
    compared = 0
    for seed in range(60):
        s = endgame(seed)
        if s is None:
            continue
        try:
            plain(s, 3)  # small enough for the hooks
        except TooBig:
            continue
        assert solve(s).winnable is through_hooks(s), seed
        compared += 1
        if compared == 8:
            break
    assert compared == 8


# -- the packed rules agree with the referee's ---------------------------------------------------


def _random_deck(rng: random.Random) -> list[dict]:
    cards = []
    for i in range(1, 17):
        cells = [rng.choice(SYMBOLS + (".", ".")) for _ in range(6)]
        shells = [k for k, c in enumerate(cells) if c in PATTERN_SYMBOLS]
        if shells and rng.random() < 0.8:
            cells[rng.choice(shells)] += "*"
        cards.append({"id": i, "beach": " ".join(rng.choice(PATTERN_SYMBOLS) for _ in range(3)),
                      "grid": [" ".join(cells[:3]), " ".join(cells[3:])]})
    return cards


def _agree_on_a_random_game(seed: int) -> int:
    """Play a random game; at every round compare the packed placements with the referee's, and
    the packed position after a sample of rounds with the referee's. Returns rounds compared."""
    rng = random.Random(seed)
    options = CRAB.resolve_options({"players": rng.choice([1, 1, 2, 3]), "driftwood": rng.choice([1, 2]),
                                    "wave_start": rng.choice([6, 8]), "task": rng.choice(TASKS)})
    deals = [rng.sample(range(1, 17), 16) for _ in range(options["players"])]
    setup = {"deck": _random_deck(rng), "deal": deals[0]}
    if len(deals) > 1:
        setup["deals"] = {str(i): d for i, d in enumerate(deals[1:], 2)}
    s = CRAB.start(options, setup)
    cards, compared = packed.Cards(s.deck), 0
    while not s.over:
        shared, seats = packed.packed_state(s)
        pattern, coop = packed.pattern_of(cards, shared), len(seats) > 1
        options_by_seat = []
        for seat_number, seat in enumerate(seats, 1):
            mine = packed.placements(cards, seat, s.task, pattern, coop)
            assert sorted(p.text() for p in mine) == sorted(map(str, CRAB.seat_moves(s, seat_number)))
            moving = packed.placements(cards, seat, s.task, pattern, coop, moving_only=True)
            assert [p.text() for p in moving] == [p.text() for p in mine if p.found]
            options_by_seat.append(mine)
        for _ in range(12):
            plays = tuple(rng.choice(o) for o in options_by_seat)
            turn = CRAB.begin_turn(s)
            for p in plays:
                turn = CRAB.act(turn, Place(p.turn.card, *packed.unpack(p.at), p.turn.rotation))
            after = CRAB.end_turn(turn)[1]
            verdict, hermie, wave = packed.round_end(shared, plays, seats, s.driftwood, s.task)
            drawn = None
            if verdict is None:
                assert packed.can_draw(shared, hermie, plays, seats) is (after.won is None)
                drawn = packed.draw(shared, hermie, wave, tuple(packed.put(a, p) for a, p in zip(seats, plays)))
            assert after.won == {packed.WON: True, packed.LOST: False, None: None if drawn else False}[verdict]
            if drawn is not None:
                assert _key(s.task, *drawn) == _key(s.task, *packed.packed_state(after))
                assert drawn[0] == packed.packed_state(after)[0]
            compared += 1
        s = CRAB.apply(s, CRAB.random_move(s, rng))
    return compared


def test_packed_rounds_agree_with_the_referee_on_random_games():
    assert sum(_agree_on_a_random_game(seed) for seed in range(6)) > 200


@pytest.mark.slow
def test_packed_rounds_agree_with_the_referee_on_many_random_games():
    assert sum(_agree_on_a_random_game(seed) for seed in range(6, 200)) > 8_000


# -- the key, the bounds, determinism --------------------------------------------------------------


def test_the_key_ignores_where_the_play_area_lies_but_not_the_hand():
    s = state(ONE_STEP)
    here, seats = packed.packed_state(s)
    moved = packed.Seat({p + 3 * packed.ROW - 2: c for p, c in seats[0].cells.items()},
                        seats[0].hand, seats[0].pile, seats[0].caps, seats[0].danced,
                        (3, -2, 5, -1))
    assert _key(s.task, here, (moved,)) == _key(s.task, here, seats)
    other = packed.Seat(seats[0].cells, (12, 14), seats[0].pile, seats[0].caps, False, seats[0].box)
    assert _key(s.task, here, (other,)) != _key(s.task, here, seats)


def test_bound_counts_the_coast_cards_behind_hermie_even_with_an_empty_hand():
    coast = (1, 2, None, 4, 5, 6, 7, 8, 9, 10)
    # Slots 1 and 2 at the next Phase 1, then a slot more each round Hermie may walk on: 4–8.
    assert rounds_possible(coast, 3, 0) == 7
    assert rounds_possible(coast, 1, 0) == 0  # nothing left of Hermie yet
    assert rounds_possible(coast, 1, 1) == 3  # slots 1 and 2; the empty slot 3 ends it


def test_bound_needs_three_pools_for_the_crab_dance():
    s = state({11: ["red blue .", "pool . ."], 12: ["pool . .", ". . ."]}, task="crab-dance")
    assert hopeless(packed.Cards(s.deck), s.task, *packed.packed_state(s))
    s = state({11: ["red blue .", "pool . ."], 12: ["pool . .", ". . ."], 16: ["pool . .", ". . ."]},
              task="crab-dance")
    assert not hopeless(packed.Cards(s.deck), s.task, *packed.packed_state(s))


def test_without_bounds_and_passes_the_search_finds_the_same_answers():
    compared = 0
    for seed in range(16):
        s = endgame(seed)
        if s is None:
            continue
        try:
            truth = plain(s, 10)
        except TooBig:
            continue
        assert (Search(s, prune=False).run() is not None) is truth is solve(s).winnable
        compared += 1
    assert compared >= 4


def test_the_solver_answers_alike_every_time():
    s = CRAB.start(CRAB.resolve_options({"seed": 3}),
                   CRAB.new_setup(CRAB.resolve_options({"seed": 3}), {"deck": {"cards": deck(
                       {i: "red blue red" for i in range(1, 11)},
                       {i: ["red blue red", "blue* red blue"] for i in range(1, 17)})}}, 3))
    first = solve(s)
    assert first.winnable is True and wins(s, first.line)
    assert solve(s) == first


def test_out_of_positions_the_answer_is_unknown_and_a_finished_game_is_refused():
    s = last_round(ONE_STEP)
    assert solve(s, max_positions=0).winnable is None
    assert solve(s, out_of_time=lambda: True).winnable is None
    with pytest.raises(ValueError, match="over"):
        solve(replace(s, won=False))
