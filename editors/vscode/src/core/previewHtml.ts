// The preview webview's page. Pure: builds the HTML, its content security policy and the update
// messages. The picture is shown as an <img> of a data: URI, so whatever the SVG holds (a document's
// text ends up in it) can neither run a script nor load anything: an image document has no scripts.

/** The map views the server draws (operations of `grooph.preview`): null is the default picture. */
export type PreviewView = null | "wide" | "sequence";
export type PreviewTheme = "light" | "dark";

/** A random nonce for the page's one <style> and one <script>; 32 base64 characters from 24 bytes. */
export function makeNonce(randomBytes: (size: number) => Uint8Array): string {
  return Buffer.from(randomBytes(24)).toString("base64");
}

/**
 * The page's policy: nothing is allowed by default; images only as data: URIs; the style and the
 * script only when they carry this page's nonce. No network, no frames, no forms, no plugins.
 */
export function contentSecurityPolicy(nonce: string): string {
  if (!/^[A-Za-z0-9+/=]{16,}$/.test(nonce)) {
    throw new Error("a nonce must be at least 16 base64 characters");
  }
  return [
    "default-src 'none'",
    "img-src data:",
    `style-src 'nonce-${nonce}'`,
    `script-src 'nonce-${nonce}'`,
    "font-src 'none'",
    "connect-src 'none'",
    "media-src 'none'",
    "frame-src 'none'",
    "worker-src 'none'",
    "object-src 'none'",
    "form-action 'none'",
    "base-uri 'none'",
  ].join("; ");
}

/** Escapes text for HTML element content and double-quoted attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

/** The SVG text as a data: URI (base64, so no character of the SVG needs escaping). */
export function svgDataUri(svg: string): string {
  return `data:image/svg+xml;base64,${Buffer.from(svg, "utf8").toString("base64")}`;
}

/** What the server's `grooph.preview` answered, reduced to what the page shows. */
export type PreviewContent = { kind: "picture"; svg: string } | { kind: "message"; text: string };

/** The message the extension posts to the page to replace what it shows. */
export interface PreviewUpdate {
  type: "update";
  /** A data: URI, or null when `message` is shown instead. */
  image: string | null;
  message: string | null;
  view: PreviewView;
  theme: PreviewTheme;
}

/** True when a string looks like an SVG document (an XML declaration or comments may come first). */
export function looksLikeSvg(text: unknown): text is string {
  return typeof text === "string" && /^\s*(<\?xml[^>]*\?>\s*)?(<!--[\s\S]*?-->\s*)*(<!DOCTYPE[^>]*>\s*)?<svg[\s>]/i.test(text);
}

/**
 * Reads the server's answer (`{svg, path}`) into what the page shows. Anything else (an error text,
 * an unexpected shape) becomes a message rather than a broken image.
 */
export function previewContentFromResult(result: unknown): PreviewContent {
  if (result && typeof result === "object" && "svg" in result) {
    const svg: unknown = result.svg;
    if (looksLikeSvg(svg)) {
      return { kind: "picture", svg };
    }
    return { kind: "message", text: "The server's answer holds no SVG picture." };
  }
  return { kind: "message", text: "The server drew no picture for this document." };
}

export function previewUpdate(content: PreviewContent, view: PreviewView, theme: PreviewTheme): PreviewUpdate {
  return content.kind === "picture"
    ? { type: "update", image: svgDataUri(content.svg), message: null, view, theme }
    : { type: "update", image: null, message: content.text, view, theme };
}

export interface PreviewPage {
  nonce: string;
  /** The document's file name, shown in the page's title. */
  title: string;
  /** Maps get the view switch (picture / wide / sequence); graphs have only the picture. */
  isMap: boolean;
  initial: PreviewUpdate;
}

const VIEW_LABELS: ReadonlyArray<[string, string]> = [
  ["", "Picture"],
  ["wide", "Wide"],
  ["sequence", "Sequence"],
];

/**
 * The whole page. The script only swaps the picture when the extension posts an update and posts
 * back the view or zoom the person picked; it never reads the picture and never fetches anything.
 */
export function buildPreviewHtml(page: PreviewPage): string {
  const csp = contentSecurityPolicy(page.nonce);
  const nonce = escapeHtml(page.nonce);
  const viewButtons = page.isMap
    ? VIEW_LABELS.map(
        ([value, label]) =>
          `<button type="button" data-view="${value}" aria-pressed="${String((page.initial.view ?? "") === value)}">${label}</button>`,
      ).join("")
    : "";
  const initial = JSON.stringify(page.initial).replace(/</g, "\\u003c");
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${escapeHtml(csp)}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(page.title)}</title>
<style nonce="${nonce}">
  body { margin: 0; padding: 0; background: var(--vscode-editor-background); color: var(--vscode-editor-foreground); font-family: var(--vscode-font-family); font-size: var(--vscode-font-size); }
  .bar { position: sticky; top: 0; display: flex; gap: 4px; padding: 4px 8px; background: var(--vscode-editor-background); border-bottom: 1px solid var(--vscode-panel-border, transparent); }
  .bar button { font: inherit; color: var(--vscode-button-secondaryForeground); background: var(--vscode-button-secondaryBackground); border: 0; padding: 2px 8px; cursor: pointer; }
  .bar button[aria-pressed="true"] { color: var(--vscode-button-foreground); background: var(--vscode-button-background); }
  .bar .grow { flex: 1; }
  main { padding: 8px; }
  img { display: block; margin: 0 auto; }
  img.fit { max-width: 100%; height: auto; }
  .message { padding: 16px; white-space: pre-wrap; color: var(--vscode-descriptionForeground); }
  [hidden] { display: none !important; }
</style>
</head>
<body>
<div class="bar">${viewButtons}<span class="grow"></span><button type="button" id="zoom" aria-pressed="true" title="Fit the picture to the panel, or show it at its own size">Fit</button></div>
<main>
  <img id="picture" class="fit" alt="${escapeHtml(`Picture of ${page.title}`)}" hidden>
  <div id="message" class="message" role="status" hidden></div>
</main>
<script nonce="${nonce}">
(function () {
  const vscode = acquireVsCodeApi();
  const picture = document.getElementById("picture");
  const message = document.getElementById("message");
  const zoom = document.getElementById("zoom");
  function show(update) {
    if (update.image) {
      picture.src = update.image;
      picture.hidden = false;
      message.hidden = true;
    } else {
      message.textContent = update.message || "";
      message.hidden = false;
      picture.hidden = true;
    }
    for (const b of document.querySelectorAll("button[data-view]")) {
      b.setAttribute("aria-pressed", String(b.dataset.view === (update.view || "")));
    }
  }
  show(${initial});
  window.addEventListener("message", (event) => {
    if (event.data && event.data.type === "update") { show(event.data); }
  });
  for (const b of document.querySelectorAll("button[data-view]")) {
    b.addEventListener("click", () => vscode.postMessage({ type: "view", view: b.dataset.view || null }));
  }
  zoom.addEventListener("click", () => {
    const fit = !picture.classList.contains("fit");
    picture.classList.toggle("fit", fit);
    zoom.setAttribute("aria-pressed", String(fit));
  });
}());
</script>
</body>
</html>
`;
}

/** Reads a message the page posted; anything unexpected is ignored (returns undefined). */
export function readPageMessage(message: unknown): { type: "view"; view: PreviewView } | undefined {
  if (!message || typeof message !== "object") {
    return undefined;
  }
  const m = message as { type?: unknown; view?: unknown };
  if (m.type === "view" && (m.view === null || m.view === "wide" || m.view === "sequence")) {
    return { type: "view", view: m.view };
  }
  return undefined;
}
