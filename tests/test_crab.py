"""Rules of Hermit: Small crab, big wave (`crab`), one ruling at a time (R-CR1…R-CR9).

Most tests deal a made-up deck in a fixed order: cards 1–10 form the Coast (slot n holds card
n), card 11 starts the play area at 0,0, cards 12 and 13 are the opening hand and 14–16 the
pile. Cards not given are blank ('.' everywhere), so only the cells a test names can make a
pattern. Positions further on (Hermie on slot 5, say) are set with `dataclasses.replace`.
"""

from __future__ import annotations

from dataclasses import replace

import pytest

from referee.errors import IllegalMoveError, NotationError, RecordError
from referee.games import GAMES
from referee.games.crab.deck import check_deal, parse_deck
from referee.games.crab.position import CrabState
from referee.record.values import Entry, Record
from referee.record.reading import parse_record
from referee.render.drawing import svg_diagram, text_diagram
from referee.play.words import result_words
from referee.play.replay import replay, start

CRAB = GAMES["crab"]
BLANK = [". . .", ". . ."]


def deck(coast: dict[int, str] | None = None, cards: dict[int, list[str]] | None = None) -> list[dict]:
    """16 cards; `coast` gives beach patterns by card (= Coast slot), `cards` seashell sides."""
    coast, cards = coast or {}, cards or {}
    return [
        {"id": i, "beach": coast.get(i, "red red red"), "grid": cards.get(i, BLANK)}
        for i in range(1, 17)
    ]


def setup(coast=None, cards=None, **options) -> tuple[CrabState, dict]:
    resolved = CRAB.resolve_options(options)
    deal = {"deck": deck(coast, cards), "deal": list(range(1, 17))}
    if resolved["players"] > 1:
        deal["deals"] = {str(s): list(range(1, 17)) for s in range(2, resolved["players"] + 1)}
    return CRAB.start(resolved, deal), resolved


def state(coast=None, cards=None, **options) -> CrabState:
    return setup(coast, cards, **options)[0]


def play(s: CrabState, text: str) -> CrabState:
    return CRAB.apply(s, CRAB.parse(s, text))


# -- R-CR1, R-CR2, R-CR2a: deck, deal and setup ----------------------------------------------------


def test_r_cr2_setup_coast_hermie_wave_pile_and_opening_hand():
    s = state(wave_start=8)
    assert s.coast == tuple(range(1, 11))
    assert s.hermie == 0 and s.wave == 8
    area = s.areas[0]
    assert area.placed[0].card == 11 and (area.placed[0].x, area.placed[0].y) == (0, 0)
    assert area.hand == (12, 13) and area.pile == (14, 15, 16)
    assert CRAB.score(s) == {"hermie": 0, "wave": 8, "hand": [12, 13], "pile": 3}


def test_r_cr2_wave_start_is_6_or_8():
    with pytest.raises(ValueError, match="6 or 8"):
        CRAB.resolve_options({"wave_start": 7})


@pytest.mark.parametrize(
    "change, words",
    [
        (lambda d: d[:15], "16 cards"),
        (lambda d: [*d[:15], {**d[15], "id": 1}], "used twice"),
        (lambda d: [{**d[0], "grid": ["red red red red", ". . ."]}, *d[1:]], "row 1 has 4 cells"),
        (lambda d: [{**d[0], "grid": ["shell . .", ". . ."]}, *d[1:]], "'shell' is not a symbol"),
        (lambda d: [{**d[0], "grid": ["cap* . .", ". . ."]}, *d[1:]], "driftwood"),
        (lambda d: [{**d[0], "beach": "red cap red"}, *d[1:]], "beach must be 3"),
        (lambda d: [{**d[0], "colour": "red"}, *d[1:]], "unknown key 'colour'"),
    ],
)
def test_r_cr1_a_bad_deck_is_refused_with_the_card_and_the_fault(change, words):
    with pytest.raises(ValueError, match=words):
        CRAB.setup_from_file("deck", {"cards": change(deck())})


def test_r_cr2_a_record_with_a_bad_deal_is_invalid():
    record = Record("crab", setup={"deal": [1, 2, 3]})
    with pytest.raises(RecordError, match="each of the 16 cards once"):
        start(record)


@pytest.mark.parametrize(
    "deal, words",
    [
        ([1, 2, 3], "card 4 missing"),
        ([*range(1, 16), 7], "card 7 twice"),
        ([*range(16, 0, -1), 9, 5], "card 5 twice"),  # the smallest card given twice
        (list(range(1, 17)) * 10_000, "card 1 twice"),  # a long deal is counted once, not per card
    ],
)
def test_r_cr2_a_bad_deal_names_the_first_card_twice_or_missing(deal, words):
    cards = parse_deck(deck())
    with pytest.raises(ValueError, match=f"setup.deal must hold each of the 16 cards once \\({words}\\)"):
        check_deal(deal, cards, "setup.deal")


def test_r_cr9_a_cooperative_record_needs_a_deal_for_every_seat():
    record = Record("crab", {"players": 2}, setup={"deal": list(range(1, 17))})
    with pytest.raises(RecordError, match="no deal for seat 2"):
        start(record)
    record.setup["deals"] = {"2": list(range(1, 17)), "3": list(range(1, 17))}
    with pytest.raises(RecordError, match="seat 3"):
        start(record)


def test_r_cr2_replays_use_the_recorded_deal_not_the_seed():
    # The seed only shuffles at `referee new`; the deal written in [setup] is what counts.
    record = Record("crab", {"seed": 99}, setup={"deal": list(range(16, 0, -1))})
    assert start(record).state.coast == tuple(range(16, 6, -1))


def test_r_cr2a_a_blank_cell_is_footprint_but_not_a_symbol():
    # The start card's right column is '.': a card touching only it is still beside a card,
    # but the '.' cannot stand in a pattern.
    s = state(coast={1: "red blue yellow"}, cards={11: ["red blue .", ". . ."], 12: ["yellow . .", ". . ."]})
    after = play(s, "12 3,0 0")  # touches the '.' at 2,0 by an edge
    assert after.hermie == 0


# -- notation ----------------------------------------------------------------------------------


def test_notation_is_read_loosely_and_written_canonically():
    s = state()
    move = CRAB.parse(s, "  12   3 , 0   90 ")
    assert str(move) == "12 3,0 90"


def test_notation_a_rotation_that_changes_nothing_takes_the_smaller_angle():
    # A card whose 180° turn shows the same faces on the same cells (SPEC §5).
    s = state(cards={12: ["red blue red", "red blue red"]})
    assert str(CRAB.parse(s, "12 3,0 180")) == "12 3,0 0"
    assert str(CRAB.parse(s, "12 3,0 270")) == "12 3,0 90"
    moves = [str(m) for m in CRAB.legal_moves(s) if str(m).startswith("12 ")]
    assert not any(m.endswith((" 180", " 270")) for m in moves)
    assert "12 3,0 0" in moves and "12 3,0 90" in moves


@pytest.mark.parametrize("text, words", [
    ("12 3 0 0", "expected"), ("12 3,0 45", "0, 90, 180 or 270"), ("99 3,0 0", "no card 99"),
])
def test_notation_mistakes_are_notation_errors(text, words):
    with pytest.raises(NotationError, match=words):
        CRAB.parse(state(), text)


# -- R-CR4: placing --------------------------------------------------------------------------


def test_r_cr4_a_card_must_overlap_or_share_an_edge():
    s = state()
    play(s, "12 3,0 0")  # edge to edge
    play(s, "12 1,1 0")  # overlapping
    with pytest.raises(IllegalMoveError, match="R-CR4"):
        play(s, "12 3,2 0")  # only a corner touches
    with pytest.raises(IllegalMoveError, match="R-CR4"):
        play(s, "12 5,5 0")


def test_r_cr4_only_a_card_in_the_hand_can_be_placed():
    with pytest.raises(IllegalMoveError, match="not in the hand"):
        play(state(), "14 3,0 0")


def test_r_cr4_legal_moves_are_exactly_the_placements_the_referee_accepts():
    s = state(cards={11: ["red blue yellow", "cap . pool"], 12: ["red blue yellow", "cap . pool"]})
    listed = {str(m) for m in CRAB.legal_moves(s)}
    accepted = set()
    for card in (12, 13):
        for rotation in (0, 90, 180, 270):
            for y in range(-5, 6):
                for x in range(-5, 7):
                    move = CRAB.parse(s, f"{card} {x},{y} {rotation}")
                    try:
                        CRAB.apply(s, move)
                    except IllegalMoveError:
                        continue
                    accepted.add(str(move))
    assert accepted == listed
    # Card 13 is blank, so its 180° and 270° turns are its 0° and 90° ones (SPEC §5).
    assert len([m for m in listed if m.startswith("12 ")]) == 2 * len([m for m in listed if m.startswith("13 ")])


# -- R-CR5: the pattern and Hermie ----------------------------------------------------------------


def test_r_cr5_pattern_found_reversed_in_a_row():
    s = state(coast={1: "red blue yellow"}, cards={11: ["yellow blue .", ". . ."], 12: ["red . .", ". . ."]})
    after = play(s, "12 2,0 0")  # yellow blue red, read right to left
    assert after.hermie == 1
    assert set(after.areas[0].recreated) == {(0, 0), (1, 0), (2, 0)}


def test_r_cr5_pattern_found_vertically():
    s = state(coast={1: "red blue yellow"}, cards={11: ["red . .", "blue . ."], 12: ["yellow . .", ". . ."]})
    assert play(s, "12 0,2 0").hermie == 1


def test_r_cr5_a_rotated_card_gives_its_symbols_turned():
    # Card 12 turned 90° clockwise shows its top row down its right column: red at the top.
    s = state(coast={1: "red blue yellow"}, cards={11: [". . .", ". . ."], 12: ["red blue yellow", ". . ."]})
    after = play(s, "12 3,0 90")
    assert after.hermie == 1 and set(after.areas[0].recreated) == {(4, 0), (4, 1), (4, 2)}


def test_r_cr5_the_pattern_needs_a_symbol_on_the_card_just_placed():
    s = state(coast={1: "red blue yellow"}, cards={11: ["red blue yellow", ". . ."], 12: ["red . .", ". . ."]})
    assert play(s, "12 0,2 0").hermie == 0


def test_r_cr5_diagonals_and_wrong_orders_do_not_count():
    s = state(coast={1: "red blue yellow"}, cards={11: ["red . .", ". blue ."], 12: ["yellow . .", ". . ."]})
    assert play(s, "12 2,2 0").hermie == 0  # red, blue, yellow on a diagonal
    s = state(coast={1: "red blue yellow"}, cards={11: ["blue red .", ". . ."], 12: ["yellow . .", ". . ."]})
    assert play(s, "12 2,0 0").hermie == 0  # blue red yellow


def _onto_wave(driftwood: int, start_row: str) -> CrabState:
    s = state(coast={6: "red blue yellow"}, cards={11: [start_row, ". . ."], 12: ["yellow* . .", ". . ."]},
              driftwood=driftwood)
    return replace(s, hermie=5)


def test_r_cr5_onto_the_wave_needs_driftwood_in_the_pattern():
    assert play(_onto_wave(1, "red blue ."), "12 2,0 0").won is True
    assert play(_onto_wave(2, "red blue ."), "12 2,0 0").hermie == 5  # only 1 on driftwood
    assert play(_onto_wave(2, "red blue* ."), "12 2,0 0").won is True


def test_r_cr5_one_triple_must_meet_every_condition_at_once():
    # Two triples read the pattern: the row has driftwood but no symbol on the new card, the
    # column has a symbol on the new card but no driftwood. Neither alone does it.
    s = state(coast={6: "red blue yellow"},
              cards={11: ["red* blue yellow", ". . ."], 12: ["blue . .", "red . ."]})
    s = replace(s, hermie=5)
    after = play(s, "12 2,1 0")  # yellow at 2,0; blue 2,1; red 2,2: a column from the new card
    assert after.hermie == 5 and after.won is None


# -- R-CR6: the Wave -------------------------------------------------------------------------------


def test_r_cr6_no_pattern_the_wave_moves_right():
    assert play(state(), "12 3,0 0").wave == 7


def test_r_cr6_two_pools_side_by_side_move_the_wave_left():
    s = state(coast={1: "red blue yellow"},
              cards={11: ["red blue .", ". pool ."], 12: ["yellow . .", "pool . ."]})
    after = play(s, "12 2,0 0")  # pools at 1,1 (old card) and 2,1 (new card)
    assert after.hermie == 1 and after.wave == 5


def test_r_cr6_pools_a_cell_apart_do_not_move_the_wave_left():
    s = state(coast={1: "red blue yellow"},
              cards={11: ["red blue .", "pool . ."], 12: ["yellow . .", "pool . ."]})
    after = play(s, "12 2,0 0")  # pools at 0,1 and 2,1
    assert after.hermie == 1 and after.wave == 7


def test_r_cr6_the_wave_never_lands_on_hermie():
    s = state(coast={3: "red blue yellow"},
              cards={11: ["red blue .", ". pool ."], 12: ["yellow . .", "pool . ."]}, wave_start=6)
    s = replace(s, hermie=2, wave=4)
    after = play(s, "12 2,0 0")  # Hermie steps to 3; the Wave on 4 would land on him
    assert after.hermie == 3 and after.wave == 4


def test_r_cr6_two_identical_symbols_keep_the_wave_still():
    s = state(coast={1: "red blue yellow"},
              cards={11: ["red blue .", ". . ."], 12: ["yellow yellow .", ". . ."]})
    after = play(s, "12 2,0 0")
    assert after.hermie == 1 and after.wave == 6


def test_r_cr6_pools_and_pairs_count_only_when_hermie_moved():
    s = state(cards={11: [". pool .", ". yellow ."], 12: ["pool . .", "yellow . ."]})
    after = play(s, "12 2,0 0")  # pools 1,0 2,0 and yellows 1,1 2,1 side by side; no pattern
    assert after.hermie == 0 and after.wave == 7


# -- R-CR7: the end --------------------------------------------------------------------------------


def test_r_cr7_the_wave_leaving_the_rightmost_card_loses():
    s = replace(state(), wave=10)
    after = play(s, "12 3,0 0")
    assert after.won is False and "left the rightmost card" in after.reason
    outcome = CRAB.outcome(after)
    assert outcome.winners == () and outcome.summary.startswith("Lost:")


# -- R-CR3: drawing --------------------------------------------------------------------------------


def test_r_cr3_draw_up_to_two_from_the_pile():
    after = play(state(), "12 3,0 0")
    assert after.areas[0].hand == (13, 14) and after.areas[0].pile == (15, 16)


def test_r_cr3_two_visible_caps_limit_the_hand_to_one():
    s = state(cards={11: ["cap cap .", ". . ."]})
    assert s.areas[0].hand == (12,)  # the opening draw already has the limit of 1
    after = play(s, "12 3,0 0")  # an empty hand draws one
    assert after.areas[0].hand == (13,)
    s = state(cards={11: ["cap . .", ". . ."], 12: ["cap . .", ". . ."]})
    after = play(s, "12 3,0 0")  # now 2 caps: 13 is still held, so nothing is drawn
    assert after.areas[0].hand == (13,) and after.areas[0].pile == (14, 15, 16)


def test_r_cr3_an_empty_pile_draws_from_the_coast_behind_hermie_leftmost_first():
    s = state()
    s = replace(s, hermie=4, areas=(replace(s.areas[0], pile=(16,)),))
    after = play(s, "12 3,0 0")
    assert after.areas[0].hand == (13, 16) and after.coast[:4] == (1, 2, 3, 4)
    after = play(after, "13 3,0 0")
    # Pile empty: slots strictly left of Hermie (1–3), leftmost first; slot 1 now stays empty.
    assert after.areas[0].hand == (16, 1) and after.coast[:4] == (None, 2, 3, 4)


def test_r_cr3_hermies_own_card_and_those_right_of_him_are_never_drawn():
    s = state()
    s = replace(s, hermie=2, coast=(None,) + s.coast[1:], areas=(replace(s.areas[0], pile=()),))
    after = play(s, "12 3,0 0")  # slot 1 already drawn, slot 2 is under Hermie
    assert after.won is False and "could not draw" in after.reason
    assert after.coast[1] == 2 and after.areas[0].hand == (13,)


def test_r_cr3_the_game_is_lost_when_no_card_can_be_drawn():
    s = state()
    s = replace(s, areas=(replace(s.areas[0], pile=()),))  # Hermie ashore: no Coast behind him
    after = play(s, "12 3,0 0")
    assert after.won is False and "could not draw" in after.reason and "R-CR3" in after.reason


# -- R-CR8: tasks ----------------------------------------------------------------------------------


def test_r_cr8_garbage_never_covers_a_bottle_cap():
    s = state(cards={11: ["cap . .", ". . ."]}, task="garbage")
    with pytest.raises(IllegalMoveError, match="garbage"):
        play(s, "12 0,0 0")
    play(s, "12 1,0 0")
    assert not any(str(m).startswith("12 0,0 ") for m in CRAB.legal_moves(s))


def test_r_cr8_sandcastle_keeps_every_card_in_one_6_by_6_square():
    s = state(task="sandcastle")
    s = play(s, "12 3,0 0")  # 6 wide
    with pytest.raises(IllegalMoveError, match="9×2"):
        play(s, "13 6,0 0")
    s = play(s, "13 0,2 90")  # 6×5
    with pytest.raises(IllegalMoveError, match="6×7, and the task sandcastle"):
        play(s, "14 0,5 0")


def test_r_cr8_big_beach_covers_at_most_two_symbols():
    s = state(cards={11: ["red blue yellow", ". . ."]}, task="big-beach")
    play(s, "12 1,0 0")  # covers blue and yellow (and two '.' cells)
    with pytest.raises(IllegalMoveError, match="covers 3 symbols"):
        play(s, "12 0,0 0")


def _win(task: str, pile=(14, 15, 16), wave=6, start_card=("red blue .", ". . .")) -> CrabState:
    s = state(coast={wave: "red blue yellow"},
              cards={11: list(start_card), 12: ["yellow* . .", ". . ."]},
              task=task)
    s = replace(s, hermie=wave - 1, wave=wave, areas=(replace(s.areas[0], pile=pile),))
    return play(s, "12 2,0 0")


def test_r_cr8_dunes_needs_two_unused_cards():
    assert _win("dunes", pile=(14,)).won is True  # 13 in hand and 14 in the pile
    lost = _win("dunes", pile=())
    assert lost.won is False and "dunes" in lost.reason


def test_r_cr8_nature_reserve_allows_no_visible_cap():
    lost = _win("nature-reserve", start_card=("red blue .", "cap . ."))
    assert lost.won is False and "nature-reserve" in lost.reason
    assert _win("nature-reserve").won is True


def test_r_cr8_crashing_waves_needs_four_slots_right_of_the_wave():
    assert _win("crashing-waves", wave=6).won is True
    lost = _win("crashing-waves", wave=7)
    assert lost.won is False and "crashing-waves" in lost.reason


def test_r_cr8_crab_dance_needs_three_pools_in_a_row_at_some_moment():
    assert _win("crab-dance").won is False
    s = state(coast={6: "red blue yellow"},
              cards={11: ["red blue .", "pool pool ."], 12: ["yellow* . .", "pool . ."]},
              task="crab-dance")
    after = play(replace(s, hermie=5), "12 2,0 0")  # pools at 0,1 1,1 2,1
    assert after.won is True


# -- R-CR9: cooperative play -----------------------------------------------------------------------


def test_r_cr9_every_seat_has_its_own_pile_and_never_draws_from_the_coast():
    s = state(players=2)
    assert s.areas[1].placed[0].card == 1 and s.areas[1].hand == (2, 3)
    assert len(s.areas[1].pile) == 13
    s = replace(s, hermie=4, areas=(s.areas[0], replace(s.areas[1], pile=())))
    after = play(s, "1: 12 3,0 0 | 2: 2 3,0 0")
    assert after.won is False and "seat 2 could not draw" in after.reason
    assert after.coast[:3] == (1, 2, 3)


def test_r_cr9_hermie_moves_only_when_every_seat_recreates_the_pattern():
    cards = {11: ["red blue .", ". . ."], 12: ["yellow . .", ". . ."],
             1: ["red blue .", ". . ."], 2: ["yellow . .", ". . ."]}
    s = state(coast={1: "red blue yellow"}, cards=cards, players=2)
    # Seat 2's deal is 1–16 too: it starts with card 1 and holds 2 and 3; but card 1 is also
    # on the Coast's slot 1 in seat 1's deal: each seat has its own copy of the deck.
    assert play(s, "1: 12 2,0 0 | 2: 2 2,0 0").hermie == 1
    assert play(s, "1: 12 2,0 0 | 2: 3 2,0 0").hermie == 0


def test_r_cr9_one_seat_with_pools_moves_the_wave_left():
    cards = {11: ["red blue .", ". pool ."], 12: ["yellow . .", "pool . ."],
             1: ["red blue .", ". . ."], 2: ["yellow . .", ". . ."]}
    s = state(coast={1: "red blue yellow"}, cards=cards, players=2)
    after = play(s, "1: 12 2,0 0 | 2: 3 3,0 0")  # seat 1 recreated with pools; seat 2 did not
    assert after.hermie == 0 and after.wave == 5


def test_r_cr9_a_still_wave_needs_the_pair_in_the_recreated_pattern():
    cards = {11: ["red blue .", ". . ."], 12: ["yellow . .", ". yellow yellow"],
             1: ["red blue .", ". . ."], 2: ["yellow . .", ". . ."]}
    s = state(coast={1: "red blue yellow"}, cards=cards, players=2)
    # Seat 1's yellows side by side at 3,1 and 4,1 are not in its pattern: the Wave moves on
    # (alone, the same cards would keep it still: R-CR6).
    assert play(s, "1: 12 2,0 0 | 2: 2 2,0 0").wave == 7
    solo = state(coast={1: "red blue yellow"}, cards=cards)
    assert play(solo, "12 2,0 0").wave == 6
    cards[12] = ["yellow yellow .", ". . ."]
    s = state(coast={1: "red blue yellow"}, cards=cards, players=2)
    assert play(s, "1: 12 2,0 0 | 2: 2 2,0 0").wave == 6


def test_r_cr9_two_caps_in_one_area_limit_every_hand_to_one():
    s = state(cards={1: ["cap cap .", ". . ."]}, players=2)
    assert s.areas[0].hand == (12,) and s.areas[1].hand == (2,)


def test_r_cr9_notation_gives_one_placement_per_seat_in_order():
    s = state(players=2)
    assert str(CRAB.parse(s, "1:12 3,0 0|2: 2 3,0 90")) == "1: 12 3,0 0 | 2: 2 3,0 90"
    with pytest.raises(NotationError, match="seat order"):
        CRAB.parse(s, "2: 2 3,0 0 | 1: 12 3,0 0")
    with pytest.raises(NotationError, match="one placement for each"):
        CRAB.parse(s, "1: 12 3,0 0")


# -- R-G2 for a cooperative game: a resignation loses for everybody --------------------------------


def test_r_g2_resigning_a_crab_game_is_a_loss_for_every_seat():
    record = Record("crab", {"players": 2}, {1: {"name": "Ann"}})
    p = start(record)
    p.push("resign")
    outcome = p.outcome()
    assert outcome.winners == () and result_words(p, names=False) == "Lost: seat 1 resigned"
    assert result_words(p) == "Lost: Ann resigned"


def test_a_record_round_trips_with_its_deal_and_replays_the_same():
    s_record = Record("crab", {"seed": 5})
    p = start(s_record)
    for _ in range(3):
        if p.outcome() is None:
            p.push(str(CRAB.legal_moves(p.state)[0]))
    text = Record("crab", {"seed": 5}, moves=[Entry(e) for e in p.entries]).to_toml()
    again = replay(parse_record(text.encode()))
    assert again.entries == p.entries and CRAB.score(again.state) == CRAB.score(p.state)


# -- the diagrams ----------------------------------------------------------------------------------


def test_text_diagram_shows_glyphs_driftwood_the_new_card_and_the_pattern():
    cards = {11: ["red blue .", "pool . cap"], 12: ["yellow* star .", ". . ."]}
    record = Record("crab", setup={"deck": deck({1: "red blue yellow"}, cards), "deal": list(range(1, 17))})
    p = start(record)
    p.push("12 2,0 0")
    text = text_diagram(p)
    rows = text.split("Play area; card 12 placed this round\n")[1].splitlines()
    assert rows[0].split() == ["0", "1", "2", "3", "4"]
    # Row 0: red and blue of the pattern in ( ), the new yellow on driftwood too, then the
    # rest of the new card in [ ]; row 1: the pool, a blank cell, the cap under the new card.
    assert rows[1] == "  0 (R )(B )(Y=)[* ][. ]"
    assert rows[2] == "  1  ~   .  [. ][. ][. ]"
    coast = text.split("Coast\n")[1].splitlines()
    assert coast[2].split()[1] == "RBY" and "H" in coast[3].split()


def test_svg_diagram_draws_one_play_area_per_seat():
    p = start(Record("crab", {"players": 3}))
    svg = svg_diagram(p)
    assert "Seat 1, play area" in svg and "Seat 3, play area" in svg
