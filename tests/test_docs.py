"""Every code block of README.md and docs/*.md, run as a reader would run it.

Each page runs in a fresh folder of its own holding a copy of ``docs/examples/`` (the sample
files the pages' commands read, which a reader copies the same way), with the environment of
the tests, which holds no ``XLWINGS_*`` variable (tests/conftest.py), and ``umaoka`` of the
installed package first on the PATH. Its blocks run in page order:

- ```` ```bash ```` (or ``sh``, ``shell``): the block as one bash script
  (``set -e -o pipefail``) in the page's folder; a command that fails fails the page.
- ```` ```python ````: a block with ``>>>`` prompts is a doctest (ELLIPSIS and
  NORMALIZE_WHITESPACE), any other block a script. Each runs in a fresh interpreter, after
  the page's earlier Python blocks (so a page's blocks share their names, as in one
  session), in the page's folder.
- A block right after ``<!-- file: NAME -->`` is a file the page shows: it is written to
  NAME in the page's folder, for the blocks after it (where docs/examples has NAME too,
  the two must agree).
- A block right after ``<!-- output -->`` is what the page says was printed: it must be
  found, line by line, in the output of the page's last command block (``...`` stands
  for anything, as in a doctest; leading and trailing output is allowed, so a block may
  show part of what was printed; trailing spaces and blank lines aside).
- Any other block (``text``, ``csv``, ``ini``, ``json``, ``console``, no language) only
  shows syntax or data, and so does a command block whose first line is a comment saying
  ``not run by the docs test`` (with the reason, for the reader: an xlwings Server project
  of one's own, a download, the test run itself). Those are counted as shown-only.

The README's set-up steps are what the tests' environment has already done: in the shell
that runs the blocks, ``pip`` only says what it would install, and ``python3 -m venv DIR``
makes an empty ``DIR/bin/activate``, so ``umaoka`` stays the package under test.

Why a runner of our own: Sybil, pytest-examples and pytest-markdown-docs run Python
blocks (Sybil's markdown parsers also doctests), but none of them runs shell blocks in
page order in one folder and compares a later output block with what a command printed,
which is most of what these pages show; the runner is a page of code and needs no
package beyond the tests' own.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
EXAMPLES = ROOT / "docs" / "examples"
SHELL = {"bash", "sh", "shell"}
PYTHON = {"python", "py", "pycon", "python3"}
NOT_RUN = re.compile(r"^#.*\bnot run by the docs test\b", re.IGNORECASE)
MARKER = re.compile(r"^<!--\s*(file|output)\s*:?\s*(.*?)\s*-->$")
FENCE = re.compile(r"^(\s*)(`{3,}|~{3,})\s*([\w+-]*)")


@dataclass
class Block:
    """One fenced code block of a page."""

    line: int  # where it starts (1-based, the fence)
    lang: str
    text: str
    marker: tuple[str, str] | None  # ("file", NAME) or ("output", "")

    @property
    def kind(self) -> str:
        """file, output, shell, python or shown."""
        if self.marker:
            return self.marker[0]
        first = self.text.lstrip().split("\n", 1)[0]
        if NOT_RUN.match(first):
            return "shown"
        if self.lang in SHELL:
            return "shell"
        if self.lang in PYTHON:
            return "python"
        return "shown"


def blocks(page: Path) -> list[Block]:
    """The page's fenced code blocks, in order, each dedented to its fence."""
    lines = page.read_text(encoding="utf-8").split("\n")
    found: list[Block] = []
    i = 0
    while i < len(lines):
        m = FENCE.match(lines[i])
        if not m:
            i += 1
            continue
        indent, fence, lang = len(m.group(1)), m.group(2), m.group(3).lower()
        prev = next((lines[j].strip() for j in range(i - 1, -1, -1) if lines[j].strip()), "")
        mk = MARKER.match(prev)
        body: list[str] = []
        j = i + 1
        while j < len(lines) and not (lines[j].strip().startswith(fence)
                                      and lines[j].strip().strip(fence[0]) == ""):
            body.append(lines[j][indent:] if lines[j][:indent].strip() == "" else lines[j])
            j += 1
        found.append(Block(i + 1, lang, "\n".join(body) + "\n",
                           (mk.group(1), mk.group(2)) if mk else None))
        i = j + 1
    return found


PRELUDE = """\
set -e -o pipefail
pip() { echo "(pip $*: done already in the tests' environment)"; }
python3() {
    if [ "$1" = "-m" ] && [ "$2" = "venv" ]; then
        mkdir -p "$3/bin" && : > "$3/bin/activate"
    else
        command python3 "$@"
    fi
}
"""

DRIVER = """\
import doctest, json, sys
blocks = json.load(open(sys.argv[1], encoding="utf-8"))
globs = {"__name__": "__main__"}
flags = doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE
for n, (name, line, text) in enumerate(blocks):
    last = n == len(blocks) - 1
    if ">>>" in text:
        test = doctest.DocTestParser().get_doctest(text, globs, name, name, line)
        runner = doctest.DocTestRunner(optionflags=flags)
        runner.run(test, out=sys.stdout.write if last else (lambda s: None))
        if last and runner.failures:
            sys.exit(1)
    else:
        exec(compile("\\n" * line + text, name, "exec"), globs)
"""


def _env(folder: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("XLWINGS_")}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env["COLUMNS"] = "80"
    env["PYTHONUNBUFFERED"] = "1"  # warnings and output interleaved as on a terminal
    env["HOME"] = str(folder.parent / "home")
    Path(env["HOME"]).mkdir(exist_ok=True)
    return env


def _lines(text: str) -> str:
    """Lines without trailing spaces, blank lines left out (a page leaves out the blank
    lines that a terminal table puts around its title)."""
    return "\n".join(line.rstrip() for line in text.split("\n") if line.strip())


def _matches(shown: str, printed: str) -> bool:
    """The shown lines, in order, with ``...`` for anything, somewhere in what was printed."""
    pattern = ".*?".join(re.escape(part) for part in _lines(shown).split("..."))
    return re.search(pattern, _lines(printed), re.DOTALL) is not None


def _show(block: Block, page: Path) -> str:
    return f"{page.relative_to(ROOT)} line {block.line}"


def run_page(page: Path, folder: Path) -> dict[str, int]:
    """Run the page's blocks in ``folder``; return how many blocks of each kind."""
    shutil.copytree(EXAMPLES, folder, dirs_exist_ok=True)
    env = _env(folder)
    counts = {"shell": 0, "python": 0, "file": 0, "output": 0, "shown": 0}
    python_blocks: list[tuple[str, int, str]] = []
    printed: str | None = None
    for block in blocks(page):
        kind = block.kind
        counts[kind] += 1
        where = _show(block, page)
        if kind == "file":
            name = block.marker[1]
            sample = EXAMPLES / name
            assert not sample.exists() or sample.read_text(encoding="utf-8") == block.text, (
                f"{where}: {name} differs from docs/examples/{name}")
            (folder / name).parent.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(block.text, encoding="utf-8")
        elif kind == "shell":
            result = subprocess.run(["bash", "-c", PRELUDE + block.text], cwd=folder,
                                    env=env, stdout=subprocess.PIPE,
                                    stderr=subprocess.STDOUT, text=True, timeout=600)
            printed = result.stdout
            assert result.returncode == 0, f"{where}: exit {result.returncode}\n{printed}"
        elif kind == "python":
            python_blocks.append((str(page.relative_to(ROOT)), block.line, block.text))
            script = folder.parent / "blocks.json"
            script.write_text(json.dumps(python_blocks), encoding="utf-8")
            driver = folder.parent / "driver.py"
            driver.write_text(DRIVER, encoding="utf-8")
            result = subprocess.run([sys.executable, str(driver), str(script)], cwd=folder,
                                    env=env, capture_output=True, text=True, timeout=600)
            printed = result.stdout + result.stderr
            assert result.returncode == 0, f"{where}:\n{printed}"
        elif kind == "output":
            assert printed is not None, f"{where}: an output block with no command before it"
            assert _matches(block.text, printed), (
                f"{where}: the page shows\n{block.text}\nbut the commands printed\n{printed}")
    return counts


@pytest.mark.parametrize("page", PAGES, ids=[p.name for p in PAGES])
def test_page_runs_as_written(page: Path, tmp_path: Path) -> None:
    counts = run_page(page, tmp_path / "work")
    print(f"{page.name}: {counts}")


def test_runner_reads_blocks_and_markers(tmp_path: Path) -> None:
    """The runner's own reading: kinds, markers, indented fences, output matching."""
    page = tmp_path / "page.md"
    page.write_text(
        "Intro.\n\n<!-- file: a.txt -->\n```csv\nx,y\n```\n\n"
        "1. Step:\n\n   ```bash\n   cat a.txt\n   ```\n\n<!-- output -->\n```text\nx,y\n```\n\n"
        "```bash\n# Excel on Windows (not run by the docs test: no Excel here)\nexcel\n```\n\n"
        "```python\n>>> 1 + 1\n2\n```\n\n```\nsyntax\n```\n",
        encoding="utf-8")
    assert [b.kind for b in blocks(page)] == ["file", "shell", "output", "shown", "python",
                                             "shown"]
    assert blocks(page)[1].text == "cat a.txt\n"
    assert _matches("a\n...\nc", "0\na\nb\nc\nd")
    assert not _matches("a\nc", "a\nb\nc")
    assert _matches("a\nb\n", "a   \n\nb\n")  # trailing spaces and blank lines aside
