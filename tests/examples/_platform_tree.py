"""The platform-adapted slim tree, assembled: examples/slim_tf1 with examples/platform_slim over it.

A training platform shipped research/slim with a few files replaced and its
SDK's ``uaitrain/`` folder copied in (or not). examples/platform_slim holds
only what the platform changed: files it added (its dataset, the SDK) as
files, and files it edited (the train script, model_deploy) as patches
against examples/slim_tf1, so the two trees share one copy of everything
else.
"""
from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SLIM_TF1 = REPO / "examples" / "slim_tf1"
OVERLAY = REPO / "examples" / "platform_slim"
SDK_FOLDER = "uaitrain"
# The overlay's own description; the assembled tree keeps slim_tf1's README.
OVERLAY_README = "README.md"
PATCH_SUFFIX = ".patch"


def overlay_files() -> list[Path]:
    """The overlay's files, relative to it (patches included, README not)."""
    return sorted(path.relative_to(OVERLAY) for path in OVERLAY.rglob("*")
                  if path.is_file() and path.name != OVERLAY_README
                  and "__pycache__" not in path.parts)


def assemble(dest: Path, with_sdk: bool = True) -> Path:
    """Writes the platform's tree to `dest` (which must not exist).

    Args:
      dest: the directory to create.
      with_sdk: copy the SDK's ``uaitrain/`` folder in, as users who had it
        did; without it the train script's SDK imports have nothing to find.

    Returns:
      `dest`.

    Raises:
      RuntimeError: a patch no longer applies to examples/slim_tf1.
    """
    shutil.copytree(SLIM_TF1, dest,
                    ignore=shutil.ignore_patterns("__pycache__"))
    patches = []
    for relative in overlay_files():
        if relative.parts[0] == SDK_FOLDER and not with_sdk:
            continue
        if relative.suffix == PATCH_SUFFIX:
            patches.append(str(OVERLAY / relative))
            continue
        (dest / relative).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(OVERLAY / relative, dest / relative)
    applied = subprocess.run(["git", "apply", "-p1", *patches], cwd=dest,
                             capture_output=True, text=True, timeout=60)
    if applied.returncode:
        raise RuntimeError(f"examples/platform_slim's patches do not apply to "
                           f"examples/slim_tf1:\n{applied.stderr}")
    return dest
