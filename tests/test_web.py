"""The web example's server through Starlette's test client: the HTTP API and the WebSockets.

Needs the ``webtest`` extra (``pip install 'tricky-treats[webtest]'``).
"""

from __future__ import annotations

import io
import json
import subprocess
import zipfile
from pathlib import Path
from typing import Any

import pytest

from tests.local import SERVE_COMMAND, receive
from tests.requirements import WEB_APP_HINT, install_hint

pytest.importorskip("httpx2", reason=install_hint("webtest"))

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect

import tricky_treats as tt

pytest.importorskip("tricky_treats_web", reason=WEB_APP_HINT)

from tricky_treats_web import Lobby, create_app

SEED = 4_611_686_018_427_387_000 + 33


@pytest.fixture
def lobby() -> Lobby:
    return Lobby(max_games=5)


@pytest.fixture
def client(lobby: Lobby, tmp_path: Path) -> TestClient:
    return TestClient(create_app(lobby, wheel_dir=tmp_path / "wheels"))


def _create(client: TestClient, **body: Any) -> dict[str, Any]:
    request = {"players": [{"name": "Ann"}, {"name": "Bo"}], "seed": SEED, **body}
    response = client.post("/api/games", content=json.dumps(request))
    assert response.status_code == 201, response.text
    answer: dict[str, Any] = response.json()
    return answer


def _credential(link: str) -> str:
    return link.split("#", 1)[1]


def test_the_pages_are_served(client: TestClient) -> None:
    for path, marker in [("/", "New game"), ("/play/abc", "game.js"), ("/offline", "Pyodide")]:
        response = client.get(path)
        assert response.status_code == 200
        assert marker in response.text
    assert "BoardView" in client.get("/static/board.js").text


def test_the_variants_on_offer_leave_out_the_file_reading_one(client: TestClient) -> None:
    answer = client.get("/api/variants").json()
    names = [v["name"] for v in answer["variants"]]
    assert "family" in names
    assert "card-data" not in names
    assert answer["bots"] == ["random", "greedy"]


def test_creating_a_game_gives_a_secret_link_per_human_seat(
    client: TestClient, lobby: Lobby
) -> None:
    answer = _create(
        client,
        players=[{"name": "Ann"}, {"name": "Bo", "bot": "greedy"}, {"name": ""}],
        variants=["family"],
        any_mean_house=True,
    )
    table = lobby.rooms[answer["game"]].table
    assert table.game.config.players == ("Ann", "Bo", "Player 3")
    assert table.game.config.seed == SEED
    assert table.game.config.any_mean_house
    assert [v.name for v in table.game.config.variants] == ["family"]
    seats = answer["seats"]
    assert seats[1] == {"seat": 1, "name": "Bo", "bot": "greedy", "link": None}
    for seat in (0, 2):
        link = seats[seat]["link"]
        assert link.startswith(f"/play/{answer['game']}#")
        assert table.seat_of(_credential(link)) == seat
    assert answer["watch"] == f"/play/{answer['game']}"


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ("{", 400, "expected a JSON object"),
        ("[]", 400, "expected a JSON object"),
        (json.dumps({"players": "Ann"}), 400, "players must be a list"),
        (json.dumps({"players": [{"name": "A"}] * 5}), 400, "2 to 4 players"),
        (json.dumps({"players": [{}, {"bot": "search"}]}), 400, "bots are random, greedy"),
        (json.dumps({"players": [{}, {}], "seed": -1}), 400, "seed must be a whole number"),
        (json.dumps({"players": [{}, {}], "seed": "7x"}), 400, "seed must be a whole number"),
        (json.dumps({"players": [{}, {}], "seed": str(2**63)}), 400, "seed must be a whole"),
        (json.dumps({"players": [{}, {}], "seed": "9" * 400}), 400, "seed must be a whole"),
        (
            json.dumps({"players": [{}, {}], "variants": ["card-data"]}),
            400,
            "cannot be chosen here",
        ),
        (
            json.dumps({"players": [{}, {}], "variants": ["chess"]}),
            400,
            "no variant called 'chess'",
        ),
        ("x" * 5000, 413, "too large"),
    ],
)
def test_bad_requests_to_create_a_game_are_refused(
    client: TestClient, lobby: Lobby, body: str, status: int, message: str
) -> None:
    response = client.post("/api/games", content=body)
    assert response.status_code == status
    assert message in response.json()["error"]
    assert lobby.rooms == {}


@pytest.mark.parametrize("seed", ["0", "9007199254740993", str(2**63 - 1)])
def test_seeds_sent_as_strings_keep_every_digit(
    client: TestClient, lobby: Lobby, seed: str
) -> None:
    # 2^53 + 1 is not a JavaScript number: the page sends seeds as strings.
    answer = _create(client, seed=seed)
    assert lobby.rooms[answer["game"]].table.game.config.seed == int(seed)


def test_play_again_sends_each_seat_its_own_link_to_a_new_deal(
    client: TestClient, lobby: Lobby
) -> None:
    answer = _create(
        client,
        players=[{"name": "Ann"}, {"name": "Bo"}, {"name": "Cy", "bot": "random"}],
        variants=["family"],
        refresh_ends_turn=True,
    )
    table = lobby.rooms[answer["game"]].table
    keys = [_credential(answer["seats"][s]["link"]) for s in (0, 1)]
    with client.websocket_connect(f"/ws/{answer['game']}") as ann:
        ann.send_text(json.dumps({"type": "hello", "credential": keys[0]}))
        ann.receive_json()
        ann.send_text(json.dumps({"type": "again"}))
        assert ann.receive_json()["code"] == "not-over"
        for _ in range(400):
            if table.game.is_over:
                break
            seat = table.game.current_player
            assert seat is not None
            move = {"credential": keys[seat], "action": str(table.game.legal_actions()[-1])}
            table.handle(json.dumps(move))
        assert table.game.is_over
        with client.websocket_connect(f"/ws/{answer['game']}") as bo:
            bo.send_text(json.dumps({"type": "hello", "credential": keys[1]}))
            assert bo.receive_json()["over"]
            ann.send_text(json.dumps({"type": "again"}))
            links = [receive(socket) for socket in (ann, bo)]
        with client.websocket_connect(f"/ws/{answer['game']}") as spectator:
            spectator.send_text(json.dumps({"type": "hello", "credential": None}))
            spectator.receive_json()
            watch = spectator.receive_json()
    assert {m["type"] for m in links} == {"next-game"}
    game_id = links[0]["link"].split("/")[2].split("#")[0]
    assert watch == {"type": "next-game", "link": f"/play/{game_id}"}
    again = lobby.rooms[game_id].table
    assert again.seat_of(_credential(links[0]["link"])) == 0
    assert again.seat_of(_credential(links[1]["link"])) == 1
    config = again.game.config
    old = table.game.config
    assert (config.players, config.variants, config.refresh_ends_turn) == (
        old.players,
        old.variants,
        old.refresh_ends_turn,
    )
    assert again.bots == {2: "random"}
    assert again.game.setup.deck != table.game.setup.deck  # a new deal


def test_the_lobby_holds_a_bounded_number_of_games(client: TestClient) -> None:
    for _ in range(5):
        _create(client)
    response = client.post("/api/games", content=json.dumps({"players": [{}, {}]}))
    assert response.status_code == 503
    assert response.json()["code"] == "server-full"
    assert "as many games as it can hold" in response.json()["error"]


def test_a_seat_and_a_spectator_play_over_websockets(client: TestClient, lobby: Lobby) -> None:
    answer = _create(client, players=[{"name": "Ann"}, {"name": "Bo", "bot": "greedy"}])
    game_id = answer["game"]
    ann = _credential(answer["seats"][0]["link"])
    with (
        client.websocket_connect(f"/ws/{game_id}") as seat,
        client.websocket_connect(f"/ws/{game_id}") as watcher,
    ):
        seat.send_text(json.dumps({"type": "hello", "credential": ann}))
        hello = seat.receive_json()
        assert hello["seat"] == 0
        assert hello["your_turn"] is True
        watcher.send_text(json.dumps({"type": "hello", "credential": None}))
        assert watcher.receive_json()["view"]["player"] is None

        # An error goes to its sender alone: the watcher's next message is the move's update.
        seat.send_text(json.dumps({"type": "move", "credential": ann, "action": "pass"}))
        error = seat.receive_json()
        assert error["type"] == "error"
        assert error["code"] == "illegal-action"
        action = hello["legal_actions"][0]["action"]
        seat.send_text(json.dumps({"type": "move", "credential": ann, "action": action}))
        update = seat.receive_json()
        watched = watcher.receive_json()
        for message in (update, watched):
            assert message["type"] == "update"
            assert [m["player"] for m in message["moves"]] == [0, 1]
            assert message["moves"][0]["action"] == action
        assert update["your_turn"] is True
        assert watched["view"]["secret_tiles"] == [None, None]
        table = lobby.rooms[game_id].table
        assert tt.loads_view(json.dumps(update["record"])) == table.game.view(0)


def test_a_connection_cannot_move_for_another_seat(client: TestClient) -> None:
    answer = _create(client)
    game_id = answer["game"]
    ann, bo = (_credential(s["link"]) for s in answer["seats"])
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        socket.send_text(json.dumps({"type": "hello", "credential": bo}))
        assert socket.receive_json()["seat"] == 1
        socket.send_text(json.dumps({"type": "move", "credential": ann, "action": "t0k0"}))
        assert socket.receive_json()["code"] == "wrong-seat"
        socket.send_text(json.dumps({"type": "move", "credential": bo, "action": "t0k0"}))
        assert socket.receive_json()["code"] == "not-your-turn"
        socket.send_text("{" * 3000)
        assert socket.receive_json()["code"] == "too-large"


def test_finished_games_nobody_watches_make_room_for_new_ones(
    client: TestClient, lobby: Lobby
) -> None:
    bots = [{"name": "A", "bot": "random"}, {"name": "B", "bot": "random"}]
    first = _create(client, players=bots)["game"]
    assert lobby.rooms[first].table.game.is_over
    for _ in range(4):
        _create(client)
    sixth = _create(client)["game"]
    assert first not in lobby.rooms
    assert sixth in lobby.rooms
    assert len(lobby.rooms) == 5


def test_a_connection_must_say_hello_first(client: TestClient) -> None:
    answer = _create(client)
    ann = _credential(answer["seats"][0]["link"])
    for first, code in [
        (json.dumps({"credential": ann, "action": "t0k0"}), "malformed"),
        ("[]", "malformed"),
        ("[" * 4000, "malformed"),
        ("x" * 5000, "too-large"),
    ]:
        with client.websocket_connect(f"/ws/{answer['game']}") as socket:
            socket.send_text(first)
            assert socket.receive_json()["code"] == code
            with pytest.raises(WebSocketDisconnect):
                socket.receive_text()


def test_a_wrong_credential_or_game_is_refused_and_closed(client: TestClient) -> None:
    answer = _create(client)
    with client.websocket_connect(f"/ws/{answer['game']}") as socket:
        socket.send_text(json.dumps({"type": "hello", "credential": "guess-guess-guess"}))
        assert socket.receive_json()["code"] == "bad-credential"
        with pytest.raises(WebSocketDisconnect):
            socket.receive_text()
    with client.websocket_connect("/ws/no-such-game") as socket:
        assert socket.receive_json()["code"] == "no-game"


def test_a_player_who_reconnects_gets_the_current_state(client: TestClient, lobby: Lobby) -> None:
    answer = _create(client, players=[{"name": "Ann"}, {"name": "Bo", "bot": "random"}])
    game_id = answer["game"]
    ann = _credential(answer["seats"][0]["link"])
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        socket.send_text(json.dumps({"type": "hello", "credential": ann}))
        hello = socket.receive_json()
        for _ in range(3):
            action = hello["legal_actions"][-1]["action"]
            socket.send_text(json.dumps({"type": "move", "credential": ann, "action": action}))
            hello = socket.receive_json()
    assert lobby.rooms[game_id].connections == []
    with client.websocket_connect(f"/ws/{game_id}") as socket:
        socket.send_text(json.dumps({"type": "hello", "credential": ann}))
        again = socket.receive_json()
    assert again["record"] == hello["record"]
    assert [m["action"] for m in again["moves"]] == [
        str(a) for a in lobby.rooms[game_id].table.game.history
    ]
    assert len(lobby.rooms[game_id].table.game.history) == 6


def test_the_wheels_for_the_offline_page_are_the_engine_and_its_dependencies(
    client: TestClient,
) -> None:
    urls = client.get("/wheels/").json()["wheels"]
    names = {url.rsplit("/", 1)[1].split("-")[0] for url in urls}
    assert {"tricky_treats", "attrs", "cattrs", "pluggy"} <= names
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200
        with zipfile.ZipFile(io.BytesIO(response.content)) as wheel:
            members = wheel.namelist()
            assert any(m.endswith(".dist-info/WHEEL") for m in members)
            assert not any("__pycache__" in m for m in members)
            if url.endswith(f"tricky_treats-{tt.__version__}-py3-none-any.whl"):
                assert "tricky_treats/__init__.py" in members
                assert "tricky_treats/data/base.toml" in members
                assert "tricky_treats/schemas/event-v1.schema.json" in members
    assert client.get("/wheels/evil.whl").status_code == 404


def test_serve_help_is_plain_text_and_tells_how_to_let_friends_in() -> None:
    shown = subprocess.run([*SERVE_COMMAND, "--help"], capture_output=True, text=True, timeout=60)
    assert shown.returncode == 0, shown.stderr
    assert "`" not in shown.stdout  # no raw markup
    for words in ("--host 0.0.0.0", "Caddy", "nginx", "wss://", "--forwarded-allow-ips"):
        assert words in shown.stdout
    readme = (Path(__file__).parents[1] / "examples" / "web" / "README.md").read_text()
    for words in ("## Letting friends on other machines in", "reverse_proxy", "wss://"):
        assert words in readme


def test_every_option_of_serve_has_help_text_and_a_default() -> None:
    from tricky_treats_web.cli import parser

    commands = next(a for a in parser()._actions if a.dest == "command")
    serve = commands.choices["serve"]  # type: ignore[index]
    options = [a for a in serve._actions if a.option_strings and a.dest != "help"]
    assert {"--max-games", "--max-unplayed", "--unplayed-expiry", "--games-per-client"} <= {
        a.option_strings[0] for a in options
    }
    for action in options:
        assert action.help, action.option_strings
        assert "default" in action.help, action.option_strings
    shown = subprocess.run(
        [*SERVE_COMMAND, "--help"], capture_output=True, text=True, timeout=60
    ).stdout
    assert "(default: 1000)" in " ".join(shown.split())  # --max-games, filled in


def test_the_app_is_a_distribution_with_its_pages_inside_and_a_command(tmp_path: Path) -> None:
    from hatchling.builders.wheel import WheelBuilder

    project = Path(__file__).parents[1] / "examples" / "web"
    wheel = Path(next(WheelBuilder(str(project)).build(directory=str(tmp_path))))
    assert wheel.name.startswith("tricky_treats_web-")
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        info = next(n.split("/")[0] for n in names if n.endswith(".dist-info/METADATA"))
        entry_points = archive.read(f"{info}/entry_points.txt").decode()
        metadata = archive.read(f"{info}/METADATA").decode()
    static = project / "src" / "tricky_treats_web" / "static"
    for page in static.rglob("*"):  # the pages, scripts, styles and messages (static/i18n)
        if page.is_file():
            assert f"tricky_treats_web/static/{page.relative_to(static).as_posix()}" in names
    assert "tricky_treats_web/py.typed" in names
    assert "tricky-treats-web = tricky_treats_web.cli:console_main" in entry_points
    assert "Requires-Dist: tricky-treats" in metadata
    assert "Provides-Extra: postgresql" in metadata
