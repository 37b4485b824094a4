"""dataset_map_threads: TF 1.4's Dataset.map(num_threads=, output_buffer_size=) on a dataset."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention, edit

CASES = [
    Edit(
        "a dataset traced through its assignments (the platform's CIFAR-10 input)",
        before="""
            import tensorflow as tf

            def input_fn(filenames, size):
                dataset = tf.contrib.data.TFRecordDataset(filenames).repeat()
                dataset = dataset.map(parser, num_threads=size, output_buffer_size=2 * size)
                return dataset.batch(size)
        """,
        after="""
            import tensorflow as tf

            def input_fn(filenames, size):
                dataset = tf.contrib.data.TFRecordDataset(filenames).repeat()
                dataset = dataset.map(parser, num_parallel_calls=size).prefetch(2 * size)
                return dataset.batch(size)
        """,
        findings=[edit(5, "dataset.map(...): TF 1.4's num_threads= / output_buffer_size= -> "
                          "num_parallel_calls= / .prefetch()")],
    ),
    Edit(
        "a method chain from a core constructor, threads only",
        before="""
            import tensorflow as tf

            ds = tf.data.Dataset.from_tensor_slices(x).shuffle(10).map(f, num_threads=4)
        """,
        after="""
            import tensorflow as tf

            ds = tf.data.Dataset.from_tensor_slices(x).shuffle(10).map(f, num_parallel_calls=4)
        """,
    ),
    Edit(
        "a buffer only, and chained maps each ported",
        before="""
            from tensorflow.contrib.data import Dataset

            ds = Dataset.range(8).map(f, output_buffer_size=16).map(g, num_threads=2)
        """,
        after="""
            from tensorflow.contrib.data import Dataset

            ds = Dataset.range(8).map(f).prefetch(16).map(g, num_parallel_calls=2)
        """,
    ),
    Edit(
        "a module-level dataset, and explicit Nones",
        before="""
            import tensorflow as tf

            lines = tf.data.TextLineDataset(path)
            parsed = lines.map(decode, num_threads=None, output_buffer_size=None)
        """,
        after="""
            import tensorflow as tf

            lines = tf.data.TextLineDataset(path)
            parsed = lines.map(decode)
        """,
    ),
    Reported(
        "a parameter could be anything",
        """
            import tensorflow as tf

            def prepare(dataset):
                return dataset.map(parse, num_threads=4, output_buffer_size=8)
        """,
        [attention(4, "could not be traced to a tf.data dataset",
                   fix="map(f, num_parallel_calls=num_threads).prefetch(output_buffer_size)")],
    ),
    Reported(
        "a name also bound by something else",
        """
            import tensorflow as tf

            def prepare(files, reader):
                dataset = tf.data.TFRecordDataset(files)
                if reader:
                    dataset = reader.open(files)
                return dataset.map(parse, num_threads=4)
        """,
        [attention(7, "could not be traced")],
    ),
    Reported(
        "a buffer size with effects is not moved past the map",
        """
            import tensorflow as tf

            ds = tf.data.Dataset.range(4).map(f, output_buffer_size=next_size())
        """,
        [attention(3, "would evaluate it later")],
    ),
    Reported(
        "both spellings of the parallelism",
        """
            import tensorflow as tf

            ds = tf.data.Dataset.range(4).map(f, num_threads=2, num_parallel_calls=4)
        """,
        [attention(3, "both num_threads= and num_parallel_calls=")],
    ),
    Noop("TF 1.5+ spelling",
         "import tensorflow as tf\n"
         "ds = tf.data.Dataset.range(4).map(f, num_parallel_calls=2).prefetch(1)\n"),
    Noop("another library's map with num_threads, in a file without TensorFlow",
         "import mylib\npool = mylib.Pool()\nout = pool.map(f, num_threads=4)\n"),
    Noop("a dataset name rebound by a parameter of a nested function",
         "import tensorflow as tf\n"
         "dataset = tf.data.Dataset.range(3)\n"
         "def f(dataset):\n"
         "    return dataset\n"),
]
