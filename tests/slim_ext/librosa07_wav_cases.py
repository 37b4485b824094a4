"""The signals tests/slim_ext/data/librosa07_wav holds librosa 0.7.2's WAV files of.

Read by the fixture's script on Python 3.7 with librosa 0.7.2 itself, and by
tests/slim_ext/test_librosa_output.py on TensorFlow 2's Python: keep it to what both
run (NumPy's legacy ``RandomState`` gives the same numbers on every NumPy).
"""
import numpy as np

# name -> (signal, sampling rate, norm): what write_wav writes a file of.
WRITTEN = {
    "mono_float32": (lambda: 0.5 * np.random.RandomState(0).randn(64).astype(np.float32),
                     16000, False),
    "mono_float32_norm": (lambda: 0.5 * np.random.RandomState(0).randn(64).astype(np.float32),
                          16000, True),
    # magenta 1.1.7's fastgen_test: np.random.randn(1600), sr=16000, norm=True.
    "mono_float64_norm": (lambda: np.random.RandomState(1).randn(160), 16000, True),
    "mono_float64_loud": (lambda: 3.0 * np.random.RandomState(2).randn(40), 8000, False),
    "stereo_float32_norm": (lambda: np.asfortranarray(
        0.25 * np.random.RandomState(3).randn(2, 48).astype(np.float32)), 22050, True),
    "stereo_float64": (lambda: np.asfortranarray(np.random.RandomState(4).randn(2, 48)),
                       44100, False),
    "three_rows_float32": (lambda: np.asfortranarray(
        np.random.RandomState(5).randn(3, 16).astype(np.float32)), 16000, True),
    "silent_float32_norm": (lambda: np.zeros(32, np.float32), 16000, True),
    "subnormal_float64_norm": (lambda: np.full(8, 1e-310), 16000, True),
}
# name -> (signal, norm): what write_wav refuses.
REFUSED = {
    "int16": (lambda: (np.arange(32) * 100).astype(np.int16), False),
    "int16_norm": (lambda: (np.arange(32) * 100).astype(np.int16), True),
    "list": (lambda: [0.0, 0.5, -0.5], True),
    "scalar": (lambda: np.float32(0.5), False),
    "three_dimensions": (lambda: np.zeros((2, 2, 2), order="F"), False),
    "nan": (lambda: np.array([0.0, np.nan, 0.5]), True),
    "stereo_c_order": (lambda: np.random.RandomState(6).randn(2, 8), False),
}
