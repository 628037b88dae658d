"""Plain-text renderings of a view and the end-of-game rewards, shared by the adapters."""

from __future__ import annotations

from tricky_treats.components import Treat
from tricky_treats.model import GameState
from tricky_treats.views import PlayerView

__all__ = ["outcome_rewards", "seat_name", "view_text"]


def seat_name(seat: int) -> str:
    """The name the adapters give seat ``seat``: ``player_0`` for seat 0, and so on.

    It is PettingZoo's agent name and OpenSpiel's player id, so that a seat has one number
    everywhere in the adapters (the engine's display names, ``Player 1`` for seat 0, are for
    people at the table).
    """
    return f"player_{seat}"


def outcome_rewards(game: GameState) -> tuple[float, ...]:
    """Each seat's reward for a finished game: zero-sum, +1 for a sole winner.

    Winners share the win equally (R15: a tie that the trick-tile points do not break is
    shared), so a seat's share is ``1/k`` for ``k`` winners and 0 for the others; the reward
    is ``(n share - 1) / (n - 1)`` for ``n`` players. A sole winner gets +1 and every other
    seat ``-1/(n - 1)``; a tie of all gets 0 each; the rewards always sum to 0. All zeros
    while the game goes on.
    """
    return rewards_of(len(game.players), game.winners())


def rewards_of(n: int, winners: tuple[int, ...]) -> tuple[float, ...]:
    """``outcome_rewards`` of an ``n``-player game won by ``winners`` (none: not over)."""
    if not winners:
        return (0.0,) * n
    share = 1.0 / len(winners)
    return tuple(((n * share if seat in winners else 0.0) - 1.0) / (n - 1) for seat in range(n))


def view_text(view: PlayerView) -> str:
    """``view`` as a few lines of text: only what the viewer sees, with their own seat first.

    Seats are named by ``seat_name`` (``player_0`` for seat 0).
    """
    n = len(view.players)
    names = [seat_name(seat) for seat in range(n)]
    turn = view.current_player
    status = "game over" if turn is None else f"{names[turn]} to act"
    lines = [f"Turn {view.turn}, {status}; as seen by {names[view.player]}"]
    if view.end_trigger is not None:
        trigger = view.end_trigger
        lines.append(f"End triggered by {names[trigger.player]} ({trigger.reason.value})")
    market = " | ".join(
        f"{slot}: {card}" if card is not None else f"{slot}: -"
        for slot, card in enumerate(view.market)
    )
    lines.append(f"Market: {market}")
    lines.append(f"Deck: {view.deck_size} cards left; {len(view.discarded)} discarded")
    houses = []
    for h, house in enumerate(view.grid):
        pumpkin = ", pumpkin" if view.pumpkin_on_house[h] else ""
        houses.append(f"{h}: {house.neighbour} for {house.treat.value}{pumpkin}")
    lines.append("Nice houses: " + "; ".join(houses))
    streets = []
    for s, token in enumerate(view.street_tokens):
        flipped = view.street_flipped[s]
        side = f"{token.back} (back)" if flipped else f"{token.front}"
        streets.append(f"{s}: {side} {token.treat.value}")
    lines.append("Street bonuses: " + "; ".join(streets))
    means = []
    for m, mean in enumerate(view.mean_houses):
        pumpkin = ", pumpkin" if view.pumpkin_on_mean_house[m] else ""
        means.append(f"{m}: {mean.icon.value}, tile {mean.tile}{pumpkin}")
    lines.append("Mean houses: " + "; ".join(means))
    for offset in range(n):
        seat = (view.player + offset) % n
        player = view.players[seat]
        tile = view.secret_tiles[seat]
        treats = ", ".join(
            f"{count} {t.value}" for t, count in zip(Treat, player.treats, strict=True)
        )
        lines.append(
            f"{names[seat]}: {treats}, pumpkins {player.pumpkins}, "
            f"footprints {player.footprints}, visited {sorted(player.visited)}, "
            f"tricked {sorted(player.tricked)}, secret tile {tile if tile is not None else '?'}, "
            f"points {view.scores[seat].total}"
        )
        for k, kid in enumerate(player.kids):
            if kid:
                lines.append(f"  kid {k}: " + ", ".join(str(card) for card in kid))
    if view.legal_actions:
        lines.append("Legal: " + " ".join(str(a) for a in view.legal_actions))
    return "\n".join(lines)
