"""schemathesis as a real client holds keys: each club's key, from the answer that made it, is
the one it sends for that club and its games (SCHEMATHESIS_HOOKS, tests/web/test_schemathesis.py).
Without this a fuzzer holding one key would see every other club it made as not found."""

import os

import schemathesis

FIRST_KEY = os.environ["KNOCK_FUZZ_KEY"]  # the club made before the run
KEYS: dict[str, str] = {}  # a club's, a game's or a tournament's id: the key that opens it


@schemathesis.hook
def after_call(context, case, response):
    if case.method.upper() != "POST" or response.status_code != 201:
        return
    made = response.json()
    if case.path.endswith("/clubs"):
        KEYS[made["id"]] = made["key"]
    elif case.path.endswith(("/games", "/tournaments")):
        KEYS[made["id"]] = KEYS.get(str((case.path_parameters or {}).get("club")), FIRST_KEY)


@schemathesis.auth(refresh_interval=None)
class ClubKeys:
    def get(self, case, context):
        return FIRST_KEY

    def set(self, case, data, context):
        named = case.path_parameters or {}
        opened = named.get("club") or named.get("game") or named.get("tournament")
        key = KEYS.get(str(opened), data)
        case.headers = {**(case.headers or {}), "Authorization": f"Bearer {key}"}
