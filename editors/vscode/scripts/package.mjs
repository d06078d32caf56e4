// `npm run package [-- --offline] [-- --target linux-x64]`: bundles the server (scripts/bundle_server.py)
// for one VS Code target, then packs the platform-specific .vsix (grooph-<target>-<version>.vsix).
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const python = process.env.PYTHON || (process.platform === "win32" ? "python" : "python3");

function run(program, args) {
  const done = spawnSync(program, args, { cwd: root, stdio: "inherit", shell: false });
  if (done.status !== 0) {
    console.error(`package: ${program} ${args.join(" ")} failed`);
    process.exit(done.status ?? 1);
  }
}

run(python, ["scripts/bundle_server.py", ...process.argv.slice(2)]);
const { target } = JSON.parse(readFileSync(join(root, "bundled", "manifest.json"), "utf8"));
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const vsce = join(root, "node_modules", ".bin", process.platform === "win32" ? "vsce.cmd" : "vsce");
// --no-dependencies: vscode-languageclient is inside dist/extension.js (esbuild), so no node_modules ship.
run(vsce, ["package", "--no-dependencies", "--target", target, "--out", `grooph-${target}-${version}.vsix`]);
