"""Whether a file is Python 2 code, and what shows it, read off the user's file.

Python 2 code is TF1-era code (the TF1-era projects ran on Python 2 first; TF 2.2 and
later never ran there), so its Python 2 meaning is slimport's to carry over whether or
not the file uses a TF1 API. Two kinds of evidence, each at its line:

- **Python 2 only**: what fails on Python 3 as it is written: a Python 2-only builtin
  read where it is the builtin (``xrange``, ``unicode``, ``basestring``, ``long``,
  ``raw_input``, ``unichr``, ``reduce``, ``cmp``, ``execfile``; not where the file binds
  the name anywhere or a ``*`` import may), a Python 2-only module imported
  (``cPickle``, ``urllib2``, ``urlparse``, ``StringIO``, ``ConfigParser``, ``Queue``,
  ...), a Python 2-only name of a module (``sys.maxint``, ``os.getcwdu``,
  ``string.maketrans``/``letters``/``lowercase``/``uppercase``, ``itertools.izip``/
  ``imap``/``ifilter``/``izip_longest``/``ifilterfalse``), a Python 2 dict method
  (``.iteritems()``, ``.itervalues()``, ``.iterkeys()``, ``.has_key()``) that no ``def``
  of the file or of the tree (tree fact ``tree_methods``) defines, a method's Python 2
  attributes (``im_func``, ``im_self``, ``im_class``, ``func_code``, ``func_defaults``,
  ``func_globals``), a ``cmp=`` keyword of ``sort``/``sorted``, a class that defines
  ``__nonzero__``, ``__div__`` or ``__cmp__`` and not its Python 3 counterpart;
- **written for Python 2**: ``from __future__ import`` of ``division``,
  ``print_function``, ``absolute_import`` or ``unicode_literals`` (Python 3 needs none of
  them: only code meant to run on Python 2 writes them), and any of the above where the
  code tells the versions apart (in a ``try`` whose handler catches ``ImportError``,
  ``NameError`` or ``AttributeError``, or in a branch of an ``if`` that reads
  ``PY2``/``PY3``/``sys.version_info``/``sys.version``).

Only the user's file counts: slimport never writes any of these, so a second run over
its output reads no evidence its own edits made (what the first run ported away is then
no longer there to port).
"""
from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import AbstractSet, Dict, List, Optional, Sequence, Set, Tuple

from slimport.analysis.names import bound_names

# Builtins Python 3 removed (``file`` is left out: a free ``file`` is more often a bug
# of the code's own than Python 2's builtin).
PY2_BUILTINS = frozenset({"xrange", "unicode", "basestring", "long", "raw_input", "unichr",
                          "reduce", "cmp", "execfile", "intern", "apply", "buffer"})
PY2_MODULES = frozenset({"cPickle", "urllib2", "urlparse", "StringIO", "cStringIO",
                         "ConfigParser", "Queue", "__builtin__", "httplib", "cookielib",
                         "commands", "HTMLParser", "Tkinter", "copy_reg", "SocketServer",
                         "htmlentitydefs", "robotparser", "dummy_thread", "anydbm"})
# Module -> its names Python 3 removed.
PY2_MODULE_NAMES: Dict[str, AbstractSet[str]] = {
    "sys": frozenset({"maxint", "setdefaultencoding"}),
    "os": frozenset({"getcwdu"}),
    "string": frozenset({"maketrans", "letters", "lowercase", "uppercase"}),
    "itertools": frozenset({"izip", "imap", "ifilter", "izip_longest", "ifilterfalse"}),
}
DICT_METHODS = frozenset({"iteritems", "itervalues", "iterkeys", "has_key"})
METHOD_ATTRIBUTES = frozenset({"im_func", "im_self", "im_class", "func_code",
                               "func_defaults", "func_globals"})
# A Python 2 special method -> the Python 3 one a class written for both defines too.
SPECIAL_METHODS: Dict[str, str] = {"__nonzero__": "__bool__", "__div__": "__truediv__",
                                   "__cmp__": "__lt__"}
FUTURE_FEATURES = frozenset({"division", "print_function", "absolute_import",
                             "unicode_literals"})
_GUARD_ERRORS = frozenset({"ImportError", "NameError", "AttributeError",
                           "ModuleNotFoundError"})
_VERSION_WORDS = frozenset({"PY2", "PY3", "PY34", "version_info", "version"})


@dataclass(frozen=True)
class Evidence:
    """One sign that a file is Python 2 code.

    Attributes:
      line: its 1-based line.
      what: the construct, as a report names it (``xrange``, ``from __future__ import
        division``).
      only: True when the code fails on Python 3 as written (Python 2 only); False when
        it shows only that the file was written to run on Python 2 (too).
    """

    line: int
    what: str
    only: bool


def python2_evidence(tree: ast.Module,
                     tree_methods: Optional[AbstractSet[str]] = None) -> Tuple[Evidence, ...]:
    """Every sign in ``tree`` that it is Python 2 code, in line order.

    Args:
      tree: the stdlib ``ast`` of the user's file (before any codemod ran).
      tree_methods: the names the ``def`` statements of the whole tree define (None: not
        known; the file's own are always read).

    Returns:
      The evidence; empty for Python 3 code.
    """
    cache: Dict[Optional[AbstractSet[str]], Tuple[Evidence, ...]] = \
        tree.__dict__.setdefault(_CACHE, {})
    found = cache.get(tree_methods)
    if found is None:
        found = cache[tree_methods] = tuple(sorted(
            set(_Reader(tree, tree_methods).evidence), key=lambda e: (e.line, e.what)))
    return found


_CACHE = "_slimport_python2_evidence"


def is_python2_code(tree: ast.Module, tree_methods: Optional[AbstractSet[str]] = None) -> bool:
    """Whether ``tree`` is Python 2 code: any evidence (``python2_evidence``).

    Args:
      tree: the stdlib ``ast`` of the user's file.
      tree_methods: the tree's method names (None: not known).

    Returns:
      True when the file shows it was written for Python 2.
    """
    return bool(python2_evidence(tree, tree_methods))


def is_python2_only(tree: ast.Module, tree_methods: Optional[AbstractSet[str]] = None) -> bool:
    """Whether ``tree`` fails on Python 3 as it is written (evidence with ``only``).

    Args:
      tree: the stdlib ``ast`` of the user's file.
      tree_methods: the tree's method names (None: not known).

    Returns:
      True when some construct of it ran on Python 2 only.
    """
    return any(evidence.only for evidence in python2_evidence(tree, tree_methods))


def future_features(tree: ast.Module) -> Set[str]:
    """The ``from __future__ import`` features of a module (``division``, ...).

    Args:
      tree: a module's stdlib ``ast``.

    Returns:
      The feature names its top-level ``__future__`` imports name.
    """
    return {alias.name for statement in tree.body
            if isinstance(statement, ast.ImportFrom) and statement.module == "__future__"
            for alias in statement.names}


def describe(evidence: Sequence[Evidence], shown: int = 3) -> str:
    """The evidence as a report's sentence names it: ``xrange (line 3), ...``.

    Args:
      evidence: ``python2_evidence`` of a file.
      shown: how many to name.

    Returns:
      The first ``shown`` of them, the Python 2-only ones first.
    """
    ordered = sorted(evidence, key=lambda e: (not e.only, e.line))
    named = ", ".join(f"{e.what} (line {e.line})" for e in ordered[:shown])
    return named + (f" and {len(ordered) - shown} more" if len(ordered) > shown else "")


class _Reader:
    """Walks a module once, knowing whether each node is under a version guard."""

    def __init__(self, tree: ast.Module, tree_methods: Optional[AbstractSet[str]]) -> None:
        self.evidence: List[Evidence] = []
        self.bound = _bound_anywhere(tree)
        self.star = any(isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)
                        for node in tree.body)
        defined = {node.name for node in ast.walk(tree)
                   if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
        self.own_methods = defined | set(tree_methods or ())
        self.modules = _module_names(tree)
        for feature in sorted(future_features(tree) & FUTURE_FEATURES):
            line = next(s.lineno for s in tree.body if isinstance(s, ast.ImportFrom)
                        and s.module == "__future__" and any(a.name == feature for a in s.names))
            self.evidence.append(Evidence(line, f"from __future__ import {feature}", False))
        self._walk(tree.body, guarded=False)

    def _walk(self, body: Sequence[ast.stmt], guarded: bool) -> None:
        for statement in body:
            self._statement(statement, guarded)

    def _statement(self, statement: ast.stmt, guarded: bool) -> None:
        if isinstance(statement, ast.Try):
            guard = any(_catches_version_errors(h) for h in statement.handlers)
            self._walk(statement.body, guarded or guard)
            for handler in statement.handlers:
                self._walk(handler.body, guarded or guard)
            self._walk(statement.orelse, guarded)
            self._walk(statement.finalbody, guarded)
            return
        if isinstance(statement, ast.If) and _reads_version(statement.test):
            self._expressions(statement.test, True)
            self._walk(statement.body, True)
            self._walk(statement.orelse, True)
            return
        if isinstance(statement, ast.ClassDef):
            self._class(statement, guarded)
        self._imports(statement, guarded)
        for name, value in ast.iter_fields(statement):
            items = value if isinstance(value, list) else [value]
            if items and all(isinstance(item, ast.stmt) for item in items):
                self._walk(items, guarded)
            else:
                for item in items:
                    if isinstance(item, ast.AST):
                        self._expressions(item, guarded)

    def _add(self, node: ast.AST, what: str, guarded: bool) -> None:
        self.evidence.append(Evidence(getattr(node, "lineno", 0), what, not guarded))

    def _imports(self, statement: ast.stmt, guarded: bool) -> None:
        if isinstance(statement, ast.Import):
            for alias in statement.names:
                if alias.name.split(".")[0] in PY2_MODULES:
                    self._add(statement, f"import {alias.name}", guarded)
        elif isinstance(statement, ast.ImportFrom) and not statement.level and statement.module:
            module = statement.module
            if module.split(".")[0] in PY2_MODULES:
                self._add(statement, f"from {module} import ...", guarded)
            for alias in statement.names:
                if alias.name in PY2_MODULE_NAMES.get(module, ()):
                    self._add(statement, f"from {module} import {alias.name}", guarded)

    def _class(self, statement: ast.ClassDef, guarded: bool) -> None:
        defined = {node.name for node in statement.body
                   if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))}
        defined |= {name for node in statement.body if isinstance(node, ast.Assign)
                    for name in bound_names(node)}
        for old, new in SPECIAL_METHODS.items():
            if old in defined and new not in defined:
                self._add(statement, f"{statement.name}.{old} without {new}", guarded)

    def _expressions(self, root: ast.AST, guarded: bool) -> None:
        for node in ast.walk(root):
            if isinstance(node, ast.Name):
                if node.id in PY2_BUILTINS and isinstance(node.ctx, ast.Load) \
                        and node.id not in self.bound and not self.star:
                    self._add(node, node.id, guarded)
            elif isinstance(node, ast.Attribute):
                self._attribute(node, guarded)
            elif isinstance(node, ast.Call):
                if any(keyword.arg == "cmp" for keyword in node.keywords) and (
                        (isinstance(node.func, ast.Attribute) and node.func.attr == "sort")
                        or (isinstance(node.func, ast.Name) and node.func.id == "sorted")):
                    self._add(node, "sort(cmp=...)", guarded)

    def _attribute(self, node: ast.Attribute, guarded: bool) -> None:
        receiver = node.value
        module = self.modules.get(receiver.id) if isinstance(receiver, ast.Name) else None
        if module is not None:  # ``six.iteritems`` is a function of six's, not a method
            if node.attr in PY2_MODULE_NAMES.get(module, ()):
                self._add(node, f"{module}.{node.attr}", guarded)
            return
        if node.attr in DICT_METHODS and node.attr not in self.own_methods:
            self._add(node, f".{node.attr}()", guarded)
        elif node.attr in METHOD_ATTRIBUTES and isinstance(node.ctx, ast.Load):
            self._add(node, f".{node.attr}", guarded)


def _bound_anywhere(tree: ast.Module) -> Set[str]:
    """Every name a statement or parameter of the file binds, at any depth."""
    names: Set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt):
            names.update(bound_names(node))
        elif isinstance(node, ast.arg):
            names.add(node.arg)
    return names


def _module_names(tree: ast.Module) -> Dict[str, str]:
    """Local name -> module, for the ``import M`` / ``import M as m`` of the file."""
    modules: Dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                modules[alias.asname or alias.name.split(".")[0]] = \
                    alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom) and node.module is not None:
            for alias in node.names:  # ``from six.moves import urllib``: a module of six's
                modules.setdefault(alias.asname or alias.name, f"{node.module}.{alias.name}")
    return modules


def _catches_version_errors(handler: ast.ExceptHandler) -> bool:
    """Whether an ``except`` clause catches what a missing Python 2 name raises."""
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any(isinstance(t, ast.Name) and t.id in _GUARD_ERRORS | {"Exception", "BaseException"}
               for t in types)


def _reads_version(test: ast.expr) -> bool:
    """Whether an ``if`` test tells Python 2 from 3 (``six.PY2``, ``sys.version_info``)."""
    return any((isinstance(node, ast.Name) and node.id in _VERSION_WORDS)
               or (isinstance(node, ast.Attribute) and node.attr in _VERSION_WORDS)
               for node in ast.walk(test))

