"""librosa 0.7's ``librosa.output.write_wav``, which librosa 0.8 removed.

TF1-era audio code (magenta 1.1.7's NSynth tests, its data tools) wrote WAV files with
``librosa.output.write_wav(path, y, sr, norm=False)``. librosa 0.8 removed the module
and names ``soundfile.write`` instead, which writes another file: 16-bit PCM by default,
no normalisation, a stereo signal laid out (samples, channels). ``slimport rewrite``
sends each call here; ``write_wav`` checks the signal as librosa 0.7 did, scales a
floating-point one by its largest magnitude when ``norm`` is set, and writes it with
``scipy.io.wavfile.write`` as librosa 0.7 did: the same bytes (tests/slim_ext/
test_librosa_output.py compares them with files librosa 0.7.2 itself wrote).
"""
from __future__ import annotations

from typing import Any, Union

import numpy as np
import scipy.io.wavfile


class ParameterError(Exception):
  """What ``write_wav`` raises when librosa itself is not installed: librosa's
  ``ParameterError``, by name and message (ported code that calls ``write_wav`` imported
  librosa, so there it is librosa's own class)."""


def _parameter_error(message: str) -> Exception:
  """librosa's own ``ParameterError`` (what callers of librosa 0.7 caught)."""
  try:
    from librosa.util.exceptions import ParameterError as librosa_error  # pylint: disable=g-import-not-at-top
  except ImportError:
    return ParameterError(message)
  return librosa_error(message)


def _check_audio(y: Any) -> None:
  """librosa 0.7's ``util.valid_audio(y, mono=False)``: a finite, floating-point,
  Fortran-contiguous array of shape (samples,) or (channels, samples).

  Raises:
    librosa.util.exceptions.ParameterError: ``y`` is none of those, with librosa 0.7's
      message.
  """
  if not isinstance(y, np.ndarray):
    raise _parameter_error("Audio data must be of type numpy.ndarray")
  if not np.issubdtype(y.dtype, np.floating):
    raise _parameter_error("Audio data must be floating-point")
  if y.ndim > 2 or y.ndim == 0:
    raise _parameter_error("Audio data must have shape (samples,) or (channels, samples). "
                           f"Received shape={y.shape}")
  if not np.isfinite(y).all():
    raise _parameter_error("Audio buffer is not finite everywhere")
  if not y.flags["F_CONTIGUOUS"]:
    raise _parameter_error("Audio buffer is not Fortran-contiguous. Use "
                           "numpy.asfortranarray to ensure Fortran contiguity.")


def _peak_normalized(y: np.ndarray) -> np.ndarray:
  """``y`` divided by its largest magnitude, in ``y``'s dtype (librosa 0.7's
  ``util.normalize(y, norm=np.inf, axis=None)``).

  The peak is taken in float64 and kept as an array, so the division is done in
  float64 and rounded once to ``y``'s dtype. A peak below the dtype's smallest normal
  number (silence) leaves ``y`` as it is.
  """
  peak = np.max(np.abs(y).astype(np.float64), axis=None, keepdims=True)
  peak[peak < np.finfo(y.dtype).tiny] = 1.0
  normalized = np.empty_like(y)
  normalized[:] = y / peak
  return normalized


def write_wav(path: Union[str, Any], y: np.ndarray, sr: int, norm: bool = False) -> None:
  """Writes a signal to a WAV file, as ``librosa.output.write_wav`` of librosa 0.7 did.

  Args:
    path: the file's path (or an open binary file).
    y: the signal, floating point, shape (samples,) or (channels, samples),
      Fortran-contiguous (a stereo signal from ``librosa.load(mono=False)``).
    sr: its sampling rate.
    norm: scale the signal so that its largest magnitude is 1 (nothing is scaled when
      it is silent).

  Raises:
    librosa.util.exceptions.ParameterError: ``y`` is not such a signal (integer
      samples, NaN or infinity, another shape, a C-ordered stereo array).
  """
  _check_audio(y)
  wav = _peak_normalized(y) if norm and np.issubdtype(y.dtype, np.floating) else y
  if wav.ndim > 1 and wav.shape[0] == 2:
    wav = wav.T
  scipy.io.wavfile.write(path, sr, wav)
