"""Write slimport/tables/tf_api.txt: the public names of tf.compat.v1 and of TF2's tf.

The compat_v1 codemod decides without importing TensorFlow whether a file needs the
TF1 API (it uses a name TF2's ``tf`` lacks, or a keyword TF2's version of a function
lacks) and which ``tf.X.Y`` names exist under ``tensorflow.compat.v1``; so both API
trees are generated once per supported TensorFlow release and committed. Run it with
the TensorFlow the ported code will run on:

    .tox/unit/bin/python tools/gen_tf_api.py

Each line is ``name<TAB>apis`` and, for a function or class in both APIs whose
parameters differ, ``<TAB>v1 only<TAB>v2 only<TAB>position<TAB>v2 positional``: ``name`` is dotted
relative to ``tf`` (``train.Saver``, ``nn.dropout``); ``apis`` is ``1`` (tf.compat.v1
only), ``2`` (TF2's tf only) or ``12``; "v1 only" and "v2 only" are the parameter names
one version has and the other lacks (comma-separated, may be empty); ``position`` is
``index:name`` for the first position at which the two signatures name different
parameters, ``name`` being TF1's (``1:keep_prob`` for ``nn.dropout``), or ``-``; then
how many arguments TF2's version takes by position (``*``: any). A
submodule is listed before its members. Lazily loaded modules (keras and the
Keras-backed parts of other modules) are listed by name only: loading them here would
pick whichever Keras happens to be installed. ``estimator`` is walked: TensorFlow 2.16+
has none, and ported code gets tensorflow-estimator 2.15's, revived by ``import
slim_ext`` (imported here first), with its own v1 (``tf.compat.v1.estimator``) and v2
(``tf.estimator``) APIs, exactly as TF 2.15 lazily loaded them.
"""
from __future__ import annotations

import inspect
import os
import sys
import types
from collections import deque
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Set, Tuple

OUTPUT = Path(__file__).resolve().parent.parent / "slimport" / "codemods" / "tf_api.txt"

# compat.v1/compat.v2 are whole API roots again, which code reaches as tf.compat.v1:
# listed by name, not walked.
UNWALKED = {"compat.v1", "compat.v2"}
API_PACKAGE = "tensorflow._api."
# tf.compat.v1.flags is TensorFlow's wrapper around absl.flags, not a generated module.
NON_API_WALKED = {"flags"}
# The lazily loaded API walked all the same: tensorflow-estimator's, whichever Keras is
# installed (slim_ext revives it on TF 2.16+).
LAZY_WALKED = {"estimator"}
ESTIMATOR_API_PACKAGE = "tensorflow_estimator.python.estimator.api."


def _is_lazy(module: types.ModuleType, name: str) -> bool:
    """True for a member that loads another package on first touch (not walked)."""
    from tensorflow.python.util import lazy_loader

    member = module.__dict__.get(name)
    if name in LAZY_WALKED:
        return False
    return isinstance(member, lazy_loader.LazyLoader) or name == "keras"


def _is_api_module(module: types.ModuleType) -> bool:
    """A generated API module: ``tensorflow._api.v2.nn`` (TF2's root renames some of
    them ``tensorflow.nn``; their files are still under ``_api``)."""
    location = str(getattr(module, "__file__", "") or "").replace("\\", "/")
    return (str(module.__name__).startswith((API_PACKAGE, ESTIMATOR_API_PACKAGE))
            or "/tensorflow/_api/" in location)


def _follows_tf_api(member: types.ModuleType, dotted: str) -> bool:
    """Whether ``walk`` lists the members of a TensorFlow API module it met as ``dotted``.

    Not compat.v1/compat.v2 again, nor a plain Python module re-exported by the API
    (tf.test.mock is unittest.mock): its members are not TensorFlow names.
    """
    return dotted not in UNWALKED and (_is_api_module(member) or dotted in NON_API_WALKED)


def walk(root: types.ModuleType,
         follows: Callable[[types.ModuleType, str], bool] = _follows_tf_api
         ) -> Iterator[Tuple[str, object]]:
    """Yield (dotted name, member) for every public member, breadth first.

    Breadth first so that a module reachable by several paths is listed under its
    shortest one (tf.compat.v1.train, not tf.compat.v1.compat.v1.train). A submodule's
    members are listed when ``follows(submodule, dotted)``, once per module.
    """
    seen: Set[str] = set()
    queue = deque([(root, "")])
    while queue:
        module, prefix = queue.popleft()
        for name in sorted(dir(module)):
            if name.startswith("_"):
                continue
            dotted = prefix + name
            if _is_lazy(module, name):
                yield dotted, None
                continue
            try:
                member = getattr(module, name)
            except (AttributeError, ImportError):
                # A deprecated lazy attribute that fails to load does not exist for users.
                continue
            yield dotted, member
            module_name = getattr(member, "__name__", None)
            if not isinstance(member, types.ModuleType) or not follows(member, dotted):
                continue
            if module_name in seen:
                continue
            seen.add(module_name)
            queue.append((member, dotted + "."))


def _parameters(member: object) -> Optional[Tuple[List[str], str]]:
    """The parameter names of a function or class constructor and how many of them can
    be passed by position (``*`` with ``*args``), or None."""
    from tensorflow.python.util import tf_inspect

    target = member.__init__ if inspect.isclass(member) else member  # type: ignore[misc]
    if not callable(target):
        return None
    try:
        spec = tf_inspect.getfullargspec(target)
    except TypeError:
        return None
    positional = list(spec.args)
    if inspect.isclass(member) and positional[:1] == ["self"]:
        positional = positional[1:]
    return positional + list(spec.kwonlyargs), "*" if spec.varargs else str(len(positional))


def _difference(v1: object, v2: object) -> str:
    """``<TAB>keywords<TAB>position`` when the two signatures differ, else ''."""
    if v1 is v2:
        return ""
    old, new = _parameters(v1), _parameters(v2)
    if old is None or new is None or old[0] == new[0]:
        return ""
    (first, _), (second, by_position) = old, new
    only_v1 = [name for name in first if name not in second]
    only_v2 = [name for name in second if name not in first]
    position = next((f"{index}:{a}" for index, (a, b) in enumerate(zip(first, second))
                     if a != b), "-")
    return f"\t{','.join(only_v1)}\t{','.join(only_v2)}\t{position}\t{by_position}"


def table_lines(v1: Dict[str, object], v2: Dict[str, object]) -> List[str]:
    """The lines of the table for the walked v1 and v2 APIs, v1's names first.

    Args:
      v1: name -> member, from ``walk(tf.compat.v1)``.
      v2: name -> member, from ``walk(tf)``.

    Returns:
      One ``name<TAB>apis[<TAB>...]`` line per name.
    """
    lines = []
    for name in list(v1) + [name for name in v2 if name not in v1]:
        apis = ("1" if name in v1 else "") + ("2" if name in v2 else "")
        extra = ""
        if apis == "12" and not isinstance(v1[name], types.ModuleType):
            extra = _difference(v1[name], v2[name])
        lines.append(f"{name}\t{apis}{extra}")
    return lines


def main() -> int:
    os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "2")
    import slim_ext  # noqa: F401  (revives tf.estimator on TF 2.16+)
    import tensorflow as tf

    lines = table_lines(dict(walk(tf.compat.v1)), dict(walk(tf)))
    header = (f"# tf.compat.v1 and tf public names, TensorFlow {tf.__version__}; "
              "generated by tools/gen_tf_api.py\n")
    OUTPUT.write_text(header + "\n".join(lines) + "\n", encoding="utf-8")
    print(f"{len(lines)} names -> {OUTPUT}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
