// The benchmark's peer (issue 8): Microsoft's vscode-json-languageservice, the JSON support VS Code
// ships, parsing a grooph document and validating it against our published JSON Schema
// (grooph_core/schema/grooph-0.schema.json or grooph-map-0.schema.json).
//
// Usage: node bench/peer.js JOB.json
//   JOB.json = {"schemas": {"graph": PATH, "map": PATH},
//               "docs": [{"file": PATH, "kind": "graph"|"map", "repeats": N, "warmup": N}, ...]}
// Prints one JSON object: {"version": ..., "results": [{"file", "wall_ms": [...], "cpu_ms": [...],
// "diagnostics": N, "messages": [first few messages]}, ...]}. Each timed run is a fresh
// TextDocument, `parseJSONDocument` and `doValidation` (the schema itself is loaded once, before).
// No forced garbage collection between runs: a forced full GC makes V8 drop optimised code and slows
// the next run several times over, which is not how the peer runs in an editor.
"use strict";

const fs = require("fs");
const path = require("path");
const { getLanguageService } = require("vscode-json-languageservice");
const { TextDocument } = require("vscode-languageserver-textdocument");

async function main() {
  const job = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
  const schemas = {};
  for (const [kind, file] of Object.entries(job.schemas)) {
    schemas[kind] = { uri: "file://" + path.resolve(file), schema: JSON.parse(fs.readFileSync(file, "utf8")) };
  }
  const services = {};
  for (const [kind, s] of Object.entries(schemas)) {
    const ls = getLanguageService({});
    ls.configure({
      validate: true,
      allowComments: false,
      schemas: [{ uri: s.uri, fileMatch: ["*"], schema: s.schema }],
    });
    services[kind] = ls;
  }
  const pkg = JSON.parse(fs.readFileSync(require.resolve("vscode-json-languageservice/package.json"), "utf8"));
  const results = [];
  for (const d of job.docs) {
    const text = fs.readFileSync(d.file, "utf8");
    const ls = services[d.kind];
    const uri = "file:///bench/" + path.basename(d.file);
    let diagnostics = [];
    const once = async (version) => {
      const doc = TextDocument.create(uri, "json", version, text);
      const json = ls.parseJSONDocument(doc);
      diagnostics = await ls.doValidation(doc, json, { comments: "error", trailingCommas: "error" });
    };
    for (let i = 0; i < (d.warmup ?? 3); i++) await once(i);
    const wall = [];
    const cpu = [];
    for (let i = 0; i < d.repeats; i++) {
      const c0 = process.cpuUsage();
      const t0 = process.hrtime.bigint();
      await once(1000 + i);
      const t1 = process.hrtime.bigint();
      const c1 = process.cpuUsage(c0);
      wall.push(Number(t1 - t0) / 1e6);
      cpu.push((c1.user + c1.system) / 1e3);
    }
    results.push({
      file: d.file,
      wall_ms: wall,
      cpu_ms: cpu,
      diagnostics: diagnostics.length,
      messages: diagnostics.slice(0, 5).map((x) => x.message),
    });
  }
  process.stdout.write(JSON.stringify({ version: pkg.version, node: process.version, results }) + "\n");
}

main().catch((e) => {
  process.stderr.write(String(e && e.stack ? e.stack : e) + "\n");
  process.exit(1);
});
