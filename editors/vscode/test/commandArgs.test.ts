// The arguments the extension sends with grooph.preview / grooph.applyOperations, how it reads their
// answers, and the settings section it hands the server.
import { strict as assert } from "node:assert";
import { describe, it } from "node:test";

import {
  COLOR_THEME_KIND,
  applyOperationsArguments,
  describeApplyResult,
  effectiveTheme,
  parseOperations,
  previewArguments,
  serverSettingsSection,
} from "../src/core/commandArgs";

describe("effectiveTheme", () => {
  it("follows the editor theme on auto", () => {
    assert.equal(effectiveTheme("auto", COLOR_THEME_KIND.Light), "light");
    assert.equal(effectiveTheme("auto", COLOR_THEME_KIND.HighContrastLight), "light");
    assert.equal(effectiveTheme("auto", COLOR_THEME_KIND.Dark), "dark");
    assert.equal(effectiveTheme("auto", COLOR_THEME_KIND.HighContrast), "dark");
  });

  it("keeps a fixed choice whatever the editor shows", () => {
    assert.equal(effectiveTheme("light", COLOR_THEME_KIND.Dark), "light");
    assert.equal(effectiveTheme("dark", COLOR_THEME_KIND.Light), "dark");
  });

  it("treats an unknown setting as auto", () => {
    assert.equal(effectiveTheme("sepia", COLOR_THEME_KIND.Light), "light");
    assert.equal(effectiveTheme(undefined, COLOR_THEME_KIND.Dark), "dark");
  });
});

describe("previewArguments", () => {
  it("is [uri, view, theme] with null for the default view", () => {
    assert.deepEqual(previewArguments("file:///a/b.grooph.json", null, "dark"), ["file:///a/b.grooph.json", null, "dark"]);
    assert.deepEqual(previewArguments("file:///m.grooph-map.json", "sequence", "light"), ["file:///m.grooph-map.json", "sequence", "light"]);
  });
});

describe("parseOperations", () => {
  it("accepts a JSON list of operation objects", () => {
    const r = parseOperations('[{"op":"addNode","kind":"agent","name":"R"},{"op":"connect","from":"a","to":"b"}]');
    assert.ok(r.ok);
    assert.deepEqual(r.ops.map((o) => o.op), ["addNode", "connect"]);
    assert.equal(r.ops[0].name, "R");
  });

  it("refuses text that is not JSON, naming the parser's complaint", () => {
    const r = parseOperations("[{op: addNode}]");
    assert.ok(!r.ok);
    assert.match(r.message, /^The operations are not valid JSON: /);
  });

  it("refuses a single object with an example of a list", () => {
    const r = parseOperations('{"op":"addNode"}');
    assert.ok(!r.ok);
    assert.match(r.message, /must be a JSON list of ops, for example \[\{"op": "addNode"/);
  });

  it("names the first entry that is not an operation", () => {
    const notObject = parseOperations('[{"op":"a"}, 3]');
    assert.ok(!notObject.ok);
    assert.match(notObject.message, /^ops\[1\] is not an object/);
    const noOp = parseOperations('[{"op":"a"}, {"kind":"agent"}]');
    assert.ok(!noOp.ok);
    assert.equal(noOp.message, 'ops[1] has no "op" naming the operation');
  });

  it("says so for blank text and an empty list", () => {
    assert.deepEqual(parseOperations("  \n"), { ok: false, message: "No operations given." });
    assert.deepEqual(parseOperations("[]"), { ok: false, message: "The list holds no operation." });
  });
});

describe("applyOperationsArguments / describeApplyResult", () => {
  it("sends [uri, ops]", () => {
    const ops = [{ op: "renameId", from: "a", to: "b" }];
    assert.deepEqual(applyOperationsArguments("file:///g.grooph.json", ops), ["file:///g.grooph.json", ops]);
  });

  it("reports success with the new ids", () => {
    assert.deepEqual(describeApplyResult({ ok: true, ids: ["reviewer", "e3"], error: null }, 2), {
      level: "info",
      message: "grooph: applied 2 operations. New ids: reviewer, e3.",
    });
    assert.deepEqual(describeApplyResult({ ok: true, ids: [], error: null }, 1), {
      level: "info",
      message: "grooph: applied 1 operation.",
    });
  });

  it("reports a failing op in the command line's format and says nothing changed", () => {
    const r = describeApplyResult({ ok: false, ids: [], error: { index: 1, op: "connect", message: 'no node "ghost"' } }, 2);
    assert.equal(r.level, "error");
    assert.equal(r.message, 'grooph: ops[1] connect: no node "ghost" No operation was applied; the document is unchanged.');
  });

  it("does not claim success for an answer it cannot read", () => {
    assert.equal(describeApplyResult(null, 1).level, "error");
    assert.equal(describeApplyResult({ ids: [] }, 1).level, "error");
    assert.equal(describeApplyResult({ ok: false, error: null }, 1).level, "error");
  });
});

describe("serverSettingsSection", () => {
  const from = (values: Record<string, unknown>) => serverSettingsSection((key) => values[key]);

  it("passes the settings through", () => {
    assert.deepEqual(from({ complete: true, debounceMs: 300, "preview.theme": "dark" }), {
      complete: true,
      debounceMs: 300,
      preview: { theme: "dark" },
    });
  });

  it("falls back to the documented defaults for missing or wrong values", () => {
    assert.deepEqual(from({}), { complete: false, debounceMs: 150, preview: { theme: "auto" } });
    assert.deepEqual(from({ complete: "yes", debounceMs: -5, "preview.theme": "blue" }), {
      complete: false,
      debounceMs: 150,
      preview: { theme: "auto" },
    });
    assert.equal(from({ debounceMs: 1.5 }).debounceMs, 150);
    assert.equal(from({ debounceMs: 99999 }).debounceMs, 5000);
  });
});
