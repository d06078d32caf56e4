// The machine-facing probes behind server resolution: is a file executable, does an interpreter
// have the server module. Node only (no VS Code), so they run in the unit tests too.

import { execFile } from "node:child_process";
import { constants as fsConstants } from "node:fs";
import { access, stat } from "node:fs/promises";

import { SERVER_MODULE } from "./serverCommand";

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
