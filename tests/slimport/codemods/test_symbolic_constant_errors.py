"""symbolic_constant_errors leaves TensorFlow's own package alone: its modules reach
TensorFlow through its private modules too, and are TF 2 code (the cases table has the
copies elsewhere that it ports)."""
from pathlib import Path

from slimport import engine
from slimport.codemods import CODEMODS

from slimport.codemods.symbolic_constant_errors import SymbolicConstantErrorsCommand
from tests.slimport.codemods._helpers import run_codemod
from tests.slimport.codemods.cases import source_text
from tests.slimport.codemods.cases.symbolic_constant_errors import INTERNALS


def _module_in(tmp_path: Path, package: str) -> Path:
    folder = tmp_path / package / "python" / "ops"
    folder.mkdir(parents=True)
    for level in (tmp_path / package, tmp_path / package / "python", folder):
        (level / "__init__.py").write_text("")
    module = folder / "array_ops.py"
    module.write_text(source_text(INTERNALS.format("")))
    return module


def test_tensorflows_own_modules_are_left_alone(tmp_path: Path) -> None:
    module = _module_in(tmp_path, "tensorflow")
    source = module.read_text()
    assert run_codemod(SymbolicConstantErrorsCommand, source, path=str(module)) == (source, [])


def test_the_same_module_in_another_package_is_ported_by_the_rewrite(tmp_path: Path) -> None:
    # Through the engine: the skeleton it cuts for this codemod alone must keep the body
    # of the try (it once elided it, and the file came back unchanged).
    module = _module_in(tmp_path, "tensorlayer")
    ported = engine.port_source(module.read_bytes(), str(module), CODEMODS, {})
    assert ported.data.decode() == source_text(INTERNALS.format(", NotImplementedError"))
    assert [(finding.codemod, finding.line) for finding in ported.findings] == [
        ("symbolic_constant_errors", 7)]  # the except line
