"""binary_file_modes: pickle and NumPy files opened in text mode -> binary mode."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        # A held-out project's vocabulary loader (2 of its tests).
        "files opened in text mode for pickle and numpy",
        before="""
            import pickle
            import numpy as np
            import tensorflow as tf

            with tf.gfile.Open(path, "r") as f:
                vocab = pickle.load(f)
            with open(out_path, 'w') as f:
                pickle.dump(vocab, f)
            table = pickle.load(open(table_path))
            weights = np.load(tf.io.gfile.GFile(weights_path, mode='rU'))
        """,
        after="""
            import pickle
            import numpy as np
            import tensorflow as tf

            with tf.gfile.Open(path, "rb") as f:
                vocab = pickle.load(f)
            with open(out_path, 'wb') as f:
                pickle.dump(vocab, f)
            table = pickle.load(open(table_path, 'rb'))
            weights = np.load(tf.io.gfile.GFile(weights_path, mode='rb'))
        """,
    ),
    Edit(
        "python 2 pickles",
        before="""
            import cPickle as pickle
            with open(path, 'rb') as f:
                data = pickle.load(f)
            other = pickle.loads(blob)
        """,
        after="""
            import cPickle as pickle
            with open(path, 'rb') as f:
                data = pickle.load(f, encoding='latin1')
            other = pickle.loads(blob, encoding='latin1')
        """,
    ),
    Edit(
        # Object detection 0.1.1's exporter_test and export_tflite_ssd_graph_lib_test (13
        # tests): a frozen graph read back through a text-mode GFile, or its text format.
        "serialized protobufs read through text-mode files",
        before="""
            import tensorflow as tf
            from google.protobuf import text_format
            with tf.gfile.GFile(path) as fid:
              if is_binary:
                graph_def.ParseFromString(fid.read())
              else:
                text_format.Parse(fid.read(), graph_def)
        """,
        after="""
            import tensorflow as tf
            from google.protobuf import text_format
            with tf.gfile.GFile(path, 'rb') as fid:
              if is_binary:
                graph_def.ParseFromString(fid.read())
              else:
                text_format.Parse(fid.read(), graph_def)
        """,
    ),
    Edit(
        "serialized protobufs read and written through files opened in the call or the with",
        before="""
            import tensorflow as tf
            with tf.gfile.Open(path, 'r') as f:
              graph_def.MergeFromString(f.read())
            graph_def.ParseFromString(open(path).read())
            with open(out_path, 'w') as out:
              out.write(graph_def.SerializeToString())
        """,
        after="""
            import tensorflow as tf
            with tf.gfile.Open(path, 'rb') as f:
              graph_def.MergeFromString(f.read())
            graph_def.ParseFromString(open(path, 'rb').read())
            with open(out_path, 'wb') as out:
              out.write(graph_def.SerializeToString())
        """,
    ),
    Reported(
        "a protobuf's file read otherwise too",
        """
            import tensorflow as tf
            with tf.gfile.GFile(path) as fid:
              header = fid.readline()
              graph_def.ParseFromString(fid.read())
            open(path, mode).write(graph_def.SerializeToString())
        """,
        [attention(2, "used otherwise too", fix="binary mode ('rb')"),
         attention(5, "not a plain string")],
    ),
    Reported(
        "a file used otherwise, a mode in a variable, a text encoding, a write without a mode",
        """
            import pickle
            with open(path, 'r') as f:
                header = f.readline()
                vocab = pickle.load(f)
            a = pickle.load(open(path, mode))
            b = pickle.load(open(path, 'r', encoding='utf-8'))
            pickle.dump(b, open(path))
        """,
        [attention(2, "used otherwise too", fix="binary mode ('rb')"),
         attention(5, "not a plain string"), attention(6, "not a plain string"),
         attention(7, "opened in text mode")],
    ),
    # Binary already; other libraries' load; a Python 3 file's pickle.load gets no encoding.
    Noop("binary modes, other loads, python 3 pickles",
         """
            import json
            import pickle
            with open(path, 'rb') as f:
                vocab = pickle.load(f)
            config = json.load(open(config_path))
            pickle.dump(vocab, open(out, mode='wb'))
         """),
    # Text formats read through text mode; a parse of what is not a file's read(); a
    # write of text; serialized bytes to a file opened by no opener.
    Noop("protobuf text formats and other reads",
         """
            import tensorflow as tf
            from google.protobuf import text_format
            with tf.gfile.GFile(config_path, 'r') as f:
              text_format.Merge(f.read(), config)
            graph_def.ParseFromString(blob)
            graph_def.ParseFromString(reader.read())
            with open(path, 'w') as f:
              f.write(str(graph_def))
            sink.write(graph_def.SerializeToString())
            with open(path, 'rb') as f:
              graph_def.ParseFromString(f.read())
         """),
]
