"""docs/images/port-report.png: the ``--report port.html`` page of porting the bundled
TF1 tree, as headless Chromium shows it (the README's picture).

    python tools/report_screenshot.py

Copies examples/slim_tf1 into a scratch directory and ports it there as a user would
(``slimport rewrite slim_tf1 --out slim_tf2 --report port.html``, so the page shows
short relative paths), then has Chromium take a 1280x900 screenshot of the page.
Chromium is Debian's package (``apt-get install chromium``); tests/slimport/
test_html_report.py drives it with the same functions.
"""
from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Optional, Sequence, Tuple

REPO = Path(__file__).resolve().parents[1]
EXAMPLE = REPO / "examples" / "slim_tf1"
IMAGE = REPO / "docs" / "images" / "port-report.png"
COMMAND = "python tools/report_screenshot.py"
WINDOW = (1280, 900)
# Headless, and nothing that reaches for the network (this machine's network is closed:
# without these, Chromium's background connections fail many at a time).
CHROMIUM_FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync")
CHROMIUM_TIMEOUT = 120


def chromium_path() -> Optional[str]:
    """Debian's Chromium (``chromium``), or None when it is not installed."""
    return shutil.which("chromium")


def run_chromium(arguments: Sequence[str], scratch: Path) -> subprocess.CompletedProcess:
    """Chromium with ``CHROMIUM_FLAGS``, a new empty profile under ``scratch`` and
    ``arguments``; bounded in time, and every process it started stopped.

    Raises:
      FileNotFoundError: Chromium is not installed.
      subprocess.TimeoutExpired: it ran longer than ``CHROMIUM_TIMEOUT`` seconds.
    """
    binary = chromium_path()
    if binary is None:
        raise FileNotFoundError("chromium is not installed: apt-get install chromium")
    profile = Path(tempfile.mkdtemp(prefix="chromium-profile-", dir=scratch))
    # Its own session, so that its helper processes (zygote, renderers, GPU) are one
    # process group, stopped by that group's id whatever happens.
    browser = subprocess.Popen([binary, *CHROMIUM_FLAGS, f"--user-data-dir={profile}",
                                *arguments], stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        stdout, stderr = browser.communicate(timeout=CHROMIUM_TIMEOUT)
    finally:
        try:
            os.killpg(browser.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        browser.wait()
    return subprocess.CompletedProcess(browser.args, browser.returncode, stdout, stderr)


def port_example(scratch: Path, report: str = "port.html") -> Tuple[Path, Path]:
    """Port a copy of examples/slim_tf1 in ``scratch`` with ``--report report``.

    Returns:
      (the report, the ported tree).

    Raises:
      RuntimeError: the rewrite failed.
    """
    source = scratch / "slim_tf1"
    if not source.exists():
        shutil.copytree(EXAMPLE, source, ignore=shutil.ignore_patterns("__pycache__"))
    ported = scratch / "slim_tf2"
    shutil.rmtree(ported, ignore_errors=True)
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(REPO), *filter(None, [os.environ.get("PYTHONPATH")])])}
    ran = subprocess.run([sys.executable, "-m", "slimport", "rewrite", "slim_tf1", "--out",
                          "slim_tf2", "--report", report, "-q"], cwd=scratch, env=env,
                         capture_output=True, text=True, timeout=300, check=False)
    if ran.returncode != 0:
        raise RuntimeError(f"slimport rewrite failed ({ran.returncode}): {ran.stderr}")
    return scratch / report, ported


def screenshot(page: Path, image: Path, scratch: Path,
               window: Tuple[int, int] = WINDOW) -> subprocess.CompletedProcess:
    """Chromium's screenshot of ``page``, the window ``window`` wide and high, as ``image``."""
    return run_chromium([f"--screenshot={image}", f"--window-size={window[0]},{window[1]}",
                         page.resolve().as_uri()], scratch)


def dump_dom(page: Path, scratch: Path) -> str:
    """The DOM Chromium built from ``page``, serialized.

    Raises:
      RuntimeError: Chromium failed.
    """
    ran = run_chromium(["--dump-dom", page.resolve().as_uri()], scratch)
    if ran.returncode != 0 or not ran.stdout:
        raise RuntimeError(f"chromium --dump-dom failed ({ran.returncode}): {ran.stderr}")
    return ran.stdout


def main() -> int:
    if chromium_path() is None:
        print("chromium is not installed: apt-get install chromium", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="slimport-screenshot-") as scratch:
        page, _ = port_example(Path(scratch))
        IMAGE.parent.mkdir(parents=True, exist_ok=True)
        shot = screenshot(page, IMAGE, Path(scratch))
        if shot.returncode != 0 or not IMAGE.is_file():
            print(f"chromium failed ({shot.returncode}): {shot.stderr}", file=sys.stderr)
            return 1
    print(f"wrote {IMAGE.relative_to(REPO)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
