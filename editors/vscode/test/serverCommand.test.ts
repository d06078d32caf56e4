// How the extension finds the language server: the setting, else the Python extension's active
// environment, else grooph-lsp on PATH (issue 7, item 1).
import { strict as assert } from "node:assert";
import { chmod, mkdtemp, mkdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, it } from "node:test";

import { bundledServer, isExecutableFile, pythonHasModule, pythonVersion } from "../src/core/probes";
import {
  BundledServer,
  PathVariables,
  ServerProbes,
  ServerSettings,
  describeCommand,
  expandPathVariables,
  findOnPath,
  resolveServerCommand,
} from "../src/core/serverCommand";

const VARS: PathVariables = { home: "/home/ada", workspaceFolder: "/work/project", env: { VENV: "/opt/venv" } };
const NONE: ServerSettings = { command: [], pythonPath: "", logFile: "" };

/** Probes that answer from a script and record what was asked. */
function probes(answers: {
  active?: string;
  hasServer?: string[];
  onPath?: string;
  programs?: Record<string, string>;
  bundled?: BundledServer;
  versions?: Record<string, string>;
}): ServerProbes & { asked: string[] } {
  const asked: string[] = [];
  return {
    asked,
    activePythonInterpreter() {
      asked.push("active");
      return Promise.resolve(answers.active);
    },
    pythonHasServer(python) {
      asked.push(`has:${python}`);
      return Promise.resolve((answers.hasServer ?? []).includes(python));
    },
    findOnPath(program) {
      asked.push(`path:${program}`);
      return Promise.resolve(program === "grooph-lsp" ? answers.onPath : answers.programs?.[program]);
    },
    bundledServer() {
      asked.push("bundled");
      return Promise.resolve(answers.bundled);
    },
    pythonVersion(python) {
      asked.push(`version:${python}`);
      return Promise.resolve(answers.versions?.[python]);
    },
  };
}

describe("resolveServerCommand", () => {
  it("uses grooph.server.command as given, without asking the machine anything", async () => {
    const p = probes({ active: "/usr/bin/python3", hasServer: ["/usr/bin/python3"], onPath: "/usr/bin/grooph-lsp" });
    const r = await resolveServerCommand({ ...NONE, command: ["${workspaceFolder}/.venv/bin/grooph-lsp", "--tcp", "x"] }, VARS, p);
    assert.ok(r.ok);
    assert.deepEqual(r.server, { command: "/work/project/.venv/bin/grooph-lsp", args: ["--tcp", "x"], source: "grooph.server.command" });
    assert.deepEqual(p.asked, []);
  });

  it("ignores a command setting made only of blanks", async () => {
    const r = await resolveServerCommand({ ...NONE, command: ["  ", ""] }, VARS, probes({ onPath: "/usr/local/bin/grooph-lsp" }));
    assert.ok(r.ok);
    assert.equal(r.server.source, "PATH");
  });

  it("runs `<python> -m grooph_lsp` for grooph.server.pythonPath, expanding ~", async () => {
    const p = probes({ onPath: "/usr/bin/grooph-lsp" });
    const r = await resolveServerCommand({ ...NONE, pythonPath: "~/.venvs/g/bin/python" }, VARS, p);
    assert.ok(r.ok);
    assert.deepEqual(r.server, { command: "/home/ada/.venvs/g/bin/python", args: ["-m", "grooph_lsp"], source: "grooph.server.pythonPath" });
    assert.deepEqual(p.asked, []);
  });

  it("prefers the command setting over the interpreter setting", async () => {
    const r = await resolveServerCommand({ command: ["grooph-lsp"], pythonPath: "/usr/bin/python3", logFile: "" }, VARS, probes({}));
    assert.ok(r.ok);
    assert.equal(r.server.source, "grooph.server.command");
  });

  it("uses the Python extension's interpreter when it has the server module", async () => {
    const p = probes({ active: "/p/venv/bin/python", hasServer: ["/p/venv/bin/python"], onPath: "/usr/bin/grooph-lsp" });
    const r = await resolveServerCommand(NONE, VARS, p);
    assert.ok(r.ok);
    assert.deepEqual(r.server, { command: "/p/venv/bin/python", args: ["-m", "grooph_lsp"], source: "Python extension" });
    assert.deepEqual(p.asked, ["active", "has:/p/venv/bin/python"]);
  });

  it("skips an active environment without the module and falls back to PATH, saying why", async () => {
    const p = probes({ active: "/p/venv/bin/python", hasServer: [], onPath: "/home/ada/.local/bin/grooph-lsp" });
    const r = await resolveServerCommand(NONE, VARS, p);
    assert.ok(r.ok);
    assert.deepEqual(r.server, { command: "/home/ada/.local/bin/grooph-lsp", args: [], source: "PATH" });
    assert.match(r.notes.join("\n"), /\/p\/venv\/bin\/python has no grooph_lsp module/);
  });

  it("explains how to install when nothing is found", async () => {
    const r = await resolveServerCommand(NONE, VARS, probes({ active: "/p/venv/bin/python" }));
    assert.equal(r.ok, false);
    assert.ok(!r.ok);
    assert.match(r.message, /neither in \/p\/venv\/bin\/python nor on PATH/);
    assert.match(r.message, /bundles none/);
    assert.match(r.message, /pipx install <wheel or checkout>/);
    assert.doesNotMatch(r.message, /pip install grooph-lsp/, "grooph-lsp is not on PyPI");
    assert.match(r.message, /grooph\.server\.pythonPath/);
  });

  it("says no environment is selected when the Python extension gave none", async () => {
    const r = await resolveServerCommand(NONE, VARS, probes({}));
    assert.ok(!r.ok);
    assert.match(r.message, /no Python environment is selected/);
  });

  const BUNDLE: BundledServer = { launcher: "/ext/bundled/grooph_server.py", pythons: ["3.11", "3.12", "3.13"] };

  it("runs the bundled server with python3 when no environment has the server (before grooph-lsp on PATH)", async () => {
    const p = probes({ bundled: BUNDLE, programs: { python3: "/usr/bin/python3" }, versions: { "/usr/bin/python3": "3.12" }, onPath: "/bin/grooph-lsp" });
    const r = await resolveServerCommand(NONE, VARS, p);
    assert.ok(r.ok);
    assert.deepEqual(r.server, { command: "/usr/bin/python3", args: ["-I", "/ext/bundled/grooph_server.py"], source: "bundled" });
  });

  it("runs the bundled server with the Python extension's interpreter first, when it lacks the module", async () => {
    const p = probes({
      active: "/p/venv/bin/python",
      bundled: BUNDLE,
      programs: { python3: "/usr/bin/python3" },
      versions: { "/p/venv/bin/python": "3.13", "/usr/bin/python3": "3.12" },
    });
    const r = await resolveServerCommand(NONE, VARS, p);
    assert.ok(r.ok);
    assert.equal(r.server.command, "/p/venv/bin/python");
    assert.equal(r.server.source, "bundled");
  });

  it("skips an interpreter the bundle does not support and takes the next", async () => {
    const p = probes({
      bundled: BUNDLE,
      programs: { python3: "/usr/bin/python3", python: "/opt/py312/bin/python" },
      versions: { "/usr/bin/python3": "3.9", "/opt/py312/bin/python": "3.12" },
    });
    const r = await resolveServerCommand(NONE, VARS, p);
    assert.ok(r.ok);
    assert.equal(r.server.command, "/opt/py312/bin/python");
  });

  it("says exactly what to install when no interpreter can run the bundled server", async () => {
    const old = await resolveServerCommand(
      NONE,
      VARS,
      probes({ bundled: BUNDLE, programs: { python3: "/usr/bin/python3" }, versions: { "/usr/bin/python3": "3.9" } }),
    );
    assert.ok(!old.ok);
    assert.match(old.message, /needs Python 3\.11 or newer/);
    assert.match(old.message, /found only \/usr\/bin\/python3 \(Python 3\.9\)/);
    assert.match(old.message, /sudo apt install python3/);
    const none = await resolveServerCommand(NONE, VARS, probes({ bundled: BUNDLE }));
    assert.ok(!none.ok);
    assert.match(none.message, /found no python3 or python on PATH/);
    const onPath = await resolveServerCommand(NONE, VARS, probes({ bundled: BUNDLE, onPath: "/bin/grooph-lsp" }));
    assert.ok(onPath.ok, "grooph-lsp on PATH still serves when no Python runs the bundle");
    assert.equal(onPath.server.source, "PATH");
  });

  it("adds --log-file to every kind of command", async () => {
    const withLog = { ...NONE, logFile: "${env:VENV}/lsp.log" };
    const a = await resolveServerCommand({ ...withLog, command: ["grooph-lsp"] }, VARS, probes({}));
    const b = await resolveServerCommand({ ...withLog, pythonPath: "py" }, VARS, probes({}));
    const c = await resolveServerCommand(withLog, VARS, probes({ onPath: "/bin/grooph-lsp" }));
    const d = await resolveServerCommand(
      withLog,
      VARS,
      probes({ bundled: BUNDLE, programs: { python3: "/usr/bin/python3" }, versions: { "/usr/bin/python3": "3.11" } }),
    );
    for (const r of [a, b, c, d]) {
      assert.ok(r.ok);
      assert.deepEqual(r.server.args.slice(-2), ["--log-file", "/opt/venv/lsp.log"]);
    }
  });
});

describe("expandPathVariables", () => {
  it("expands ~, ${userHome}, ${workspaceFolder} and ${env:NAME}", () => {
    assert.equal(expandPathVariables("~", VARS), "/home/ada");
    assert.equal(expandPathVariables("~/x", VARS), "/home/ada/x");
    assert.equal(expandPathVariables("${userHome}/y", VARS), "/home/ada/y");
    assert.equal(expandPathVariables("${workspaceFolder}/.venv/bin/python", VARS), "/work/project/.venv/bin/python");
    assert.equal(expandPathVariables("${env:VENV}/bin/python", VARS), "/opt/venv/bin/python");
    assert.equal(expandPathVariables("${env:MISSING}x", VARS), "x");
  });

  it("leaves what it cannot expand as written", () => {
    assert.equal(expandPathVariables("a~b", VARS), "a~b");
    assert.equal(expandPathVariables("${workspaceFolder}/py", { home: "/h", env: {} }), "${workspaceFolder}/py");
    assert.equal(expandPathVariables("${unknown}", VARS), "${unknown}");
  });
});

describe("describeCommand", () => {
  it("quotes arguments with spaces", () => {
    assert.equal(
      describeCommand({ command: "/Program Files/py.exe", args: ["-m", "grooph_lsp"], source: "grooph.server.pythonPath" }),
      '"/Program Files/py.exe" -m grooph_lsp (from grooph.server.pythonPath)',
    );
  });
});

describe("findOnPath", () => {
  it("walks PATH in order and returns the first executable", async () => {
    const exists = new Set(["/b/grooph-lsp", "/c/grooph-lsp"]);
    const found = await findOnPath("grooph-lsp", { PATH: "/a::/b:/c" }, "linux", (f) => Promise.resolve(exists.has(f)));
    assert.equal(found, "/b/grooph-lsp");
  });

  it("tries PATHEXT on Windows and never the bare name", async () => {
    const tried: string[] = [];
    const found = await findOnPath("grooph-lsp", { Path: "C:\\A;\"C:\\B\"", PATHEXT: ".COM;.EXE" }, "win32", (f) => {
      tried.push(f);
      return Promise.resolve(f === "C:\\B\\grooph-lsp.EXE");
    });
    assert.equal(found, "C:\\B\\grooph-lsp.EXE");
    assert.deepEqual(tried, ["C:\\A\\grooph-lsp.COM", "C:\\A\\grooph-lsp.EXE", "C:\\B\\grooph-lsp.COM", "C:\\B\\grooph-lsp.EXE"]);
  });

  it("finds nothing on an empty PATH", async () => {
    assert.equal(await findOnPath("grooph-lsp", {}, "linux", () => Promise.resolve(true)), undefined);
  });

  it("finds a real executable and skips a plain file and a folder", async () => {
    const dir = await mkdtemp(join(tmpdir(), "grooph-path-"));
    try {
      const [a, b, c] = ["a", "b", "c"].map((d) => join(dir, d));
      await mkdir(a);
      await mkdir(join(a, "grooph-lsp"));
      await mkdir(b);
      await writeFile(join(b, "grooph-lsp"), "#!/bin/sh\n");
      await mkdir(c);
      await writeFile(join(c, "grooph-lsp"), "#!/bin/sh\n");
      await chmod(join(c, "grooph-lsp"), 0o755);
      const found = await findOnPath("grooph-lsp", { PATH: [a, b, c].join(":") }, "linux", isExecutableFile);
      assert.equal(found, process.platform === "win32" ? undefined : join(c, "grooph-lsp"));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe("pythonHasModule", () => {
  it("is false for a program that does not exist", async () => {
    assert.equal(await pythonHasModule("/nonexistent/python-for-grooph-test"), false);
  });

  it("asks a real interpreter (when one is on PATH) and tells a present module from a missing one", async (t) => {
    const python = await findOnPath(process.platform === "win32" ? "python" : "python3", process.env, process.platform, isExecutableFile);
    if (!python) {
      t.skip("no python3 on PATH");
      return;
    }
    assert.equal(await pythonHasModule(python, "json"), true);
    assert.equal(await pythonHasModule(python, "grooph_no_such_module_xyz"), false);
  });
});

describe("bundledServer / pythonVersion", () => {
  it("finds a complete bundle and refuses an incomplete one", async () => {
    const dir = await mkdtemp(join(tmpdir(), "grooph-bundle-"));
    try {
      assert.equal(await bundledServer(dir), undefined);
      await mkdir(join(dir, "bundled", "libs", "grooph_lsp"), { recursive: true });
      await writeFile(join(dir, "bundled", "manifest.json"), JSON.stringify({ target: "linux-x64", pythons: ["3.11", "3.12"] }));
      await writeFile(join(dir, "bundled", "grooph_server.py"), "");
      assert.equal(await bundledServer(dir), undefined, "no grooph_lsp in libs");
      await writeFile(join(dir, "bundled", "libs", "grooph_lsp", "__main__.py"), "");
      assert.deepEqual(await bundledServer(dir), { launcher: join(dir, "bundled", "grooph_server.py"), pythons: ["3.11", "3.12"] });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("reads a real interpreter's version (when python3 is on PATH) and nothing from a missing one", async (t) => {
    assert.equal(await pythonVersion("/no/such/python"), undefined);
    const python = await findOnPath("python3", process.env, process.platform, isExecutableFile);
    if (!python) {
      t.skip("no python3 on PATH");
      return;
    }
    assert.match((await pythonVersion(python)) ?? "", /^3\.\d+$/);
  });
});
