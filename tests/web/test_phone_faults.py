"""What a phone reports of a fault (POST /faults) reaches the log as one line: nothing a phone
sends can start a line of its own, colour a terminal or cut the log with a NUL."""

import json
import logging

import pytest

pytestmark = pytest.mark.django_db

FORGED = (
    "boom\n2026-12-07 03:00:00,000 ERROR django.request Internal Server Error: /admin/\r"
    "\x1b[31mred\x1b[0m\x00\u2028end"
)


def test_a_fault_report_is_written_as_one_line_with_every_control_character_escaped(client, caplog):
    report = {"kind": "error", "message": FORGED, "where": "table.js:1\n", "release": "x\r"}
    with caplog.at_level(logging.WARNING, logger="scorekeeper.phone"):
        answer = client.post("/faults", json.dumps(report), content_type="application/json")
    assert answer.status_code == 204
    [record] = [r for r in caplog.records if r.name == "scorekeeper.phone"]
    written = record.getMessage()
    for raw in ("\n", "\r", "\x1b", "\x00", "\u2028"):
        assert raw not in written, repr(raw)
    assert "\\n2026-12-07" in written and "\\x1b[31m" in written and "\\x00" in written
    # The whole report, escaped alike, as one structured field for a log that keeps fields.
    assert record.fault["message"] == written.split(": ", 2)[2].rsplit(" (release", 1)[0]
