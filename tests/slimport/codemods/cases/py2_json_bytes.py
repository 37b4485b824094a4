"""py2_json_bytes: json.dump / dumps in Python 2 code -> slim_ext.py2_json's."""
from tests.slimport.codemods.cases import Edit, Noop, Reported, attention

CASES = [
    Edit(
        # Object detection 0.1.1's metrics/coco_tools.py writes pycocotools' RLE, whose
        # counts are bytes on Python 3 (its testExportSegmentsToCOCO).
        "json calls in a python 2 file",
        before="""
            import json
            from json import dumps
            import cPickle

            def export(segments, fid):
              json.dump(segments, fid, indent=2)
              return dumps({'counts': b'abc'}, encoding='latin1')
        """,
        after="""
            import json
            from json import dumps
            import cPickle
            import slim_ext.py2_json

            def export(segments, fid):
              slim_ext.py2_json.dump(segments, fid, indent=2)
              return slim_ext.py2_json.dumps({'counts': b'abc'}, encoding='latin1')
        """,
    ),
    Edit(
        "a python 2 project's module with no evidence of its own",
        before="""
            import json
            text = json.dumps(results)
        """,
        after="""
            import json
            import slim_ext.py2_json

            text = slim_ext.py2_json.dumps(results)
        """,
        options={"tree_python2": "pkg/io.py: import StringIO (line 1)"},
    ),
    Reported(
        "a file that names slim_ext itself",
        """
            import json
            import cPickle
            from project import slim_ext
            json.dumps(x)
        """,
        [attention(4, "uses the name slim_ext for something else")],
    ),
    # Python 3 code; another library's dumps; json's other functions.
    Noop("python 3 code and other dumps",
         """
            import json
            import pickle
            text = json.dumps(results)
            blob = pickle.dumps(results)
         """),
    # Written for Python 2 and 3 (TensorFlow's, tf_keras's files): it ran on Python 3 too.
    Noop("a file with from __future__ lines alone",
         """
            from __future__ import absolute_import, division, print_function
            import json
            text = json.dumps(metadata, default=get_json_type)
         """),
    Noop("other calls in python 2 code",
         """
            import cPickle
            import json
            blob = cPickle.dumps(results)
            data = json.loads(text)
            encoder = json.JSONEncoder(indent=2)
         """),
]
