"""Issue 25's real training entry points: ported with zero hand edits, trained two steps.

Run by ``tox -e odtrain`` (not the unit env: the sources are PyPI sdists, downloaded
hash-checked and cached as tools/corpus.py does). Each test ports the sdist with
``slimport rewrite --out``, starts the entry script as its users do (its source root on
PYTHONPATH, research/slim beside object detection), on data generated here, and then
reads what training left behind: the step count and the saved variables, so a run that
exits 0 without training fails.
"""
from __future__ import annotations

import io
import math
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from tests import _procs

REPO_ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO_ROOT / "tools"))
import _harness  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position
import corpus  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position
import od_suite  # noqa: E402  pylint: disable=g-import-not-at-top,wrong-import-position

pytestmark = pytest.mark.tf

TRAIN_SECS = 900.0
FACENET = next(c for c in corpus.CORPORA if c.name == "facenet")


def _port(sdist: corpus.Corpus, subdirectory: str, work: Path) -> Path:
    """Downloads (cached), unpacks and ports ``subdirectory`` of an sdist; the ported tree."""
    ported, ran = corpus.port_sdist(sdist, subdirectory, work, _harness.Deadline(600),
                                   corpus.default_cache())
    # 2: some files are Python 2 (reported and left as they are), as in tools/corpus.py.
    assert ran.returncode in (0, 2), (work / "rewrite.log").read_text()[-3000:]
    return ported


def _train(args, log: Path, cwd: Path, pythonpath) -> str:
    with _procs.ProcessSet() as procs:
        proc = procs.start_python(args, log, cwd=cwd, env={
            "PYTHONPATH": ":".join(str(p) for p in pythonpath)})
        returncode = proc.wait(TRAIN_SECS)
    output = log.read_text(errors="replace")
    assert returncode == 0, f"exit {returncode}:\n{output[-6000:]}"
    return output


@pytest.fixture(scope="module")
def tf():
    import tensorflow.compat.v1 as tf1  # pylint: disable=g-import-not-at-top
    return tf1


def _png(image: np.ndarray) -> bytes:
    from PIL import Image  # pylint: disable=g-import-not-at-top
    data = io.BytesIO()
    Image.fromarray(image).save(data, format="PNG")
    return data.getvalue()


def test_facenet_train_softmax_trains_two_steps(tmp_path, tf):
    ported = _port(FACENET, ".", tmp_path / "facenet")
    data = tmp_path / "faces"
    rng = np.random.default_rng(0)
    for person in range(2):  # two identities, four 160x160 "aligned faces" each
        (data / f"person_{person}").mkdir(parents=True)
        for index in range(4):
            (data / f"person_{person}" / f"{index}.png").write_bytes(
                _png(rng.integers(0, 255, (160, 160, 3), dtype=np.uint8)))
    output = _train(
        [str(ported / "facenet" / "src" / "train_softmax.py"), "--data_dir", str(data),
         "--logs_base_dir", str(tmp_path / "logs"), "--models_base_dir",
         str(tmp_path / "models"), "--max_nrof_epochs", "1", "--epoch_size", "2",
         "--batch_size", "4", "--learning_rate", "0.01", "--nrof_preprocess_threads", "1"],
        tmp_path / "train.log", tmp_path, [ported / "facenet" / "src"])
    losses = [float(v) for v in re.findall(r"Epoch: \[1\]\[[12]/2\].*?Loss ([-\d.naif]+)",
                                           output)]
    assert len(losses) == 2 and all(math.isfinite(v) and v > 0 for v in losses), output[-3000:]
    import h5py  # pylint: disable=g-import-not-at-top
    (stat_file,) = (tmp_path / "logs").glob("*/stat.h5")
    with h5py.File(stat_file, "r") as stat:
        assert np.all(np.isfinite(stat["loss"][:])) and np.all(stat["loss"][:] > 0)
    (index,) = (tmp_path / "models").glob("*/model-*.ckpt-1.index")
    variables = dict(tf.train.list_variables(str(index)[:-len(".index")]))
    assert variables["Logits/weights"] == [128, 2]
    assert any(name.startswith("InceptionResnetV1/") for name in variables)
    # The optimizer's step counter is not saved (facenet saves trainable variables
    # only); the summaries it wrote are tagged with it: the last one is at step 2.
    steps = [event.step for events in (tmp_path / "logs").glob("*/events.out.tfevents.*")
             for event in tf.train.summary_iterator(str(events)) if event.summary.value]
    assert max(steps) == 2


PIPELINE = """\
model {
  ssd {
    num_classes: 2
    image_resizer { fixed_shape_resizer { height: 64 width: 64 } }
    feature_extractor {
      type: 'ssd_mobilenet_v1'
      depth_multiplier: 0.25
      min_depth: 8
      conv_hyperparams {
        regularizer { l2_regularizer { weight: 0.00004 } }
        initializer { truncated_normal_initializer { stddev: 0.03 } }
        activation: RELU_6
        batch_norm { decay: 0.9 scale: true epsilon: 0.001 }
      }
    }
    box_coder { faster_rcnn_box_coder { y_scale: 10.0 x_scale: 10.0 height_scale: 5.0
                                        width_scale: 5.0 } }
    matcher { argmax_matcher { matched_threshold: 0.5 unmatched_threshold: 0.5 } }
    similarity_calculator { iou_similarity { } }
    anchor_generator { ssd_anchor_generator { num_layers: 6 min_scale: 0.2 max_scale: 0.95
                                              aspect_ratios: 1.0 } }
    box_predictor {
      convolutional_box_predictor {
        kernel_size: 1
        box_code_size: 4
        conv_hyperparams {
          regularizer { l2_regularizer { weight: 0.00004 } }
          initializer { truncated_normal_initializer { stddev: 0.03 } }
          activation: RELU_6
        }
      }
    }
    loss {
      classification_loss { weighted_sigmoid { } }
      localization_loss { weighted_smooth_l1 { } }
      classification_weight: 1.0
      localization_weight: 1.0
    }
    normalize_loss_by_num_matches: true
    post_processing {
      batch_non_max_suppression { score_threshold: 1e-8 iou_threshold: 0.6
                                  max_detections_per_class: 10 max_total_detections: 10 }
      score_converter: SIGMOID
    }
  }
}
train_config {
  batch_size: 2
  num_steps: 2
  optimizer {
    momentum_optimizer {
      learning_rate { constant_learning_rate { learning_rate: 0.01 } }
      momentum_optimizer_value: 0.9
    }
    use_moving_average: false
  }
}
train_input_reader {
  label_map_path: "LABEL_MAP"
  tf_record_input_reader { input_path: "RECORDS" }
}
"""
LABEL_MAP = "item { id: 1 name: 'square' }\nitem { id: 2 name: 'disc' }\n"


def _write_records(tf, path: Path) -> None:
    """Four 64x64 PNG images with one labelled box each, as object detection reads them."""
    def feature(values):
        if isinstance(values[0], bytes):
            return tf.train.Feature(bytes_list=tf.train.BytesList(value=values))
        if isinstance(values[0], float):
            return tf.train.Feature(float_list=tf.train.FloatList(value=values))
        return tf.train.Feature(int64_list=tf.train.Int64List(value=values))

    rng = np.random.default_rng(0)
    with tf.io.TFRecordWriter(str(path)) as writer:
        for index in range(4):
            example = tf.train.Example(features=tf.train.Features(feature={
                "image/encoded": feature([_png(rng.integers(0, 255, (64, 64, 3),
                                                            dtype=np.uint8))]),
                "image/format": feature([b"png"]),
                "image/height": feature([64]), "image/width": feature([64]),
                "image/object/bbox/xmin": feature([0.1]),
                "image/object/bbox/ymin": feature([0.2]),
                "image/object/bbox/xmax": feature([0.6]),
                "image/object/bbox/ymax": feature([0.7]),
                "image/object/class/label": feature([1 + index % 2]),
            }))
            writer.write(example.SerializeToString())


def test_object_detection_legacy_train_trains_two_steps(tmp_path, tf):
    ported = _port(od_suite.OBJECT_DETECTION, ".", tmp_path / "od")
    slim = _port(od_suite.RESEARCH_SLIM, "slim", tmp_path / "slim")
    _write_records(tf, tmp_path / "train.record")
    (tmp_path / "labels.pbtxt").write_text(LABEL_MAP)
    config = tmp_path / "pipeline.config"
    config.write_text(PIPELINE.replace("LABEL_MAP", str(tmp_path / "labels.pbtxt"))
                      .replace("RECORDS", str(tmp_path / "train.record")))
    train_dir = tmp_path / "train"
    output = _train([str(ported / "object_detection" / "legacy" / "train.py"),
                     "--train_dir", str(train_dir), "--pipeline_config_path", str(config)],
                    tmp_path / "train.log", ported, [ported, slim])
    assert re.search(r"global step 2: loss = [\d.]+", output), output[-3000:]
    checkpoint = tf.train.latest_checkpoint(str(train_dir))
    assert checkpoint and checkpoint.endswith("model.ckpt-2"), (checkpoint, output[-3000:])
    reader = tf.train.load_checkpoint(checkpoint)
    assert reader.get_tensor("global_step") == 2
    assert any("MobilenetV1" in name for name in reader.get_variable_to_shape_map())
