"""Engine values and stored games as the JSON API answers them (the shapes of ``schemas``)."""

from __future__ import annotations

from typing import Any

from ..models import Game
from ..reports.rounds import round_page
from ..rules.game import Step, first_dealer_again
from ..rules.hands import Hand
from ..rules.round import RoundResult
from ..rules.ruleset import RuleSet, json_value


def hand_data(name: str | None, hand: Hand) -> dict[str, Any]:
    data = {
        "value": json_value(hand.value),
        "counted": [card.code for card in hand.counted],
        "explanation": hand.explanation,
    }
    return data if name is None else {"name": name, **data}


def result_data(rules: RuleSet, result: RoundResult) -> dict[str, Any]:
    """A round's result in the JSON API's shape."""
    return {
        "hands": [hand_data(name, hand) for name, hand in result.hands.items()],
        "losses": dict(result.losses),
        "players": [
            {
                "name": player.name,
                "lives": player.lives,
                "status": player.status,
                "status_label": player.status_label,
                "lost": player.lost,
                "reason": player.reason,
                "coins": player.coins if rules.played_for_pot else None,
            }
            for player in result.players
        ],
        "pot": result.pot,
        "result": result.result,
        "choices": [{"id": choice.id, "words": choice.words} for choice in result.choices],
        "game_over": result.game_over,
        "winner": result.winner,
        "tie": list(result.tie),
        "next_dealer": result.next_dealer,
        "explanation": list(result.explanation),
        "winners": list(result.winners),
        "coins": dict(result.coins),
    }


def state_data(game: Game) -> dict[str, Any]:
    """The game as it stands, from the state stored with it: no round is read."""
    state = game.state
    pot = game.rules.played_for_pot  # no lives: coins instead
    return {
        "id": str(game.id),
        "version": game.version,
        "rules": {
            "preset": game.preset,
            **{k: json_value(v) for k, v in game.rules.as_dict().items()},
        },
        "players": [
            {
                "name": name,
                "lives": None if pot else state.lives[i],
                "status": state.statuses[i],
                "status_label": game.rules.status_label(state.statuses[i]),
                "coins": state.coins[i] if state.coins else None,
            }
            for i, name in enumerate(state.names)
        ],
        "dealer": None if state.last_dealer is None else state.names[state.last_dealer],
        "next_dealer": None if state.game_over else state.dealer_name,
        "pot": state.pot,
        "round": state.rounds,
        "finished": state.game_over,
        "name": game.name,
        "abandoned": game.abandoned,
        "in_bin_until": game.removed_for_good.isoformat() if game.removed_for_good else None,
        "winner": state.winner,
        "tie": list(state.tie),
        # Who deals first when the table plays again, as the rules' first_dealer_again says.
        "next_game_dealer": state.names[first_dealer_again(game.rules, state, game.first_dealer)]
        if state.game_over
        else None,
    }


def round_data(names: tuple[str, ...], step: Step) -> dict[str, Any]:
    round, result = step.round, step.result
    return {
        "number": step.number,
        "dealer": names[step.dealer],
        "ending": round.ending,
        "knocker": None if round.knocker is None else names[round.knocker],
        "shown_by": [names[p] for p in round.shown_by],
        "lowest": None if round.lowest is None else [names[p] for p in round.lowest],
        "winners": None if round.winners is None else [names[p] for p in round.winners],
        "hands": [hand_data(name, hand) for name, hand in result.hands.items()],
        "choice": round.choice or None,
        "result": result.result,
        "losses": result.losses,
        "coins": dict(result.coins),
        "summary": step.summary,
        "explanation": list(result.explanation),
    }


def game_data(game: Game, before: int | None = None) -> dict[str, Any]:
    """The game as it stands, with a page of its rounds (the newest, or those before round
    ``before``) worked out again in words, and where the page of older ones starts."""
    page = round_page(game, before)
    return {
        **state_data(game),
        "rounds": [round_data(game.names, step) for step in page.steps],
        "earlier_rounds": page.earlier,
    }
