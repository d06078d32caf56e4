// Which program starts the language server. Pure: the places that look at the machine (the Python
// extension, the interpreter, PATH) are passed in, so the order of choices is tested under plain node.

import * as path from "node:path";

/** The module that `python -m` runs; the console script installed with it is `grooph-lsp`. */
export const SERVER_MODULE = "grooph_lsp";
export const SERVER_SCRIPT = "grooph-lsp";

/** The `grooph.server.*` settings, as read from the configuration. */
export interface ServerSettings {
  /** `grooph.server.command`: program and arguments; empty when unset. */
  command: readonly string[];
  /** `grooph.server.pythonPath`: an interpreter that has grooph-lsp installed; "" when unset. */
  pythonPath: string;
  /** `grooph.server.logFile`: passed as `--log-file`; "" when unset. */
  logFile: string;
}

/** Where the command came from, for the output channel and for error messages. */
export type ServerSource = "grooph.server.command" | "grooph.server.pythonPath" | "Python extension" | "bundled" | "PATH";

/** The server bundled with the extension (bundled/, made by scripts/bundle_server.py). */
export interface BundledServer {
  /** bundled/grooph_server.py: puts bundled/libs first on sys.path and starts the server. */
  launcher: string;
  /** The `major.minor` CPython versions whose compiled modules the bundle holds, oldest first. */
  pythons: string[];
}

export interface ServerCommand {
  command: string;
  args: string[];
  source: ServerSource;
}

/** What resolution needs from the machine. Every probe may be slow; each is asked at most once. */
export interface ServerProbes {
  /** The interpreter of the Python extension's active environment, or undefined without one. */
  activePythonInterpreter(): Promise<string | undefined>;
  /** True when `python -m grooph_lsp` would start the server with this interpreter. */
  pythonHasServer(python: string): Promise<boolean>;
  /** The full path of a program found on PATH, or undefined. */
  findOnPath(program: string): Promise<string | undefined>;
  /** The server bundled with the extension, or undefined when this build has none. */
  bundledServer(): Promise<BundledServer | undefined>;
  /** `major.minor` of a CPython interpreter ("3.12"), or undefined when it does not run. */
  pythonVersion(python: string): Promise<string | undefined>;
}

export type Resolution =
  | { ok: true; server: ServerCommand; notes: string[] }
  | { ok: false; message: string; notes: string[] };

/** Values that `~` and `${workspaceFolder}` / `${userHome}` / `${env:NAME}` stand for in path settings. */
export interface PathVariables {
  home: string;
  workspaceFolder?: string;
  env: Readonly<Record<string, string | undefined>>;
}

/**
 * Expands the variables a user writes in a path setting, as VS Code's own settings allow:
 * a leading `~`, `${userHome}`, `${workspaceFolder}` and `${env:NAME}`. An unknown variable or a
 * `${workspaceFolder}` without an open folder is left as written, so the error message shows it.
 */
export function expandPathVariables(value: string, vars: PathVariables): string {
  let out = value;
  if (out === "~" || out.startsWith("~/") || out.startsWith("~\\")) {
    out = vars.home + out.slice(1);
  }
  return out.replace(/\$\{([^}]+)\}/g, (whole, name: string) => {
    if (name === "userHome") {
      return vars.home;
    }
    if (name === "workspaceFolder") {
      return vars.workspaceFolder ?? whole;
    }
    if (name.startsWith("env:")) {
      return vars.env[name.slice(4)] ?? "";
    }
    return whole;
  });
}

function logArgs(settings: ServerSettings, vars: PathVariables): string[] {
  const logFile = settings.logFile.trim();
  return logFile ? ["--log-file", expandPathVariables(logFile, vars)] : [];
}

/**
 * The server command, in the order users expect (issue 7, item 1; issue 12, item 3):
 * 1. `grooph.server.command` when set, used as given (plus `--log-file`);
 * 2. `grooph.server.pythonPath` when set: `<python> -m grooph_lsp`, without probing: the user chose it,
 *    and a failing start then says plainly which interpreter lacks the package;
 * 3. the Python extension's active environment, when that interpreter has `grooph_lsp` importable;
 * 4. the server bundled with the extension, run by the first of the Python extension's interpreter,
 *    `python3` and `python` on PATH whose version the bundle supports (`<python> -I grooph_server.py`);
 * 5. `grooph-lsp` on PATH.
 * Otherwise an error that says exactly what to install.
 */
export async function resolveServerCommand(
  settings: ServerSettings,
  vars: PathVariables,
  probes: ServerProbes,
): Promise<Resolution> {
  const notes: string[] = [];
  const extra = logArgs(settings, vars);

  const command = settings.command.map((part) => part.trim()).filter((part) => part !== "");
  if (command.length > 0) {
    const [program, ...args] = command;
    return {
      ok: true,
      server: {
        command: expandPathVariables(program, vars),
        args: [...args.map((a) => expandPathVariables(a, vars)), ...extra],
        source: "grooph.server.command",
      },
      notes,
    };
  }

  const pythonSetting = settings.pythonPath.trim();
  if (pythonSetting) {
    return {
      ok: true,
      server: {
        command: expandPathVariables(pythonSetting, vars),
        args: ["-m", SERVER_MODULE, ...extra],
        source: "grooph.server.pythonPath",
      },
      notes,
    };
  }

  const active = await probes.activePythonInterpreter();
  if (active) {
    if (await probes.pythonHasServer(active)) {
      return {
        ok: true,
        server: { command: active, args: ["-m", SERVER_MODULE, ...extra], source: "Python extension" },
        notes,
      };
    }
    notes.push(`The Python extension's interpreter ${active} has no ${SERVER_MODULE} module.`);
  }

  // The server bundled with the extension, run by the first interpreter it supports.
  const bundled = await probes.bundledServer();
  const tried: string[] = [];
  if (bundled) {
    const candidates = [active, await probes.findOnPath("python3"), await probes.findOnPath("python")];
    for (const python of candidates.filter((c, i): c is string => !!c && candidates.indexOf(c) === i)) {
      const version = await probes.pythonVersion(python);
      if (version && bundled.pythons.includes(version)) {
        return {
          ok: true,
          server: { command: python, args: ["-I", bundled.launcher, ...extra], source: "bundled" },
          notes,
        };
      }
      tried.push(`${python} (${version ? `Python ${version}` : "does not run"})`);
    }
    notes.push(`No interpreter runs the bundled server (it supports Python ${bundled.pythons.join(", ")}); tried: ${tried.join(", ") || "none found"}.`);
  }

  const onPath = await probes.findOnPath(SERVER_SCRIPT);
  if (onPath) {
    return { ok: true, server: { command: onPath, args: [...extra], source: "PATH" }, notes };
  }

  if (bundled) {
    const found = tried.length > 0 ? `found only ${tried.join(", ")}` : "found no python3 or python on PATH";
    return {
      ok: false,
      message:
        `grooph: the language server needs Python ${bundled.pythons[0]} or newer (${bundled.pythons.join(", ")}) and ${found}. ` +
        `Install Python 3.12 (Debian/Ubuntu: "sudo apt install python3"; macOS and Windows: python.org), ` +
        `then run "grooph: Restart server"; or set grooph.server.pythonPath to such an interpreter.`,
      notes,
    };
  }
  const where = active ? `neither in ${active} nor on PATH` : "not on PATH and no Python environment is selected";
  return {
    ok: false,
    message:
      `grooph: the language server was not found (${where}), and this build of the extension bundles none. ` +
      `Install the extension's .vsix (it brings the server), or install grooph-lsp from its wheel or checkout ` +
      `into a Python 3.11+ environment ("pipx install <wheel or checkout>"), ` +
      `or set grooph.server.pythonPath to an interpreter that has it, or grooph.server.command to the program.`,
    notes,
  };
}

/** A one-line description of a command for the output channel: program and arguments, quoted where needed. */
export function describeCommand(server: ServerCommand): string {
  const quote = (s: string) => (/^[\w@%+=:,./\\-]+$/.test(s) ? s : JSON.stringify(s));
  return `${[server.command, ...server.args].map(quote).join(" ")} (from ${server.source})`;
}

/** Ways to test whether a path is an executable file; injected so PATH search is testable. */
export type IsExecutable = (file: string) => Promise<boolean>;

/**
 * Finds a program on PATH as a shell would: each PATH entry in order; on Windows with each PATHEXT
 * extension (a name that already has an extension is tried as it is).
 */
export async function findOnPath(
  program: string,
  env: Readonly<Record<string, string | undefined>>,
  platform: NodeJS.Platform,
  isExecutable: IsExecutable,
): Promise<string | undefined> {
  const windows = platform === "win32";
  const pathApi = windows ? path.win32 : path.posix;
  const pathValue = (windows ? (env.Path ?? env.PATH ?? env.path) : env.PATH) ?? "";
  // On Windows a bare name is never run as is (pip installs grooph-lsp.exe beside a grooph-lsp-script).
  const extensions =
    windows && !pathApi.extname(program)
      ? (env.PATHEXT ?? ".COM;.EXE;.BAT;.CMD").split(";").filter((e) => e !== "")
      : [""];
  for (const dir of pathValue.split(windows ? ";" : ":")) {
    if (!dir) {
      continue;
    }
    for (const ext of extensions) {
      const candidate = pathApi.join(dir.replace(/^"(.*)"$/, "$1"), program + ext);
      if (await isExecutable(candidate)) {
        return candidate;
      }
    }
  }
  return undefined;
}
