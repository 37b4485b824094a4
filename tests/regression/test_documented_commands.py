"""The commands the README and docs/ show run as they stand, from a directory that holds
this repository's examples, as a user's clone would: each line is taken from its page
by ``tests.documented.documented`` (which fails if the page no longer shows it) and run
with this Python's environment on PATH (``slimport``, ``python``).

The install lines are run by tests/slimport/test_install.py, the verify line by
tests/slimport/verify/test_bundled_tree.py; `tox` and `tox -e demo` are what CI runs.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from tests.documented import ROOT, documented, run_documented as run

pytestmark = [pytest.mark.regression, pytest.mark.tf]

@pytest.fixture
def clone(tmp_path: Path) -> Path:
    """A directory with the examples where a clone has them."""
    shutil.copytree(ROOT / "examples", tmp_path / "examples",
                    ignore=shutil.ignore_patterns("__pycache__"))
    return tmp_path


def test_the_readme_before_and_port(clone: Path) -> None:
    before = run(documented("python examples/slim_tf1/train_image_classifier.py --help"),
                 clone)
    assert before.returncode != 0
    assert "AttributeError: module 'tensorflow' has no attribute 'contrib'" in before.stderr
    port = run(documented("slimport rewrite examples/slim_tf1 --out ported --report port.json"),
               clone)
    assert port.returncode == 0, port.stderr
    # The summary the README shows is the one the command prints.
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    shown = re.search(r"^\d+ files changed, [^\n]*other file copied$", readme, re.MULTILINE)
    assert shown is not None and shown.group(0) in port.stderr, port.stderr[-2000:]
    assert (clone / "port.json").is_file() and (clone / "ported" / "nets").is_dir()
    shutil.rmtree(clone / "ported")  # the page is asked instead of the JSON, not after it
    page = run(documented("slimport rewrite examples/slim_tf1 --out ported --report port.html"),
               clone)
    # tests/slimport/test_html_report.py opens such a page in a real browser.
    assert page.returncode == 0 and "<!DOCTYPE html>" in (clone / "port.html").read_text()


def test_the_codemod_list_and_doctor(clone: Path) -> None:
    listed = run(documented("slimport list"), clone)
    assert listed.returncode == 0 and listed.stdout.startswith("contrib_slim ")
    doctor = run(documented("slimport doctor"), clone)
    assert doctor.returncode == 0, doctor.stderr


def test_the_estimator_page(clone: Path) -> None:
    for words in (documented("slimport rewrite examples/estimator_tf1 --out ported_tf1"),
                  documented("slimport rewrite examples/estimator_tf2 --out ported_tf2"),
                  documented("slimport rewrite examples/keras_estimator_tf2 --out ported_keras")):
        done = run(words, clone)
        assert done.returncode == 0, done.stderr
        assert "0 failed" in done.stderr and "Needs attention" not in done.stderr, done.stderr
    made = run(documented("python examples/estimator_tf1/make_data.py --data_dir data"), clone)
    assert made.returncode == 0, made.stderr
    trained = run(documented(
        "python ported_tf1/cifar10_main.py --data_dir data --output_dir out --num_gpus 2"), clone)
    assert trained.returncode == 0, trained.stderr[-4000:]
    assert (clone / "out" / "checkpoint").is_file()
    assert re.search(r"epoch 3: accuracy [\d.]+", trained.stdout + trained.stderr)


def test_the_estimator_pages_experiment_trainer(clone: Path) -> None:
    # tests/regression/test_estimator_examples.py runs its clusters.
    ported = run(documented("slimport rewrite examples/cifar10_estimator_tf1 --out ported_c10"),
                 clone)
    assert ported.returncode == 0, ported.stderr
    assert "0 failed" in ported.stderr and "Needs attention" not in ported.stderr, ported.stderr
    made = run(documented("python ported_c10/generate_data.py --data_dir data_c10"), clone)
    assert made.returncode == 0, made.stderr[-4000:]
    # Two towers on "GPUs" (TensorFlow soft-places them on the CPU), their variables spread
    # by GreedyLoadBalancingStrategy through local_device_setter's DeviceSpecs; learn_runner
    # runs the local schedule, train_and_evaluate.
    trained = run(documented("python ported_c10/cifar10_main.py --data_dir data_c10 "
                             "--output_dir out_c10 --num_gpus 2 --train_steps 80"), clone)
    assert trained.returncode == 0, trained.stderr[-4000:]
    assert 'model_checkpoint_path: "model.ckpt-80"' in (
        clone / "out_c10" / "checkpoint").read_text()
    evaluated = re.findall(r"Saving dict for global step 80: accuracy = ([\d.]+)",
                           trained.stderr)
    # Ten classes: chance is 0.1.
    assert evaluated and float(evaluated[-1]) > 0.25, trained.stderr[-4000:]


def test_the_moxing_page(clone: Path) -> None:
    for words in (
            documented("python examples/moxing_tf1/make_mnist_data.py --data_dir=mnist"),
            documented("slimport rewrite examples/moxing_tf1 --out ported_mox"),
            documented("python ported_mox/train_mnist.py --data_url=mnist --train_url=mnist_train"),
            documented("python ported_mox/eval_mnist.py --data_url=mnist --train_url=mnist_train")):
        done = run(words, clone)
        assert done.returncode == 0, f"{words}:\n{done.stderr[-4000:]}"
    assert (clone / "mnist_train" / "checkpoint").is_file()
    # The training script's export_model=mox.ExportKeys.TF_SERVING.
    assert (clone / "mnist_train" / "1" / "saved_model.pb").is_file()
