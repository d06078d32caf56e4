// "grooph: Preview picture": one webview per document, beside the editor. It asks the server to draw
// (`grooph.preview`) on open, after each change (debounced), when the colour theme or the preview
// settings change, and when the person picks another map view. Newest request wins.

import { randomBytes } from "node:crypto";
import * as path from "node:path";
import * as vscode from "vscode";

import { PREVIEW_COMMAND, effectiveTheme, previewArguments } from "./core/commandArgs";
import {
  PreviewView,
  buildPreviewHtml,
  makeNonce,
  previewContentFromResult,
  previewUpdate,
  readPageMessage,
} from "./core/previewHtml";

/** Runs a server command; undefined when no server is running. */
export type ExecuteServerCommand = (command: string, args: unknown[]) => Promise<unknown> | undefined;

interface Preview {
  document: vscode.TextDocument;
  panel: vscode.WebviewPanel;
  view: PreviewView;
  /** Counts requests; an answer is shown only if no newer request was made meanwhile. */
  generation: number;
  timer: NodeJS.Timeout | undefined;
}

export class PreviewPanels implements vscode.Disposable {
  private readonly previews = new Map<string, Preview>();
  private readonly subscriptions: vscode.Disposable[] = [];
  /** Requests in flight; while any is, a window/showDocument for the picture file is ours. */
  private inFlight = 0;

  constructor(
    private readonly execute: ExecuteServerCommand,
    private readonly output: vscode.OutputChannel,
  ) {
    this.subscriptions.push(
      vscode.workspace.onDidChangeTextDocument((event) => this.schedule(event.document)),
      vscode.workspace.onDidSaveTextDocument((document) => this.schedule(document, 0)),
      vscode.window.onDidChangeActiveColorTheme(() => this.renderAll()),
      vscode.workspace.onDidChangeConfiguration((event) => {
        if (event.affectsConfiguration("grooph.preview")) {
          this.renderAll();
        }
      }),
    );
  }

  /** True while a preview request is waiting for the server. */
  get rendering(): boolean {
    return this.inFlight > 0;
  }

  show(document: vscode.TextDocument): void {
    const key = document.uri.toString();
    const existing = this.previews.get(key);
    if (existing) {
      existing.panel.reveal(vscode.ViewColumn.Beside, true);
      void this.render(existing);
      return;
    }
    const name = path.basename(document.uri.path);
    const panel = vscode.window.createWebviewPanel(
      "grooph.preview",
      `Preview ${name}`,
      { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
      {
        enableScripts: true,
        enableCommandUris: false,
        enableFindWidget: false,
        localResourceRoots: [],
        retainContextWhenHidden: true,
      },
    );
    const preview: Preview = { document, panel, view: null, generation: 0, timer: undefined };
    this.previews.set(key, preview);
    const theme = effectiveTheme(this.themeSetting(document), vscode.window.activeColorTheme.kind);
    panel.webview.html = buildPreviewHtml({
      nonce: makeNonce(randomBytes),
      title: name,
      isMap: document.languageId === "grooph-map" || document.uri.path.toLowerCase().endsWith(".grooph-map.json"),
      initial: previewUpdate({ kind: "message", text: "Drawing…" }, null, theme),
    });
    panel.webview.onDidReceiveMessage((message) => {
      const read = readPageMessage(message);
      if (read) {
        preview.view = read.view;
        void this.render(preview);
      }
    });
    panel.onDidDispose(() => {
      clearTimeout(preview.timer);
      this.previews.delete(key);
    });
    void this.render(preview);
  }

  /** Re-draws every open preview, e.g. after the server restarted. */
  renderAll(): void {
    for (const preview of this.previews.values()) {
      void this.render(preview);
    }
  }

  dispose(): void {
    for (const preview of this.previews.values()) {
      clearTimeout(preview.timer);
      preview.panel.dispose();
    }
    this.previews.clear();
    vscode.Disposable.from(...this.subscriptions).dispose();
  }

  private themeSetting(document: vscode.TextDocument): unknown {
    return vscode.workspace.getConfiguration("grooph", document).get("preview.theme");
  }

  private schedule(document: vscode.TextDocument, delay?: number): void {
    const preview = this.previews.get(document.uri.toString());
    if (!preview) {
      return;
    }
    clearTimeout(preview.timer);
    const wait = delay ?? vscode.workspace.getConfiguration("grooph", document).get<number>("debounceMs", 150);
    // The server checks the change after its own debounce; drawing a little later sees that state.
    preview.timer = setTimeout(() => void this.render(preview), Math.max(0, wait) + 50);
  }

  private async render(preview: Preview): Promise<void> {
    const generation = ++preview.generation;
    const theme = effectiveTheme(this.themeSetting(preview.document), vscode.window.activeColorTheme.kind);
    const args = previewArguments(preview.document.uri.toString(), preview.view, theme);
    let update;
    this.inFlight++;
    try {
      const pending = this.execute(PREVIEW_COMMAND, args);
      if (!pending) {
        update = previewUpdate({ kind: "message", text: "The grooph language server is not running." }, preview.view, theme);
      } else {
        update = previewUpdate(previewContentFromResult(await pending), preview.view, theme);
      }
    } catch (error) {
      const text = error instanceof Error ? error.message : String(error);
      this.output.appendLine(`preview of ${preview.document.uri.fsPath}: ${text}`);
      update = previewUpdate({ kind: "message", text: `The picture could not be drawn: ${text}` }, preview.view, theme);
    } finally {
      this.inFlight--;
    }
    if (generation === preview.generation && this.previews.has(preview.document.uri.toString())) {
      void preview.panel.webview.postMessage(update);
    }
  }
}
