"""docs/codemods.md is what tools/gen_codemod_docs.py makes of the codemod registry and the
first case of each table in tests/slimport/codemods/cases/."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
PAGE = REPO / "docs" / "codemods.md"
sys.path.insert(0, str(REPO / "tools"))
import gen_codemod_docs  # noqa: E402  (tools/ is not a package)

STALE = (f"docs/codemods.md is not what the codemods and their cases say now: run "
         f"`{gen_codemod_docs.COMMAND}` at the repository's root and commit the page")


def test_the_page_is_current() -> None:
    assert PAGE.read_text(encoding="utf-8") == gen_codemod_docs.render(), STALE


def test_the_command_writes_the_page(tmp_path: Path) -> None:
    # The command as the page and the failure above give it, run from a root of its own
    # (the script writes docs/codemods.md beside its tools/ folder), so that the test
    # never writes into the checkout; the repository is importable as from its root.
    (tmp_path / "tools").mkdir()
    shutil.copy(REPO / "tools" / "gen_codemod_docs.py", tmp_path / "tools")
    program, script = gen_codemod_docs.COMMAND.split()
    assert program == "python"
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])}
    ran = subprocess.run([sys.executable, script], cwd=tmp_path, env=env, capture_output=True,
                         text=True, timeout=120, check=False)
    assert ran.returncode == 0, ran.stderr
    assert "wrote docs/codemods.md" in ran.stdout
    written = (tmp_path / "docs" / "codemods.md").read_text(encoding="utf-8")
    assert written == PAGE.read_text(encoding="utf-8"), STALE
