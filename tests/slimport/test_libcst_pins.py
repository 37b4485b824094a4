"""The private libcst parts slimport leans on are the ones it was written against.

slimport overrides or reuses a few private pieces of libcst for speed (the skeleton
speed-up, see slimport/codemods/base.py and _lines.py); pyproject.toml pins libcst to
the 1.9 series for that reason. A libcst release that changes one of them fails here,
naming what to re-check, instead of changing what the rewrite does silently.
"""
from __future__ import annotations

import hashlib
import inspect
import subprocess
import sys
from typing import List

import libcst
import pytest
from libcst._nodes.base import CSTNode
from libcst._nodes.internal import CodegenState
from libcst.codemod import Codemod, CodemodCommand
from libcst.matchers import _decorators
from libcst.matchers._visitors import MatcherDecoratableTransformer, MatcherDecoratableVisitor

from slimport.codemods import matcher_setup
from tests.slimport.conftest import REPO_ROOT

# (what, the object, sha256 of its source, first 16 hex digits; why slimport cares)
PINNED = [
    ("Codemod._handle_metadata_reference", Codemod._handle_metadata_reference,
     "47b2294017a8e978", "SlimportCodemod overrides it to skip the tree's deep copy"),
    ("MatcherDecoratableTransformer.__init__", MatcherDecoratableTransformer.__init__,
     "6a55ea1fe2f036a5", "SlimportCodemod skips it and sets _extra_visit_funcs itself"),
    ("MatcherDecoratableTransformer.on_visit", MatcherDecoratableTransformer.on_visit,
     "839a8ed65aa1092a", "SlimportCodemod replaces it with CSTTransformer's"),
    ("MatcherDecoratableTransformer.on_leave", MatcherDecoratableTransformer.on_leave,
     "a39f66fe515f9c12", "SlimportCodemod replaces it with CSTTransformer's"),
    ("CodegenState", CodegenState, "071347990aadf66a",
     "_lines.lines_of subclasses it to find finding lines"),
    ("CSTNode._codegen", CSTNode._codegen, "671900d832a8e7fa",
     "_lines.lines_of drives it with that subclass"),
    ("CodemodCommand._instantiate_and_run", CodemodCommand._instantiate_and_run,
     "a240a9825bff3bb4", "SlimportCodemod.transform_module runs RemoveImportsVisitor with it"),
    ("_gather_constructed_visit_funcs", matcher_setup.wrapped("_gather_constructed_visit_funcs"),
     "ad3e82129254345a", "_matcher_setup searches a class once when it finds nothing"),
    ("_gather_constructed_leave_funcs", matcher_setup.wrapped("_gather_constructed_leave_funcs"),
     "76ab36b58f1e84e7", "_matcher_setup searches a class once when it finds nothing"),
    ("_gather_matchers", matcher_setup.wrapped("_gather_matchers"),
     "71d18b2dd0161eae", "_matcher_setup searches a class once when it finds nothing"),
    ("MatcherDecoratableVisitor.__init__", MatcherDecoratableVisitor.__init__,
     "474a86cbe189a4fd", "it calls the searches _matcher_setup wraps, by module name"),
]


@pytest.mark.parametrize("what, obj, digest, why", PINNED, ids=[row[0] for row in PINNED])
def test_private_libcst_piece_is_unchanged(what: str, obj: object, digest: str,
                                           why: str) -> None:
    got = hashlib.sha256(inspect.getsource(obj).encode()).hexdigest()[:16]  # type: ignore[arg-type]
    assert got == digest, (
        f"libcst {libcst.__version__ if hasattr(libcst, '__version__') else ''} changed "
        f"{what} ({why}): re-check that use, then update the digest and the pin")


def test_matcher_decorator_markers_are_the_ones_checked_for() -> None:
    assert (_decorators.VISIT_POSITIVE_MATCHER_ATTR, _decorators.CONSTRUCTED_LEAVE_MATCHER_ATTR) \
        == ("_call_if_inside_matcher", "_leave_matcher")


def test_matcher_setup_is_searched_once_only_for_classes_without_decorators() -> None:
    import libcst.matchers as m

    class Plain(MatcherDecoratableTransformer):
        def visit_Name(self, node: libcst.Name) -> None:
            pass

    class Decorated(MatcherDecoratableTransformer):
        @m.visit(m.Name())
        def on_a_name(self, node: libcst.Name) -> None:
            self.seen.append(node.value)

    for _ in range(2):
        assert Plain()._extra_visit_funcs == {}
        first, second = Plain(), Plain()
        assert first._extra_visit_funcs is not second._extra_visit_funcs
        decorated = Decorated()
        decorated.seen = []
        [funcs] = decorated._extra_visit_funcs.values()
        assert funcs[0].__self__ is decorated
        libcst.parse_module("a = b\n").visit(decorated)
        assert decorated.seen == ["a", "b"]


def _printed_by_new_process(program: str) -> List[str]:
    """The lines ``program`` prints, run by a new Python (the import is the point)."""
    ran = subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                         timeout=120, check=False, cwd=REPO_ROOT)
    assert ran.returncode == 0, ran.stderr
    return ran.stdout.split("\n")


def test_slimport_imports_libcst_matchers_without_signature_docstrings() -> None:
    """The import of libcst.codemod's matchers skips the ``__doc__`` dataclasses builds
    from each class's signature (a third of the import), and only that: in a new process
    importing the codemods, a matcher class's docstring is its name, ``dataclasses``
    sees the real ``inspect`` again, and libcst's matcher visitors hold the real
    ``signature`` they check decorated methods with."""
    program = (
        "import dataclasses, inspect\n"
        "import slimport.codemods\n"
        "import libcst.matchers as m\n"
        "from libcst.matchers import _visitors\n"
        "print(m.Name.__doc__, m.Import.__doc__, dataclasses.inspect is inspect,\n"
        "      _visitors.signature is inspect.signature)\n"
        "@dataclasses.dataclass\n"
        "class Later:\n"
        "    size: int\n"
        "print(Later.__doc__)\n")
    assert _printed_by_new_process(program)[:2] == ["Name Import True True", "Later(size: int)"]


def test_matchers_frozen_methods_built_without_compiling_do_what_dataclasses_do() -> None:
    """On Python 3.10-3.12 the matcher classes' ``__setattr__``, ``__delattr__`` and
    ``__repr__`` are closures (slimport.codemods.matcher_setup), not compiled source: they
    refuse and say what a frozen dataclass's do, the repr is the dataclass's, and
    ``dataclasses`` has its own builders back for the classes after."""
    program = (
        "import dataclasses, sys\n"
        "builders = (dataclasses._frozen_get_del_attr, getattr(dataclasses, '_repr_fn', None))\n"
        "import slimport.codemods\n"
        "from slimport.codemods import matcher_setup\n"
        "import libcst.matchers as m\n"
        "print(builders == (dataclasses._frozen_get_del_attr,\n"
        "                   getattr(dataclasses, '_repr_fn', None)))\n"
        "print(m.Name.__setattr__.__code__.co_filename == matcher_setup.__file__,\n"
        "      sys.version_info < (3, 13))\n"
        "@dataclasses.dataclass(frozen=True)\n"
        "class Reference:\n"
        "    value: str\n"
        "def refusals(thing):\n"
        "    said = []\n"
        "    for act in (lambda: setattr(thing, 'value', 'y'), lambda: delattr(thing, 'value'),\n"
        "                lambda: setattr(thing, 'other', 1), lambda: delattr(thing, 'other')):\n"
        "        try:\n"
        "            act()\n"
        "        except dataclasses.FrozenInstanceError as error:\n"
        "            said.append(str(error))\n"
        "    return said\n"
        "name = m.Name('x')\n"
        "print(refusals(name) == refusals(Reference('x')), len(refusals(name)))\n"
        "fields = [field for field in dataclasses.fields(name) if field.repr]\n"
        "print(repr(name) == 'Name(' + ', '.join(\n"
        "    f'{field.name}={getattr(name, field.name)!r}' for field in fields) + ')',\n"
        "    repr(m.Call(func=m.Name('f'))).startswith(\"Call(func=Name(value='f', \"))\n")
    closures = sys.version_info < (3, 13)
    assert _printed_by_new_process(program)[:4] == [
        "True", f"{closures} {closures}", "True 4", "True True"]
