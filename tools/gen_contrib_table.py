"""Write slimport/tables/contrib_api.txt: every tf.contrib name of TF 1.15 and its home now.

tf_slim was cut from tf.contrib.{slim,layers,framework,losses,metrics,training}, file
for file, so where a contrib module went is structural: its file has a namesake in
tf_slim (``contrib/layers/python/layers/utils.py`` -> ``tf_slim/layers/utils.py``),
or, where tf_slim renamed the file, the tf_slim module that holds most of its names
(``metric_loss_ops`` -> ``tf_slim.losses.metric_learning``). Many contrib names were
core TensorFlow functions re-exported (``tf.contrib.util.constant_value``,
``tf.contrib.rnn.LSTMCell``); their home is the ``tf.compat.v1`` name TensorFlow 1.15
exported them under (``tf_export``), when TensorFlow 2.21's compat.v1 still has it.
Everything else is gone; ``contrib_table.py`` adds the hand-made homes on top
(slim_ext re-implementations and stand-ins, renamed summaries).

TensorFlow 1.15 does not install on Python 3.11, so its tree is read from the wheel, or
from the site-packages of a Python 3.7 environment that has it, without running it (the
stdlib ``ast``: imports, ``__all__``, ``remove_undocumented``, ``tf_export``); tf_slim,
slim_ext and TensorFlow 2.21 are imported to check every home. Run it in the env the
tests use:

    pip download --no-deps --only-binary :all: --python-version 37 \\
        --platform manylinux2010_x86_64 tensorflow-cpu==1.15.0 -d /tmp/tf115
    pip download --no-deps --only-binary :all: --python-version 37 \\
        --platform manylinux1_x86_64 tensorflow==1.14.0 -d /tmp/tf114
    VENV/bin/python tools/tf1_contrib_paths.py > /tmp/tf115_paths.tsv   # TF 1.15 runs here
    .tox/tf221/bin/python tools/gen_contrib_table.py /tmp/tf115/tensorflow_cpu-1.15.0-*.whl \\
        --older /tmp/tf114/tensorflow-1.14.0-*.whl --resolved /tmp/tf115_paths.tsv

(1.15 no longer had ``contrib.gan``, which became TF-GAN; 1.14's is read from its wheel.
``--resolved`` adds the paths only running TensorFlow 1.15 shows: a submodule bound on
its package as an attribute, ``tf.contrib.layers.summaries``; VENV is a Python 3.7
environment with ``tensorflow==1.15.5``, tools/tf1_contrib_paths.py says how to make it.)

A contrib module that has a hand-made mirror (``contrib_table.MODULE_HOMES``:
``tfprof`` -> ``slim_ext.contrib.tfprof``, ``distributions`` -> TensorFlow Probability's)
is listed with every name it had, each with its home in the mirror, or gone where the
mirror lacks it, so that the rewrite never writes a name the mirror does not have
(``tfprof.ProfileContext``, which TF 1.15's contrib.tfprof re-exported from core,
included). The mirrors are imported: run it where the ``probability`` and ``gan``
extras are installed.

Each line is ``name<TAB>kind<TAB>home<TAB>import module``: ``name`` is dotted relative to
``tensorflow.contrib`` (``layers.python.layers.utils.collect_named_outputs``);
``kind`` is ``module`` or ``symbol``; ``home`` is a module (``tf_slim.layers.utils``)
for a module, ``package:attribute`` (``tf_slim:layers.conv2d``) for a symbol, or ``-``
when it is gone; ``import module``, when present, is the module a ``from ... import``
of the symbol must name (the attribute path does not lead to it). A module that is
gone with everything in it (``distributions``) has no lines for its names.
"""
from __future__ import annotations

import argparse
import ast
import importlib
import pkgutil
import re
import sys
import types
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Dict, Iterator, List, Optional, Sequence, Set, Tuple

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))
from slimport.tables.tf_api import COMPAT_V1, TF1, tf_api  # noqa: E402
OUTPUT = REPO / "slimport" / "tables" / "contrib_api.txt"
WHEEL_ROOT = "tensorflow_core/"
_WHEEL_ROOTS = re.compile(r"tensorflow_core/|tensorflow-1\.\d+\.\d+\.data/purelib/tensorflow/")
CONTRIB = "tensorflow.contrib"
CORE = "tensorflow.python."
# The contrib packages tf_slim was cut from; other packages' files that share a name
# with a tf_slim file (model_pruning's learning.py) are other code.
CUT_INTO_TF_SLIM = ("slim", "layers", "framework", "losses", "metrics", "training")
TF_SLIM = "tf_slim"
GONE = "-"
# ``@@name`` lines of a module docstring: what remove_undocumented keeps.
_DOCUMENTED = re.compile(r"^\s*@@([A-Za-z_][A-Za-z0-9_]*)", re.MULTILINE)
# Not modules anyone imports: tests, generated protos and op wrappers, build helpers.
_SKIPPED_FILE = re.compile(
    r"(_test|_test_base|_benchmark|_pb2|_pb2_grpc|test_util|testing_utils)\.py$"
    r"|/gen_[^/]*\.py$")


@dataclass(frozen=True)
class Origin:
    """Where a name is defined: ``module.name``, or the module itself when name is None.

    ``via`` lists the (module, name) bindings an import went through on the way, the
    nearest first: ``evaluate_once`` in contrib.training is the one in
    training/python/training/evaluation.py, which aliases a private core function.
    """

    module: str
    name: Optional[str] = None
    via: Tuple[Tuple[str, str], ...] = ()

    def bindings(self) -> List[Tuple[str, str]]:
        """Every (module, name) of the chain, the nearest first, the definition last."""
        return [*self.via, (self.module, self.name or "")]


def _via(module: str, name: str, origin: Optional[Origin]) -> Origin:
    """``origin`` reached through ``module.name``."""
    if origin is None:
        return Origin(module, name)
    if origin.name is None or (module, name) == (origin.module, origin.name):
        return origin
    return Origin(origin.module, origin.name, ((module, name), *origin.via))


class InstalledTree:
    """An installed ``tensorflow_core`` read like its wheel: ``namelist`` and ``read``."""

    def __init__(self, site_packages: Path) -> None:
        self.root = site_packages
        self.paths = [str(path.relative_to(site_packages))
                      for path in sorted((site_packages / WHEEL_ROOT).rglob("*.py"))]
        self.filename = str(site_packages)

    def namelist(self) -> List[str]:
        return self.paths

    def read(self, name: str) -> bytes:
        return (self.root / name).read_bytes()


class Tf1Tree:
    """TensorFlow 1.15's Python sources, read from its wheel, never executed.

    ``older``: a TensorFlow 1.x wheel whose contrib packages TF 1.15 no longer had
    (1.14's ``gan``, which moved to TF-GAN) are read from it, beside 1.15's.
    """

    def __init__(self, wheel: "zipfile.ZipFile | InstalledTree",
                 older: Optional[zipfile.ZipFile] = None) -> None:
        # dotted module -> (the archive it is in, its path there)
        self.files: Dict[str, Tuple[object, str]] = dict(_python_files(wheel))
        packages = {_contrib_package(name) for name in self.files}
        for dotted, found in (_python_files(older) if older else []):
            if _contrib_package(dotted) not in packages:
                self.files[dotted] = found
        self._trees: Dict[str, ast.Module] = {}
        self._exports: Dict[str, Dict[str, Origin]] = {}
        # Names a module took with ``from ... import *``: re-exported on purpose.
        self._starred: Dict[str, Set[str]] = {}

    def is_module(self, dotted: str) -> bool:
        return dotted in self.files

    def is_package(self, dotted: str) -> bool:
        return self.files.get(dotted, (None, ""))[1].endswith("/__init__.py")

    def tree(self, dotted: str) -> ast.Module:
        if dotted not in self._trees:
            archive, path = self.files[dotted]
            self._trees[dotted] = ast.parse(archive.read(path).decode("utf-8"))
        return self._trees[dotted]

    def contrib_modules(self) -> List[str]:
        # Imported in the order ``import tensorflow.contrib`` imports them, so that
        # import cycles resolve as they did in TF 1.15.
        self.exports(CONTRIB)
        return sorted(name for name, (_, path) in self.files.items()
                      if name.startswith(CONTRIB + ".") and not _SKIPPED_FILE.search(path))

    # -- what a module binds --------------------------------------------------------

    def exports(self, module: str) -> Dict[str, Origin]:
        """Every name ``module`` binds at top level, and where each is defined."""
        # A module imported again while it is being imported (an import cycle) gives
        # what it has bound so far, as Python does.
        if module in self._exports:
            return self._exports[module]
        bound: Dict[str, Origin] = {}
        if not self.is_module(module):
            return bound
        self._exports[module] = bound
        for statement in _top_level(self.tree(module).body):
            self._bind(module, statement, bound)
        return bound

    def _bind(self, module: str, statement: ast.stmt, bound: Dict[str, Origin]) -> None:
        if isinstance(statement, ast.ImportFrom):
            if statement.module == "__future__":
                return
            source = _absolute(module, statement, self.is_package(module))
            self._import(source)
            for alias in statement.names:
                if alias.name == "*" and _is_op_wrappers(source):
                    continue
                if alias.name == "*":
                    exported = self.exports(source)
                    for name in self.public(source):
                        bound[name] = _via(source, name, exported.get(name))
                        self._starred.setdefault(module, set()).add(name)
                else:
                    self._import(f"{source}.{alias.name}")
                    bound[alias.asname or alias.name] = _via(
                        source, alias.name, self.origin_of(source, alias.name))
        elif isinstance(statement, ast.Import):
            for alias in statement.names:
                self._import(alias.name)
                if alias.asname:
                    bound[alias.asname] = Origin(alias.name)
        elif isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            bound[statement.name] = Origin(module, statement.name)
        elif isinstance(statement, ast.Assign):
            value = _aliased(statement.value)
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    bound[target.id] = self._resolve_chain(module, value, bound) \
                        if value else Origin(module, target.id)

    def _import(self, module: str) -> None:
        """Run ``module`` and the packages above it, as an import statement does."""
        parts = module.split(".")
        for end in range(1, len(parts) + 1):
            self.exports(".".join(parts[:end]))

    def _resolve_chain(self, module: str, parts: List[str], bound: Dict[str, Origin]) -> Origin:
        origin = bound.get(parts[0], Origin(module, parts[0]))
        for part in parts[1:]:
            if origin.name is not None:
                return Origin(module, parts[-1])
            origin = self.origin_of(origin.module, part)
        return origin

    def origin_of(self, module: str, name: str) -> Origin:
        """Where ``module.name`` is defined (a submodule is its own origin)."""
        if self.is_module(f"{module}.{name}"):
            return Origin(f"{module}.{name}")
        return self.exports(module).get(name, Origin(module, name))

    def public(self, module: str) -> List[str]:
        """What ``from module import *`` gave in TF 1.15: ``__all__`` (the names in it
        that exist), else the public names that ``remove_undocumented`` left."""
        tree = self.tree(module) if self.is_module(module) else ast.Module([], [])
        exported = self.exports(module)
        listed = _all_list(tree, lambda name: self._all_of(module, name))
        if listed is not None:
            return [name for name in listed
                    if name in exported or self.is_module(f"{module}.{name}")]
        return self.attributes(module)

    def attributes(self, module: str) -> List[str]:
        """The public attributes ``module`` had once imported in TF 1.15."""
        names = [name for name in self.exports(module) if not name.startswith("_")]
        kept = self._documented(module, self.tree(module)) if self.is_module(module) else None
        return names if kept is None else [name for name in names if name in kept]

    def api(self, module: str) -> List[str]:
        """The names ``module`` offered as its API: what ``remove_undocumented`` kept;
        else ``attributes`` without what it imported for its own use. Those are
        reachable, but not its API: a core module (``slim.array_ops``), a module
        another module imported for itself that a star import swept along
        (``slim.contrib_variables``), and in a plain file what it imports by name
        from outside tf.contrib."""
        names = self.attributes(module)
        tree = self.tree(module)
        if _remove_undocumented_call(tree) is not None:
            return names
        exported = self.exports(module)
        starred = self._starred.get(module, set())
        names = [name for name in names if exported[name].name is not None or (
            exported[name].module.startswith(CONTRIB + ".") and (
                name not in starred or exported[name].module == f"{module}.{name}"))]
        if self.is_package(module):
            return names
        deliberate = starred | set(_all_list(tree, lambda name: self._all_of(module, name))
                                   or [])
        return [name for name in names
                if exported[name].module == module or name in deliberate
                or exported[name].module.startswith(CONTRIB + ".")]

    def _documented(self, module: str, tree: ast.Module) -> Optional[Set[str]]:
        call = _remove_undocumented_call(tree)
        if call is None:
            return None
        kept = set(_DOCUMENTED.findall(ast.get_docstring(tree) or ""))
        arguments = {keyword.arg: keyword.value for keyword in call.keywords}
        positional = ["module_name", "allowed_exception_list", "doc_string_modules"]
        arguments.update(zip(positional, call.args))
        allowed = arguments.get("allowed_exception_list")
        kept.update(_string_list(tree, allowed, lambda name: self._all_of(module, name)))
        for other in _elements(arguments.get("doc_string_modules")):
            parts = _aliased(other)
            if parts:
                origin = self._resolve_chain(module, parts, self.exports(module))
                if origin.name is None and self.is_module(origin.module):
                    kept.update(_DOCUMENTED.findall(
                        ast.get_docstring(self.tree(origin.module)) or ""))
        return kept

    def stars_from_outside(self, module: str) -> bool:
        """Whether ``module`` star-imports a module TensorFlow's tree does not have (1.15's
        contrib.tpu re-exported tensorflow_estimator's TPUEstimator that way)."""
        return any(isinstance(statement, ast.ImportFrom) and statement.module
                   and any(alias.name == "*" for alias in statement.names)
                   and not self.is_module(_absolute(module, statement, self.is_package(module)))
                   for statement in _top_level(self.tree(module).body))

    def _all_of(self, module: str, name: str) -> List[str]:
        """``__all__`` of the module ``module`` binds to ``name`` (contrib.gan keeps
        ``train.__all__``)."""
        origin = self.exports(module).get(name)
        if origin is None or origin.name is not None or not self.is_module(origin.module):
            return []
        return _all_list(self.tree(origin.module),
                         lambda inner: self._all_of(origin.module, inner)) or []

    # -- TensorFlow's own exports ---------------------------------------------------

    def v1_exports(self, module: str) -> Dict[str, Tuple[str, ...]]:
        """Name defined in ``module`` -> the tf.compat.v1 names tf_export gave it."""
        found: Dict[str, Tuple[str, ...]] = {}
        if not self.is_module(module):
            return found
        for statement in ast.walk(self.tree(module)):
            if isinstance(statement, (ast.FunctionDef, ast.ClassDef)):
                for decorator in statement.decorator_list:
                    names = _tf_export_v1(decorator)
                    if names:
                        found[statement.name] = names
            elif isinstance(statement, ast.Call) and isinstance(statement.func, ast.Call):
                # tf_export("name")(symbol)
                names = _tf_export_v1(statement.func)
                if names and statement.args and isinstance(statement.args[0], ast.Name):
                    found[statement.args[0].id] = names
            elif (isinstance(statement, ast.Call) and isinstance(statement.func, ast.Attribute)
                  and statement.func.attr == "export_constant"
                  and isinstance(statement.func.value, ast.Call)):
                names = _tf_export_v1(statement.func.value)
                constant = statement.args[1] if len(statement.args) > 1 else None
                if names and isinstance(constant, ast.Constant):
                    found[str(constant.value)] = names
        return found


def _python_files(wheel: "zipfile.ZipFile | InstalledTree"
                  ) -> Iterator[Tuple[str, Tuple[object, str]]]:
    """(dotted module, (wheel, path)) of each Python file of TensorFlow in ``wheel`` (1.15's
    under ``tensorflow_core/``, older ones' under ``tensorflow-1.x.data/purelib/``)."""
    for path in wheel.namelist():
        root = _WHEEL_ROOTS.match(path)
        if root and path.endswith(".py"):
            dotted = "tensorflow." + path[root.end():-3].replace("/", ".")
            yield dotted.removesuffix(".__init__"), (wheel, path)


def _contrib_package(dotted: str) -> str:
    """The top contrib package of a module (``tensorflow.contrib.gan`` of its files)."""
    return ".".join(dotted.split(".")[:3]) if dotted.startswith(CONTRIB + ".") else ""


def _is_op_wrappers(module: str) -> bool:
    """Generated op wrappers (``gen_math_ops``): star-importing them re-exports every raw
    op, which is no contrib API."""
    return module.rpartition(".")[2].startswith("gen_")


def _top_level(body: Sequence[ast.stmt]) -> Iterator[ast.stmt]:
    """Module-level statements, looking into ``if``/``try``/``with`` blocks (TF 1.15's
    contrib.distributions and bayesflow import everything inside ``with
    deprecation.silence():``)."""
    for statement in body:
        if isinstance(statement, (ast.If, ast.Try)):
            yield from _top_level(statement.body)
            for handler in getattr(statement, "handlers", []):
                yield from _top_level(handler.body)
            yield from _top_level(statement.orelse)
        elif isinstance(statement, ast.With):
            yield from _top_level(statement.body)
        else:
            yield statement


def _absolute(module: str, statement: ast.ImportFrom, is_package: bool) -> str:
    if not statement.level:
        return statement.module or ""
    base = module.split(".")
    drop = statement.level - 1 if is_package else statement.level
    base = base[:len(base) - drop] if drop else base
    return ".".join(base + ([statement.module] if statement.module else []))


def _aliased(value: ast.expr) -> Optional[List[str]]:
    parts: List[str] = []
    while isinstance(value, ast.Attribute):
        parts.append(value.attr)
        value = value.value
    if isinstance(value, ast.Name):
        return [value.id, *reversed(parts)]
    return None


def _elements(node: Optional[ast.expr]) -> List[ast.expr]:
    return list(node.elts) if isinstance(node, (ast.List, ast.Tuple)) else []


def _string_list(tree: ast.Module, node: Optional[ast.expr],
                 all_of: Callable[[str], List[str]] = lambda name: []) -> List[str]:
    """The strings of a list literal, or of the module-level list a name is bound to
    (with ``+`` and ``.extend`` of other literals, and ``module.__all__`` of a module it
    imported: ``all_of(name)``)."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        return _string_list(tree, node.left, all_of) + _string_list(tree, node.right, all_of)
    if isinstance(node, ast.Attribute) and node.attr == "__all__" \
            and isinstance(node.value, ast.Name):
        return all_of(node.value.id)
    if isinstance(node, ast.Name):
        strings: List[str] = []
        for statement in _top_level(tree.body):
            if isinstance(statement, ast.Assign) and any(
                    isinstance(t, ast.Name) and t.id == node.id for t in statement.targets):
                strings = _string_list(tree, statement.value, all_of)
            elif isinstance(statement, ast.AugAssign) and isinstance(statement.target, ast.Name) \
                    and statement.target.id == node.id:
                strings += _string_list(tree, statement.value, all_of)
            elif (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)
                  and _aliased(statement.value.func) in ([node.id, "extend"], [node.id, "append"])):
                for argument in statement.value.args:
                    strings += _string_list(tree, argument, all_of) if not isinstance(
                        argument, ast.Constant) else [str(argument.value)]
        return strings
    return [str(element.value) for element in _elements(node)
            if isinstance(element, ast.Constant)]


def _all_list(tree: ast.Module, all_of: Callable[[str], List[str]] = lambda name: []
              ) -> Optional[List[str]]:
    """The module's ``__all__`` (``make_all`` reads the ``@@`` lines), or None
    (``all_of``: as for ``_string_list``)."""
    for statement in _top_level(tree.body):
        if isinstance(statement, ast.Assign) and any(
                isinstance(t, ast.Name) and t.id == "__all__" for t in statement.targets):
            if isinstance(statement.value, ast.Call) and \
                    (_aliased(statement.value.func) or [""])[-1] == "make_all":
                return _DOCUMENTED.findall(ast.get_docstring(tree) or "")
            return _string_list(tree, ast.Name("__all__"), all_of)
    return None


def _remove_undocumented_call(tree: ast.Module) -> Optional[ast.Call]:
    """The module's ``remove_undocumented(__name__, ...)`` call (not one for another
    module: contrib.framework also prunes ``nest``)."""
    for statement in _top_level(tree.body):
        call = statement.value if isinstance(statement, ast.Expr) else None
        if isinstance(call, ast.Call) and call.args and \
                (_aliased(call.func) or [""])[-1] == "remove_undocumented" and \
                isinstance(call.args[0], ast.Name) and call.args[0].id == "__name__":
            return call
    return None


def _tf_export_v1(call: ast.expr) -> Tuple[str, ...]:
    """The v1 API names of a ``tf_export(...)`` call (its ``v1=`` list, else its names)."""
    if not isinstance(call, ast.Call) or (_aliased(call.func) or [""])[-1] != "tf_export":
        return ()
    for keyword in call.keywords:
        if keyword.arg == "v1":
            return tuple(str(e.value) for e in _elements(keyword.value)
                         if isinstance(e, ast.Constant))
    return tuple(str(a.value) for a in call.args if isinstance(a, ast.Constant))


# -- the TensorFlow 2.21 side ----------------------------------------------------------

def in_compat_v1(name: str) -> bool:
    """True if TF 2.21's tf.compat.v1 has ``name`` (tf_api.txt; members of modules listed
    by name only, such as the Keras-backed ``nn.rnn_cell``, count when the module does)."""
    api = tf_api()
    return TF1 in (api.kind(name) or "") and api.missing_from_v1(name) is None


class TfSlim:
    """The installed tf_slim: its modules, and the attribute paths to each object."""

    def __init__(self) -> None:
        import slim_ext  # noqa: F401  (what ported code imports with tf_slim)
        import tf_slim

        # The attribute paths ported code can use after ``import tf_slim``, taken
        # before importing the other submodules adds (and rebinds) attributes.
        self._paths = self._paths_to(tf_slim)
        self.modules: Dict[str, types.ModuleType] = {TF_SLIM: tf_slim}
        for info in pkgutil.walk_packages(tf_slim.__path__, TF_SLIM + "."):
            if not info.name.endswith("_test"):
                self.modules[info.name] = importlib.import_module(info.name)

    def _paths_to(self, root: object) -> Dict[int, List[str]]:
        """id(object) -> every ``tf_slim.a.b`` attribute path to it, shortest first."""
        paths: Dict[int, List[str]] = {}
        queue = [(root, TF_SLIM)]
        seen = set()
        while queue:
            module, path = queue.pop(0)
            if id(module) in seen:
                continue
            seen.add(id(module))
            for name, member in sorted(vars(module).items()):
                if name.startswith("_"):
                    continue
                paths.setdefault(id(member), []).append(f"{path}.{name}")
                if isinstance(member, types.ModuleType) and \
                        member.__name__.startswith(TF_SLIM + "."):
                    queue.append((member, f"{path}.{name}"))
        return paths

    def is_package(self, module: str) -> bool:
        return hasattr(self.modules[module], "__path__")

    def names(self, module: str) -> Set[str]:
        return {name for name in vars(self.modules[module]) if not name.startswith("_")}

    def reaches(self, package: str, name: str) -> bool:
        """True if ``package.name`` is an attribute or a submodule of it."""
        return hasattr(self.modules[package], name) or f"{package}.{name}" in self.modules

    def defined(self, module: str) -> Set[str]:
        """The functions and classes ``module`` defines itself."""
        return {name for name, member in vars(self.modules[module]).items()
                if getattr(member, "__module__", None) == module}

    def home(self, module: str, name: str, wanted: str) -> Optional[Tuple[str, str]]:
        """(package:attribute path, import module) of ``module.name``, or None.

        Of the paths to it, the shortest one that ends in ``wanted`` (the name the
        contrib code used: ``conv2d``, not its alias ``convolution2d``), else in
        ``name``, else the shortest.
        """
        member = vars(self.modules[module]).get(name)
        if member is None:
            return None
        paths = self._paths.get(id(member))
        if paths is None:
            # Not reachable from ``tf_slim`` by attributes: imported from its module.
            return f"{module}:{name}", ""
        path = next((p for p in paths if p.endswith("." + wanted)),
                    next((p for p in paths if p.endswith("." + name)), paths[0]))
        parent, _, last = path.rpartition(".")
        importable = parent in self.modules and \
            getattr(self.modules[parent], last, None) is member
        attribute = path[len(TF_SLIM) + 1:]
        return f"{TF_SLIM}:{attribute}", "" if importable else module


def _module_key(module: str) -> str:
    return module[len(CONTRIB) + 1:]


def module_homes(tree: Tf1Tree, slim: TfSlim) -> Dict[str, str]:
    """Contrib file module -> the tf_slim module it became: the namesake whose path is
    most like its own (a file before a package: contrib/slim/nets.py became the package
    tf_slim/nets/), else the file that holds most of its names."""
    files = [m for m in slim.modules if not slim.is_package(m)]
    homes: Dict[str, str] = {}
    for module in tree.contrib_modules():
        if tree.is_package(module) or _module_key(module).split(".")[0] not in CUT_INTO_TF_SLIM:
            continue
        names = set(tree.api(module))
        parts = set(module.split("."))
        basename = module.rpartition(".")[2]
        candidates = sorted(
            (m for m in slim.modules if m.rpartition(".")[2] == basename),
            # summaries.py is tf_slim.summaries for contrib.slim and
            # tf_slim.layers.summaries for contrib.layers.
            key=lambda m: (slim.is_package(m), len(set(m.split(".")) - parts)
                           - len(parts & set(m.split(".")))))
        if not candidates and names:
            best = max(files, key=lambda m: len(names & slim.defined(m)))
            if len(names & slim.defined(best)) * 2 > len(names):
                candidates = [best]
        if candidates and names & slim.names(candidates[0]):
            homes[module] = candidates[0]
    return homes


def symbol_home(tree: Tf1Tree, slim: TfSlim, homes: Dict[str, str], origin: Origin,
                wanted: str) -> Tuple[str, str]:
    """(home, import module) for the symbol defined at ``origin``; home GONE if none."""
    assert origin.name is not None
    for module, name in origin.bindings():
        if module in homes:
            found = slim.home(homes[module], name, wanted)
            if found is not None:
                return found
    if origin.module.startswith(CORE):
        # (contrib files carry tf_export lines copied from core; only core's count.)
        for name in tree.v1_exports(origin.module).get(origin.name, ()):
            if in_compat_v1(name):
                return f"{COMPAT_V1}:{name}", ""
    return GONE, ""


def package_homes(tree: Tf1Tree, slim: TfSlim, file_homes: Dict[str, str],
                  table: Dict[str, Tuple[str, str, str]]) -> Dict[str, str]:
    """Contrib package -> the tf_slim package that has every name of it that has a home
    (contrib.losses -> tf_slim.losses; contrib.slim -> tf_slim itself)."""
    homes: Dict[str, str] = {}
    for module in tree.contrib_modules():
        key = _module_key(module)
        if not tree.is_package(module) or key.split(".")[0] not in CUT_INTO_TF_SLIM:
            continue
        basename = key.rpartition(".")[2]
        parts = set(module.split("."))
        candidates = sorted(
            (m for m in slim.modules
             if m.rpartition(".")[2] == basename or (m == TF_SLIM and basename == "slim")),
            key=lambda m: (len(set(m.split(".")) - parts) - len(parts & set(m.split("."))),
                           not slim.is_package(m)))
        if not candidates:
            continue
        housed = [name for name in tree.api(module) if table[f"{key}.{name}"][1] != GONE]
        # Its files went into that package too (contrib/layers/python/ops/ did not
        # become tf_slim/ops/).
        files = [home for inner, home in file_homes.items() if inner.rpartition(".")[0] == module]
        if (housed or files) and all(slim.reaches(candidates[0], name) for name in housed) and all(
                home == candidates[0] or home.startswith(candidates[0] + ".")
                for home in files):
            homes[module] = candidates[0]
    return homes


def mirrored_rows(tree: Tf1Tree, generated: Dict[str, Tuple[str, str, str]]
                  ) -> Dict[str, Tuple[str, str, str]]:
    """The names of each contrib module with a mirror (MODULE_HOMES), each with its home
    in the mirror, or gone where the mirror does not have it. A successor's names are
    written as its users spell them (PUBLIC_PATHS); in a CORE_FIRST mirror, a name whose
    ``generated`` home is a core TensorFlow 2 twin keeps it."""
    from slimport.tables.contrib_table import CORE_FIRST, MODULE_HOMES, PUBLIC_PATHS

    table: Dict[str, Tuple[str, str, str]] = {}
    for key, mirror in sorted(MODULE_HOMES.items()):
        # A package's name for a module elsewhere (contrib.gan.losses is
        # gan/python/losses/): the names of the module it stands for.
        parent, _, last = f"{CONTRIB}.{key}".rpartition(".")
        origin = tree.origin_of(parent, last)
        if origin.name is not None:
            # A module bound on its package only by Python importing it (TF 1.15's
            # learn.python.learn.run_config is estimators/run_config.py, bound there by
            # an import in estimators/__init__ and starred up): the reader does not
            # follow that binding, and the package's names are not the module's. Not
            # listed: every name of it goes to the mirror as it is.
            continue
        module = origin.module
        if not tree.is_module(module):
            continue
        provided = importlib.import_module(mirror)
        package, path = PUBLIC_PATHS.get(mirror, (mirror, ""))
        # Its API, what else it bound that the mirror has too (tpu_estimator's
        # TPUEstimatorSpec, imported from core), and the private names a mirror of the
        # module keeps (run_config's uid list; not a successor's: its private names are
        # its own).
        api = tree.api(module)
        if tree.stars_from_outside(module):
            # ``from tensorflow_estimator...tpu_estimator import *``: TF 1.15's module had
            # the public names of the package it re-exported, which is the mirror.
            api = sorted({*api, *(name for name, value in vars(provided).items()
                                  if not name.startswith("_")
                                  and not isinstance(value, types.ModuleType))})
        bound = [*tree.attributes(module), *(name for name in tree.exports(module)
                                             if name.startswith("_") and mirror not in
                                             PUBLIC_PATHS)]
        kept = [name for name in bound
                if name not in api and not name.startswith("__") and hasattr(provided, name)
                and tree.origin_of(module, name).name is not None]
        for name in [*api, *kept]:
            if f"{key}.{name}" in MODULE_HOMES:
                continue  # a mirrored submodule: its own entry
            kind = "module" if tree.origin_of(module, name).name is None else "symbol"
            core = generated.get(f"{key}.{name}", ("", GONE, ""))
            if kind == "symbol" and key.split(".")[0] in CORE_FIRST \
                    and core[1].startswith(COMPAT_V1 + ":"):
                table[f"{key}.{name}"] = core
                continue
            if kind == "symbol" and hasattr(provided, name):
                # ``from`` imports name the module itself when the public path is not one.
                table[f"{key}.{name}"] = (kind, f"{package}:{path + '.' if path else ''}{name}",
                                          mirror if path else "")
            else:
                table[f"{key}.{name}"] = (kind, GONE, "")
    return table


def read_resolved(path: Path) -> List[Tuple[str, str, str]]:
    """The lines of tools/tf1_contrib_paths.py's output: (path, kind, what)."""
    return [tuple(line.split("\t"))  # type: ignore[misc]
            for line in path.read_text(encoding="utf-8").splitlines() if line.count("\t") == 2]


def resolved_rows(tree: Tf1Tree, slim: TfSlim, homes: Dict[str, str],
                  table: Dict[str, Tuple[str, str, str]],
                  resolved: Sequence[Tuple[str, str, str]]) -> Dict[str, Tuple[str, str, str]]:
    """The paths TensorFlow 1.x resolved that reading its sources did not list.

    A module reached under another path (``layers.summaries`` is
    ``layers.python.layers.summaries``) is a line naming the module it stands for, with
    that module's home; a class or function is a line with its home (the tf_slim or
    tf.compat.v1 name of where it is defined) when it has one. Names inside a module
    reached under another path are looked up through it, names of a mirrored module
    are the mirror's (``mirrored_rows``), and the rest stay unlisted: the rewrite
    reports them.
    """
    from slimport.tables.contrib_table import MODULE_HOMES

    added: Dict[str, Tuple[str, str, str]] = {}
    aliases = {path for path, kind, what in resolved
               if kind == "module" and _module_key(what) != path}
    for path, kind, what in resolved:
        if path in table or path in MODULE_HOMES or path.split(".")[0] == "slim":
            # (contrib.slim is ported by tf_slim's own layout: contrib_slim.)
            continue
        parent = path.rpartition(".")[0]
        if kind == "module":
            real = _module_key(what)
            home = MODULE_HOMES.get(real) or table.get(real, ("", GONE, ""))[1]
            added[path] = (_module_kind(tree, what) if tree.is_module(what) else "module",
                           home, real if real != path else "")
        elif parent not in aliases and parent not in MODULE_HOMES:
            module, _, name = what.partition(":")
            if _is_op_wrappers(module):
                continue  # a raw op a module star-imported: no contrib API (``_bind``)
            home, import_module = symbol_home(tree, slim, homes, Origin(module, name), name)
            if home != GONE:
                added[path] = ("symbol", home, import_module)
    return added


def rows(tree: Tf1Tree, slim: TfSlim, resolved: Sequence[Tuple[str, str, str]] = ()
         ) -> List[Tuple[str, str, str, str]]:
    """Every line of the table, sorted by name.

    A module that is gone with every name in it and below it is one line: the
    codemod looks a name up by its longest listed prefix; a mirrored module lists
    every name it had (``mirrored_rows``); ``resolved`` (tools/tf1_contrib_paths.py's
    walk of TensorFlow 1.x) adds the paths only running it shows (``resolved_rows``).
    """
    homes = module_homes(tree, slim)
    table: Dict[str, Tuple[str, str, str]] = {}
    for module in tree.contrib_modules():
        for name in tree.api(module):
            origin = _via(module, name, tree.origin_of(module, name))
            if origin.name is None:
                continue
            # An import of a moved file module keeps its uses: a name its new module
            # lacks is gone for them, whatever its home elsewhere.
            lacking = module in homes and not slim.reaches(homes[module], name)
            table[f"{_module_key(module)}.{name}"] = ("symbol", GONE, "") if lacking \
                else ("symbol", *symbol_home(tree, slim, homes, origin, name))
    homes.update(package_homes(tree, slim, homes, {**table, **{
        f"{_module_key(m)}.{n}": ("module", homes.get(tree.origin_of(m, n).module, GONE), "")
        for m in tree.contrib_modules() for n in tree.api(m)
        if tree.origin_of(m, n).name is None}}))
    for module in tree.contrib_modules():
        table[_module_key(module)] = (_module_kind(tree, module), homes.get(module, GONE), "")
        for name in tree.api(module):
            origin = tree.origin_of(module, name)
            if origin.name is None:
                # A module under another name (contrib.losses.metric_learning is
                # losses/python/metric_learning/): the last column says which.
                key = f"{_module_key(module)}.{name}"
                same = _module_key(origin.module) if origin.module.startswith(CONTRIB + ".") \
                    and _module_key(origin.module) != key else ""
                table.setdefault(key, (_module_kind(tree, origin.module),
                                       homes.get(origin.module, GONE), same))
    mirrored = mirrored_rows(tree, table)
    table.update(mirrored)
    table.update(resolved_rows(tree, slim, homes, table, resolved))
    alive = {prefix for key, (_, home, _) in table.items() if home != GONE or key in mirrored
             for prefix in _prefixes(key)}
    return [(key, kind, home, import_module)
            for key, (kind, home, import_module) in sorted(table.items())
            if key in alive or key.rpartition(".")[0] in alive or "." not in key]


def _module_kind(tree: Tf1Tree, module: str) -> str:
    return "package" if tree.is_package(module) else "module"


def _prefixes(key: str) -> Iterator[str]:
    parts = key.split(".")
    for end in range(1, len(parts) + 1):
        yield ".".join(parts[:end])


def main(argv: Optional[Sequence[str]] = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("wheel", help="tensorflow(-cpu) 1.15 wheel, or the site-packages "
                        "directory of an environment that has it (read, never run)")
    parser.add_argument("--older", type=Path, help="a TensorFlow 1.14 wheel: the contrib "
                        "packages 1.15 dropped (gan) are read from it")
    parser.add_argument("--resolved", type=Path, help="tools/tf1_contrib_paths.py's output "
                        "(run with TensorFlow 1.15): the paths only running it shows")
    parser.add_argument("--output", type=Path, default=OUTPUT)
    args = parser.parse_args(argv)
    import tensorflow as tf

    source = Path(args.wheel)
    tree = Tf1Tree(InstalledTree(source) if source.is_dir() else zipfile.ZipFile(source),
                   zipfile.ZipFile(args.older) if args.older else None)
    slim = TfSlim()
    lines = [f"# tf.contrib names of {_tf1_name(source)} and their homes on "
             f"TensorFlow {tf.__version__} with tf_slim {_tf_slim_version()}; "
             "generated by tools/gen_contrib_table.py"]
    resolved = read_resolved(args.resolved) if args.resolved else []
    lines += ["\t".join(row).rstrip("\t") for row in rows(tree, slim, resolved)]
    args.output.write_text("\n".join(lines) + "\n", encoding="utf-8")
    print(f"wrote {len(lines) - 1} names to {args.output}", file=sys.stderr)
    return 0


def _tf1_name(source: Path) -> str:
    """``tensorflow_cpu-1.15.0`` of a wheel, the distribution of an installed tree."""
    if not source.is_dir():
        return source.name.split("-cp")[0]
    found = sorted(source.glob("tensorflow*-1.*.dist-info"))
    return found[0].name.removesuffix(".dist-info") if found else "tensorflow 1.15"


def _tf_slim_version() -> str:
    from importlib.metadata import version

    return version("tf-slim")


if __name__ == "__main__":
    sys.exit(main())
