// The preview page: its content security policy, how the picture and messages are put in, and that
// nothing from a document can become markup or script in the page.
import { strict as assert } from "node:assert";
import { randomBytes } from "node:crypto";
import { describe, it } from "node:test";

import {
  buildPreviewHtml,
  contentSecurityPolicy,
  escapeHtml,
  looksLikeSvg,
  makeNonce,
  previewContentFromResult,
  previewUpdate,
  readPageMessage,
  svgDataUri,
} from "../src/core/previewHtml";

const NONCE = "AbCdEfGhIjKlMnOpQrStUvWx0123456789+/==";
const SVG = '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><text>a &lt; b</text></svg>';

function cspOf(html: string): string {
  const m = /<meta http-equiv="Content-Security-Policy" content="([^"]*)">/.exec(html);
  assert.ok(m, "the page has a CSP meta tag");
  return m[1].replace(/&#39;/g, "'");
}

function directives(csp: string): Map<string, string[]> {
  return new Map(
    csp.split(";").map((part) => {
      const [name, ...values] = part.trim().split(/\s+/);
      return [name, values];
    }),
  );
}

describe("makeNonce", () => {
  it("gives 32 base64 characters, different each time", () => {
    const a = makeNonce(randomBytes);
    const b = makeNonce(randomBytes);
    assert.match(a, /^[A-Za-z0-9+/]{32}$/);
    assert.notEqual(a, b);
  });
});

describe("contentSecurityPolicy", () => {
  it("denies everything but data: images and the nonce's style and script", () => {
    const d = directives(contentSecurityPolicy(NONCE));
    assert.deepEqual(d.get("default-src"), ["'none'"]);
    assert.deepEqual(d.get("img-src"), ["data:"]);
    assert.deepEqual(d.get("style-src"), [`'nonce-${NONCE}'`]);
    assert.deepEqual(d.get("script-src"), [`'nonce-${NONCE}'`]);
    for (const name of ["connect-src", "frame-src", "object-src", "form-action", "base-uri", "font-src"]) {
      assert.deepEqual(d.get(name), ["'none'"], name);
    }
    const all = [...d.values()].flat().join(" ");
    assert.doesNotMatch(all, /unsafe-inline|unsafe-eval|https?:|\*/);
  });

  it("refuses a nonce too short or able to break out of the policy", () => {
    assert.throws(() => contentSecurityPolicy("abc"));
    assert.throws(() => contentSecurityPolicy("abcdefghijklmnop'; script-src *"));
  });
});

describe("escapeHtml / svgDataUri / looksLikeSvg", () => {
  it("escapes markup and quotes", () => {
    assert.equal(escapeHtml(`<a href="x">'&'</a>`), "&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;");
  });

  it("puts the SVG into a base64 data URI that decodes to the same text", () => {
    const uri = svgDataUri('<svg><text>héllo 🌍</text></svg>');
    assert.match(uri, /^data:image\/svg\+xml;base64,[A-Za-z0-9+/=]+$/);
    assert.equal(Buffer.from(uri.split(",")[1], "base64").toString("utf8"), "<svg><text>héllo 🌍</text></svg>");
  });

  it("knows an SVG document, with or without an XML declaration", () => {
    assert.ok(looksLikeSvg(SVG));
    assert.ok(looksLikeSvg('<?xml version="1.0" encoding="UTF-8"?>\n<!-- grooph -->\n<svg viewBox="0 0 1 1"/>'));
    assert.ok(!looksLikeSvg("<html><svg></svg></html>"));
    assert.ok(!looksLikeSvg(42));
  });
});

describe("previewContentFromResult / previewUpdate", () => {
  it("takes the svg of the server's answer", () => {
    const content = previewContentFromResult({ svg: SVG, path: "/cache/x.svg" });
    assert.deepEqual(content, { kind: "picture", svg: SVG });
    const update = previewUpdate(content, "wide", "dark");
    assert.equal(update.message, null);
    assert.equal(update.view, "wide");
    assert.equal(update.theme, "dark");
    assert.equal(update.image, svgDataUri(SVG));
  });

  it("shows a message instead of a broken picture for anything else", () => {
    assert.equal(previewContentFromResult(null).kind, "message");
    assert.equal(previewContentFromResult({ svg: "<script>alert(1)</script>" }).kind, "message");
    const update = previewUpdate(previewContentFromResult({ error: "x" }), null, "light");
    assert.equal(update.image, null);
    assert.match(update.message ?? "", /no picture/);
  });
});

describe("buildPreviewHtml", () => {
  const page = (title: string, isMap: boolean) =>
    buildPreviewHtml({
      nonce: NONCE,
      title,
      isMap,
      initial: previewUpdate({ kind: "picture", svg: SVG }, null, "light"),
    });

  it("carries the strict policy, and every style and script has the nonce", () => {
    const html = page("review.grooph.json", false);
    assert.equal(cspOf(html), contentSecurityPolicy(NONCE));
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    const styles = html.match(/<style\b[^>]*>/g) ?? [];
    assert.equal(scripts.length, 1);
    assert.equal(styles.length, 1);
    for (const tag of [...scripts, ...styles]) {
      assert.ok(tag.includes(`nonce="${NONCE}"`), tag);
    }
    assert.doesNotMatch(html, /\sstyle="/, "no inline style attributes (the policy would block them)");
    assert.doesNotMatch(html, /\son[a-z]+="/, "no inline event handlers");
    assert.doesNotMatch(html, /<script[^>]+src=|<link\b|<iframe\b|<object\b/);
  });

  it("shows the picture as a data: image, never as markup in the page", () => {
    const html = page("review.grooph.json", false);
    assert.ok(html.includes(svgDataUri(SVG)));
    assert.ok(!html.includes("<text>a &lt; b</text>"), "the SVG's own markup is not in the page");
  });

  it("keeps a hostile file name and a hostile picture inert", () => {
    const evil = 'x"><script>alert(1)</script>.grooph.json';
    const hostile = buildPreviewHtml({
      nonce: NONCE,
      title: evil,
      isMap: false,
      initial: previewUpdate({ kind: "message", text: "</script><script>alert(2)</script>" }, null, "dark"),
    });
    assert.equal((hostile.match(/<script\b/g) ?? []).length, 1);
    assert.ok(hostile.includes("x&quot;&gt;&lt;script&gt;alert(1)&lt;/script&gt;.grooph.json"));
    assert.ok(hostile.includes("\\u003c/script>\\u003cscript>alert(2)\\u003c/script>"));
  });

  it("offers the map views only for maps", () => {
    assert.doesNotMatch(page("g.grooph.json", false), /data-view=/);
    const map = page("m.grooph-map.json", true);
    assert.deepEqual(
      [...map.matchAll(/data-view="([^"]*)" aria-pressed="(true|false)"/g)].map((m) => [m[1], m[2]]),
      [
        ["", "true"],
        ["wide", "false"],
        ["sequence", "false"],
      ],
    );
  });
});

describe("readPageMessage", () => {
  it("accepts only the view choices the server knows", () => {
    assert.deepEqual(readPageMessage({ type: "view", view: "wide" }), { type: "view", view: "wide" });
    assert.deepEqual(readPageMessage({ type: "view", view: null }), { type: "view", view: null });
    assert.equal(readPageMessage({ type: "view", view: "3d" }), undefined);
    assert.equal(readPageMessage({ type: "run", command: "rm -rf /" }), undefined);
    assert.equal(readPageMessage("view"), undefined);
  });
});
