"""Help for the generic search player: playouts that stop when the hand ends.

A match is several hands; a uniform playout to the end of the match is long (a hundred actions
and more) and mostly noise about later hands. ``hand_end_estimate`` stops a playout when the hand
it began in is over and estimates each player's chance of the match from the points both still
need: ``SearchPlayer(playout_cutoff=hand_end_estimate)``.
"""

from __future__ import annotations

from hack_trick.game import HackTrickState

__all__ = ["hand_end_estimate"]


def hand_end_estimate(start: HackTrickState, state: HackTrickState) -> tuple[float, ...] | None:
    """None while the hand of ``start`` goes on; then each player's estimated share.

    The estimate of a match still open is the other player's points still needed over both
    players' (a player who needs 1 point against 4 wins 4 times in 5).
    """
    if state.is_over:
        return state.returns()
    if len(state.results) == len(start.results):
        return None
    need = [state.config.target - score for score in state.scores]
    return (need[1] / (need[0] + need[1]), need[0] / (need[0] + need[1]))
