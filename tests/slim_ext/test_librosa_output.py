"""slim_ext.librosa_output: librosa 0.7's write_wav, byte for byte.

tests/slim_ext/data/librosa07_wav holds the WAV files librosa 0.7.2's own
``librosa.output.write_wav`` wrote (Python 3.7, NumPy 1.16.6, SciPy 1.2.3; its
make_fixture.py regenerates them) for the signals of
tests/slim_ext/librosa07_wav_cases.py -- mono and stereo, float32 and float64, norm on
and off, silence -- and what it refused, with its message. slim_ext's function writes
the same signals here and must give the same bytes and refuse the same inputs.
"""
import json
from pathlib import Path

import numpy as np
import pytest
import scipy.io.wavfile

from slim_ext import librosa_output
from tests.slim_ext import librosa07_wav_cases

pytestmark = pytest.mark.tf  # importing slim_ext loads TensorFlow

FIXTURE = Path(__file__).parent / "data" / "librosa07_wav"


@pytest.mark.parametrize("name", sorted(librosa07_wav_cases.WRITTEN))
def test_writes_the_bytes_librosa_07_wrote(name, tmp_path):
  signal, sr, norm = librosa07_wav_cases.WRITTEN[name]
  y = signal()
  before = y.copy()
  librosa_output.write_wav(str(tmp_path / "out.wav"), y, sr, norm=norm)
  assert (tmp_path / "out.wav").read_bytes() == (FIXTURE / f"{name}.wav").read_bytes()
  np.testing.assert_array_equal(y, before)  # the caller's signal is not scaled in place


@pytest.mark.parametrize("name", sorted(librosa07_wav_cases.REFUSED))
def test_refuses_what_librosa_07_refused(name, tmp_path):
  signal, norm = librosa07_wav_cases.REFUSED[name]
  kind, message = json.loads((FIXTURE / "refused.json").read_text())[name]
  with pytest.raises(Exception) as raised:
    librosa_output.write_wav(str(tmp_path / "out.wav"), signal(), 16000, norm=norm)
  assert (type(raised.value).__name__, str(raised.value)) == (kind, message)
  # librosa's own class where librosa is installed (as it is for code that called it).
  try:
    from librosa.util.exceptions import ParameterError  # pylint: disable=import-outside-toplevel
  except ImportError:
    ParameterError = librosa_output.ParameterError
  assert isinstance(raised.value, ParameterError)
  assert not (tmp_path / "out.wav").exists()


def test_normalises_to_a_peak_of_one(tmp_path):
  y = np.array([0.25, -0.5, 0.125], np.float32)
  librosa_output.write_wav(str(tmp_path / "out.wav"), y, 8000, norm=True)
  sr, written = scipy.io.wavfile.read(str(tmp_path / "out.wav"))
  assert sr == 8000 and written.dtype == np.float32
  np.testing.assert_array_equal(written, [0.5, -1.0, 0.25])
