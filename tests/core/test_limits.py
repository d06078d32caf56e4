"""Limits through the command line (issue 9, item 3; cli.md §0.2, graph.md §3.2 step 1).

`grooph` reads files through `load.read_document`: a file over 64 MiB or nested deeper than 512
levels (the root is level 1) is one `E_SCHEMA` "not valid JSON" issue that says which limit, exit 1,
at once, without a RecursionError or a traceback, and without reading more than the limit lets in.
The command line's limits are wider than the editor's (5,000,000 characters, 64 levels): it is not on
every keystroke, and a valid document the reference accepts should validate the same here.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from grooph_core.source.json_reader import CLI_MAX_DEPTH as MAX_DEPTH
from grooph_core.source.load import MAX_FILE_BYTES

HEAD = '{"grooph": 0, "id": "g", "name": "G", "version": 1, "nodes": [], "edges": [], "loops": [], "zz": '
# Runs the command line in a process that reports its own peak memory (kB) last on stderr.
RUN = ("import atexit, resource, sys\n"
       "atexit.register(lambda: sys.stderr.write(f'\\nmaxrss={resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}\\n'))\n"
       "from grooph_core.cli import main\n"
       "sys.exit(main(sys.argv[1:]))\n")


def grooph(*args, cwd) -> tuple[subprocess.CompletedProcess, int, float]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, "-c", RUN, *args], cwd=cwd, capture_output=True, text=True, timeout=300,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
    took = time.monotonic() - started
    stderr, _, rss = done.stderr.rpartition("maxrss=")
    done.stderr = stderr
    return done, int(rss), took


_BASELINE: list[int] = []


def baseline_rss(tmp_path) -> int:
    """The peak memory (kB) of the same command on a small valid graph, in this environment: the
    limits are judged against it, not against a fixed number that depends on the machine."""
    if not _BASELINE:
        small = tmp_path / "small.grooph.json"
        small.write_text(HEAD + "0}", encoding="utf-8")
        _, rss, _ = grooph("validate", str(small), cwd=tmp_path)
        _BASELINE.append(rss)
    return _BASELINE[0]


# Reading the 64 MiB file would cost more than this over the baseline; not reading it costs nothing.
HEADROOM_KB = 48_000


def test_a_file_over_the_size_limit_is_not_read(tmp_path):
    path = tmp_path / "huge.grooph.json"
    with open(path, "wb") as f:  # sparse: the size is there, the bytes are not
        f.truncate(MAX_FILE_BYTES + 1)
    done, rss, took = grooph("validate", str(path), cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.splitlines()[0] == (f"error  E_SCHEMA  /: not valid JSON: the file is {MAX_FILE_BYTES + 1} bytes, "
                                           f"over the {MAX_FILE_BYTES}-byte limit")
    assert "1 error, 0 warnings" in done.stdout + done.stderr
    assert rss < baseline_rss(tmp_path) + HEADROOM_KB and took < 30  # it was not read


DEEP = {
    "513-levels": HEAD + "[" * 512 + "]" * 512 + "}",
    "200k-unclosed": "[" * 200_000,
    "100k-objects": '{"a":' * 100_000 + "1" + "}" * 100_000,
    "in-a-string-too": HEAD + '"' + "[" * 1000 + '", "y": ' + "[" * 600 + "]" * 600 + "}",
}


@pytest.mark.parametrize("name", list(DEEP))
def test_nested_deeper_than_the_limit_is_one_clear_issue(tmp_path, name):
    path = tmp_path / "deep.grooph.json"
    path.write_text(DEEP[name], encoding="utf-8")
    done, rss, took = grooph("validate", str(path), cwd=tmp_path)
    assert done.returncode == 1 and "Traceback" not in done.stderr and "RecursionError" not in done.stderr
    assert done.stderr.splitlines()[0] == f"error  E_SCHEMA  /: not valid JSON: nested deeper than {MAX_DEPTH} levels"
    assert rss < baseline_rss(tmp_path) + HEADROOM_KB and took < 30
    for command in (("fmt", str(path)), ("image", str(path)), ("shape", str(path)), ("validate", "--json", str(path))):
        other, _, _ = grooph(*command, cwd=tmp_path)
        assert other.returncode == 1 and "Traceback" not in other.stderr, command
        assert f"nested deeper than {MAX_DEPTH} levels" in other.stdout + other.stderr, command


def test_nesting_at_the_limit_is_validated_in_full(tmp_path):
    """512 levels with the root: json.loads reads it; every rule and the size measure run without
    recursing past the interpreter's limit."""
    path = tmp_path / "deep.grooph.json"
    path.write_text(HEAD + "[" * 511 + "]" * 511 + "}", encoding="utf-8")
    done, rss, took = grooph("validate", "--json", str(path), cwd=tmp_path)
    assert done.returncode == 0 and "Traceback" not in done.stderr
    codes = [i["code"] for i in json.loads(done.stdout)["issues"]]
    assert codes == ["W_UNKNOWN_KEY", "W_DOC_TOO_LARGE"]
    fmt, _, _ = grooph("fmt", str(path), cwd=tmp_path)
    assert fmt.returncode == 0 and json.loads(fmt.stdout) == json.loads(path.read_text("utf-8"))
