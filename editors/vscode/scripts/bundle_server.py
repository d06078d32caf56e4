"""Puts the language server and its dependencies into the extension (bundled/libs), the way
Microsoft's python-tools extension template does, so installing the .vsix is all a user does.

The server's wheels are installed for one VS Code target (platform) and for every CPython the
bundle supports: pure-Python files are the same for all of them, and compiled modules carry the
interpreter in their file name (`_pydantic_core.cpython-312-x86_64-linux-gnu.so`), so one folder
serves Python 3.11 to 3.14 side by side. The versions are resolved once (for the oldest Python) and
pinned for the others, so each file exists once. bundled/manifest.json says which Pythons and which
target the folder serves; the extension reads it before choosing an interpreter.

    python3 scripts/bundle_server.py                 # download what is missing, then bundle
    python3 scripts/bundle_server.py --download-only # fill the wheel cache (.wheelhouse) only
    python3 scripts/bundle_server.py --offline       # bundle from the wheel cache, no network
"""

from __future__ import annotations

import argparse
import filecmp
import json
import platform
import shutil
import subprocess
import sys
import tempfile
import tomllib
from pathlib import Path

EXTENSION = Path(__file__).resolve().parent.parent
ROOT = EXTENSION.parent.parent
BUNDLED = EXTENSION / "bundled"
LIBS = BUNDLED / "libs"
WHEELHOUSE = EXTENSION / ".wheelhouse"
PYTHONS = ("3.11", "3.12", "3.13", "3.14")
# Dependencies the language server never imports: cairosvg only turns pictures into PNG for the
# `grooph image --out x.png` command; with pillow, cffi and cairocffi it would be 2/3 of the bundle.
NOT_FOR_THE_SERVER = {"cairosvg"}


def server_requirements() -> list[str]:
    """The project's dependencies (pyproject.toml) that the language server needs."""
    declared = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))["project"]["dependencies"]
    name = lambda req: req.split(">")[0].split("<")[0].split("=")[0].split("[")[0].strip().lower()  # noqa: E731
    return [req for req in declared if name(req) not in NOT_FOR_THE_SERVER]

# VS Code's target names and the wheel platform tags pip may pick for them.
PLATFORMS: dict[str, list[str]] = {
    "linux-x64": ["manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64", "manylinux_2_5_x86_64", "manylinux1_x86_64"],
    "linux-arm64": ["manylinux_2_28_aarch64", "manylinux_2_17_aarch64", "manylinux2014_aarch64"],
    "darwin-x64": ["macosx_10_12_x86_64", "macosx_10_9_x86_64", "macosx_10_13_universal2", "macosx_10_9_universal2"],
    "darwin-arm64": ["macosx_11_0_arm64", "macosx_10_13_universal2", "macosx_10_9_universal2"],
    "win32-x64": ["win_amd64"],
}


def this_target() -> str:
    """The VS Code target of the machine running this script."""
    system = {"Linux": "linux", "Darwin": "darwin", "Windows": "win32"}.get(platform.system(), "")
    machine = {"x86_64": "x64", "amd64": "x64", "aarch64": "arm64", "arm64": "arm64"}.get(platform.machine().lower(), "")
    return f"{system}-{machine}"


def pip(*args: str) -> None:
    command = [sys.executable, "-m", "pip", "--disable-pip-version-check", *args]
    if args[0] == "install":
        # Into --target only: the running Python's own packages are neither changed nor compared.
        command[5:5] = ["--root-user-action=ignore", "--no-warn-conflicts"]
    done = subprocess.run(command, stdin=subprocess.DEVNULL)
    if done.returncode != 0:
        sys.exit(f"bundle_server: failed: {' '.join(command)}")


def platform_args(target: str, python: str) -> list[str]:
    tags = [arg for tag in PLATFORMS[target] for arg in ("--platform", tag)]
    return [*tags, "--python-version", python, "--implementation", "cp", "--only-binary=:all:"]


def project_wheel(out: Path, offline: bool) -> Path:
    """This checkout built as a wheel, with the build backend (setuptools) from the wheel cache."""
    if not offline:
        pip("download", "--quiet", "--dest", str(WHEELHOUSE), "--only-binary=:all:", "setuptools>=68", "wheel")
    pip("wheel", "--quiet", "--no-deps", "--no-index", "--find-links", str(WHEELHOUSE), "--wheel-dir", str(out), str(ROOT))
    (wheel,) = out.glob("grooph_lsp-*.whl")
    return wheel


def pinned(folder: Path) -> list[str]:
    """`name==version` of every distribution installed in `folder` (read from its dist-info)."""
    pins = []
    for info in sorted(folder.glob("*.dist-info")):
        name, version = info.name[: -len(".dist-info")].rsplit("-", 1)
        if not name.startswith("grooph_lsp"):
            pins.append(f"{name}=={version}")
    return pins


def merge(source: Path, into: Path) -> None:
    """Copies `source` into `into`; a file both hold must be the same bytes (it is pure Python),
    except a wheel's own records (WHEEL names its Python tag, RECORD lists its files)."""
    for path in sorted(source.rglob("*")):
        target = into / path.relative_to(source)
        if path.is_dir():
            target.mkdir(parents=True, exist_ok=True)
        elif not target.exists():
            shutil.copy2(path, target)
        elif not any(part.endswith(".dist-info") for part in path.relative_to(source).parts) and not filecmp.cmp(path, target, shallow=False):
            sys.exit(f"bundle_server: {target.relative_to(into)} differs between Python versions")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--target", default=this_target(), choices=sorted(PLATFORMS), help="VS Code target (default: this machine's)")
    parser.add_argument("--download-only", action="store_true", help="only fill the wheel cache")
    parser.add_argument("--offline", action="store_true", help="use only the wheel cache")
    args = parser.parse_args()
    WHEELHOUSE.mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        wheel = project_wheel(work / "project", args.offline)
        index = ["--no-index"] if args.offline else []
        constraints = work / "constraints.txt"
        constraints.write_text("")
        if args.offline and not (WHEELHOUSE / f"constraints-{args.target}.txt").exists():
            sys.exit("bundle_server: the wheel cache is empty: run `scripts/bundle_server.py --download-only` once with the network")
        merged = work / "libs"
        merged.mkdir()
        for n, python in enumerate(PYTHONS):
            if not args.offline:
                pip("download", "--quiet", "--dest", str(WHEELHOUSE), *platform_args(args.target, python),
                    "--constraint", str(constraints), *server_requirements())
            if args.download_only and n > 0:
                continue
            folder = work / f"py{python}"
            pip("install", "--quiet", "--no-compile", "--target", str(folder), "--no-index", "--find-links", str(WHEELHOUSE),
                *platform_args(args.target, python), "--constraint", str(constraints), *server_requirements(), *index)
            pip("install", "--quiet", "--no-compile", "--no-deps", "--upgrade", "--target", str(folder), "--no-index", str(wheel))
            if n == 0:
                pins = "\n".join(pinned(folder)) + "\n"
                constraints.write_text(pins)
                (WHEELHOUSE / f"constraints-{args.target}.txt").write_text(pins)
            if not args.download_only:
                shutil.rmtree(folder / "bin", ignore_errors=True)
                merge(folder, merged)
        if args.download_only:
            print(f"bundle_server: wheels for {args.target}, Python {', '.join(PYTHONS)} are in {WHEELHOUSE}")
            return 0
        shutil.rmtree(LIBS, ignore_errors=True)
        shutil.copytree(merged, LIBS)
    manifest = {"target": args.target, "pythons": list(PYTHONS), "server": wheel.name}
    (BUNDLED / "manifest.json").write_text(json.dumps(manifest, indent=2) + "\n")
    size = sum(p.stat().st_size for p in LIBS.rglob("*") if p.is_file())
    print(f"bundle_server: {wheel.name} and its dependencies for {args.target}, Python {', '.join(PYTHONS)}: {size / 1e6:.1f} MB in {LIBS}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
