"""The game host: seats and credentials, errors for the sender alone, bots, spectators,
reconnection, save and resume, and no message that leaks a secret (R16)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import tricky_treats as tt
from tricky_treats.host import SENDER, SPECTATORS, Outgoing, PlayedBy, Table

SEED = 4_611_686_018_427_387_000 + 917  # large, so that finding its digits in a text means a leak


def _move(table: Table, who: int, action: object, **extra: object) -> str:
    return json.dumps({"credential": table.credential(who), "action": action, **extra})


def _only_error(outgoing: tuple[Outgoing, ...], code: str) -> str:
    assert len(outgoing) == 1
    (reply,) = outgoing
    assert reply.to == SENDER
    assert reply.message["type"] == "error"
    assert reply.message["code"] == code
    text: str = reply.message["error"]
    return text


def _human_to_act(table: Table) -> int:
    seat = table.game.current_player
    assert seat is not None
    assert seat in table.human_seats
    return seat


# -- seats and credentials ------------------------------------------------------------------


def test_each_human_seat_gets_its_own_secret_credential_and_bots_none() -> None:
    table = Table.new(4, seed=SEED, bots={1: "random", 3: "greedy"})
    assert table.human_seats == (0, 2)
    assert table.bots == {1: "random", 3: "greedy"}
    first, second = table.credential(0), table.credential(2)
    assert first != second
    assert len(first) >= 20
    assert table.seat_of(first) == 0
    assert table.seat_of(second) == 2
    assert table.seat_of(first + "x") is None
    with pytest.raises(tt.ConfigurationError, match="played by a bot"):
        table.credential(1)
    other = Table.new(4, seed=SEED, bots={1: "random", 3: "greedy"})
    assert other.credential(0) != first  # drawn from the operating system, not the seed


@pytest.mark.parametrize(
    ("bots", "message"),
    [({5: "random"}, "no player 5"), ({0: "genius"}, "no agent 'genius'")],
)
def test_bad_bot_seats_are_refused(bots: dict[int, str], message: str) -> None:
    with pytest.raises(tt.TrickyTreatsError, match=message):
        Table.new(2, seed=1, bots=bots)


def test_a_connected_seat_sees_its_own_record_and_nothing_else() -> None:
    table = Table.new(["Ann", "Bo", "Cy"], seed=SEED)
    hello = table.connect(table.credential(1))
    assert hello.to == 1
    message = hello.message
    assert message["type"] == "update"
    assert message["seat"] == 1
    assert message["players"] == ["Ann", "Bo", "Cy"]
    assert message["your_turn"] is False
    assert message["legal_actions"] == []
    jsonschema.validate(message["record"], tt.view_schema())
    view = tt.loads_view(json.dumps(message["record"]))
    assert view == table.game.view(1)
    assert view.secret_tiles[1] is not None
    assert view.secret_tiles[0] is None


def test_the_seat_to_act_gets_its_legal_actions_with_notation_and_code() -> None:
    table = Table.new(2, seed=SEED)
    message = table.connect(table.credential(0)).message
    game = table.game
    assert message["your_turn"] is True
    assert message["legal_actions"] == [
        {"action": str(a), "code": game.action_space.encode(a)} for a in game.legal_actions()
    ]


def test_spectators_see_the_public_view_without_any_secret_tile() -> None:
    table = Table.new(3, seed=SEED)
    hello = table.connect(None)
    assert hello.to == SPECTATORS
    view = hello.message["view"]
    assert view["player"] is None
    assert view["secret_tiles"] == [None, None, None]
    assert view["legal_actions"] == []
    secret_ids = {p.secret_tile.id for p in table.game.players}
    assert secret_ids <= {t["id"] for t in view["unseen_tiles"]}
    assert all(not sheet["trick_tiles"] for sheet in view["scores"])


def test_a_wrong_credential_cannot_connect() -> None:
    table = Table.new(2, seed=SEED)
    reply = table.connect("not-a-credential")
    assert reply.to == SENDER
    assert reply.message == {
        "type": "error",
        "code": "bad-credential",
        "error": "no seat has this credential; check your link",
    }


# -- moves ------------------------------------------------------------------------------------


def test_a_legal_move_updates_every_human_seat_and_the_spectators() -> None:
    table = Table.new(["Ann", "Bo", "Cy"], seed=SEED, bots={2: "greedy"})
    action = table.game.legal_actions()[0]
    before = table.game
    outgoing = table.handle(_move(table, 0, str(action)))
    assert [o.to for o in outgoing] == [0, 1, SPECTATORS]
    assert table.game == before.apply(action)
    for out in outgoing:
        moves = out.message["moves"]
        assert moves[0]["player"] == 0
        assert moves[0]["action"] == str(action)
        events = [tt.event_from_json(e) for e in moves[0]["events"]]
        assert events == list(before.apply_with_events(action)[1])
        assert moves[0]["text"][0].startswith("Ann puts the ")
    assert outgoing[1].message["your_turn"] is True
    assert outgoing[0].message["legal_actions"] == []


def test_a_move_can_name_its_action_by_integer_and_its_seat() -> None:
    table = Table.new(2, seed=SEED)
    action = table.game.legal_actions()[3]
    code = table.game.action_space.encode(action)
    before = table.game
    outgoing = table.handle(_move(table, 0, code, seat=0, type="move"), sender=0)
    assert outgoing[0].message["type"] == "update"
    assert table.game == before.apply(action)


def test_bots_move_right_after_a_human_and_their_moves_are_reported() -> None:
    table = Table.new(3, seed=SEED, bots={1: "random", 2: "greedy"})
    outgoing = table.handle(_move(table, 0, str(table.game.legal_actions()[0])))
    moves = outgoing[0].message["moves"]
    assert [m["player"] for m in moves] == [0, 1, 2]
    assert table.game.current_player == 0
    assert outgoing[0].message["your_turn"] is True


def test_a_table_of_bots_plays_its_game_to_the_end() -> None:
    table = Table.new(4, seed=SEED, bots=dict.fromkeys(range(4), "greedy"))
    assert table.game.is_over
    assert table.human_seats == ()
    end = table.connect(None).message
    assert end["over"] is True
    assert end["winners"] == list(table.game.winners())
    assert all(tile is not None for tile in end["view"]["secret_tiles"])


def test_bots_play_the_same_after_a_resume() -> None:
    table = Table.new(2, seed=SEED, bots={1: "random"})
    table.handle(_move(table, 0, str(table.game.legal_actions()[0])))
    copy = Table.resume(table.save())
    for tab in (table, copy):
        tab.handle(_move(tab, 0, str(tab.game.legal_actions()[-1])))
    assert copy.game == table.game


def test_one_human_against_bots_plays_to_the_final_score_sheets() -> None:
    table = Table.new(["Ann", "Bo", "Cy"], seed=SEED, bots={1: "greedy", 2: "random"})
    last: tuple[Outgoing, ...] = ()
    while not table.game.is_over:
        last = table.handle(_move(table, 0, str(table.game.legal_actions()[0])))
    final = last[0].message
    assert final["over"] is True
    assert final["winners"] == list(table.game.winners())
    assert any(e["type"] == "game-over" for m in final["moves"] for e in m["events"])
    view = tt.loads_view(json.dumps(final["record"]))
    assert view.scores == table.game.scores()
    assert all(tile is not None for tile in view.secret_tiles)
    _only_error(table.handle(_move(table, 0, "pass")), "game-over")


# -- refusals: an error for the sender alone, and nothing changes -----------------------------


def _refusals(table: Table) -> list[tuple[str | bytes, int | str | None, str, str]]:
    """(message, sender, code, part of the text) for every kind of bad message."""
    ann = table.credential(0)
    bo = table.credential(1)
    return [
        ("x" * 2000, None, "too-large", "2000 bytes"),
        ("{not json", None, "malformed", "not JSON"),
        (b"\xff\xfe", None, "malformed", "not JSON"),
        ("[1, 2]", None, "malformed", "expected a JSON object"),
        (
            json.dumps({"credential": ann, "action": "pass", "cheat": 1}),
            None,
            "malformed",
            "unknown key 'cheat':",
        ),
        (
            json.dumps({"type": "undo", "credential": ann}),
            None,
            "malformed",
            "unknown message type 'undo'",
        ),
        (json.dumps({"credential": ann}), None, "malformed", "needs an action"),
        (json.dumps({"action": "t0k0"}), None, "bad-credential", "check your link"),
        (
            json.dumps({"credential": ann[:-1], "action": "t0k0"}),
            None,
            "bad-credential",
            "check your link",
        ),
        (
            json.dumps({"credential": 7, "action": "t0k0"}),
            None,
            "bad-credential",
            "check your link",
        ),
        (
            json.dumps({"credential": ann, "seat": 1, "action": "t0k0"}),
            None,
            "wrong-seat",
            "not the credential of your seat",
        ),
        (
            json.dumps({"credential": ann, "action": "t0k0"}),
            1,
            "wrong-seat",
            "not the credential of your seat",
        ),
        (
            json.dumps({"credential": ann, "action": "t0k0"}),
            SPECTATORS,
            "wrong-seat",
            "your seat",
        ),
        (
            json.dumps({"credential": bo, "action": "t0k0"}),
            None,
            "not-your-turn",
            "it is Ann's turn",
        ),
        (
            json.dumps({"credential": ann, "action": "fly"}),
            None,
            "invalid-action",
            "'fly' is not an action",
        ),
        (json.dumps({"credential": ann, "action": 99}), None, "invalid-action", "from 0 to 38"),
        (
            json.dumps({"credential": ann, "action": 1.5}),
            None,
            "invalid-action",
            "notation (like 't0k2') or an integer",
        ),
        (
            json.dumps({"credential": ann, "action": True}),
            None,
            "invalid-action",
            "or an integer, got true",
        ),
        (
            json.dumps({"credential": ann, "action": "t9k0"}),
            None,
            "invalid-action",
            "market slots are 0 to 4",
        ),
        (json.dumps({"credential": ann, "action": "v4"}), None, "illegal-action", "R"),
        (json.dumps({"credential": ann, "action": "pass"}), None, "illegal-action", "R"),
    ]


def test_every_bad_message_gets_an_error_for_its_sender_alone_and_changes_nothing() -> None:
    table = Table.new(["Ann", "Bo"], seed=SEED)
    saved = table.save()
    for message, sender, code, text in _refusals(table):
        before = table.game
        error = _only_error(table.handle(message, sender=sender), code)
        assert text in error, (code, error)
        assert table.game is before
    assert table.save() == saved


@pytest.mark.parametrize(
    ("message", "max_bytes"),
    [
        ("[" * 1020, 1024),  # deeper than the JSON parser goes: RecursionError before
        ("9" * 5000, 8192),  # an integer past Python's digit limit: ValueError before
        ('{"credential": "\ud800", "action": "pass"}', 1024),  # a lone surrogate
        ("\ud800" * 10, 1024),
    ],
)
def test_hostile_messages_get_a_malformed_or_credential_refusal_not_a_crash(
    message: str, max_bytes: int
) -> None:
    table = Table.new(["Ann", "Bo"], seed=SEED, max_message_bytes=max_bytes)
    before = table.game
    (reply,) = table.handle(message)
    assert reply.to == SENDER
    assert reply.message["code"] in {"malformed", "bad-credential"}
    assert table.game is before


def test_updates_since_an_earlier_state_tell_the_moves_made_elsewhere() -> None:
    table = Table.new(["Ann", "Bo"], seed=SEED)
    elsewhere = Table.resume(table.save())
    earlier = table.game
    for _ in range(3):
        seat = _human_to_act(elsewhere)
        action = str(elsewhere.game.legal_actions()[0])
        direct = elsewhere.handle(_move(elsewhere, seat, action))
    caught_up = Table.resume(elsewhere.save())
    updates = caught_up.updates_since(earlier)
    assert [u.to for u in updates] == [0, 1, SPECTATORS]
    assert [m["action"] for m in updates[0].message["moves"]] == [
        str(a) for a in caught_up.game.history
    ]
    # The last update is the same as the one the moving process sent.
    assert updates[0].message["record"] == direct[0].message["record"]
    # Not an earlier state of this game: the current state, no moves.
    other = Table.new(["Ann", "Bo"], seed=SEED + 1).game
    assert caught_up.updates_since(other)[0].message["moves"] == []


def test_follow_plays_moves_stored_elsewhere_and_tells_them_as_the_mover_did() -> None:
    table = Table.new(["Ann", "Bo", "Cy"], seed=SEED, bots={2: "greedy"})
    follower = Table.resume(table.save())
    for _ in range(4):  # each message a move and the bot's answers, as a server logs them
        since = len(table.game.history)
        seat = _human_to_act(table)
        direct = table.handle(_move(table, seat, str(table.game.legal_actions()[-1])))
        stored = [str(action) for action in table.game.history[since:]]
        followed = follower.follow(stored)
        assert follower.game == table.game
        assert [o.to for o in followed] == [o.to for o in direct] == [0, 1, SPECTATORS]
        assert [o.text for o in followed] == [o.text for o in direct]


@pytest.mark.parametrize(
    ("actions", "error"),
    [
        (["t0k0", "v8"], tt.IllegalActionError),  # the second is not legal then
        (["t0k0", "pass"], tt.IllegalActionError),
        (["t9k9"], tt.InvalidActionError),  # no such market slot in this game
        (["teleport"], tt.InvalidActionError),
    ],
)
def test_follow_checks_every_stored_action_and_changes_nothing_if_one_fails(
    actions: list[str], error: type[Exception]
) -> None:
    table = Table.new(["Ann", "Bo"], seed=SEED)
    before = table.game
    with pytest.raises(error):
        table.follow(actions)
    assert table.game is before


def test_follow_plays_no_move_past_the_end() -> None:
    table = Table.new(["A", "B"], seed=SEED, bots={0: "random", 1: "random"})
    assert table.game.is_over
    with pytest.raises(tt.IllegalActionError, match="the game is over"):
        table.follow(["pass"])


# -- the host's own moves: hosted seats, seats it fills in ------------------------------------


def test_a_hosted_seat_is_played_by_the_host_never_by_the_table() -> None:
    table = Table.new(
        ["Ann", "Prog", "Cy"], seed=SEED, hosted={1: "exec:rm -rf /"}, bots={2: "greedy"}
    )
    assert table.human_seats == (0,)
    assert table.hosted == {1: "exec:rm -rf /"}
    with pytest.raises(tt.ConfigurationError, match="played by a bot"):
        table.credential(1)
    hello = table.connect(table.credential(0)).message
    assert hello["bots"] == {"1": "exec:rm -rf /", "2": "greedy"}
    table.handle(_move(table, 0, str(table.game.legal_actions()[0])))
    assert table.game.current_player == 1  # the table waits for the host: nothing runs
    # Nobody can move for it with a credential, and a refusal changes nothing.
    assert table.seat_of("") is None
    action = table.game.legal_actions()[-1]
    updates = table.play_for(1, action)
    assert [o.to for o in updates] == [0, SPECTATORS]
    moves = updates[0].message["moves"]
    assert moves[0] == {**moves[0], "player": 1, "action": str(action)}
    assert "played_by" not in moves[0]  # its own program's move
    assert moves[1]["player"] == 2  # the greedy bot answered at once
    assert table.game.current_player == 0


@pytest.mark.parametrize(
    ("seat", "action", "error", "message"),
    [
        (1, "t0k0", tt.IllegalActionError, "not seat 1's turn"),
        (2, "t0k0", tt.ConfigurationError, "the greedy bot's"),
        (0, "v4", tt.IllegalActionError, "wants at least"),  # no kid dressed yet
        (0, "jump", tt.InvalidActionError, "jump"),
        (7, "t0k0", tt.UnknownPlayerError, "no player 7"),
    ],
)
def test_play_for_refuses_what_is_not_the_seats_legal_move_and_changes_nothing(
    seat: int, action: str, error: type[Exception], message: str
) -> None:
    table = Table.new(["Ann", "Bo", "Cy"], seed=SEED, bots={2: "greedy"})
    before = table.game
    with pytest.raises(error, match=message):
        table.play_for(seat, action, played_by=PlayedBy("greedy", "away"))
    assert table.game is before
    assert table.played_by == {}


def test_a_move_played_for_an_away_seat_says_so_to_everyone_and_after_a_reconnection() -> None:
    table = Table.new(["Ann", "Bo"], seed=SEED)
    table.handle(_move(table, 0, str(table.game.legal_actions()[0])))
    by = PlayedBy("greedy", "away", "Bo has been away for 60 s")
    updates = table.play_for(1, table.game.legal_actions()[0], played_by=by)
    for out in updates:
        (move,) = out.message["moves"]
        assert move["played_by"] == {
            "bot": "greedy",
            "reason": "away",
            "detail": "Bo has been away for 60 s",
        }
    # The whole log, as a reconnecting seat or a new spectator gets it, says it too.
    for credential in (table.credential(0), table.credential(1), None):
        moves = table.connect(credential).message["moves"]
        assert "played_by" not in moves[0]
        assert moves[1]["played_by"]["bot"] == "greedy"
    assert table.played_by == {1: by}
    assert table.connect(None).message["protocol_version"] == tt.host.PROTOCOL_VERSION == 2


def test_a_failed_commit_undoes_the_hosts_move_and_its_played_by() -> None:
    table = Table.new(["Ann", "Bo"], seed=SEED)
    before = table.game

    def fail(_: Table) -> None:
        raise OSError("disk full")

    answer = table.play_for(0, "t0k0", played_by=PlayedBy("greedy", "time"), commit=fail)
    assert answer[0].message["code"] == "not-saved"
    assert table.game is before
    assert table.played_by == {}


def test_played_by_and_hosted_seats_survive_save_and_resume_and_follow_tells_them() -> None:
    table = Table.new(["Ann", "Bo", "Prog"], seed=SEED, hosted={2: "js"})
    follower = Table.resume(table.save(hash_credentials=True))
    by = PlayedBy("search:50", "time")
    for step in range(6):
        seat = table.game.current_player
        assert seat is not None
        since = len(table.game.history)
        action = str(table.game.legal_actions()[0])
        if seat == 2:
            direct = table.play_for(2, action)
            followed = follower.follow([action])
        elif step % 2:
            direct = table.play_for(seat, action, played_by=by)
            followed = follower.follow(table.game.history[since:], played_by={0: by})
        else:
            direct = table.handle(_move(table, seat, action))
            followed = follower.follow(table.game.history[since:])
        assert [o.text for o in followed] == [o.text for o in direct]
    assert table.played_by
    assert follower.played_by == table.played_by
    for saved in (table.save(), follower.save()):
        resumed = Table.resume(saved)
        assert resumed.hosted == {2: "js"}
        assert resumed.played_by == table.played_by
        assert resumed.connect(None).text == table.connect(None).text


def test_a_save_of_format_version_1_still_resumes() -> None:
    table = Table.new(["Ann", "Bo", "Cy"], seed=SEED, bots={2: "greedy"})
    table.handle(_move(table, 0, str(table.game.legal_actions()[0])))
    document = json.loads(table.save())
    # As version 1 wrote it: no hosted seats, no played_by.
    old = {
        **document,
        "format_version": 1,
        "seats": [{"credential": s["credential"], "bot": s["bot"]} for s in document["seats"]],
    }
    del old["played_by"]
    resumed = Table.resume(json.dumps(old))
    assert resumed.game == table.game
    assert resumed.bots == {2: "greedy"}
    assert resumed.hosted == {}
    assert resumed.credential(1) == table.credential(1)


def test_hosted_seats_are_refused_where_a_bot_sits_or_unnamed() -> None:
    with pytest.raises(tt.ConfigurationError, match="cannot be hosted too"):
        Table.new(["A", "B"], seed=SEED, bots={1: "greedy"}, hosted={1: "js"})
    with pytest.raises(tt.ConfigurationError, match="1 to 64 characters"):
        Table.new(["A", "B"], seed=SEED, hosted={1: ""})
    with pytest.raises(tt.ConfigurationError, match=r"PlayedBy\.reason"):
        PlayedBy("greedy", "")


def test_bad_messages_leak_no_secret_in_their_errors() -> None:
    table = Table.new(["Ann", "Bo"], seed=SEED)
    for message, sender, _, _ in _refusals(table):
        for out in table.handle(message, sender=sender):
            _assert_no_leak(table, out, table.credential(0), table.credential(1))


# -- reconnecting, saving, resuming ---------------------------------------------------------------


def test_a_seat_reconnects_with_its_credential_and_gets_the_current_state() -> None:
    table = Table.new(2, seed=SEED)
    movers = []
    for _ in range(6):
        seat = _human_to_act(table)
        movers.append(seat)
        outgoing = table.handle(_move(table, seat, str(table.game.legal_actions()[-1])))
    again = table.connect(table.credential(1))
    assert again.to == 1
    assert again.message["record"] == outgoing[1].message["record"]
    # The whole game so far, with the events each update carried, for the new tab's log.
    history = [str(a) for a in table.game.history]
    assert [m["action"] for m in again.message["moves"]] == history
    assert [m["player"] for m in again.message["moves"]] == movers
    assert again.message["moves"][-1] == outgoing[1].message["moves"][-1]
    spectator = table.connect(None)
    assert spectator.message["moves"] == again.message["moves"]


def test_a_saved_table_resumes_with_the_same_game_seats_and_credentials() -> None:
    table = Table.new(3, seed=SEED, bots={2: "greedy"}, variants=["family"])
    for _ in range(5):
        seat = _human_to_act(table)
        table.handle(_move(table, seat, table.game.legal_actions()[0].__str__()))
    saved = table.save()
    assert json.loads(saved)["record"] == json.loads(tt.dumps(table.game))
    resumed = Table.resume(saved)
    assert resumed.game == table.game
    assert resumed.bots == table.bots
    assert [resumed.credential(s) for s in (0, 1)] == [table.credential(s) for s in (0, 1)]
    seat = _human_to_act(resumed)
    action = str(resumed.game.legal_actions()[0])
    assert resumed.handle(_move(resumed, seat, action)) == table.handle(_move(table, seat, action))


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: "not json", "not valid JSON"),
        (lambda d: {**d, "format": "tricky-treats-record"}, "$.format"),
        (lambda d: {**d, "format_version": 3}, "$.format_version"),
        (
            lambda d: {**d, "played_by": [{"move": 99, "bot": "greedy", "reason": "x"}]},
            "$.played_by",
        ),
        (lambda d: {**d, "played_by": [{"move": 0, "bot": "", "reason": "x"}]}, "$.played_by"),
        (lambda d: {**d, "played_by": {}}, "$.played_by"),
        (lambda d: {**d, "seats": [{**s, "hosted": "yes"} for s in d["seats"]]}, "$.seats"),
        (lambda d: {**d, "format_version": 1}, "$: unknown key 'played_by'"),
        (lambda d: {**d, "seats": [{"credential": "short", "bot": None}] * 2}, "$.seats"),
        (lambda d: {**d, "seats": [1, 2]}, "$.seats"),
        (lambda d: {**d, "max_message_bytes": "big"}, "$.max_message_bytes"),
        (lambda d: {**d, "record": {**d["record"], "actions": []}}, "$"),
    ],
)
def test_a_broken_save_is_refused(change: Any, message: str) -> None:
    table = Table.new(2, seed=SEED)
    table.handle(_move(table, 0, str(table.game.legal_actions()[0])))
    document = change(json.loads(table.save()))
    text = document if isinstance(document, str) else json.dumps(document)
    with pytest.raises(tt.RecordError, match=message.replace("$", r"\$")):
        Table.resume(text)


def test_a_save_with_hashed_credentials_holds_no_credential_and_still_checks_them() -> None:
    table = Table.new(3, seed=SEED, bots={1: "random"})
    table.handle(_move(table, 0, str(table.game.legal_actions()[0])))
    saved = table.save(hash_credentials=True)
    for seat in (0, 2):
        assert table.credential(seat) not in saved
    resumed = Table.resume(saved)
    assert resumed.game == table.game
    assert resumed.bots == {1: "random"}
    assert resumed.human_seats == (0, 2)
    assert [resumed.seat_of(table.credential(s)) for s in (0, 2)] == [0, 2]
    assert resumed.seat_of(table.credential(0)[:-1] + "?") is None
    assert resumed.connect("not-a-credential-at-all").message["code"] == "bad-credential"
    with pytest.raises(tt.ConfigurationError, match="keeps only a hash"):
        resumed.credential(0)
    assert resumed.save() == saved  # a table that knows only the hashes saves only them
    seat = _human_to_act(resumed)
    action = str(resumed.game.legal_actions()[0])
    move = json.dumps({"credential": table.credential(seat), "action": action})
    assert resumed.handle(move) == table.handle(move)


@pytest.mark.parametrize(
    ("hashes", "message"),
    [
        (["0" * 64], "need 2 credential hashes"),
        (["0" * 64, "0" * 64], "two seats share a credential"),
        (["0" * 64, "A" * 64], "64 lowercase hexadecimal digits"),
        (["0" * 64, None], "a human seat needs a credential hash"),
    ],
)
def test_bad_credential_hashes_are_refused(hashes: list[str | None], message: str) -> None:
    with pytest.raises(tt.ConfigurationError, match=message):
        Table(tt.new_game(2, seed=SEED), credential_hashes=hashes)


def test_commit_sees_the_move_before_the_answer_and_a_failing_commit_undoes_it() -> None:
    table = Table.new(["Ann", "Bot"], seed=SEED, bots={1: "greedy"})
    before = table.game
    seen: list[int] = []

    def full_disk(committed: Table) -> None:
        seen.append(len(committed.game.history))
        raise OSError(28, "No space left on device")

    move = _move(table, 0, str(table.game.legal_actions()[0]))
    error = _only_error(table.handle(move, commit=full_disk), "not-saved")
    assert "could not store this move" in error
    assert seen == [2]  # the move and the bot's answer, stored together
    assert table.game is before
    stored: list[str] = []
    outgoing = table.handle(move, commit=lambda t: stored.append(t.save()))
    assert [out.to for out in outgoing] == [0, SPECTATORS]
    assert stored == [table.save()]
    assert len(table.game.history) == 2


def test_two_messages_for_one_state_give_one_move_and_a_stale_refusal() -> None:
    # A refresh does not end the turn (R8 unless refresh_ends_turn): without moves_played, a
    # second tab's move for the same state would be applied after it.
    table = Table.new(2, seed=4_611_686_018_427_387_000 + 29)  # a market that may refresh
    assert "refresh" in map(str, table.game.legal_actions())
    seat = _human_to_act(table)
    played = table.connect(table.credential(seat)).message["moves_played"]
    assert played == len(table.game.history)
    first = table.handle(_move(table, seat, "refresh", moves_played=played))
    assert first[0].message["moves_played"] == played + 1
    after = table.game
    assert after.current_player == seat
    second = _move(table, seat, str(after.legal_actions()[0]), moves_played=played)
    error = _only_error(table.handle(second), "stale")
    assert f"after {played} moves, but {played + 1} have been played" in error
    assert table.game is after
    _only_error(table.handle(_move(table, seat, "refresh", moves_played="1")), "malformed")


# -- the no-leak property ----------------------------------------------------------------------


def _walk(value: object, skip: frozenset[str]) -> Iterator[object]:
    """Every value inside ``value``, leaving out the values of keys in ``skip``."""
    yield value
    if isinstance(value, dict):
        for key, item in value.items():
            yield key
            if key not in skip:
                yield from _walk(item, skip)
    elif isinstance(value, list):
        for item in value:
            yield from _walk(item, skip)


_CARD_KEYS = {"id", "colour", "theme", "type", "icon"}


def _assert_no_leak(table: Table, out: Outgoing, *credentials: str) -> None:
    """``out`` holds no credential, no seed, no deck order and (before the end) no secret tile
    of a seat other than its reader's."""
    game = table.game
    text = out.text
    for credential in credentials:
        assert credential not in text
    assert str(game.config.seed) not in text
    message = json.loads(text)
    everything = list(_walk(message, frozenset()))
    assert "seed" not in everything
    # The deck: only the list of its remaining cards shows, sorted by id (R16).
    undrawn = {c.id for c in game.setup.deck[game.deck_position :]}
    for value in _walk(message, frozenset({"deck_cards"})):
        if isinstance(value, dict) and set(value) == _CARD_KEYS:
            assert value["id"] not in undrawn, f"an undrawn card is in a message: {value}"
    for value in _walk(message, frozenset()):
        if isinstance(value, dict) and "deck_cards" in value:
            ids = [c["id"] for c in value["deck_cards"]]
            assert ids == sorted(ids)
            assert set(ids) == undrawn
    # Secret tiles: only the reader's own, until the end (or dealt face up by a variant).
    if game.is_over or game.setup.secret_tiles_face_up:
        return
    reader = out.to if isinstance(out.to, int) else None
    hidden = [p.secret_tile.id for seat, p in enumerate(game.players) if seat != reader]
    for value in _walk(message, frozenset({"unseen_tiles"})):
        if isinstance(value, str):
            for tile in hidden:
                assert tile not in value, f"secret tile {tile} in a message for {out.to}"


@st.composite
def _incoming(draw: st.DrawFn, table: Table) -> tuple[str, str | None, int | str | None]:
    """One message a client might send: ("handle", text, sender) or ("connect", credential)."""
    game = table.game
    humans = table.human_seats
    kind = draw(st.integers(0, 9))
    if kind <= 5 and game.current_player in humans:
        seat = game.current_player
        legal = game.legal_actions()
        action = legal[draw(st.integers(0, len(legal) - 1))]
        code = game.action_space.encode(action)
        return "handle", _move(table, seat, draw(st.sampled_from([str(action), code]))), seat
    if kind <= 7 and humans:
        seat = draw(st.sampled_from(humans))
        wanted = draw(
            st.integers(-1, game.action_space.size)
            | st.sampled_from(["pass", "v4", "m0", "refresh", "t0k0", "x"])
        )
        sender = draw(st.sampled_from([seat, None, SPECTATORS, *humans]))
        return "handle", _move(table, seat, wanted), sender
    if kind == 8:
        junk = draw(
            st.text(max_size=40)
            | st.sampled_from(['{"credential": "guess", "action": "pass"}', "null", "{}"])
        )
        return "handle", junk, None
    credential = draw(st.sampled_from([None, "guess", *(table.credential(s) for s in humans)]))
    return "connect", credential, None


@settings(max_examples=25, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(
    players=st.integers(2, 4),
    seed=st.integers(2**40, 2**62),
    variants=st.lists(
        st.sampled_from(["family", "open-objectives", "any-mean-house"]), unique=True
    ),
    data=st.data(),
)
def test_no_message_ever_holds_another_seats_secret_the_deck_order_or_the_seed(
    players: int, seed: int, variants: list[str], data: st.DataObject
) -> None:
    bot_seats = data.draw(st.lists(st.integers(0, players - 1), unique=True, max_size=players))
    bots = {s: data.draw(st.sampled_from(["random", "greedy"])) for s in bot_seats}
    table = Table.new(players, seed=seed, bots=bots, variants=variants)
    credentials = [table.credential(s) for s in table.human_seats]
    steps = data.draw(st.integers(1, 300))
    for _ in range(steps):
        if table.game.is_over and data.draw(st.booleans()):
            break
        before = table.game
        kind, payload, sender = data.draw(_incoming(table))
        if kind == "connect":
            outgoing: tuple[Outgoing, ...] = (table.connect(payload),)
        else:
            assert payload is not None
            outgoing = table.handle(payload, sender=sender)
        if outgoing[0].to == SENDER or kind == "connect":
            assert table.game is before
        for out in outgoing:
            _assert_no_leak(table, out, *credentials)


def test_a_message_read_later_still_shows_the_state_it_was_made_for() -> None:
    table = Table.new(2, seed=SEED)
    first = table.handle(_move(table, 0, str(table.game.legal_actions()[0])))
    after_first = table.game
    table.handle(_move(table, 1, str(table.game.legal_actions()[0])))
    assert table.game != after_first
    assert [out.to for out in first] == [0, 1, SPECTATORS]
    for seat in (0, 1):
        record = json.dumps(first[seat].message["record"])
        assert tt.loads_view(record) == after_first.view(seat)
    assert first[2].message["view"]["turn"] == after_first.turn == 1
