"""The pieces the candy games share (``tricky_treats.protocol.game_kit``), on small made-up actions."""

from __future__ import annotations

import random

import attrs
import pytest

from tricky_treats.protocol import game_kit as kit


@attrs.frozen
class Hop(kit.SpokenAction):
    """An action without fields."""

    word = "hop"


@attrs.frozen
class Give(kit.SpokenAction):
    """An action with fields, written in order."""

    player: int
    candy: str
    word = "give"


@attrs.frozen
class Loud(kit.SpokenAction):
    """A field written its own way."""

    level: int
    word = "shout"

    @staticmethod
    def _written(value: object) -> str:
        return "!" * int(str(value))


def test_an_action_is_written_as_its_word_then_its_fields() -> None:
    assert str(Hop()) == "hop"
    assert str(Give(2, "red")) == "give 2 red"
    assert str(Loud(3)) == "shout !!!"
    # The word is no field: it stays out of the repr, equality and records.
    assert repr(Give(2, "red")) == "Give(player=2, candy='red')"
    assert attrs.asdict(Give(2, "red")) == {"player": 2, "candy": "red"}
    spoken: list[kit.SpokenAction] = [Hop(), Give(2, "red")]
    assert spoken[0] != spoken[1]


def test_a_seeded_random_source_is_the_same_everywhere_and_apart_by_purpose() -> None:
    # Seeded by text: the same stream in every process (no hash randomization).
    assert kit.seeded_random(7, "deal", 1).random() == pytest.approx(0.44139257107220775, abs=0)
    assert kit.seeded_random(7, "deal", 1).random() != kit.seeded_random(7, "deal", 2).random()
    assert kit.seeded_random(7, "deal", 1).random() == random.Random("7:deal:1").random()


def test_winners_share_the_result() -> None:
    assert kit.shared_returns((1,), 3) == (0.0, 1.0, 0.0)
    assert kit.shared_returns((0, 2), 4) == (0.5, 0.0, 0.5, 0.0)
    assert kit.shared_returns((), 2) == (0.0, 0.0)  # before the end


def test_a_tuple_with_one_item_replaced() -> None:
    assert kit.replaced((1, 2, 3), 1, 9) == (1, 9, 3)
    assert kit.replaced((1,), 0, 5) == (5,)


def test_the_legal_actions_of_a_refusal() -> None:
    assert kit.legal_now([Hop(), Give(1, "red")]) == "hop, give 1 red"
    assert kit.legal_now([Hop()] * 3, 2) == "hop, hop, ..."
    assert kit.legal_now([Hop()] * 2, 2) == "hop, hop"
    assert kit.legal_now([]) == "nothing"
    assert kit.legal_now([], none="none, the match is over") == "none, the match is over"


def test_a_seat_is_a_whole_number_below_the_number_of_players() -> None:
    kit.check_seat(0, 2, ValueError)
    kit.check_seat(3, 4, ValueError)
    for bad in (-1, 2, True, 1.0, "1", None):
        with pytest.raises(KeyError, match=r"no player .*; players are 0 to 1"):
            kit.check_seat(bad, 2, KeyError)


def test_a_bot_is_found_by_its_name_or_the_error_lists_the_names() -> None:
    from tricky_treats.protocol import RandomPlayer, SearchPlayer

    plain = {"random": RandomPlayer}
    searching = {"search": lambda n: SearchPlayer(iterations=n)}
    assert kit.bot_named("random", plain, searching, KeyError) == RandomPlayer()
    assert kit.bot_named("search", plain, searching, KeyError) == SearchPlayer()
    assert kit.bot_named("search:7", plain, searching, KeyError) == SearchPlayer(iterations=7)
    for bad in (
        "random:3",
        "search:",
        "search:0",
        "search:-1",
        "search:\u0661",
        "search:100001",
        "x",
    ):
        with pytest.raises(ValueError, match=r"choose random, search\[:ITERATIONS\]"):
            kit.bot_named(bad, plain, searching, ValueError)


def test_dealings_are_weighed_by_the_likelihoods_of_the_other_seats() -> None:
    dealings = [("a", "b", "c"), ("a", "c", "b")]
    # Seat 1 did what "b" makes twice as likely as "c"; seat 0's own mapping is ignored.
    habits: list[dict[str, list[tuple[str | None, float]]]] = [
        {"a": [("a", 0.001)]},
        {"b": [("b", 1.0)], "c": [("c", 0.5)]},
        {},
    ]
    guesses = kit.Dealings.weigh(0, dealings, habits)
    assert guesses.weights == pytest.approx((2 / 3, 1 / 3))
    assert guesses.odds(1) == pytest.approx({"b": 2 / 3, "c": 1 / 3})
    assert guesses.likely(0.5) == [(1, "b"), (2, "c")]
    rng = random.Random(0)
    draws = [guesses.draw(rng) for _ in range(3000)]
    assert draws.count(("a", "b", "c")) / 3000 == pytest.approx(2 / 3, abs=0.03)


def test_a_seats_favourite_is_drawn_by_its_habits_and_guesses_can_be_narrowed() -> None:
    dealings = [("a", "b", "c"), ("a", "c", "b")]
    # Seat 1 holding "b" plays for it (0.3) or for "c" as a decoy (0.1), or for nothing (0.1);
    # the three weights sum to how likely "b" makes what seat 1 did (0.5, against 0.25).
    habits: list[dict[str, list[tuple[str | None, float]]]] = [
        {},
        {"b": [("b", 0.3), ("c", 0.1), (None, 0.1)], "c": [("c", 0.25)]},
        {},
    ]
    guesses = kit.Dealings.weigh(0, dealings, habits)
    assert guesses.odds(1) == pytest.approx({"b": 2 / 3, "c": 1 / 3})
    rng = random.Random(1)
    favourites = [guesses.draw_favourites(("a", "b", "c"), rng)[1] for _ in range(3000)]
    assert favourites.count("b") / 3000 == pytest.approx(0.6, abs=0.03)
    assert favourites.count("c") / 3000 == pytest.approx(0.2, abs=0.03)
    assert favourites.count(None) / 3000 == pytest.approx(0.2, abs=0.03)
    # The player's own seat and a seat without habits play for their own secret.
    assert guesses.draw_favourites(("a", "c", "b"), rng) == ("a", "c", "b")
    narrowed = guesses.given(1, "c")
    assert narrowed.odds(1) == {"c": 1.0}
    assert narrowed.draw(rng) == ("a", "c", "b")
    with pytest.raises(ValueError, match="cannot hold"):
        narrowed.given(1, "b")


def test_wide_characters_take_two_columns() -> None:
    assert kit.columns("basket 3") == 8
    assert kit.columns("提籃 3") == 6  # two wide characters, a space and a digit
    assert kit.columns("\uff08糖果 0\uff09") == 10  # full-width parentheses are wide too


def test_chinese_wraps_at_80_display_columns_not_80_characters() -> None:
    text = "  炸彈: " + "將糖果卡置於此提籃卡下方的玩家，可將炸彈提籃卡與相鄰的提籃卡互換位置。" * 4
    lines = kit.wrap(text, 80, subsequent_indent="      ")
    assert len(lines) > 2
    assert max(map(kit.columns, lines)) <= 80
    assert all(kit.columns(line) >= 76 for line in lines[:-1])  # filled, not cut short
    assert "".join("".join(lines).split()) == "".join(text.split())  # nothing lost
    assert lines[0].startswith("  炸彈: ")
    assert all(line.startswith("      ") for line in lines[1:])
    # A line never starts with closing punctuation: it goes down with what it closes.
    assert not any(line.strip()[0] in "，。\uff09；：" for line in lines)
    assert kit.wrap("提籃" * 5 + "。", 10) == ["提籃提籃提", "籃提籃提", "籃。"]


def test_narrow_text_wraps_exactly_as_textwrap_did() -> None:
    import textwrap

    text = "  lice: gummy has lice (the most candy under the lice basket); " * 3
    assert kit.wrap(text, 80, subsequent_indent="      ") == textwrap.wrap(
        text, 80, subsequent_indent="      ", break_on_hyphens=False
    )
    assert kit.wrap("basket 1:  -  (0 candy)", 80) == ["basket 1:  -  (0 candy)"]


def _parse_notation(text: str) -> tuple[str, ...]:
    words = tuple(text.lower().split())  # as the games read actions: in any letter case
    if words[:1] not in (("play",), ("pass",)) or not set(words[1:]) <= {"k3", "bomb"}:
        raise ValueError(f"{text!r} is not an action")
    return words


def test_a_notation_is_spelled_and_read_in_the_players_words() -> None:
    """Issue 48: the consoles listed English notation under a Spanish, Dutch or Chinese board."""
    words = {"play": ("play",), "pass": ("pass",), "bomb": ("bomb basket", "bomb")}
    chinese = {"play": "出牌", "bomb basket": "炸彈提籃", "bomb": "炸彈"}
    spoken = kit.Notation(words, _parse_notation, lambda m: chinese.get(m, m))
    assert spoken.spell("play K3 bomb") == "出牌 K3 炸彈提籃"
    assert spoken.spell("pass") == "pass"  # a word with no translation stays the notation's
    # Read back in either language, both at once, with or without spaces between wide words.
    for typed in ("出牌 K3 炸彈提籃", "出牌K3炸彈提籃", "play K3 炸彈", "PLAY k3 BOMB"):
        assert spoken.read(typed) == ("play", "k3", "bomb"), typed
    assert spoken.read("出牌 K9") is None  # no action: None, not the parser's error
    # English: each word is the notation's own, not its message id ("bomb basket").
    english = kit.Notation(words, _parse_notation, lambda m: m)
    assert english.spell("play K3 bomb") == "play K3 bomb"
    assert english.read("play K3 bomb") == ("play", "k3", "bomb")
