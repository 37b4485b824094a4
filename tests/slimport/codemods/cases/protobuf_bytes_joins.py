"""protobuf_bytes_joins: a str separator joining a protobuf bytes field -> a bytes one."""
from tests.slimport.codemods.cases import Edit, Noop

CASES = [
    Edit(
        # object detection 0.1.1's metrics/tf_example_parser.py (2 of its tests on Python
        # 2.7 + TF 1.14).
        "a tf.train.Example string read back",
        before="""
            def parse(tf_example, field_name):
                return "".join(tf_example.features.feature[field_name]
                               .bytes_list.value)
        """,
        after="""
            def parse(tf_example, field_name):
                return b"".join(tf_example.features.feature[field_name]
                               .bytes_list.value)
        """,
    ),
    Noop("other fields, separators and joins",
         "a = ''.join(f.int64_list.value)\nb = b''.join(f.bytes_list.value)\n"
         "c = u''.join(f.bytes_list.value)\nd = sep.join(f.bytes_list.value)\n"
         "e = ''.join(names)\nf = ', '.join(x.bytes_list.value, y)\n"),
]
