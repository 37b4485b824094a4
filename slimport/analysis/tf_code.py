"""What tells TF1 code from TF2 code, read off a file without running it.

A file is TF1 code when it uses, through TensorFlow's public ``tf`` namespace, a name
only the TF1 API has (``tf.placeholder``, ``tf.train.Saver``, ``tf.layers``,
``tf.contrib``), a keyword only TF1's version of a function takes (``keep_dims=``), a
positional argument named for TF1's parameter (``tf.nn.dropout(x, keep_prob)``) or
more positional arguments than TF2's version takes (``tf.name_scope(scope, 'Name',
[x])``). It is TF2 code when it uses a name or a keyword only TF2 has
(``tf.image.resize(..., antialias=True)``). The API tables are TensorFlow 2.21's
(``tf_api``). ``SignalScan`` finds these signals on the stdlib ast (for statement
filters, and for the codemods that port only TF1 code); compat_v1 finds the same ones
on libcst nodes, scope by scope, with ``api_use``, ``name_signal`` and ``call_signal``.
"""
from __future__ import annotations

import ast
from pathlib import Path
from typing import (Dict, FrozenSet, Iterator, List, Optional, Sequence, Set,
                    Tuple, Union)

from slimport.analysis import file_reads
from slimport.analysis.ast_index import child_nodes, nodes_of, walk
from slimport.analysis.py2_code import is_python2_code
from slimport.tables.tf_api import COMPAT_V1, TF, TF1, TF2, Api, tf_api
from slimport.analysis.names import (
    Bindings,
    bound_names,
    collect_bindings,
    dotted_parts,
    is_under,
    statement_blocks,
    uses_walrus,
)

# A file that sets its own execution mode (TF1 eager code calls enable_eager_execution)
# is not given another.
MODE_SWITCHES = frozenset({"disable_v2_behavior", "enable_v2_behavior",
                           "disable_eager_execution", "enable_eager_execution"})
# tensorflow.compat.v1 calls whose TF1 meaning needs graph mode: under TF 2's eager
# execution they raise (placeholders, sessions, a Saver of no var_list, queue runners)
# or answer from collections eager code never fills; ``self.test_session()`` too (TF 2's
# yields None when eager). Code that makes one and does not choose its mode was written
# for TF 1.x's, where graph mode, reference variables and v1 shapes were the default.
GRAPH_CALLS = frozenset({
    "placeholder", "sparse_placeholder", "Session", "InteractiveSession",
    "get_default_graph", "global_variables_initializer", "local_variables_initializer",
    "initialize_all_variables", "trainable_variables", "global_variables",
    "local_variables", "model_variables", "get_collection", "get_collection_ref",
    "train.Saver", "train.start_queue_runners"})
# Names of TF 2-era code that picks the mode per test (TensorFlow's test_util decorators)
# or asks which mode or TensorFlow it runs on (``tf2.enabled()``; object detection 2.x's
# ``tf_version.is_tf1()`` skips, whose TF1 tests run only on TF 1.x): its mode is its own.
MODE_AWARE_NAMES = frozenset({
    "run_deprecated_v1", "run_v1_only", "deprecated_graph_mode_only",
    "run_in_graph_and_eager_modes", "run_all_in_graph_and_eager_modes",
    "run_all_in_deprecated_graph_mode_only", "executing_eagerly", "eager_mode",
    "graph_mode", "tf2", "is_tf1", "is_tf2"})
_BLOCK_FIELDS = frozenset({"body", "orelse", "finalbody", "handlers", "cases"})
_SCOPE_EXPRESSIONS = frozenset({ast.Lambda, ast.ListComp, ast.SetComp, ast.DictComp,
                                ast.GeneratorExp})
# Uses the codemods before compat_v1 rewrite: no statement to classify a skeleton by.
_REWRITTEN_EARLIER = frozenset({"contrib", "app", "flags"})
# Imports that make a file TF1-era code on their own. ``slim_ext`` is not one: the port
# writes its imports, into TF 2 code too (``import slim_ext`` for tf.compat.v1.layers, the
# Estimator's revival, a record-array assertion), and what the port writes is never
# evidence for another edit (a second run would port a TF 2 program into graph mode).
TF1_IMPORTS = ("tf_slim", "tensorflow.contrib", "moxing")


def api_use(qualified: Optional[str], head_target: Optional[str]) -> Optional[Tuple[str, str]]:
    """(root, name relative to it) for a use of TensorFlow's public API, else None.

    Args:
      qualified: what the whole chain resolves to (``tensorflow.train.Saver``).
      head_target: what its first name is bound to. A use is an API use only when that
        is the package, ``tensorflow.compat.v1``, or one name imported from either
        (``from tensorflow import logging``); ``tensorflow.core.protobuf.saver_pb2``
        and the like are TensorFlow's own modules.

    Returns:
      ``(TF, "train.Saver")`` or ``(COMPAT_V1, "train.Saver")``; None otherwise (and
      for dunder names such as ``tf.__version__``).
    """
    if qualified is None or head_target is None:
        return None
    for root in (COMPAT_V1, TF):
        if head_target == root or (head_target.startswith(root + ".")
                                   and "." not in head_target[len(root) + 1:]):
            if root == TF and head_target.startswith(COMPAT_V1):
                continue
            if not qualified.startswith(root + "."):
                return None
            relative = qualified[len(root) + 1:]
            if root == TF and relative.split(".")[0] == "compat":
                return None
            if any(part.startswith("__") for part in relative.split(".")):
                return None
            return root, relative
    return None


def name_signal(api: Api, relative: str) -> Optional[str]:
    """TF1 or TF2 when the name alone says which API the code is written for.

    Args:
      api: the API tables.
      relative: a name relative to ``tf`` (``train.Saver``).

    Returns:
      ``TF1``, ``TF2``, or None when both APIs have it (or neither lists it).
    """
    if relative.split(".")[0] == "contrib":
        return TF1
    kind = api.kind(relative)
    return kind if kind in (TF1, TF2) else None


def call_signal(api: Api, relative: str, keywords: Sequence[str],
                positional: Sequence[Optional[str]]) -> Optional[str]:
    """TF1 or TF2 when a call's arguments say which version of the function it means.

    Args:
      api: the API tables.
      relative: the function, relative to ``tf``.
      keywords: the keyword names passed.
      positional: for each positional argument, the last name of a plain name chain
        (``keep_prob`` for ``FLAGS.keep_prob``), else None.

    Returns:
      ``TF1``, ``TF2``, or None when the call reads the same in both.
    """
    signatures = api.signatures.get(relative)
    if signatures is None:
        return None
    if any(keyword in signatures.v1_only for keyword in keywords):
        return TF1
    if any(keyword in signatures.v2_only for keyword in keywords):
        return TF2
    position = signatures.position
    if position is not None and position < len(positional) \
            and positional[position] == signatures.v1_name:
        return TF1
    # More arguments by position than TF2's version takes (``tf.name_scope(scope,
    # 'Encode', [x])``): TF1's signature is the one they fit.
    if signatures.v2_positional is not None and len(positional) > signatures.v2_positional:
        return TF1
    return None


def last_name(parts: Optional[List[str]]) -> Optional[str]:
    """The last name of a plain name chain (``keep_prob`` of ``FLAGS.keep_prob``).

    Args:
      parts: ``dotted_parts`` of an argument (None: not a chain).

    Returns:
      The name, or None.
    """
    return parts[-1] if parts else None


class SignalScan:
    """What the skeleton of a file must keep for compat_v1, found on the stdlib ast.

    Every statement the codemod edits or reports on, and enough of the statements that
    tell TF1 from TF2 for the codemod to classify the skeleton as it would the whole
    file: the first of each kind whose first name no function, lambda, class body or
    comprehension around it rebinds (so scopes cannot make the codemod read it
    differently), and not a tf.contrib, app or flags use (earlier codemods rewrite
    those). All of them only in a file that mixes TF1 and TF2, whose every TF1 use is
    rewritten.
    """

    def __init__(self, tree: ast.Module, bindings: Bindings) -> None:
        self.api = tf_api()
        self.bindings = bindings
        self.module = collect_bindings(tree, module_level_only=True)
        self.walrus = uses_walrus(tree)
        self.heads = {local for local, target in bindings.names.items()
                      if is_under(target, TF)}
        self.edits: Set[int] = set()
        self.signal_statements: Dict[str, List[int]] = {TF1: [], TF2: []}
        self.first_clean: Dict[str, int] = {}
        self._walk(tree.body, frozenset())

    def statements_to_keep(self) -> Set[int]:
        """The statements a skeleton keeps for compat_v1: every one that edits or decides.

        Returns:
          ``id()`` of each statement.
        """
        keep = set(self.edits) | set(self.first_clean.values())
        mixed = all(self.signal_statements.values())
        for signal, ids in self.signal_statements.items():
            # A kind with no clean witness (every use inside a comprehension, say) is
            # kept whole, with the scopes around it, so the skeleton still shows it.
            if mixed or signal not in self.first_clean:
                keep.update(ids)
        return keep

    def _walk(self, body: Sequence[ast.stmt], local: FrozenSet[str]) -> None:
        heads = self.heads
        for statement in body:
            # Every signal is a chain or a call that starts with a TensorFlow name: a
            # statement that spells none anywhere in it (most), nested ones included, is
            # settled by the shared index.
            if not any(name.id in heads for name in nodes_of(statement, (ast.Name,))):  # type: ignore[attr-defined]
                continue
            self._judge(statement, local)
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                inner = _locally_bound(statement, self.walrus)
                for block in statement_blocks(statement):
                    self._walk(block, local | inner)
            else:
                for block in statement_blocks(statement):
                    self._walk(block, local)

    def _judge(self, statement: ast.stmt, local: FrozenSet[str]) -> None:
        found: List[Tuple[str, bool]] = []
        scopes_inside = False
        # One walk over the statement's own expressions: chains are judged whole,
        # calls by their arguments too.
        pending: List[ast.AST] = [node for name, value in ast.iter_fields(statement)
                                  if name not in _BLOCK_FIELDS
                                  for node in (value if isinstance(value, list) else [value])
                                  if isinstance(node, ast.AST)]
        while pending:
            node = pending.pop()
            kind = type(node)
            if kind is ast.Attribute or kind is ast.Name:
                parts = dotted_parts(node)
                if parts is not None:
                    if parts[0] in self.heads:
                        signal = self._chain(statement, parts)
                        if signal is not None:
                            stable = len(parts) > 1 and parts[1] not in _REWRITTEN_EARLIER
                            found.append((signal, stable and parts[0] not in local))
                    continue
            elif kind is ast.Call:
                signal = self._call(node)  # type: ignore[arg-type]
                if signal is not None:
                    head = (dotted_parts(node.func) or [""])[0]  # type: ignore[attr-defined]
                    found.append((signal, head not in local))
            elif kind in _SCOPE_EXPRESSIONS:
                scopes_inside = True
            pending.extend(child_nodes(node))
        for signal, clean in found:
            ids = self.signal_statements[signal]
            if not ids or ids[-1] != id(statement):
                ids.append(id(statement))
            if clean and not scopes_inside:
                self.first_clean.setdefault(signal, id(statement))

    def _chain(self, statement: ast.stmt, parts: List[str]) -> Optional[str]:
        head = self.bindings.names.get(parts[0])
        if head == TF and parts[1:3] == ["compat", "v1"]:
            self.edits.add(id(statement))  # ``tf.compat.v1.X`` may collapse to ``tf.X``
            return None
        use = api_use(self.bindings.resolve_parts(parts), head)
        if use is None:
            return None
        root, relative = use
        if (parts[0] == TF and head == TF) \
                or relative.split(".")[-1] in MODE_SWITCHES \
                or self.api.missing_from_v1(relative) is not None:
            self.edits.add(id(statement))
        return name_signal(self.api, relative) if root == TF else None

    def _call(self, call: ast.Call) -> Optional[str]:
        parts = dotted_parts(call.func)
        if parts is None or parts[0] not in self.heads:
            return None
        use = api_use(self.bindings.resolve_parts(parts), self.bindings.names.get(parts[0]))
        if use is None or use[0] != TF:
            return None
        keywords = [keyword.arg for keyword in call.keywords if keyword.arg]
        positional = [last_name(dotted_parts(arg)) for arg in call.args
                      if not isinstance(arg, ast.Starred)]
        return call_signal(self.api, use[1], keywords, positional)


def _locally_bound(definition: Union[ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef],
                   walrus: bool) -> FrozenSet[str]:
    """Every name a definition's body (or a function's parameters) binds or declares
    global/nonlocal: a chain starting with one may not mean what it does at module level."""
    names: Set[str] = set()
    if not isinstance(definition, ast.ClassDef):
        arguments = definition.args
        for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs,
                         arguments.vararg, arguments.kwarg]:
            if argument is not None:
                names.add(argument.arg)
    pending = list(definition.body)
    while pending:
        statement = pending.pop()
        names.update(bound_names(statement, walrus))
        if isinstance(statement, (ast.Global, ast.Nonlocal)):
            names.update(statement.names)
        if not isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            for block in statement_blocks(statement):
                pending.extend(block)
    return frozenset(names)


def relies_on_tf1_graph_mode(tree: ast.Module, v1_names: FrozenSet[str]) -> bool:
    """Whether a module on tensorflow.compat.v1 was written for TF 1.x's default mode.

    It was when it makes a call of ``GRAPH_CALLS`` through a name bound to
    tensorflow.compat.v1 (``v1_names``), or ``<x>.test_session()``, and never chooses
    its mode: TF 2-era code on compat.v1 switches it (``MODE_SWITCHES``, wherever it is:
    tf_slim's tests do in ``setUpModule``), picks it per test or asks for it
    (``MODE_AWARE_NAMES``). TensorFlow's own test_util, which defines test_session, is
    not one.

    Args:
      tree: the whole file's stdlib ``ast``.
      v1_names: the module's names bound to tensorflow.compat.v1.

    Returns:
      True when it was.
    """
    if not v1_names or not any(_needs_graph_mode(call, v1_names)  # type: ignore[arg-type]
                               for call in nodes_of(tree, (ast.Call,))):
        return False
    if any(node.name == "test_session"  # type: ignore[attr-defined]
           for node in nodes_of(tree, (ast.FunctionDef, ast.AsyncFunctionDef))):
        return False
    chooses = MODE_AWARE_NAMES | MODE_SWITCHES
    return not any(
        isinstance(node, ast.Name) and node.id in chooses  # type: ignore[attr-defined]
        or isinstance(node, ast.Attribute) and node.attr in chooses  # type: ignore[attr-defined]
        for node in nodes_of(tree, (ast.Name, ast.Attribute)))


def _needs_graph_mode(call: ast.Call, v1_names: FrozenSet[str]) -> bool:
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr == "test_session":
        return True
    parts: List[str] = []
    while isinstance(func, ast.Attribute):
        parts.append(func.attr)
        func = func.value
    return (isinstance(func, ast.Name) and func.id in v1_names
            and ".".join(reversed(parts)) in GRAPH_CALLS)


def relies_on_tf1_semantics(tree: ast.Module) -> bool:
    """Whether a module relies on TF1's run-time behaviour through names TF2 has too.

    Graph mode: ``self.test_session()`` (TF2's yields None under eager execution, so
    ``sess.run`` fails). V1 shapes: ``x.get_shape()[i].value`` / ``x.shape[i].value``
    / ``tensor_shape[i].value`` on a name that says it is a shape (a TF1 ``Dimension``;
    TF2's ``TensorShape`` holds ints, and an int has no ``value``, so the code worked
    only on TF1 shapes). Either makes a module that uses only names both APIs have TF1
    code. Not read as one: a name's ``.value`` in a module that asks
    ``hasattr(x, "value")`` (code written for both, as tf_keras' backend is), and
    ``test_session`` called in the module that defines it (TensorFlow's test_util,
    whose importers would all be TF1 code by the neighbour rule).

    Args:
      tree: the whole file's stdlib ``ast``.

    Returns:
      True when one of them is there.
    """
    known = getattr(tree, _TF1_SEMANTICS, None)
    if known is None:
        known = _relies_on_tf1_semantics(tree)
        setattr(tree, _TF1_SEMANTICS, known)  # several codemods ask, of the same tree
    return known


_TF1_SEMANTICS = "_slimport_tf1_semantics"


def _relies_on_tf1_semantics(tree: ast.Module) -> bool:
    """``relies_on_tf1_semantics``, worked out from the tree's shared walk."""
    # TensorFlow's own test_util defines test_session (and calls it): TF2 code.
    asks_for_value = calls_it = False
    subscript_values: List[ast.Subscript] = []
    for node in nodes_of(tree, (ast.Call,)):
        func = node.func  # type: ignore[attr-defined]
        if isinstance(func, ast.Attribute) and func.attr == "test_session":
            calls_it = True
        elif isinstance(func, ast.Name) and func.id == "hasattr" \
                and len(node.args) == 2 and isinstance(node.args[1], ast.Constant) \
                and node.args[1].value == "value":  # type: ignore[attr-defined]
            asks_for_value = True
    for node in nodes_of(tree, (ast.Attribute,)):
        if node.attr == "value" and isinstance(node.value, ast.Subscript):  # type: ignore[attr-defined]
            subscript_values.append(node.value)  # type: ignore[attr-defined]
    defines_it = any(node.name == "test_session"  # type: ignore[attr-defined]
                     for node in nodes_of(tree, (ast.FunctionDef, ast.AsyncFunctionDef)))
    if calls_it and not defines_it:
        return True
    return any(_is_shape(subscript.value, names_too=not asks_for_value)
               for subscript in subscript_values)


def _is_shape(node: ast.expr, names_too: bool) -> bool:
    """``x.get_shape()``, ``x.shape``, or (``names_too``) a name that ends in ``shape``."""
    if isinstance(node, ast.Call):
        return isinstance(node.func, ast.Attribute) and node.func.attr == "get_shape" \
            and not node.args
    if isinstance(node, ast.Name):
        return names_too and node.id.lower().endswith("shape")
    return isinstance(node, ast.Attribute) and node.attr == "shape"


def defines_test_case(tree: ast.Module) -> bool:
    """Whether a module defines, at module level, a class of a ``...TestCase`` base.

    Such a module is test code: a test runner (pytest, unittest, ``python X_test.py``)
    imports it before any of its tests runs, and no program imports it as a library.

    Args:
      tree: the file's stdlib ``ast``.

    Returns:
      True for a test module or a test base module.
    """
    return any(isinstance(statement, ast.ClassDef)
               and any((dotted_parts(base) or [""])[-1].endswith("TestCase")
                       for base in statement.bases)
               for statement in tree.body)


# The digest of a module's bytes -> whether it is TF1 code (worked out once per process;
# a file is read again at each look, so an edited file is judged afresh).
_NEIGHBOURS: Dict[str, bool] = {}
# On a module's tree: (its filename, whether it imports a TF1 neighbour). Every codemod
# of a file asks about the same tree (the user's original), within the one port whose
# looks file_reads records: on TensorFlow's own 308 ``python/ops`` modules, asked 4.5
# times a file, the walks of its imports and the looks at its neighbours were two fifths
# of a profiled port; answered once, the port takes 17% less CPU (docs/benchmarks.md).
_NEIGHBOUR_VERDICT = "_slimport_tf1_neighbour"


def imports_tf1_neighbour(tree: ast.Module, filename: Optional[str]) -> bool:
    """Whether a module imports a module of its own package tree or project that is TF1
    code.

    A module that names no API only one TensorFlow has is still built on its
    neighbours: in object detection, ``post_processing_builder.py`` hands
    ``tf.nn.softmax`` to ``core/post_processing.py`` (TF1 code) and its test compares
    the name. Its own package tree is the top package above it (or, for a script
    outside any package, its directory). Its project's packages count too: the top-level
    packages in the folder its own root sits in, when that folder is a project's (it
    holds ``setup.py``, ``setup.cfg`` or ``pyproject.toml``), which is where the
    project's test runner imports them from; tflearn's ``tests/test_models.py`` builds a
    ``tflearn.DNN`` (TF1 code) and names no TF1 API itself. Imports of anything else
    (TensorFlow, other libraries: an installed package's folder is no project's) are not
    looked at. Measured: no TF2 package (keras, tf_keras) and no TF2-valid module of
    tf_slim imports a TF1 module of its own tree.

    Args:
      tree: the module's stdlib ``ast``.
      filename: its path (None: not known, nothing is looked up).

    Returns:
      True when one imported module of its tree or project shows TF1 evidence.
    """
    if not filename:
        return False
    known = getattr(tree, _NEIGHBOUR_VERDICT, None)
    if known is not None and known[0] == filename:
        return known[1]
    verdict = _imports_tf1_neighbour(tree, filename)
    setattr(tree, _NEIGHBOUR_VERDICT, (filename, verdict))
    return verdict


def _imports_tf1_neighbour(tree: ast.Module, filename: str) -> bool:
    """``imports_tf1_neighbour``, worked out."""
    path = file_reads.resolve(Path(filename))
    package = _top_package(path)
    in_package = file_reads.is_file(package / "__init__.py")
    own_root = package if in_package else path.parent
    project: Optional[Path] = None  # looked for at the first import it could serve
    for name in _imported_modules(tree):
        top = name.split(".")[0]
        if in_package or name.startswith("."):  # ``object_detection.core.x``, ``.x``
            found = _package_module(name, path.parent, package)
        else:  # a script outside packages: the modules beside it
            found = _module_file(path.parent, name)
        if found is None and not name.startswith(".") and top != own_root.name:
            if project is None:
                project = own_root.parent if _is_project(own_root.parent) else Path()
            if project != Path() and file_reads.is_file(project / top / "__init__.py"):
                found = _module_file(project, name)
                if found is not None and _gives_tf1_code(found):
                    return True
                continue
        if found is not None and found != path and _is_tf1_file(found):
            return True
    return False


def _top_package(path: Path) -> Path:
    """The top package above the module at ``path``: the highest folder of the unbroken
    line of ``__init__.py`` above it (its own folder when there is none: no package)."""
    package = path.parent
    while file_reads.is_file(package.parent / "__init__.py"):
        package = package.parent
    return package


def _package_module(name: str, folder: Path, package: Path) -> Optional[Path]:
    """The file of ``name``, imported from ``folder`` inside ``package``, when it is one of
    the package's own modules (relative, or under the package's name); else None."""
    if name.startswith("."):
        return _module_file(folder, name)
    if name.split(".")[0] == package.name:
        return _module_file(package.parent, name)
    return None


def _gives_tf1_code(module: Path) -> bool:
    """Whether a module met from another root is TF1 code, or, for a package's
    ``__init__.py`` (``import tflearn``), imports a TF1 module of its package: a
    library's entry is mostly imports (tflearn's names its ``config`` and ``layers``)."""
    if _is_tf1_file(module):
        return True
    if module.name != "__init__.py":
        return False
    try:
        entry = ast.parse(file_reads.read_bytes(module))
    except (OSError, SyntaxError, ValueError):
        return False
    for name in _imported_modules(entry):
        found = _package_module(name, module.parent, module.parent)
        if found is not None and found != module and _is_tf1_file(found):
            return True
    return False


# A folder that holds one of these is a project's root: its top-level packages are the
# project's own (an installed package's folder, site-packages, holds none of them).
PROJECT_FILES = ("setup.py", "setup.cfg", "pyproject.toml")


def _is_project(folder: Path) -> bool:
    return any(file_reads.is_file(folder / name) for name in PROJECT_FILES)


def _imported_modules(tree: ast.Module) -> Iterator[str]:
    """Dotted names (and, for ``from A import b``, ``A.b``) the module imports; relative
    ones as paths from its directory (``./../core/x``), in ast.walk's order (the order
    the neighbours' files are looked at, which the cache notes)."""
    for node in walk(tree):
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: the file's package, as a dotted path from its dir
                yield from (f"./{'../' * (node.level - 1)}{base.replace('.', '/')}/{alias.name}"
                            for alias in node.names)
                yield f"./{'../' * (node.level - 1)}{base.replace('.', '/')}"
                continue
            yield base
            yield from (f"{base}.{alias.name}" for alias in node.names)


def _module_file(root: Path, name: str) -> Optional[Path]:
    """The file of module ``name`` under ``root`` (``a.b`` or ``./b`` relative), if any."""
    relative = name if name.startswith(".") else name.replace(".", "/")
    base = file_reads.resolve(root / relative) if relative.strip("./") else None
    if base is None:
        return None
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if file_reads.is_file(candidate):
            return candidate
    return None


def _is_tf1_file(path: Path) -> bool:
    """Whether the module at ``path`` is TF1 code, read as the run read it
    (``file_reads``: a file of the run as it was before the run wrote any)."""
    try:
        data = file_reads.read_bytes(path)
    except OSError:
        return False
    key = file_reads.digest(data)
    verdict = _NEIGHBOURS.get(key)
    if verdict is None:
        try:
            tree = ast.parse(data)
        except (SyntaxError, ValueError):
            verdict = False
        else:
            verdict = tf1_evidence(tree, collect_bindings(tree))[0]
        _NEIGHBOURS[key] = verdict
    return verdict


# On a tree: frozenset of its bindings' items -> the SignalScan of the tree with them.
_SCANS = "_slimport_signal_scans"


def signal_scan(tree: ast.Module, bindings: Bindings) -> SignalScan:
    """``SignalScan(tree, bindings)``, made once per tree and bindings: compat_v1's
    statement filter and every leftover codemod's (``tf1_era_file``) ask about the same
    file, mostly with the same bindings (a scan held a quarter of the filters' time).

    Args:
      tree: the file's stdlib ``ast`` (the scans are kept on it).
      bindings: its bindings, as the codemods before the asking one leave them.

    Returns:
      The scan (read it, do not change it).
    """
    scans = getattr(tree, _SCANS, None)
    if scans is None:
        scans = {}
        setattr(tree, _SCANS, scans)
    key = frozenset(bindings.names.items())
    scan = scans.get(key)
    if scan is None:
        scan = scans[key] = SignalScan(tree, Bindings(dict(bindings.names)))
    return scan


def tf1_evidence(tree: ast.Module, bindings: Bindings) -> Tuple[bool, Set[int]]:
    """Whether ``tree`` is TF1 code, and the statements a skeleton must keep to say so.

    TF1 code: any TF1 signal, an import of tf_slim, tf.contrib or MoXing (imports are
    statements every skeleton keeps; an import of slim_ext is none), or TF1 semantics
    (``relies_on_tf1_semantics``, read off the whole file: nothing to keep).

    Args:
      tree: the file's stdlib ``ast``.
      bindings: its bindings.

    Returns:
      (is TF1 code, ``id()`` of the statements that show it).
    """
    if any(target.startswith(TF1_IMPORTS) for target in bindings.names.values()):
        return True, set()
    scan = signal_scan(tree, bindings)
    witness = scan.first_clean.get(TF1)
    if not scan.signal_statements[TF1]:
        return relies_on_tf1_semantics(tree), set()
    return True, {witness} if witness is not None else set()


def tf1_before_porting(original: Optional[ast.Module]) -> bool:
    """Whether the user's file was TF1 code before any codemod ran.

    The codemods before compat_v1 rewrite some of the surest TF1 signs away
    (``tf.app.flags``, ``tf.flags``, ``tf.contrib``, ``import moxing.tensorflow``), so a
    file's port can read as TF2 code when it is not. False when the engine gave no
    original (``python -m libcst.tool codemod``).

    Args:
      original: the stdlib ``ast`` of the user's file before any codemod ran
        (``SlimportCodemod.original_ast``).

    Returns:
      True when the original file shows TF1 evidence.
    """
    if original is None:
        return False
    known = getattr(original, "_slimport_tf1", None)
    if known is None:
        known = tf1_evidence(original, collect_bindings(original))[0]
        original._slimport_tf1 = known  # once per file, for every codemod that asks
    return known


def tf1_api_code(tree: ast.Module, bindings: Bindings) -> Tuple[bool, Set[int]]:
    """Whether ``tree`` is written against TF1's API: TF1 code (``tf1_evidence``), or
    code that binds ``tensorflow.compat.v1``, whoever moved it there (the port's own
    compat_v1, or the authors in TF 2's early days, as object detection 2.x's scripts).
    Unlike TF1 evidence, compat.v1 decides no execution mode: such a module's mode is
    its authors' (or its entry point's) business.

    Args:
      tree: the file's stdlib ``ast``.
      bindings: its bindings.

    Returns:
      (written against TF1's API, ``id()`` of the statements that show it).
    """
    if any(is_under(target, COMPAT_V1) for target in bindings.names.values()):
        return True, set()  # imports are statements every skeleton keeps
    return tf1_evidence(tree, bindings)


def tf1_era_file(tree: ast.Module, bindings: Bindings) -> Tuple[bool, Set[int]]:
    """Whether Python 2 and NumPy 1 leftovers in ``tree`` are for slimport to port, and
    the statements a skeleton must keep to say so.

    They are in code written against TF1's API (``tf1_api_code``: compat.v1 included)
    and in plain Python (a TF1 tree's helpers); a file that uses TensorFlow or Keras
    without any TF1 sign is TF2 code (TensorFlow's and Keras' own modules among them),
    whose leftovers are its authors' business.

    Args:
      tree: the file's stdlib ``ast``.
      bindings: its bindings.

    Returns:
      (port the leftovers, ``id()`` of the statements that decide it).
    """
    if not any(target == TF or target.startswith((TF + ".", "keras", "tf_keras"))
               for target in bindings.names.values()):
        return True, set()
    return tf1_api_code(tree, bindings)


def is_tf1_code(tree: ast.Module, original: Optional[ast.Module],
                filename: Optional[str] = None) -> bool:
    """Whether a file is TF1 code, by any evidence: its own (``tf1_evidence``), its
    original's before the earlier codemods (``tf1_before_porting``), or its neighbours'
    (``imports_tf1_neighbour``), as compat_v1 decides.

    Args:
      tree: the file's stdlib ``ast`` (a skeleton's, the codemod sees).
      original: the user's file before any codemod ran, when the engine gave it.
      filename: the file's path, for its neighbours (None: not looked at).

    Returns:
      True for TF1 code; False for TF2 code and for plain Python.
    """
    if tf1_evidence(tree, collect_bindings(tree))[0] or tf1_before_porting(original):
        return True
    return imports_tf1_neighbour(original or tree, filename)


# TensorFlow's private modules: what a library that copied some of TensorFlow's own code
# imports (public names are reached through ``tensorflow`` and its API modules).
TF_PRIVATE = ("tensorflow.python.", "tensorflow.core.")


def copies_tf_internals(tree: ast.Module, filename: Optional[str]) -> bool:
    """Whether a module reaches TensorFlow through its private modules only, and is not
    one of TensorFlow's own: code copied from a TensorFlow of its authors' time
    (tensorlayer 1.11.1's ``array_ops`` is TF 1.12's ``ones`` for any value), so no API
    use can date it, while its idioms are that TensorFlow's.

    Args:
      tree: the module's stdlib ``ast``.
      filename: its path (None: not known, and the module is not taken for such a copy).

    Returns:
      True for such a module outside TensorFlow's own package.
    """
    targets = collect_bindings(tree).names.values()
    private = [target for target in targets if target.startswith(TF_PRIVATE)]
    public = [target for target in targets if (target == TF or target.startswith(
        (TF + ".", "keras", "tf_keras"))) and not target.startswith(TF_PRIVATE)]
    if not private or public or not filename:
        return False
    return _top_package(file_reads.resolve(Path(filename))).name != TF


def leftovers_are_ours(tree: ast.Module, original: Optional[ast.Module],
                       filename: Optional[str] = None) -> bool:
    """Whether the leftover codemods (Python 2, NumPy, pandas, removed stdlib names)
    port ``tree``: Python 2 code (``py2_code``: TF1-era code, whatever TF API it uses),
    TF1 code (``is_tf1_code``) or plain Python (``tf1_era_file``).

    Args:
      tree: the file's stdlib ``ast`` (a skeleton's, the codemod sees).
      original: the user's file before any codemod ran, when the engine gave it (its
        Python 2 evidence is read there: what slimport writes is none).
      filename: the file's path, for its neighbours (None: not looked at).

    Returns:
      True when the file's leftovers are for slimport to port.
    """
    return is_python2_code(original or tree) \
        or tf1_era_file(tree, collect_bindings(tree))[0] or is_tf1_code(tree, original, filename)
