"""protobuf_bytes_strs: tf.train.BytesList's value -> slim_ext.protobuf3.bytes_values."""
from tests.slimport.codemods.cases import Edit, Noop

CASES = [
    Edit(
        # object detection 0.1.1's utils/dataset_util.py (31 of its tests on Python 2.7).
        "a bytes list filled from strings",
        before="""
            import tensorflow as tf

            def bytes_feature(value):
                values = tf.train.BytesList(value=[value])
                return tf.train.Feature(bytes_list=values)

            def read_examples_list(path):
                with tf.gfile.GFile(path) as fid:
                    rows = tf.train.BytesList(
                        value=fid.readlines())
        """,
        after="""
            import tensorflow as tf
            import slim_ext.protobuf3

            def bytes_feature(value):
                values = tf.train.BytesList(value=slim_ext.protobuf3.bytes_values([value]))
                return tf.train.Feature(bytes_list=values)

            def read_examples_list(path):
                with tf.gfile.GFile(path) as fid:
                    rows = tf.train.BytesList(
                        value=slim_ext.protobuf3.bytes_values(fid.readlines()))
        """,
    ),
    Noop("bytes literals, other lists",
         "import tensorflow as tf\nx = tf.train.BytesList(value=[b'jpeg', b'png'])\n"
         "y = tf.train.FloatList(value=[0.5])\nz = mylib.BytesList(value=['a'])\n"),
]
