// Drives a real VS Code (code-server in Debian's Chromium, through playwright-core) for
// tests/editors/test_vscode_e2e.py. One request a line on stdin, one JSON answer a line on stdout:
//   {"op": "goto", "url": ...}                 open the workbench (a new page: a new extension host)
//   {"op": "press", "keys": "Control+P"}       keyboard shortcut (playwright key names)
//   {"op": "type", "text": ..., "delay": ms}    type characters one by one
//   {"op": "texts", "selector": ...}           innerText of every match
//   {"op": "count", "selector": ...}           number of visible matches
//   {"op": "boxes", "selector": ...}           bounding box and innerText of every match
//   {"op": "focused"}                          tag.classes of the element that has the focus
//   {"op": "wait", "selector": ..., "timeout": ms, "state": "visible"|"hidden"}
//   {"op": "click", "selector": ..., "button": "left"|"right"}
//   {"op": "hover", "selector": ...}            move the mouse onto an element
//   {"op": "frameHtml", "selector": ...}       outerHTML of every match inside the webview frames
//   {"op": "attributes", "selector": ..., "name": ...}  one attribute of every match
//   {"op": "values", "selector": ...}          the value of every matching input
//   {"op": "rows", "selector": ...}            innerText and aria-level of every match (tree rows)
//   {"op": "screenshot", "path": ...}
//   {"op": "close"}
// Answers are {"ok": true, "value": ...} or {"ok": false, "error": "..."}; the driver never exits on
// a failed request, so the test can report what the screen showed.
import { createInterface } from "node:readline";

import { chromium } from "playwright-core";

const CHROMIUM = process.env.GROOPH_E2E_CHROMIUM || "/usr/bin/chromium";
// A closed network: no background requests, updates, sync or first-run pages.
const ARGS = [
  "--no-sandbox",
  "--headless",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
];

const browser = await chromium.launch({ executablePath: CHROMIUM, args: ARGS, headless: true });
const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
let page;

/** Every frame of the page that belongs to a webview (the preview's picture lives two levels down). */
function webviewFrames() {
  return page.frames().filter((f) => f !== page.mainFrame());
}

const ops = {
  async goto({ url }) {
    if (page) {
      await page.close();
    }
    page = await context.newPage();
    page.on("dialog", (d) => void d.dismiss());
    await page.goto(url, { waitUntil: "domcontentloaded" });
    await page.locator(".monaco-workbench").waitFor({ timeout: 60000 });
    return true;
  },
  async press({ keys }) {
    await page.keyboard.press(keys);
    return true;
  },
  async type({ text, delay = 0 }) {
    await page.keyboard.type(text, { delay });
    return true;
  },
  async texts({ selector }) {
    return page.locator(selector).evaluateAll((nodes) => nodes.map((n) => n.innerText ?? n.textContent ?? ""));
  },
  async attributes({ selector, name }) {
    return page.locator(selector).evaluateAll((nodes, a) => nodes.map((n) => n.getAttribute(a)), name);
  },
  async rows({ selector }) {
    return page.locator(selector).evaluateAll((nodes) =>
      nodes.map((n) => ({ text: n.innerText ?? "", level: Number(n.getAttribute("aria-level") || 0) })),
    );
  },
  async values({ selector }) {
    return page.locator(selector).evaluateAll((nodes) => nodes.map((n) => n.value ?? ""));
  },
  async boxes({ selector }) {
    return page.locator(selector).evaluateAll((nodes) =>
      nodes.map((n) => {
        const r = n.getBoundingClientRect();
        return { x: r.x, y: r.y, width: r.width, height: r.height, text: n.innerText ?? "" };
      }),
    );
  },
  async focused() {
    return page.evaluate(() => {
      const e = document.activeElement;
      return e ? `${e.tagName.toLowerCase()}.${String(e.className).split(" ").join(".")}` : "";
    });
  },
  async count({ selector }) {
    return page.locator(selector).evaluateAll((nodes) => nodes.filter((n) => n.offsetParent !== null || n.getClientRects().length > 0).length);
  },
  async wait({ selector, timeout = 30000, state = "visible" }) {
    await page.locator(selector).first().waitFor({ timeout, state });
    return true;
  },
  async click({ selector, button = "left" }) {
    await page.locator(selector).first().click({ button });
    return true;
  },
  async hover({ selector }) {
    await page.locator(selector).first().hover();
    return true;
  },
  async frameHtml({ selector }) {
    const found = [];
    for (const frame of webviewFrames()) {
      try {
        found.push(...(await frame.locator(selector).evaluateAll((nodes) => nodes.map((n) => n.outerHTML))));
      } catch {
        // A frame that went away while it was read.
      }
    }
    return found;
  },
  async screenshot({ path }) {
    await page.screenshot({ path });
    return path;
  },
  async close() {
    await browser.close();
    process.exit(0);
  },
};

const lines = createInterface({ input: process.stdin });
for await (const line of lines) {
  let answer;
  try {
    const request = JSON.parse(line);
    answer = { ok: true, value: await ops[request.op](request) };
  } catch (error) {
    answer = { ok: false, error: error instanceof Error ? error.message : String(error) };
  }
  process.stdout.write(JSON.stringify(answer) + "\n");
}
await browser.close();
