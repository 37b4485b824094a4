"""protobuf_int64_bools: tf.train.Int64List's value -> slim_ext.protobuf3.int64_values."""
from tests.slimport.codemods.cases import Edit, Noop, edit

CASES = [
    Edit(
        # Object detection's utils/dataset_util.py (COCO's iscrowd flags reach it).
        "a TF1 dataset tool's int64 features",
        before="""
            import tensorflow as tf

            def int64_feature(value):
                return tf.train.Feature(int64_list=tf.train.Int64List(
                    value=[value]))

            def int64_list_feature(value):
                return tf.train.Feature(int64_list=tf.train.Int64List(
                    value=value))

            def read_examples_list(path):
                with tf.gfile.GFile(path) as fid:
                    return fid.readlines()
        """,
        after="""
            import tensorflow as tf
            import slim_ext.protobuf3

            def int64_feature(value):
                return tf.train.Feature(int64_list=tf.train.Int64List(
                    value=slim_ext.protobuf3.int64_values([value])))

            def int64_list_feature(value):
                return tf.train.Feature(int64_list=tf.train.Int64List(
                    value=slim_ext.protobuf3.int64_values(value)))

            def read_examples_list(path):
                with tf.gfile.GFile(path) as fid:
                    return fid.readlines()
        """,
    ),
    Edit(
        "the proto module's class, imported by name",
        before="""
            from tensorflow.core.example.feature_pb2 import Int64List
            import tensorflow as tf

            flags = tf.app.flags
            ids = Int64List(value=labels)
        """,
        after="""
            from tensorflow.core.example.feature_pb2 import Int64List
            import tensorflow as tf
            import slim_ext.protobuf3

            flags = tf.app.flags
            ids = Int64List(value=slim_ext.protobuf3.int64_values(labels))
        """,
        findings=[edit(5, "value=labels -> value=slim_ext.protobuf3.int64_values")],
    ),
    Noop("int literals written out, and no value",
         "import tensorflow as tf\nflags = tf.app.flags\n"
         "a = tf.train.Int64List(value=[1, -2, 3])\nb = tf.train.Int64List()\n"
         "c = tf.train.Int64List(value=())\n"),
    Noop("another library's Int64List, and TF's other lists",
         "import tensorflow as tf\nfrom mylib import Int64List\nflags = tf.app.flags\n"
         "a = Int64List(value=v)\nb = tf.train.FloatList(value=v)\n"),
    Noop("tf2 code", "import tensorflow as tf\n"
         "f = tf.train.Feature(int64_list=tf.train.Int64List(value=v))\n"),
]
