"""librosa_output: librosa.output.write_wav (removed in librosa 0.8) -> librosa 0.7's."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        # magenta 1.1.7's nsynth/wavenet/fastgen_test.py.
        "librosa.output.write_wav calls, under any name of librosa",
        before="""
            import librosa
            import librosa as lr
            import tensorflow as tf

            librosa.output.write_wav(fname, test_audio, sr=16000, norm=True)
            lr.output.write_wav(path, y, sr)
            x = tf.placeholder(tf.float32)
        """,
        after="""
            import librosa
            import librosa as lr
            import tensorflow as tf
            import slim_ext.librosa_output

            slim_ext.librosa_output.write_wav(fname, test_audio, sr=16000, norm=True)
            slim_ext.librosa_output.write_wav(path, y, sr)
            x = tf.placeholder(tf.float32)
        """,
    ),
    Noop(
        "soundfile.write, another module's output, a method, librosa's own names",
        """
            import librosa
            import soundfile
            import tensorflow as tf

            soundfile.write(path, y, sr)
            tf.io.write_file(path, contents)
            model.output.write_wav(path, y, sr)
            output = librosa.load(path)
            y = librosa.effects.trim(y)
            x = tf.placeholder(tf.float32)
        """,
    ),
    Noop(
        "a local librosa is not the library",
        """
            import tensorflow as tf

            def save(librosa, y):
                librosa.output.write_wav('a.wav', y, 16000)

            x = tf.placeholder(tf.float32)
        """,
    ),
    Noop(
        "TF2 code is its authors'",
        """
            import librosa
            import tensorflow as tf

            @tf.function
            def f(y):
                return y

            librosa.output.write_wav('a.wav', y, 16000)
        """,
    ),
    Reported(
        "importing librosa.output fails at import",
        "from librosa.output import write_wav\nfrom librosa import output\n"
        "import librosa.output\nimport tensorflow as tf\nx = tf.placeholder(tf.float32)\n",
        [attention(1, "from librosa.output import write_wav",
                   fix="slim_ext.librosa_output.write_wav(path, y, sr, norm)"),
         attention(2, "from librosa import output", fix="librosa 0.7's write_wav"),
         attention(3, "import librosa.output", fix="librosa 0.7's write_wav")],
    ),
    Reported(
        "librosa 0.7's other writers have no home",
        "import librosa\nimport tensorflow as tf\n"
        "librosa.output.times_csv('beats.csv', times)\n"
        "librosa.output.annotation('segments.csv', intervals)\n"
        "x = tf.placeholder(tf.float32)\n",
        [attention(3, "librosa.output.times_csv", fix="csv.writer"),
         attention(4, "librosa.output.annotation", fix="csv.writer")],
    ),
    Reported(
        "a file whose slim_ext is another name",
        "import librosa\nimport tensorflow as tf\nimport numpy as slim_ext\n"
        "librosa.output.write_wav('a.wav', y, 16000)\nx = tf.placeholder(tf.float32)\n",
        [attention(4, "librosa.output.write_wav", fix="slim_ext.librosa_output.write_wav")],
    ),
]
