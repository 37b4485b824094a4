"""``librosa.output.write_wav`` (removed in librosa 0.8) -> ``slim_ext.librosa_output``.

librosa 0.8 removed ``librosa.output`` and names ``soundfile.write`` instead, which
writes another file (16-bit PCM by default, never normalised). TF1-era audio code wrote
its signals with ``librosa.output.write_wav(path, y, sr, norm=False)`` (magenta 1.1.7's
``nsynth/wavenet/fastgen_test.py``): each such call becomes
``slim_ext.librosa_output.write_wav(...)`` with the same arguments, librosa 0.7's
function (the same checks of the signal, the same normalisation, the same bytes
through ``scipy.io.wavfile.write``). ``from librosa.output import write_wav`` and
``from librosa import output`` fail when the module is imported, and librosa 0.7's
other writers (``annotation``, ``times_csv``, ``frames_csv``) have no home here: each is
reported with the fix and left. Only TF1-era code and plain Python (``tf1_era_file``).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Pattern

import libcst as cst

from slimport.analysis.names import Bindings, is_under
from slimport.codemods._leftovers import LeftoverCodemod, reads_attribute
from slimport.codemods._runtime_calls import RuntimeCalls
from slimport.codemods.base import StatementFilter, code_of

REMOVED = "librosa.output"
WRITE_WAV = f"{REMOVED}.write_wav"
RUNTIME = "slim_ext.librosa_output"
HOME = f"{RUNTIME}.write_wav"
# librosa 0.7's other functions of librosa.output -> what replaces each.
GONE = {
    "annotation": "csv.writer rows of (start, end[, label]) formatted with '%0.3f'",
    "times_csv": "csv.writer rows of each time formatted with '%0.3f'",
    "frames_csv": "librosa.frames_to_time, then csv.writer rows formatted with '%0.3f'",
}


class LibrosaOutputCommand(RuntimeCalls, LeftoverCodemod):
    """Sends librosa.output.write_wav calls to librosa 0.7's function in slim_ext."""

    NAME: ClassVar[str] = "librosa_output"
    DESCRIPTION: ClassVar[str] = (
        "librosa.output.write_wav(path, y, sr, norm) (removed in librosa 0.8) -> "
        "slim_ext.librosa_output.write_wav(...), librosa 0.7's function (the same file)"
    )
    TRIGGER: ClassVar[Pattern[str]] = re.compile(r"\boutput\b")
    RUNTIME: ClassVar[str] = RUNTIME
    HOME: ClassVar[str] = HOME

    @classmethod
    def applies_to(cls, source: str) -> bool:
        return "librosa" in source and super().applies_to(source)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        reads = reads_attribute({"write_wav", *GONE})
        return lambda statement: reads(statement) or isinstance(statement,
                                                                (ast.Import, ast.ImportFrom))

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self.start_runtime_calls()
        return True

    def visit_Import(self, node: cst.Import) -> None:
        if any(code_of(alias.name) == REMOVED for alias in node.names):
            self._import_fails(node)

    def visit_ImportFrom(self, node: cst.ImportFrom) -> None:
        if node.relative or node.module is None or isinstance(node.names, cst.ImportStar):
            return
        module = code_of(node.module)
        names = [alias.name.value for alias in node.names
                 if isinstance(alias.name, cst.Name)]
        if module == REMOVED or (module == "librosa" and "output" in names):
            self._import_fails(node)

    def _import_fails(self, node: cst.CSTNode) -> None:
        self.needs_attention(node, f"{code_of(node)}: librosa.output was removed in "
                             "librosa 0.8; left unchanged",
                             f"import {RUNTIME} and call {HOME}(path, y, sr, norm) "
                             "(librosa 0.7's write_wav)")

    def visit_Call(self, node: cst.Call) -> None:
        func = node.func
        # librosa.output.x(...) through librosa's own name: the other spellings import
        # librosa.output, which fails (reported there).
        if not (isinstance(func, cst.Attribute) and isinstance(func.value, cst.Attribute)):
            return
        qualified = self.resolve_name(func)
        if qualified is None or not is_under(qualified, REMOVED) or qualified == REMOVED:
            return
        name = qualified[len(REMOVED) + 1:]
        if name in GONE:
            self.needs_attention(node, f"{code_of(node.func)}: librosa.output was removed "
                                 "in librosa 0.8, and its successor is not ported; left "
                                 "unchanged", f"write it with {GONE[name]}")
            return
        if qualified != WRITE_WAV or not self.slim_ext_free(
                node, f"{code_of(node.func)}: librosa.output was removed in librosa 0.8",
                f"{HOME}(...)"):
            return
        self.send_to_runtime(node)
        self.record_edit(node, f"{code_of(node.func)} -> {HOME} (librosa.output was removed "
                               "in librosa 0.8; librosa 0.7's function, the same file)")
