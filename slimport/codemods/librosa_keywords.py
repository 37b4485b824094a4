"""librosa arguments passed by position that librosa 0.10 takes by keyword only.

librosa 0.9 made every parameter after a function's data argument keyword-only (a
positional one still worked, with a FutureWarning) and 0.10 refuses it:
``librosa.feature.melspectrogram(y, sr, hop_length=512)`` raises "takes 0 positional
arguments". TF1-era audio code (magenta 1.1.7's onsets_frames_transcription, written
for librosa 0.6) passed them by position. Each such argument gets its parameter's name,
which is what librosa 0.9 did with it: ``melspectrogram(y=y, sr=sr, hop_length=512)``.

Named only as far as every release from 0.6.2 to 0.9.2 agrees on the parameters'
order (measured on both: librosa later inserted parameters, ``win_length`` before
``power`` in melspectrogram, ``n_fft`` after ``win_length`` in istft); a call with more
positional arguments, or a ``*args``, is reported with the fix. Only calls that
certainly are librosa's are ported, and only TF1-era code and plain Python
(``tf1_era_file``).
"""
from __future__ import annotations

import ast
import re
from typing import ClassVar, Dict, Optional, Pattern, Tuple

import libcst as cst

from slimport.analysis.names import Bindings
from slimport.codemods._leftovers import LeftoverCodemod
from slimport.codemods.base import StatementFilter, chain_filter, code_of

LIBROSA = "librosa"
# function -> (how many leading parameters librosa >= 0.10 still takes by position, the
# keyword-only parameters after them in the order librosa 0.6.2 - 0.9.2 all took them).
_CORE: Dict[str, Tuple[int, Tuple[str, ...]]] = {
    "load": (1, ("sr", "mono", "offset", "duration", "dtype", "res_type")),
    "resample": (1, ("orig_sr", "target_sr", "res_type", "fix", "scale")),
    "get_duration": (0, ("y", "sr", "S", "n_fft", "hop_length", "center", "filename")),
    "stft": (1, ("n_fft", "hop_length", "win_length", "window", "center", "dtype",
                 "pad_mode")),
    "istft": (1, ("hop_length", "win_length")),
    "magphase": (1, ("power",)),
    "power_to_db": (1, ("ref", "amin", "top_db")),
    "amplitude_to_db": (1, ("ref", "amin", "top_db")),
    "cqt": (1, ("sr", "hop_length", "fmin", "n_bins", "bins_per_octave", "tuning",
                "filter_scale", "norm", "sparsity", "window", "scale", "pad_mode")),
    "fft_frequencies": (0, ("sr", "n_fft")),
    "mel_frequencies": (1, ("fmin", "fmax", "htk")),
    "hz_to_mel": (1, ("htk",)),
    "note_to_midi": (1, ("round_midi",)),
    "frames_to_time": (1, ("sr", "hop_length", "n_fft")),
    "time_to_frames": (1, ("sr", "hop_length", "n_fft")),
}
_FEATURE: Dict[str, Tuple[int, Tuple[str, ...]]] = {
    "melspectrogram": (0, ("y", "sr", "S", "n_fft", "hop_length")),
    "mfcc": (0, ("y", "sr", "S", "n_mfcc", "dct_type", "norm")),
    "chroma_stft": (0, ("y", "sr", "S", "norm", "n_fft", "hop_length")),
}
# Every public path of each function (librosa.core's are librosa's too).
PARAMETERS: Dict[str, Tuple[int, Tuple[str, ...]]] = {
    **{f"{LIBROSA}.{name}": spec for name, spec in _CORE.items()},
    **{f"{LIBROSA}.core.{name}": spec for name, spec in _CORE.items()},
    **{f"{LIBROSA}.feature.{name}": spec for name, spec in _FEATURE.items()},
    f"{LIBROSA}.filters.mel": (0, ("sr", "n_fft", "n_mels", "fmin", "fmax", "htk", "norm")),
    f"{LIBROSA}.util.normalize": (1, ("norm", "axis", "threshold", "fill")),
    f"{LIBROSA}.effects.trim": (1, ("top_db", "ref", "frame_length", "hop_length")),
    f"{LIBROSA}.onset.onset_strength": (0, ("y", "sr", "S", "lag", "max_size")),
}
_NAMES = sorted({name.rpartition(".")[2] for name in PARAMETERS})


class LibrosaKeywordsCommand(LeftoverCodemod):
    """Names the positional arguments librosa >= 0.10 takes by keyword only."""

    NAME: ClassVar[str] = "librosa_keywords"
    DESCRIPTION: ClassVar[str] = (
        "librosa arguments passed by position that librosa 0.10 takes by keyword only "
        "(melspectrogram(y, sr) -> melspectrogram(y=y, sr=sr), resample, stft, load, ...)"
    )
    TRIGGER: ClassVar[Pattern[str]] = re.compile(r"\b(?:%s)\(" % "|".join(_NAMES))

    @classmethod
    def applies_to(cls, source: str) -> bool:
        return LIBROSA in source and super().applies_to(source)

    @classmethod
    def leftover_statements(cls, tree: ast.Module, bindings: Bindings) -> StatementFilter:
        return chain_filter(lambda parts: bindings.resolve_parts(parts) in PARAMETERS)

    def start_leftovers(self, tree: cst.Module, parsed: ast.Module) -> bool:
        self._named: Dict[int, Tuple[int, Tuple[str, ...]]] = {}
        return True

    def visit_Call(self, node: cst.Call) -> None:
        qualified: Optional[str] = self.resolve_name(node.func)
        if qualified not in PARAMETERS:
            return
        positional, keywords = PARAMETERS[qualified]
        passed = [arg for arg in node.args if arg.keyword is None and not arg.star]
        if any(arg.star == "*" for arg in node.args) or \
                len(passed) > positional + len(keywords):
            after = f"after the first {positional}" if positional else "all"
            self.needs_attention(node, f"{code_of(node.func)}(...): librosa >= 0.10 takes "
                                 f"its parameters ({after}) by keyword only; left unchanged "
                                 "because which parameter each argument is depends on the "
                                 "librosa release it was written for",
                                 f"pass them by keyword ({after}; librosa 0.9's order: "
                                 f"{', '.join(keywords)}, ...)")
            return
        if len(passed) <= positional:
            return
        self._named[id(node)] = PARAMETERS[qualified]
        named = ", ".join(keywords[:len(passed) - positional])
        self.record_edit(node, f"{code_of(node.func)}(...): positional arguments named "
                               f"({named}): librosa >= 0.10 takes them by keyword only")

    def leave_Call(self, original_node: cst.Call, updated_node: cst.Call
                   ) -> cst.BaseExpression:
        spec = self._named.pop(id(original_node), None)
        if spec is None:
            return updated_node
        positional, keywords = spec
        args, index = [], 0
        for arg in updated_node.args:
            if arg.keyword is None and not arg.star:
                if index >= positional:
                    arg = arg.with_changes(
                        keyword=cst.Name(keywords[index - positional]),
                        equal=cst.AssignEqual(whitespace_before=cst.SimpleWhitespace(""),
                                              whitespace_after=cst.SimpleWhitespace("")))
                index += 1
            args.append(arg)
        return updated_node.with_changes(args=args)
