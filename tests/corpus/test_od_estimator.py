"""Object detection 0.1.1's Estimator path, ported with zero hand edits: model_main trains 2 steps.

Run by ``tox -e odtrain`` beside test_train_entry_points.py (same sdists, same data, same
tiny SSD MobileNet v1 config). ``model_main.py`` is the project's Estimator entry point:
``model_lib.create_estimator_and_inputs`` builds the Estimator (its model_fn sets
``tf.keras.backend.set_learning_phase``, so the port routes ``tf.keras`` to Keras 2) and
its input functions, and ``tf.estimator.train_and_evaluate`` (ported to slim_ext's)
trains, evaluates on the same records with the COCO metrics and exports a SavedModel.
research/slim's ``nets`` come from tf-models-research-object-detection 2.8.0.post1's
sdist, ported beside it (PyPI has them nowhere else).
"""
from __future__ import annotations


import pytest

from slimport.engine import protos

from tests.corpus.test_train_entry_points import (  # noqa: F401  (tf: a fixture)
    LABEL_MAP,
    PIPELINE,
    REPO_ROOT,
    _port,
    _train,
    _write_records,
    od_suite,
    tf,
)

pytestmark = pytest.mark.tf

STEPS = 2
# One evaluation of the two records, without the side-by-side images (drawn with
# Pillow's FreeTypeFont.getsize, which Pillow 10 removed: a third-party change).
EVALUATION = """
eval_config { num_examples: 2 max_evals: 1 metrics_set: "coco_detection_metrics"
              retain_original_images: false }
eval_input_reader {
  label_map_path: "LABEL_MAP"
  shuffle: false
  num_readers: 1
  tf_record_input_reader { input_path: "RECORDS" }
}
"""


def test_model_main_trains_evaluates_and_exports(tmp_path, tf):  # noqa: F811
    ported = _port(od_suite.OBJECT_DETECTION, ".", tmp_path / "od")
    slim = _port(od_suite.RESEARCH_SLIM, "slim", tmp_path / "slim")
    # The sdist's *_pb2.py came from protoc < 3.20: the rewrite regenerated them.
    assert not [path for path in ported.rglob("*_pb2.py") if protos.is_stale(path.read_bytes())]
    _write_records(tf, tmp_path / "records")
    (tmp_path / "labels.pbtxt").write_text(LABEL_MAP)
    config = tmp_path / "pipeline.config"
    config.write_text((PIPELINE + EVALUATION).replace("LABEL_MAP", str(tmp_path / "labels.pbtxt"))
                      .replace("RECORDS", str(tmp_path / "records")))
    model_dir = tmp_path / "model"
    output = _train([str(ported / "object_detection" / "model_main.py"),
                     "--model_dir", str(model_dir), "--pipeline_config_path", str(config),
                     "--num_train_steps", str(STEPS)],
                    tmp_path / "model_main.log", ported, [ported, slim])
    # Trained: the checkpoint at the last step holds the network and the step.
    checkpoint = tf.train.latest_checkpoint(str(model_dir))
    assert checkpoint and checkpoint.endswith(f"model.ckpt-{STEPS}"), output[-3000:]
    reader = tf.train.load_checkpoint(checkpoint)
    assert reader.get_tensor("global_step") == STEPS
    assert any("MobilenetV1" in name for name in reader.get_variable_to_shape_map())
    # Evaluated that checkpoint with the COCO metrics, and exported it.
    metrics = {value.tag: value.simple_value
               for events in (model_dir / "eval_0").glob("events.out.tfevents.*")
               for event in tf.train.summary_iterator(str(events)) if event.step == STEPS
               for value in event.summary.value}
    assert "DetectionBoxes_Precision/mAP" in metrics and "loss" in metrics, output[-3000:]
    assert list((model_dir / "export" / "Servo").glob("*/saved_model.pb")), output[-3000:]
