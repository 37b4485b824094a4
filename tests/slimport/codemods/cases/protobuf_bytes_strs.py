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
CASES.insert(1, Edit(
    # object detection 0.1.1's metrics/tf_example_parser_test.py: TF2 code by its own
    # text, a Python 2 project's module by its tree (2 tests on Python 2.7 + TF 1.14).
    "a Python 2 project's module that reads as TF 2 code",
    before="""
        import tensorflow as tf

        def _BytesFeature(value):
            return tf.train.Feature(
                bytes_list=tf.train.BytesList(value=[value]))
    """,
    after="""
        import tensorflow as tf
        import slim_ext.protobuf3

        def _BytesFeature(value):
            return tf.train.Feature(
                bytes_list=tf.train.BytesList(value=slim_ext.protobuf3.bytes_values([value])))
    """,
    options={"tree_python2": "object_detection/inference/detection_inference_test.py: "
                             "import StringIO (line 22)"},
))
CASES.append(Noop(
    "TF 2 code of a Python 3 project",
    "import tensorflow as tf\n\ndef f(value):\n"
    "    return tf.train.BytesList(value=[value])\n"))
