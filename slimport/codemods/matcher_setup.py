"""libcst's matcher set-up, searched once per class instead of once per instance.

``MatcherDecoratableTransformer`` and ``MatcherDecoratableVisitor`` look, when each is
made, at every attribute of the new instance for matcher decorators (``@m.visit``,
``@m.call_if_inside``, ...): a few hundred ``getattr`` calls, about 4 ms. libcst's
AddImportsVisitor, GatherImportsVisitor and RemoveImportsVisitor, which slimport's
codemods run for every import they add or drop, use no such decorator, so the search
finds nothing every time; on a tree it was a sixth of the rewrite's CPU time.
``install`` wraps libcst's three search functions so that a class found without any
decorated method is not searched again (its instances get a new empty dict, as
before); a class with one is searched every time, as before, since the result holds
bound methods. Decorators are set when a class is defined, so the answer per class
cannot change. tests/slimport/test_libcst_pins.py pins the functions wrapped.

Importing ``libcst.matchers`` is the largest fixed cost of a run after libcst itself
(about 0.18 s: every run that ports a file pays it, libcst.codemod's visitors need it):
two hundred dataclasses without a docstring, for each of which ``dataclasses`` builds
``__doc__`` from ``str(inspect.signature(cls))``, formatting every annotation, unions of
matcher types thousands of characters long (a third of the import). This module imports
libcst.codemod with ``dataclasses`` seeing an ``inspect`` whose ``signature`` is empty:
each such class's ``__doc__`` is its name (what Python 3.11+ gives a class it cannot
sign), which nothing reads. Each of these classes is frozen, so ``dataclasses`` also
writes out, compiles and runs the source of its ``__setattr__``, ``__delattr__`` and
``__repr__`` (a third of what was left, on Python 3.10-3.12; 3.13 compiles a class's
methods at once): meanwhile those three are closures over the class and its field names
instead, which do and say what the compiled ones do (tests/slimport/test_libcst_pins.py
compares them). It must be imported before anything imports libcst.codemod or
libcst.matchers (``slimport.codemods.base`` imports it first); imported later, it
changes nothing.
"""
from __future__ import annotations

import dataclasses
import inspect
import types
from contextlib import contextmanager
from typing import Any, Callable, Dict, Iterator, List, Set, Tuple


def _no_signature(*args: Any, **kwargs: Any) -> str:
    """An empty signature text: ``dataclasses`` makes the docstring the class's name (on
    Python 3.10 it calls ``signature`` with no ``except``: raising would fail the import)."""
    return ""


def _frozen_attribute_methods(cls: type, fields: List[dataclasses.Field],
                             module_globals: Dict[str, Any]) -> Tuple[Callable, Callable]:
    """``dataclasses._frozen_get_del_attr`` (Python 3.10-3.12), without compiling source:
    ``__setattr__`` and ``__delattr__`` refuse a field of ``cls`` and anything on an
    instance of ``cls`` itself, with the same errors."""
    names = frozenset(field.name for field in fields)

    def __setattr__(self: Any, name: str, value: Any) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")
        super(cls, self).__setattr__(name, value)

    def __delattr__(self: Any, name: str) -> None:
        if type(self) is cls or name in names:
            raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")
        super(cls, self).__delattr__(name)

    return __setattr__, __delattr__


def _repr_method(fields: List[dataclasses.Field], module_globals: Dict[str, Any]) -> Callable:
    """``dataclasses._repr_fn`` (Python 3.10-3.12), without compiling source: the class's
    qualified name and each field's ``name=repr(value)``, guarded against recursion as
    ``dataclasses`` guards it."""
    names = tuple(field.name for field in fields)

    def __repr__(self: Any) -> str:
        return self.__class__.__qualname__ + "(" + ", ".join(
            f"{name}={getattr(self, name)!r}" for name in names) + ")"

    return dataclasses._recursive_repr(__repr__)  # type: ignore[attr-defined]


# dataclasses' function -> the parameters it has where ours does the same (3.13 builds
# a class's methods another way, with other parameters: it keeps its own).
_BUILDERS = {"_frozen_get_del_attr": (_frozen_attribute_methods, ["cls", "fields", "globals"]),
             "_repr_fn": (_repr_method, ["fields", "globals"])}


@contextmanager
def _quick_dataclasses() -> Iterator[None]:
    """``dataclasses`` meanwhile sees an ``inspect`` without ``signature`` (and only
    ``dataclasses``: a module that binds ``inspect.signature`` meanwhile gets the real one),
    and builds ``__setattr__``, ``__delattr__`` and ``__repr__`` without compiling them."""
    unsigned = types.SimpleNamespace(**vars(inspect))
    unsigned.signature = _no_signature
    replaced = {name: getattr(dataclasses, name) for name, (_, parameters) in _BUILDERS.items()
                if list(inspect.signature(getattr(dataclasses, name, None) or _no_signature)
                        .parameters) == parameters}
    dataclasses.inspect = unsigned  # type: ignore[attr-defined]
    for name in replaced:
        setattr(dataclasses, name, _BUILDERS[name][0])
    try:
        yield
    finally:
        dataclasses.inspect = inspect  # type: ignore[attr-defined]
        for name, original in replaced.items():
            setattr(dataclasses, name, original)


with _quick_dataclasses():
    import libcst.codemod  # noqa: F401  libcst.matchers and the codemod visitors

from libcst.matchers import _visitors  # noqa: E402

# The search functions MatcherDecoratable{Transformer,Visitor} call by module name.
SEARCHES = ("_gather_constructed_visit_funcs", "_gather_constructed_leave_funcs",
            "_gather_matchers")
# (search, class) pairs the search found nothing for.
_NOTHING_FOUND: Set[Tuple[str, type]] = set()


def _once_per_class(name: str, search: Callable[[Any], Dict[Any, Any]]
                    ) -> Callable[[Any], Dict[Any, Any]]:
    def searched(obj: Any) -> Dict[Any, Any]:
        if (name, type(obj)) in _NOTHING_FOUND:
            return {}
        found = search(obj)
        if not found:
            _NOTHING_FOUND.add((name, type(obj)))
        return found

    searched.wrapped = search  # type: ignore[attr-defined]
    return searched


def wrapped(name: str) -> Callable[[Any], Dict[Any, Any]]:
    """libcst's own search ``name``, wrapped or not (for the pins test).

    Args:
      name: one of ``SEARCHES``.

    Returns:
      The function libcst defines.
    """
    search = getattr(_visitors, name)
    return getattr(search, "wrapped", search)


def install() -> None:
    """Wrap libcst's searches (once per process; calling it again changes nothing)."""
    for name in SEARCHES:
        search = getattr(_visitors, name)
        if not hasattr(search, "wrapped"):
            setattr(_visitors, name, _once_per_class(name, search))
