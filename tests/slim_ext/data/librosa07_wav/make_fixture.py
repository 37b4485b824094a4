"""Writes this directory's fixture: the WAV files librosa 0.7.2's own write_wav writes.

For each signal of tests/slim_ext/librosa07_wav_cases.py, ``librosa.output.write_wav``
of librosa 0.7.2 writes ``<name>.wav`` here; what it refuses goes to ``refused.json``
(the error's class and message). tests/slim_ext/test_librosa_output.py writes the same
signals with slim_ext.librosa_output.write_wav and compares the bytes. It needs
librosa 0.7.2 on Python 3.7 with the SciPy and NumPy of its time:

  python3.7 -m venv /tmp/librosa07
  /tmp/librosa07/bin/pip install librosa==0.7.2 numpy==1.16.6 scipy==1.2.3 numba==0.48.0 \
      llvmlite==0.31.0 resampy==0.2.2 scikit-learn==0.20.4 joblib==0.14.1
  /tmp/librosa07/bin/python tests/slim_ext/data/librosa07_wav/make_fixture.py
"""
import json
import os
import sys

import librosa
import librosa.output

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(os.path.dirname(HERE)))
import librosa07_wav_cases  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position


def main():
  assert librosa.__version__ == "0.7.2", librosa.__version__
  for name, (signal, sr, norm) in sorted(librosa07_wav_cases.WRITTEN.items()):
    librosa.output.write_wav(os.path.join(HERE, name + ".wav"), signal(), sr, norm=norm)
  refused = {}
  for name, (signal, norm) in sorted(librosa07_wav_cases.REFUSED.items()):
    try:
      librosa.output.write_wav(os.path.join(HERE, "refused.wav"), signal(), 16000, norm=norm)
    except Exception as error:  # pylint: disable=broad-except
      refused[name] = [type(error).__name__, str(error)]
    else:
      raise AssertionError("librosa 0.7.2 wrote " + name)
  with open(os.path.join(HERE, "refused.json"), "w") as out:
    json.dump(refused, out, indent=1, sort_keys=True)
    out.write("\n")


if __name__ == "__main__":
  main()
