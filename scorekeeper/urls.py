from django.urls import path, re_path

from .api import api
from .views import app, backup, clubs, games, printing, referee

urlpatterns = [
    path("", clubs.home, name="home"),
    path("referee/", referee.referee, name="referee"),
    path("rules/<str:preset>/", printing.preset_rules, name="preset-rules"),
    path("rules/<str:preset>.pdf", printing.preset_rules, {"pdf": True}, name="preset-rules-pdf"),
    path("sheet/", printing.blank_sheet, name="blank-sheet"),
    path("sheet.pdf", printing.blank_sheet, {"pdf": True}, name="blank-sheet-pdf"),
    path("healthz", clubs.healthz, name="healthz"),
    path("manifest.webmanifest", app.manifest, name="manifest"),
    path("sw.js", app.service_worker, name="service-worker"),
    path("offline", app.offline, name="offline"),
    path("favicon.ico", app.favicon, name="favicon"),
    path("clubs/new", clubs.create_club, name="create-club"),
    path("c/<str:key>/", clubs.club, name="club"),
    path("c/<str:key>/players/add", clubs.add_player, name="add-player"),
    path("c/<str:key>/players/<int:player_id>/rename", clubs.rename_player, name="rename-player"),
    path("c/<str:key>/players/<int:player_id>/retire", clubs.retire_player, name="retire-player"),
    path("c/<str:key>/games/new", games.new_game, name="new-game"),
    path("c/<str:key>/stats", clubs.stats, name="stats"),
    path("c/<str:key>/players/<int:player_id>/stats", clubs.player_stats, name="player-stats"),
    path("c/<str:key>/replace-link", clubs.replace_link, name="replace-link"),
    path("c/<str:key>/export.json", backup.export_club, name="export-club"),
    path("c/<str:key>/games.csv", backup.export_games_csv, name="export-games-csv"),
    path("c/<str:key>/g/<uuid:game_id>/", games.game, name="game"),
    path("c/<str:key>/g/<uuid:game_id>/version", games.game_version, name="game-version"),
    path("c/<str:key>/g/<uuid:game_id>/record", games.record, name="record"),
    path("c/<str:key>/g/<uuid:game_id>/undo", games.undo, name="undo"),
    path("c/<str:key>/g/<uuid:game_id>/mode", games.game_mode, name="game-mode"),
    path("c/<str:key>/g/<uuid:game_id>/invite", games.invite, name="invite"),
    path("c/<str:key>/g/<uuid:game_id>/name", games.name_game, name="name-game"),
    path("c/<str:key>/g/<uuid:game_id>/rules", printing.game_rules, name="game-rules"),
    path(
        "c/<str:key>/g/<uuid:game_id>/rules.pdf",
        printing.game_rules,
        {"pdf": True},
        name="game-rules-pdf",
    ),
    path("c/<str:key>/g/<uuid:game_id>/sheet", printing.game_sheet, name="game-sheet"),
    path(
        "c/<str:key>/g/<uuid:game_id>/sheet.pdf",
        printing.game_sheet,
        {"pdf": True},
        name="game-sheet-pdf",
    ),
    re_path(
        r"^c/(?P<key>[^/]+)/g/(?P<game_id>[0-9a-f-]{36})/(?P<action>abandon|resume|delete|restore)$",
        games.set_aside,
        name="set-aside",
    ),
    path("c/<str:key>/g/<uuid:game_id>/referee", referee.game_referee, name="game-referee"),
    path(
        "c/<str:key>/g/<uuid:game_id>/rounds/<int:number>/edit", games.edit_round, name="edit-round"
    ),
    path("c/<str:key>/g/<uuid:game_id>/log", games.round_log, name="round-log"),
    path("c/<str:key>/g/<uuid:game_id>/again", games.play_again, name="play-again"),
    # The view link's pages: the same views, opened read-only.
    path("v/<str:view_key>/", clubs.club, name="view-club"),
    path("v/<str:view_key>/stats", clubs.stats, name="view-stats"),
    path(
        "v/<str:view_key>/players/<int:player_id>/stats",
        clubs.player_stats,
        name="view-player-stats",
    ),
    path("v/<str:view_key>/g/<uuid:game_id>/", games.game, name="view-game"),
    path("v/<str:view_key>/g/<uuid:game_id>/log", games.round_log, name="view-round-log"),
    path("v/<str:view_key>/g/<uuid:game_id>/version", games.game_version, name="view-game-version"),
    path("api/v1/", api.urls),
]
