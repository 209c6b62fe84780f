"""A club as one JSON file (players, games, rules, every round with its inputs, undone and
edited rounds included), and back. The file holds the club's keys, so that a restored club opens
with the same links: keep it as safe as the secret link."""

from __future__ import annotations

import csv
import io
from typing import Any

from django.db import transaction
from django.utils.dateparse import parse_datetime

from .models import Club, Game, GameSeat, Round
from .rules.errors import InputError

FORMAT = "knock-club"
VERSION = 1
ROUND_FIELDS = ("number", "state", "ending", "knocker", "shown_by", "lowest", "hands", "choice",
                "client_id")  # fmt: skip


def _when(value) -> str | None:
    return None if value is None else value.isoformat()


def export_club(club: Club) -> dict[str, Any]:
    games = club.games.order_by("created", "id").prefetch_related("seats__player", "rounds")
    return {
        "format": FORMAT,
        "version": VERSION,
        "club": {
            "id": str(club.id),
            "name": club.name,
            "key": club.key,
            "view_key": club.view_key,
            "created": _when(club.created),
        },
        "players": [
            {"name": p.name, "retired": p.retired, "created": _when(p.created)}
            for p in club.players.order_by("created", "id")
        ],
        "games": [
            {
                "id": str(game.id),
                "preset": game.preset,
                "rules": game.rules_data,
                "readings": game.readings,
                "first_dealer": game.first_dealer,
                "created": _when(game.created),
                "version": game.version,
                "seats": [
                    seat.player.name for seat in sorted(game.seats.all(), key=lambda s: s.position)
                ],
                "rounds": [
                    {
                        **{name: getattr(r, name) for name in ROUND_FIELDS},
                        "created": _when(r.created),
                        "changed": _when(r.changed),
                    }
                    for r in sorted(game.rounds.all(), key=lambda r: (r.created, r.pk))
                ],
            }
            for game in games
        ],
    }


def _require(data: Any, key: str, kind: type, where: str) -> Any:
    if not isinstance(data, dict) or not isinstance(data.get(key), kind):
        raise InputError(f"the file has no {key} here", f"{where}.{key}")
    return data[key]


def import_club(data: Any) -> Club:
    """Restore a club from ``export_club``'s file into this instance: all of it or nothing."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise InputError("this is not a Knock club file", "format")
    if data.get("version") != VERSION:
        raise InputError(
            f"this file is version {data.get('version')}; Knock reads {VERSION}", "version"
        )
    info = _require(data, "club", dict, "file")
    if Club.objects.filter(pk=info.get("id")).exists() or Club.objects.with_key(
        str(info.get("key"))
    ):
        raise InputError("this club is already here", "club")
    with transaction.atomic():
        club = Club.objects.create(
            id=info["id"], name=_require(info, "name", str, "club"), key=info["key"],
            view_key=info["view_key"], created=parse_datetime(info["created"]),
        )  # fmt: skip
        players = {}
        for entry in _require(data, "players", list, "file"):
            player = club.add_player(_require(entry, "name", str, "players"))
            player.retired = bool(entry.get("retired"))
            player.created = parse_datetime(entry["created"])
            player.save(update_fields=["retired", "created"])
            players[player.name] = player
        for entry in _require(data, "games", list, "file"):
            game = Game.objects.create(
                id=entry["id"], club=club, preset=entry["preset"], rules_data=entry["rules"],
                readings=entry.get("readings", []), first_dealer=entry["first_dealer"],
                created=parse_datetime(entry["created"]), version=entry.get("version", 0),
            )  # fmt: skip
            GameSeat.objects.bulk_create(
                GameSeat(game=game, player=players[name], position=i)
                for i, name in enumerate(entry["seats"])
            )
            Round.objects.bulk_create(
                Round(
                    game=game,
                    **{name: r[name] for name in ROUND_FIELDS},
                    created=parse_datetime(r["created"]),
                    changed=parse_datetime(r["changed"]) if r.get("changed") else None,
                )
                for r in entry["rounds"]
            )
            game.replay()  # refuses a file whose rounds the rules do not allow
            story = game.replay()
            game.round_count, game.finished = len(story.steps), story.game_over
            game.result_text = story.result_words
            game.save(update_fields=["round_count", "finished", "result_text"])
    return club


def games_csv(club: Club) -> str:
    """A club's games for a spreadsheet: one row a game."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(["started", "game", "rules", "players", "rounds", "finished", "result"])
    for game in club.games.for_listing().order_by("created"):
        writer.writerow([
            game.created.isoformat(timespec="minutes"), str(game.id), game.preset_name,
            "; ".join(seat.player.name for seat in game.seats.all()), game.round_count,
            "yes" if game.finished else "no", game.result_text,
        ])  # fmt: skip
    return out.getvalue()
