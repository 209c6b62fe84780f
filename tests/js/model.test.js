/* The model of Knock the simulation runs against answers the shared cases as the real server
 * does (tests/web/test_record_cases.py runs the same cases against Django). */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { test } from "node:test";

import { NAMES } from "../../static/js/contract.js";
import { NEEDS, modelKnock } from "./model_knock.js";

const { cases } = JSON.parse(readFileSync(new URL("./record_cases.json", import.meta.url), "utf8"));

for (const { name, steps } of cases) {
  test(`the model: ${name}`, () => {
    const knock = modelKnock();
    knock.open("/g/");
    for (const step of steps) {
      const body = new URLSearchParams({ ending: "knock", knocker: "0", version: String(step.version), client_id: step.tap, confirm: "1" });
      if (step.lowest !== false) body.append("lowest", "1");
      const { headers } = knock.record("/g/", body.toString());
      const expect = step.expect;
      assert.equal(headers[NAMES.headers.outcome], expect.outcome);
      assert.equal(Number(headers[NAMES.headers.version]), expect.version);
      if (expect.theirs) assert.deepEqual(JSON.parse(headers[NAMES.headers.theirs]).map((round) => round.tap), expect.theirs);
      if (typeof expect.why === "string") assert.equal(JSON.parse(headers[NAMES.headers.why]), expect.why);
      else if (expect.why) assert.ok(JSON.parse(headers[NAMES.headers.why]));
    }
  });
}

test("the model's words for an incomplete knock are the ones the cases hold", () => {
  assert.equal(NEEDS.lowest, cases.at(-1).steps[0].expect.why);
});
