// The machine-facing probes behind server resolution: is a file executable, does an interpreter
// have the server module, which Python it is, the bundled server. Node only (no VS Code), so they run in the unit tests too.

import { execFile } from "node:child_process";
import { constants as fsConstants } from "node:fs";
import { access, readFile, stat } from "node:fs/promises";
import { join } from "node:path";

import { BundledServer, SERVER_MODULE } from "./serverCommand";

/** True for an existing regular file this process may execute (on Windows: any existing file). */
export async function isExecutableFile(file: string): Promise<boolean> {
  try {
    const info = await stat(file);
    if (!info.isFile()) {
      return false;
    }
    if (process.platform === "win32") {
      return true;
    }
    await access(file, fsConstants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * True when `<python> -m grooph_lsp` can start: the interpreter runs and finds the module. It only
 * looks the module up (importlib.util.find_spec), so nothing of the server runs. Gives up after
 * `timeoutMs` (a slow first start of a conda interpreter must not hang activation).
 */
export function pythonHasModule(python: string, module = SERVER_MODULE, timeoutMs = 10000): Promise<boolean> {
  const code = `import importlib.util, sys; sys.exit(0 if importlib.util.find_spec(${JSON.stringify(module)}) else 3)`;
  return new Promise((resolve) => {
    execFile(python, ["-c", code], { timeout: timeoutMs, windowsHide: true }, (error) => resolve(!error));
  });
}

/** `major.minor` of a CPython interpreter ("3.12"), or undefined when it does not run in `timeoutMs`. */
export function pythonVersion(python: string, timeoutMs = 10000): Promise<string | undefined> {
  const code = `import sys, platform; print(platform.python_implementation(), "%d.%d" % sys.version_info[:2])`;
  return new Promise((resolve) => {
    execFile(python, ["-c", code], { timeout: timeoutMs, windowsHide: true }, (error, stdout) => {
      const match = /^CPython (\d+\.\d+)\s*$/.exec(String(stdout));
      resolve(error || !match ? undefined : match[1]);
    });
  });
}

/**
 * The server bundled in `extensionDir` (bundled/grooph_server.py, bundled/libs and the manifest that
 * scripts/bundle_server.py writes), or undefined when this build has none or it is incomplete.
 */
export async function bundledServer(extensionDir: string): Promise<BundledServer | undefined> {
  const bundled = join(extensionDir, "bundled");
  try {
    const manifest = JSON.parse(await readFile(join(bundled, "manifest.json"), "utf8")) as { pythons?: unknown };
    const pythons = Array.isArray(manifest.pythons) ? manifest.pythons.filter((p): p is string => typeof p === "string") : [];
    const launcher = join(bundled, "grooph_server.py");
    await stat(join(bundled, "libs", SERVER_MODULE, "__main__.py"));
    await stat(launcher);
    return pythons.length > 0 ? { launcher, pythons } : undefined;
  } catch {
    return undefined;
  }
}
