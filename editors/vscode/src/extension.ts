// The grooph extension: starts grooph-lsp for graphs and operation maps and adds the preview,
// apply-operations and restart commands. Everything that knows grooph lives in the server.

import * as os from "node:os";
import * as vscode from "vscode";
import {
  ExecuteCommandRequest,
  LanguageClient,
  LanguageClientOptions,
  ResponseError,
  RevealOutputChannelOn,
  ServerOptions,
  ShowDocumentParams,
  ShowDocumentResult,
} from "vscode-languageclient/node";

import {
  APPLY_OPERATIONS_COMMAND,
  applyOperationsArguments,
  describeApplyResult,
  parseOperations,
  serverSettingsSection,
} from "./core/commandArgs";
import { bundledServer, isExecutableFile, pythonHasModule, pythonVersion } from "./core/probes";
import { describeCommand, findOnPath, resolveServerCommand } from "./core/serverCommand";
import { PreviewPanels } from "./preview";
import { activePythonInterpreter } from "./pythonExtension";

const LANGUAGES = ["grooph", "grooph-map"];

let client: LanguageClient | undefined;
let output: vscode.OutputChannel;
let previews: PreviewPanels;

function isGroophDocument(document: vscode.TextDocument | undefined): document is vscode.TextDocument {
  if (!document) {
    return false;
  }
  const name = document.uri.path.toLowerCase();
  return LANGUAGES.includes(document.languageId) || name.endsWith(".grooph.json") || name.endsWith(".grooph-map.json");
}

function workspaceFolderFor(resource: vscode.Uri | undefined): string | undefined {
  const folder = resource ? vscode.workspace.getWorkspaceFolder(resource) : vscode.workspace.workspaceFolders?.[0];
  return folder?.uri.fsPath;
}

let extensionDir: string;

async function startClient(): Promise<void> {
  const resource = vscode.window.activeTextEditor?.document.uri;
  const config = vscode.workspace.getConfiguration("grooph", resource);
  const resolution = await resolveServerCommand(
    {
      command: config.get<string[]>("server.command", []),
      pythonPath: config.get<string>("server.pythonPath", ""),
      logFile: config.get<string>("server.logFile", ""),
    },
    { home: os.homedir(), workspaceFolder: workspaceFolderFor(resource), env: process.env },
    {
      activePythonInterpreter: () => activePythonInterpreter(resource),
      pythonHasServer: (python) => pythonHasModule(python),
      findOnPath: (program) => findOnPath(program, process.env, process.platform, isExecutableFile),
      bundledServer: () => bundledServer(extensionDir),
      pythonVersion: (python) => pythonVersion(python),
    },
  );
  resolution.notes.forEach((note) => output.appendLine(note));
  if (!resolution.ok) {
    output.appendLine(resolution.message);
    const choice = await vscode.window.showErrorMessage(resolution.message, "Open Settings");
    if (choice === "Open Settings") {
      await vscode.commands.executeCommand("workbench.action.openSettings", "grooph.server");
    }
    return;
  }
  output.appendLine(`Starting ${describeCommand(resolution.server)}`);

  const serverOptions: ServerOptions = {
    command: resolution.server.command,
    args: resolution.server.args,
    options: { cwd: workspaceFolderFor(resource) },
  };
  const clientOptions: LanguageClientOptions = {
    documentSelector: [
      ...LANGUAGES.flatMap((language) => [
        { scheme: "file", language },
        { scheme: "untitled", language },
      ]),
      { scheme: "file", pattern: "**/*.{grooph,grooph-map}.json" },
      // The neighbouring kinds (issue 15): board workflows, boards and episode records.
      { scheme: "file", language: "grooph-workflow" },
      { scheme: "file", pattern: "**/*.workflow.yaml" },
      { scheme: "file", pattern: "**/*.{board,episodes}.json" },
    ],
    synchronize: { configurationSection: "grooph" },
    initializationOptions: serverSettingsSection((key) => config.get(key)),
    outputChannel: output,
    revealOutputChannelOn: RevealOutputChannelOn.Never,
    middleware: {
      // The canonical form has LF line endings (graph.md §6.1, map.md likewise; as `grooph fmt` writes them). LSP edits
      // cannot change a document's line endings and VS Code keeps a CRLF file's own; so when the server
      // formats a CRLF graph or map, the edits end with "use LF" (VS Code applies it with them, on
      // format on save too). A refused format (null: the JSON does not parse) changes nothing.
      provideDocumentFormattingEdits: async (document, options, token, next) => {
        const edits = await next(document, options, token);
        if (!edits || !isGroophDocument(document) || document.eol !== vscode.EndOfLine.CRLF) {
          return edits;
        }
        return [...edits, vscode.TextEdit.setEndOfLine(vscode.EndOfLine.LF)];
      },
      window: {
        // The server asks to open its live picture page in a browser after `grooph.preview` (other
        // editors show it so); VS Code shows the picture in its own webview instead.
        showDocument: async (params: ShowDocumentParams, next) => {
          if (previews.rendering && params.external && params.uri.startsWith("http://127.0.0.1:")) {
            return { success: true } satisfies ShowDocumentResult;
          }
          const result = await next(params, new vscode.CancellationTokenSource().token);
          return result instanceof ResponseError ? { success: false } : result;
        },
      },
    },
  };
  const started = new LanguageClient("grooph", "grooph", serverOptions, clientOptions);
  client = started;
  try {
    await started.start();
  } catch (error) {
    client = undefined;
    const text = error instanceof Error ? error.message : String(error);
    const message =
      `grooph: the language server did not start (${describeCommand(resolution.server)}): ${text}. ` +
      (resolution.server.source === "bundled"
        ? `The grooph output channel has the server's own message.`
        : `Is grooph-lsp installed for that program?`);
    output.appendLine(message);
    void vscode.window.showErrorMessage(message, "Show Log").then((choice) => {
      if (choice) {
        output.show();
      }
    });
    return;
  }
}

async function stopClient(): Promise<void> {
  const running = client;
  client = undefined;
  if (running) {
    try {
      await running.stop();
    } catch (error) {
      output.appendLine(`stopping the server: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
}

function executeServerCommand(command: string, args: unknown[]): Promise<unknown> | undefined {
  if (!client || !client.isRunning()) {
    return undefined;
  }
  return client.sendRequest(ExecuteCommandRequest.type, { command, arguments: args });
}

function activeGroophDocument(uri?: vscode.Uri): vscode.TextDocument | undefined {
  if (uri instanceof vscode.Uri) {
    return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
  }
  const document = vscode.window.activeTextEditor?.document;
  return isGroophDocument(document) ? document : undefined;
}

async function showPreview(uri?: vscode.Uri): Promise<void> {
  let document = activeGroophDocument(uri);
  if (!document && uri instanceof vscode.Uri) {
    document = await vscode.workspace.openTextDocument(uri);
  }
  if (!isGroophDocument(document)) {
    void vscode.window.showInformationMessage("grooph: open a *.grooph.json or *.grooph-map.json file to preview it.");
    return;
  }
  previews.show(document);
}

/** Asks for the operations: typed in, read from a file, or taken from the clipboard when it holds a list. */
async function askForOperations(): Promise<string | undefined> {
  const clipboard = await vscode.env.clipboard.readText();
  const fromClipboard = parseOperations(clipboard);
  const items: (vscode.QuickPickItem & { source: "type" | "file" | "clipboard" })[] = [
    { label: "Type or paste the operations", description: "a JSON list", source: "type" },
    { label: "Read them from a file…", description: "a .json file holding a list", source: "file" },
  ];
  if (fromClipboard.ok) {
    const n = fromClipboard.ops.length;
    items.unshift({
      label: `Use the clipboard (${n} operation${n === 1 ? "" : "s"})`,
      description: fromClipboard.ops.map((o) => o.op).join(", "),
      source: "clipboard",
    });
  }
  const picked = await vscode.window.showQuickPick(items, { title: "grooph: Apply operations", placeHolder: "Where are the operations?" });
  if (!picked) {
    return undefined;
  }
  if (picked.source === "clipboard") {
    return clipboard;
  }
  if (picked.source === "file") {
    const files = await vscode.window.showOpenDialog({
      canSelectMany: false,
      openLabel: "Apply",
      filters: { "Operation list": ["json"] },
    });
    if (!files || files.length === 0) {
      return undefined;
    }
    return new TextDecoder().decode(await vscode.workspace.fs.readFile(files[0]));
  }
  return vscode.window.showInputBox({
    title: "grooph: Apply operations",
    prompt: "A JSON list of operations, applied all or nothing",
    placeHolder: '[{"op": "addNode", "kind": "agent", "name": "Reviewer"}]',
    ignoreFocusOut: true,
    validateInput: (text) => {
      const parsed = parseOperations(text);
      return parsed.ok ? undefined : parsed.message;
    },
  });
}

async function applyOperations(uri?: vscode.Uri): Promise<void> {
  const document = activeGroophDocument(uri);
  if (!document) {
    void vscode.window.showInformationMessage("grooph: open a *.grooph.json graph to apply operations to it.");
    return;
  }
  const text = await askForOperations();
  if (text === undefined) {
    return;
  }
  const parsed = parseOperations(text);
  if (!parsed.ok) {
    void vscode.window.showErrorMessage(`grooph: ${parsed.message}`);
    return;
  }
  const pending = executeServerCommand(APPLY_OPERATIONS_COMMAND, applyOperationsArguments(document.uri.toString(), parsed.ops));
  if (!pending) {
    void vscode.window.showErrorMessage("grooph: the language server is not running; nothing was applied.");
    return;
  }
  try {
    const report = describeApplyResult(await pending, parsed.ops.length);
    if (report.level === "info") {
      void vscode.window.showInformationMessage(report.message);
    } else {
      void vscode.window.showErrorMessage(report.message);
    }
  } catch (error) {
    void vscode.window.showErrorMessage(`grooph: ${error instanceof Error ? error.message : String(error)}`);
  }
}

async function restartServer(): Promise<void> {
  await stopClient();
  await startClient();
  previews.renderAll();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
  output = vscode.window.createOutputChannel("grooph");
  extensionDir = context.extensionPath;
  previews = new PreviewPanels(executeServerCommand, output);
  context.subscriptions.push(
    output,
    previews,
    vscode.commands.registerCommand("grooph.showPreview", (uri?: vscode.Uri) => showPreview(uri)),
    // Not "grooph.applyOperations": that is the server's command, which the language client registers
    // itself (for every id in executeCommandProvider.commands); a second registration kills the client.
    vscode.commands.registerCommand("grooph.askAndApplyOperations", (uri?: vscode.Uri) => applyOperations(uri)),
    vscode.commands.registerCommand("grooph.restartServer", () => restartServer()),
    vscode.workspace.onDidChangeConfiguration((event) => {
      if (event.affectsConfiguration("grooph.server")) {
        output.appendLine("grooph.server settings changed: restarting the server.");
        void restartServer();
      }
    }),
    vscode.workspace.onDidGrantWorkspaceTrust(() => void restartServer()),
  );
  await startClient();
}

export async function deactivate(): Promise<void> {
  await stopClient();
}
