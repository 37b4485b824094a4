"""Which files are TensorFlow 2 code: the do-no-harm harness expects zero edits and findings there.

A file is TF2 code when every use of TensorFlow's public API in it is TF2 API of the
installed TensorFlow: each ``tf.a.b`` chain (through any import spelling of
``tensorflow``) resolves, attribute by attribute, on the live ``tensorflow`` module,
and nothing names ``tf.contrib`` or ``tf.compat.v1``: code written against the TF1 API
through compat.v1 (tf_slim's own modules, say) is TF1-style code, which the port may
edit as long as it keeps working. Code that imports ``tf_slim`` is TF-Slim code,
the TF1 API slimport exists to port (tf_slim's own package among it).
TensorFlow's private modules (``tensorflow.python...``) are not judged: what
slimport ports is the public TF1 API. Names are matched without scopes, so a
local ``tf`` that is not TensorFlow can only make a file count as TF1 (and so be
exempt), never the other way round. A file that does not parse is not TF2 code.
"""
from __future__ import annotations

import ast
import types
from functools import lru_cache
from pathlib import Path
from typing import Dict, List, Optional

_TF = "tensorflow"
# Top-level subpackages that are TensorFlow's implementation, not its API.
_PRIVATE = frozenset({"python", "core", "compiler", "lite", "tools", "include", "dtensor",
                      "tsl", "xla_aot_runtime_src", "libtensorflow_framework"})


def _bind(node: ast.AST, bound: Dict[str, str]) -> None:
    """Adds what an import binds to a tensorflow dotted path."""
    if isinstance(node, ast.Import):
        for alias in node.names:
            if alias.name == _TF or alias.name.startswith(_TF + "."):
                if alias.asname:
                    bound[alias.asname] = alias.name
                else:
                    bound[_TF] = _TF
    elif node.level == 0 and node.module and (
            node.module == _TF or node.module.startswith(_TF + ".")):
        for alias in node.names:
            bound[alias.asname or alias.name] = f"{node.module}.{alias.name}"


def _imports_tf_slim(node: ast.AST) -> bool:
    if isinstance(node, ast.Import):
        return any(alias.name.split(".")[0] == "tf_slim" for alias in node.names)
    return node.level == 0 and node.module is not None and node.module.split(".")[0] == "tf_slim"


def _chain(node: ast.Attribute) -> Optional[List[str]]:
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id] + parts[::-1]
    return None


@lru_cache(maxsize=None)
def resolves(dotted: str) -> bool:
    """True when the public TensorFlow name exists (members of classes are not checked)."""
    parts = dotted.split(".")
    if len(parts) < 2 or parts[1] in _PRIVATE:
        return True
    if "contrib" in parts or parts[1:3] == ["compat", "v1"]:
        return False
    import tensorflow  # pylint: disable=g-import-not-at-top  (the harness runs with TF)

    value = tensorflow
    for part in parts[1:]:
        try:
            value = getattr(value, part)
        except Exception:  # pylint: disable=broad-except  (lazy loaders raise anything)
            return False
        if not isinstance(value, types.ModuleType):
            return True
    return True


def is_tf2_code(path: Path) -> bool:
    """True for a file whose public TensorFlow uses all exist in this TensorFlow 2."""
    try:
        tree = ast.parse(path.read_bytes(), filename=str(path))
    except (SyntaxError, ValueError):
        return False
    # One walk (TensorFlow's 1,847 modules are a minute of the do-no-harm run): the
    # imports, and each attribute chain's outermost attribute (one no attribute holds).
    bound: Dict[str, str] = {}
    attributes, inner = [], set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            if _imports_tf_slim(node):
                return False
            _bind(node, bound)
        elif isinstance(node, ast.Attribute):
            attributes.append(node)
            if isinstance(node.value, ast.Attribute):
                inner.add(id(node.value))
    uses = list(bound.values())
    for node in attributes:
        chain = _chain(node) if id(node) not in inner else None
        if chain and chain[0] in bound:
            uses.append(".".join([bound[chain[0]]] + chain[1:]))
    return all(resolves(name) for name in uses)
