"""``python -m slim_ext``: the doctor. Prints what slim_ext runs on and what it patched.

Exit status 0 when every requirement is installed at a supported version,
1 otherwise (each problem is printed on its own line with the fix).

Importing the ``slim_ext`` package (which runpy does before this module runs)
already applies the shims; a missing TensorFlow or tf_keras stops that import
with an ImportError whose message names the package to install.
"""
import importlib.metadata
import platform
import sys
from typing import Dict, List, Optional, Tuple

from slim_ext import compat
from slim_ext.estimator import shims as estimator_shims

# (label, distribution names to try, pip requirement to suggest when missing)
_REQUIREMENTS = (
    ("TensorFlow", ("tensorflow", "tensorflow-cpu"), "tensorflow>=2.15,<2.22"),
    # Its minor version must be TensorFlow's: find_problems pins it when TF is there.
    ("tf_keras", ("tf-keras", "tf_keras"), "tf-keras>=2.15,<2.22"),
    ("tf_slim", ("tf-slim", "tf_slim"), "tf-slim==1.1.0"),
    ("absl-py", ("absl-py",), "absl-py"),
    ("numpy", ("numpy",), "numpy"),
)
SUPPORTED_TF = ((2, 15), (2, 21))
SUPPORTED_TF_SLIM = "1.1.0"


def _installed_version(distributions: Tuple[str, ...]) -> Optional[str]:
  for name in distributions:
    try:
      return importlib.metadata.version(name)
    except importlib.metadata.PackageNotFoundError:
      continue
  return None


def _minor(version: str) -> Tuple[int, int]:
  major, minor = version.split(".")[:2]
  return int(major), int(minor)


def find_problems(versions: Dict[str, Optional[str]]) -> List[str]:
  """Returns one line per missing or unsupported requirement, with its fix.

  Args:
    versions: requirement label (as in _REQUIREMENTS) -> installed version,
      or None when it is not installed.

  Returns:
    Human-readable problem lines; empty when everything is fine.
  """
  problems = []
  tf_version = versions["TensorFlow"]
  # tf-keras releases follow TensorFlow's from 2.15 on: pinned to a supported TF only.
  tf_supported = bool(tf_version) and (
      SUPPORTED_TF[0] <= _minor(tf_version) <= SUPPORTED_TF[1])
  for label, _, requirement in _REQUIREMENTS:
    if label == "tf_keras" and tf_supported:
      requirement = f"tf-keras=={'.'.join(map(str, _minor(tf_version)))}.*"
    if versions[label] is None:
      problems.append(f"MISSING {label}: pip install '{requirement}'")
  if tf_version and not tf_supported:
    problems.append(
        f"UNSUPPORTED TensorFlow {tf_version}: slim_ext's shims are checked "
        "on 2.15-2.21; pip install 'tensorflow>=2.15,<2.22'")
  keras_version = versions["tf_keras"]
  if tf_supported and keras_version and _minor(keras_version) != _minor(tf_version):
    problems.append(
        f"MISMATCH tf_keras {keras_version} with TensorFlow {tf_version}: "
        f"pip install 'tf-keras=={'.'.join(map(str, _minor(tf_version)))}.*'")
  slim_version = versions["tf_slim"]
  if slim_version and slim_version != SUPPORTED_TF_SLIM:
    problems.append(
        f"UNSUPPORTED tf_slim {slim_version}: the shims target tf_slim "
        f"{SUPPORTED_TF_SLIM}; pip install tf-slim=={SUPPORTED_TF_SLIM}")
  return problems


def report() -> Tuple[List[str], List[str]]:
  """Builds the doctor's report.

  Returns:
    (lines, problems): the lines to print, and the subset that are problems.
  """
  versions = {label: _installed_version(names)
              for label, names, _ in _REQUIREMENTS}
  lines = [f"Python      {platform.python_version()} ({sys.executable})"]
  lines += [f"{label:<11} {version or 'MISSING'}"
            for label, version in versions.items()]
  shims = compat.applied() + estimator_shims.applied()
  known = len(compat.SHIMS) + len(estimator_shims.SHIMS)
  lines.append(f"shims applied: {len(shims)} of {known} known "
               "(the others are not missing in this TensorFlow)")
  for shim in shims:
    lines.append(f"  {shim.target} -> {shim.source}")
    lines.append(f"      cause: {shim.cause}")
  problems = find_problems(versions)
  lines += problems or ["OK: everything slim_ext needs is installed."]
  return lines, problems


def main() -> int:
  lines, problems = report()
  print("\n".join(lines))
  return 1 if problems else 0


if __name__ == "__main__":
  sys.exit(main())
