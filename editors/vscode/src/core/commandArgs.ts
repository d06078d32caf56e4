// Arguments and answers of the server's commands (workspace/executeCommand), and the settings the
// server reads. Pure, so the shapes the server expects are tested without VS Code.

import type { PreviewTheme, PreviewView } from "./previewHtml";

export const PREVIEW_COMMAND = "grooph.preview";
export const APPLY_OPERATIONS_COMMAND = "grooph.applyOperations";

export type ThemeSetting = "auto" | "light" | "dark";

/** VS Code's ColorThemeKind values (vscode.ColorThemeKind), repeated here to keep this module pure. */
export const COLOR_THEME_KIND = { Light: 1, Dark: 2, HighContrast: 3, HighContrastLight: 4 } as const;

/**
 * The palette the preview asks for. "auto" follows the editor: light and high-contrast-light themes
 * get the light palette, dark and high-contrast (dark) themes the dark one. The picture's own "auto"
 * (both palettes, chosen by the viewer's prefers-color-scheme) is not used: a webview's preference
 * follows the operating system, not the editor's theme.
 */
export function effectiveTheme(setting: unknown, colorThemeKind: number): PreviewTheme {
  if (setting === "light" || setting === "dark") {
    return setting;
  }
  return colorThemeKind === COLOR_THEME_KIND.Light || colorThemeKind === COLOR_THEME_KIND.HighContrastLight
    ? "light"
    : "dark";
}

/** `grooph.preview` arguments: `[uri, view?, theme?]`. */
export function previewArguments(uri: string, view: PreviewView, theme: PreviewTheme): [string, PreviewView, PreviewTheme] {
  return [uri, view, theme];
}

/** One operation as the server takes it: an object whose `op` names the operation. */
export type Operation = { op: string } & Record<string, unknown>;

export type ParsedOperations = { ok: true; ops: Operation[] } | { ok: false; message: string };

const OPS_EXAMPLE = '[{"op": "addNode", "kind": "agent", "name": "Reviewer"}]';

/**
 * Reads the text a person typed or a file held as an operation list (cli.md §2.2 step 2: a JSON
 * array of operations). A single operation object is refused with the same hint as the command line,
 * rather than guessed into a list. Blank text is "no operations".
 */
export function parseOperations(text: string): ParsedOperations {
  if (text.trim() === "") {
    return { ok: false, message: "No operations given." };
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, message: `The operations are not valid JSON: ${(error as Error).message}` };
  }
  if (!Array.isArray(value)) {
    return { ok: false, message: `The operations must be a JSON list of ops, for example ${OPS_EXAMPLE}` };
  }
  if (value.length === 0) {
    return { ok: false, message: "The list holds no operation." };
  }
  for (let i = 0; i < value.length; i++) {
    const op: unknown = value[i];
    if (!op || typeof op !== "object" || Array.isArray(op)) {
      return { ok: false, message: `ops[${i}] is not an object; each operation is an object such as ${OPS_EXAMPLE.slice(1, -1)}` };
    }
    if (typeof (op as { op?: unknown }).op !== "string" || (op as { op: string }).op === "") {
      return { ok: false, message: `ops[${i}] has no "op" naming the operation` };
    }
  }
  return { ok: true, ops: value as Operation[] };
}

/** `grooph.applyOperations` arguments: `[uri, ops]`. */
export function applyOperationsArguments(uri: string, ops: readonly Operation[]): [string, readonly Operation[]] {
  return [uri, ops];
}

/** What `grooph.applyOperations` answers. */
export interface ApplyResult {
  ok: boolean;
  ids: string[];
  error: null | { index: number; op: string; message: string };
}

/** The notification that reports an apply: `ops[<i>] <op>: <message>` on failure (operations.md §1.1). */
export function describeApplyResult(
  result: unknown,
  count: number,
): { level: "info" | "error"; message: string } {
  const r = result as Partial<ApplyResult> | null | undefined;
  if (!r || typeof r !== "object" || typeof r.ok !== "boolean") {
    return { level: "error", message: "grooph: the server gave no answer to the operations; nothing was applied." };
  }
  if (!r.ok) {
    const e = r.error;
    if (e && typeof e === "object") {
      return {
        level: "error",
        message: `grooph: ops[${e.index}] ${e.op}: ${e.message} No operation was applied; the document is unchanged.`,
      };
    }
    return { level: "error", message: "grooph: the operations were not applied; the document is unchanged." };
  }
  const plural = count === 1 ? "" : "s";
  const ids = Array.isArray(r.ids) ? r.ids.filter((id) => typeof id === "string") : [];
  const created = ids.length > 0 ? ` New ids: ${ids.join(", ")}.` : "";
  return { level: "info", message: `grooph: applied ${count} operation${plural}.${created}` };
}

/** The `grooph` settings section as the server reads it (workspace/configuration, initializationOptions). */
export interface ServerSettingsSection {
  complete: boolean;
  debounceMs: number;
  preview: { theme: ThemeSetting };
}

/**
 * The `grooph` section sent as initializationOptions, with each value checked: a wrong type or an
 * unknown theme falls back to the documented default instead of reaching the server.
 */
export function serverSettingsSection(get: (key: string) => unknown): ServerSettingsSection {
  const complete = get("complete");
  const debounce = get("debounceMs");
  const theme = get("preview.theme");
  return {
    complete: typeof complete === "boolean" ? complete : false,
    debounceMs:
      typeof debounce === "number" && Number.isInteger(debounce) && debounce >= 0 ? Math.min(debounce, 5000) : 150,
    preview: { theme: theme === "light" || theme === "dark" || theme === "auto" ? theme : "auto" },
  };
}
