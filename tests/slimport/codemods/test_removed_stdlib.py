"""removed_stdlib: inspect.getargspec and json.encoder.FLOAT_REPR ported; StringIO reported."""
from __future__ import annotations

import functools

import pytest

from slimport.codemods.removed_stdlib import RemovedStdlibCommand
from tests.slimport.codemods._helpers import IdempotentCodemodTest, run_codemod

run = functools.partial(run_codemod, RemovedStdlibCommand)


class TestRemovedStdlib(IdempotentCodemodTest):
    TRANSFORM = RemovedStdlibCommand

    def test_getargspec_fields_both_results_have(self) -> None:
        before = """
            import inspect

            takes_cache = 'cache' in inspect.getargspec(func).args
            defaults = inspect.getargspec(func)[3]
            has_kwargs = inspect.getargspec(func).keywords is not None
        """
        after = """
            import inspect

            takes_cache = 'cache' in inspect.getfullargspec(func).args
            defaults = inspect.getfullargspec(func)[3]
            has_kwargs = inspect.getfullargspec(func).varkw is not None
        """
        self.assertCodemod(before, after)

    def test_float_repr_reads_are_guarded(self) -> None:
        before = """
            import json
            from json import encoder

            original = encoder.FLOAT_REPR
            also = json.encoder.FLOAT_REPR
        """
        after = """
            import json
            from json import encoder

            original = getattr(encoder, 'FLOAT_REPR', float.__repr__)
            also = getattr(json.encoder, 'FLOAT_REPR', float.__repr__)
        """
        self.assertCodemod(before, after)


NOOP = [
    "import inspect\nspec = inspect.getfullargspec(f).args\n",
    "import mylib as inspect\nnames = inspect.getargspec(f).args\n",
    "import json\ntext = json.dumps(1.5)\nencoder = None\nr = encoder.FLOAT_REPR\n",
    "import io\nbuffer = io.BytesIO()\n",
    # TF2 code's leftovers are its authors' business.
    "import inspect\nimport tensorflow as tf\nx = tf.image.resize(y, (2, 2), antialias=True)\n"
    "names = inspect.getargspec(f).args\n",
]


@pytest.mark.parametrize("source", NOOP)
def test_noop_sources_stay_byte_identical(source: str) -> None:
    assert run(source) == (source, [])


@pytest.mark.parametrize("source, words", [
    ("import inspect\nargs, varargs, keywords, defaults = inspect.getargspec(f)\n",
     "seven fields"),
    ("import inspect\nspec = inspect.getargspec(f)\n", "seven fields"),
    ("from inspect import getargspec\n", "removed in Python 3.11"),
    ("from json import encoder\nencoder.FLOAT_REPR = lambda o: format(o, '.2f')\n",
     "no effect"),
    ("import StringIO\nbuffer = StringIO.StringIO()\n", "io.BytesIO"),
    ("import cStringIO as io_\n", "io.BytesIO"),
    ("from StringIO import StringIO\n", "io.BytesIO"),
])
def test_what_has_no_certain_port_is_reported_and_left(source: str, words: str) -> None:
    code, findings = run(source)
    assert code == source
    [finding] = findings
    assert finding.kind == "attention" and words in finding.message + finding.fix


def test_a_float_repr_save_and_restore_keeps_running_on_python_3() -> None:
    source = ("from json import encoder\noriginal = encoder.FLOAT_REPR\n"
              "encoder.FLOAT_REPR = lambda o: format(o, '.2f')\nencoder.FLOAT_REPR = original\n")
    code, findings = run(source)
    assert [f.kind for f in findings] == ["edit", "attention", "attention"]
    with pytest.raises(AttributeError):
        exec(compile(source, "original.py", "exec"), {})
    namespace: dict = {}
    try:
        exec(compile(code, "ported.py", "exec"), namespace)
    finally:
        import json.encoder  # pylint: disable=import-outside-toplevel
        vars(json.encoder).pop("FLOAT_REPR", None)  # the program set it in this process
    assert namespace["original"] is float.__repr__
