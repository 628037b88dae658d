"""A frontend loop: the server keeps the full game, each client gets only its own record.

    python examples/frontend_loop.py

The server below speaks JSON: a client sends ``{"player": 1, "action": "t0k2"}`` and gets
back its own player record (``tt.dumps(game, player=1)``) or an error. Clients never see the
``GameState``: not the deck order, not the other players' secret tiles (R16).
"""

from __future__ import annotations

import json
import random
from typing import Any

import tricky_treats as tt

MAX_REQUEST_BYTES = 1024
"""Requests are tiny; anything larger is refused before it is parsed."""


class BadRequestError(Exception):
    """A request this server does not understand; the message is safe to send back."""


class GameServer:
    """Holds one game; answers JSON requests from the players' clients."""

    def __init__(self, players: list[str], seed: int) -> None:
        self.game = tt.new_game(players=players, seed=seed)

    def handle(self, request_text: str) -> str:
        """Answer one request; the game changes only when the request is a legal move.

        Whatever a client sends, the answer is a JSON object and the server keeps running:
        oversized or malformed requests, wrong seats and illegal moves get an error that
        names the problem (and never echoes megabytes back).
        """
        try:
            player, action = self._parse(request_text)
            player = self.game.check_player(player)
            if action is not None:
                if player != self.game.current_player:
                    raise tt.IllegalActionError(f"it is not player {player}'s turn")
                self.game = self.game.apply(tt.parse_action(action))
        except (BadRequestError, tt.TrickyTreatsError) as exc:
            return json.dumps({"ok": False, "error": str(exc)})
        record = json.loads(tt.dumps(self.game, player=player))
        return json.dumps({"ok": True, "record": record})

    @staticmethod
    def _parse(request_text: str) -> tuple[int, str | None]:
        """The seat and the action notation of a request, or BadRequestError."""
        if len(request_text) > MAX_REQUEST_BYTES:
            raise BadRequestError(f"request larger than {MAX_REQUEST_BYTES} bytes")
        try:
            request = json.loads(request_text)
        except (ValueError, RecursionError):  # bad JSON, or a number too long to read
            raise BadRequestError("request is not valid JSON") from None
        if not isinstance(request, dict) or set(request) - {"player", "action"}:
            raise BadRequestError('expected {"player": <seat>, "action": <notation>}')
        player, action = request.get("player"), request.get("action")
        if type(player) is not int:
            raise BadRequestError("player must be a seat number")
        if action is not None and not isinstance(action, str):
            raise BadRequestError("action must be a string in the action notation, like 't0k2'")
        return player, action


def client_move(response_text: str, rng: random.Random) -> dict[str, Any] | None:
    """What a (random) client sends back after reading its record; None if not its turn."""
    response = json.loads(response_text)
    view = tt.loads_view(json.dumps(response["record"]))  # a Python client can do this
    if not view.legal_actions:
        return None
    action = view.legal_actions[rng.randrange(len(view.legal_actions))]
    return {"player": view.player, "action": str(action)}


def main() -> None:
    server = GameServer(["Ann", "Bo", "Cy"], seed=7)
    rng = random.Random(7)

    # Mistakes are refused and change nothing.
    before = tt.dumps(server.game)
    print(server.handle(json.dumps({"player": 2, "action": "t0k0"})))  # not Cy's turn
    print(server.handle(json.dumps({"player": 0, "action": "v4"})))  # not allowed yet
    print(server.handle(json.dumps({"player": 9})))  # no such seat
    print(server.handle('{"player": 0, "action": "' + "9" * 5000 + '"}'))  # hostile: too large
    print(server.handle('{"player": 0, "action": "t' + "9" * 500 + 'k0"}'))  # no such action
    print(server.handle('{"player": ' + "9" * 900 + "}"))  # no such seat, however many digits
    print(server.handle("[[[[[["))  # not JSON
    assert tt.dumps(server.game) == before

    moves = 0
    while not server.game.is_over:
        for seat in range(3):
            request = client_move(server.handle(json.dumps({"player": seat})), rng)
            if request is not None:
                answer = json.loads(server.handle(json.dumps(request)))
                assert answer["ok"], answer
                moves += 1
    outcome = server.game.outcome()
    assert outcome is not None
    print(f"{moves} moves; winners: {[server.game.config.players[w] for w in outcome.winners]}")
    final = json.loads(server.handle(json.dumps({"player": 0})))["record"]["view"]
    print(
        "every secret tile is shown once the game is over:",
        all(tile is not None for tile in final["secret_tiles"]),
    )


if __name__ == "__main__":
    main()
