// The interpreter of the Python extension's active environment, when that extension is installed.
// Its API is read loosely (two API generations are handled), so a missing or older extension only
// means "no interpreter from there", never an error.

import * as vscode from "vscode";

const PYTHON_EXTENSION_ID = "ms-python.python";

interface EnvironmentsApi {
  getActiveEnvironmentPath(resource?: vscode.Uri): { path: string } | undefined;
  resolveEnvironment(env: { path: string } | string): Promise<{ executable?: { uri?: vscode.Uri } } | undefined>;
}

interface LegacySettingsApi {
  getExecutionDetails(resource?: vscode.Uri): { execCommand: string[] | undefined };
}

interface PythonExtensionExports {
  environments?: EnvironmentsApi;
  settings?: LegacySettingsApi;
}

export async function activePythonInterpreter(resource: vscode.Uri | undefined): Promise<string | undefined> {
  const extension = vscode.extensions.getExtension<PythonExtensionExports>(PYTHON_EXTENSION_ID);
  if (!extension) {
    return undefined;
  }
  try {
    const api = extension.isActive ? extension.exports : await extension.activate();
    if (api?.environments) {
      const active = api.environments.getActiveEnvironmentPath(resource);
      if (active) {
        const resolved = await api.environments.resolveEnvironment(active);
        const executable = resolved?.executable?.uri?.fsPath;
        if (executable) {
          return executable;
        }
      }
    }
    const legacy = api?.settings?.getExecutionDetails(resource).execCommand;
    if (legacy && legacy.length === 1 && legacy[0]) {
      return legacy[0];
    }
  } catch {
    // The Python extension failed to activate or answer: resolution goes on without it.
  }
  return undefined;
}
