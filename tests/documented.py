"""The commands README.md and docs/*.md tell a user to run, and the one way a test takes
one: ``documented(line)`` fails unless a page shows that very line, and
tests/test_docs.py fails unless every line the pages show is taken by some test. So a
page never shows a command no test runs, and a test never runs a command no page shows.

A command is a line of a fenced block whose info string is empty or ``sh`` (not
``python``, ``toml``, ``diff``, ...): in a block with ``$`` prompts, each prompt line
(the rest is output); otherwise each line that starts with a command word. A line
continued with ``\\`` or inside an open quote joins the next. What follows ``  #`` is a
comment. A line with a placeholder (``...``, an optional ``[...]`` part, an all-capitals
word such as ``PATH`` or ``DIR``) is a synopsis, not a command to run as it stands, and
is left out.
"""
from __future__ import annotations

import functools
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

ROOT = Path(__file__).resolve().parents[1]
COMMAND_WORDS = ("slimport", "python", "pip", "tox", "bash", "git", "TF_CONFIG=",
                 "saved_model_cli")
_FENCE = re.compile(r"^```(\w*)\s*$")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
# Outside quotes (``'.[tf]'`` is an extra, not an optional part).
_PLACEHOLDER = re.compile(r"\.\.\.|(?:^|\s)\[")
# Anywhere (``{"master": ["HOST0:2222"]}``), but not an assignment (``TF_CONFIG=``).
_NAMED_PLACEHOLDER = re.compile(r"\b[A-Z][A-Z_0-9]+\b(?!=)")


def pages() -> List[Path]:
    """README.md and every page of docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


def _blocks(text: str) -> Iterator[Tuple[int, List[str]]]:
    """(line number of the first line, lines) of each shell block of a page."""
    lines = text.splitlines()
    index = 0
    while index < len(lines):
        fence = _FENCE.match(lines[index])
        if fence is None:
            index += 1
            continue
        end = next(i for i in range(index + 1, len(lines)) if lines[i].startswith("```"))
        if fence.group(1) in ("", "sh"):
            yield index + 2, lines[index + 1:end]
        index = end + 1


def _without_comment(line: str) -> str:
    return "" if line.lstrip().startswith("#") else line.split("  #")[0].rstrip()


def _joined(lines: List[str]) -> Iterator[Tuple[int, str]]:
    """(offset, logical line): continuations and open quotes joined."""
    pending, start = "", 0
    for offset, line in enumerate(lines):
        text = _without_comment(line)
        if not text and not pending:
            continue
        if not pending:
            start = offset
        pending = f"{pending}\n{text}" if pending else text
        if pending.endswith("\\"):
            pending = pending[:-1].rstrip()
            continue
        try:
            shlex.split(pending)
        except ValueError:  # an open quote: the command goes on
            continue
        yield start, pending
        pending = ""


def _commands(lines: List[str]) -> Iterator[Tuple[int, str]]:
    prompted = any(line.startswith("$ ") for line in lines)
    for offset, line in _joined(lines):
        if prompted:
            if line.startswith("$ "):
                yield offset, line[2:]
        elif line.strip().startswith(COMMAND_WORDS):
            yield offset, line.strip()


@functools.lru_cache(maxsize=None)
def shell_lines() -> Dict[str, Tuple[str, ...]]:
    """Every command the pages tell a user to run -> where (``page:line``) they show it."""
    found: Dict[str, List[str]] = {}
    for page in pages():
        for first, block in _blocks(page.read_text(encoding="utf-8")):
            for offset, command in _commands(block):
                if _PLACEHOLDER.search(_QUOTED.sub("", command)) or \
                        _NAMED_PLACEHOLDER.search(command):
                    continue
                where = f"{page.relative_to(ROOT)}:{first + offset}"
                found.setdefault(command, []).append(where)
    return {command: tuple(places) for command, places in found.items()}


def documented(line: str) -> List[str]:
    """The words of a command a page shows, for a test to run it as it stands.

    Args:
      line: the command, exactly as the page shows it (comment dropped).

    Returns:
      Its words, as a shell splits them.

    Raises:
      AssertionError: no page shows it (the page changed: change the test with it).
    """
    assert line in shell_lines(), (
        f"no page of README.md or docs/ shows the command {line!r} any more")
    return shlex.split(line)


RUN_SECS = 600


def run_documented(words: List[str], cwd: Path) -> subprocess.CompletedProcess:
    """Runs a command's words in `cwd` with this Python's environment first on PATH
    (``slimport``, ``python``, ``saved_model_cli`` are this environment's)."""
    env = dict(os.environ, TF_CPP_MIN_LOG_LEVEL="2",
               PATH=os.pathsep.join([str(Path(sys.executable).parent),
                                     os.environ.get("PATH", "")]))
    executable = shutil.which(words[0], path=env["PATH"])
    assert executable is not None, f"{words[0]} is not on PATH"
    return subprocess.run([executable, *words[1:]], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=RUN_SECS, check=False)
