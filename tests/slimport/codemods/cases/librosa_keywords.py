"""librosa_keywords: positional arguments librosa 0.10 takes by keyword only -> named."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        # magenta 1.1.7's onsets_frames_transcription/data.py and music/audio_io.py.
        "positional arguments get their parameters' names",
        before="""
            import librosa
            from librosa import feature
            import tensorflow as tf

            mel = librosa.feature.melspectrogram(
                samples, sample_rate, hop_length=512, fmin=30.0)
            y = librosa.resample(y, native_sr, sample_rate)
            spec = librosa.core.stft(y, 2048, 512)
            mfcc = feature.mfcc(y, sr, None, 13)
            x = tf.placeholder(tf.float32)
        """,
        after="""
            import librosa
            from librosa import feature
            import tensorflow as tf

            mel = librosa.feature.melspectrogram(
                y=samples, sr=sample_rate, hop_length=512, fmin=30.0)
            y = librosa.resample(y, orig_sr=native_sr, target_sr=sample_rate)
            spec = librosa.core.stft(y, n_fft=2048, hop_length=512)
            mfcc = feature.mfcc(y=y, sr=sr, S=None, n_mfcc=13)
            x = tf.placeholder(tf.float32)
        """,
    ),
    Noop(
        "arguments already named, or still positional; another library's function",
        """
            import librosa
            import scipy.signal
            import tensorflow as tf

            a = librosa.feature.melspectrogram(y=y, sr=sr)
            b = librosa.stft(y)
            c = librosa.resample(y, orig_sr=1, target_sr=2)
            d = scipy.signal.resample(y, 100)
            x = tf.placeholder(tf.float32)
        """,
    ),
    Noop(
        "TF2 code is its authors'",
        """
            import librosa
            import tensorflow as tf

            @tf.function
            def f(y, sr):
                return librosa.feature.melspectrogram(y, sr)
        """,
    ),
    Reported(
        # melspectrogram's sixth parameter was power in 0.6, win_length from 0.7.
        "more positional arguments than every release agrees on",
        "import librosa\nmel = librosa.feature.melspectrogram(y, sr, None, 2048, 512, 2.0)\n",
        [attention(2, "librosa.feature.melspectrogram(...)", fix="by keyword")],
    ),
    Reported(
        "a *args",
        "import librosa\nspec = librosa.stft(*args)\n",
        [attention(2, "librosa.stft(...)", fix="by keyword (after the first 1")],
    ),
]
