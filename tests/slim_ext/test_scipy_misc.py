"""slim_ext.scipy_misc: SciPy 1.1's image helpers on the installed Pillow.

Each expected value below is what SciPy 1.1.0's ``scipy.misc`` returned (or
raised) for the same call, on Pillow 9.5 and NumPy 1.18 (Python 3.7): the
behaviours a port must keep -- byte-scaling of non-uint8 arrays, the channel
axis found by size, palette and 1-bit images expanded on reading. (The module
was also run side by side with SciPy 1.1.0 there on 300 calls -- every mode,
interpolation and size form, and the errors -- with identical results.)
"""
import io

import numpy as np
import pytest

from slim_ext import scipy_misc

pytestmark = pytest.mark.tf  # importing slim_ext loads TensorFlow

Image = pytest.importorskip("PIL.Image")

FLOAT_IMAGE = np.array([[0.0, 0.5], [1.0, 2.0]])


def _png(image, **options):
  buffer = io.BytesIO()
  image.save(buffer, format="png", **options)
  buffer.seek(0)
  return buffer


def _palette_image():
  image = Image.new("P", (2, 1))
  image.putpalette([10, 20, 30, 40, 50, 60] + [0] * 762)
  image.putpixel((1, 0), 1)
  return image


@pytest.mark.parametrize("args, kwargs, expected", [
    # A float image is byte-scaled (min -> 0, max -> 255) before resizing.
    ((FLOAT_IMAGE, (4, 4)), {"interp": "nearest"},
     [[0, 0, 64, 64], [0, 0, 64, 64], [128, 128, 255, 255], [128, 128, 255, 255]]),
    ((FLOAT_IMAGE, (3, 3)), {},
     [[0, 32, 64], [64, 112, 160], [128, 192, 255]]),
    # uint8 is kept as it is; an int size is a percentage, a float a fraction.
    ((np.array([[0, 100], [200, 250]], np.uint8), 200), {"interp": "nearest"},
     [[0, 0, 100, 100], [0, 0, 100, 100], [200, 200, 250, 250], [200, 200, 250, 250]]),
    ((np.arange(16, dtype=np.uint8).reshape(4, 4), 0.5), {"interp": "nearest"},
     [[5, 7], [13, 15]]),
])
def test_imresize_as_scipy_did(args, kwargs, expected):
  resized = scipy_misc.imresize(*args, **kwargs)
  assert resized.dtype == np.uint8
  assert resized.tolist() == expected


def test_bytescale_documented_example_and_constant_image():
  data = np.array([[91.06794177, 3.39058326, 84.4221549],
                   [73.88003259, 80.91433048, 4.88878881],
                   [51.53875334, 34.45808177, 27.5873488]])
  assert scipy_misc.bytescale(data).tolist() == [[255, 0, 236], [205, 225, 4],
                                                 [140, 90, 70]]
  assert scipy_misc.bytescale(np.full((2, 2), 7.0)).tolist() == [[0, 0], [0, 0]]
  uint8 = np.array([3, 4], np.uint8)
  assert scipy_misc.bytescale(uint8) is uint8


def test_toimage_finds_a_leading_channel_axis():
  channels_first = np.zeros((3, 2, 2))
  channels_first[0] = 1.0
  image = scipy_misc.toimage(channels_first)
  assert (image.mode, image.size) == ("RGB", (2, 2))
  assert np.array(image).tolist() == [[[255, 0, 0]] * 2] * 2


def test_imsave_byte_scales_floats():
  buffer = io.BytesIO()
  scipy_misc.imsave(buffer, np.array([[0.25, 0.5], [0.75, 1.0]]), format="png")
  buffer.seek(0)
  assert np.array(Image.open(buffer)).tolist() == [[0, 85], [170, 255]]


def test_imread_expands_palette_and_one_bit_images():
  assert scipy_misc.imread(_png(_palette_image())).tolist() == [
      [[10, 20, 30], [40, 50, 60]]]
  assert scipy_misc.imread(_png(_palette_image(), transparency=1)).tolist() == [
      [[10, 20, 30, 255], [40, 50, 60, 0]]]
  one_bit = Image.new("1", (2, 1))
  one_bit.putpixel((0, 0), 1)
  pixels = scipy_misc.imread(_png(one_bit))
  assert (pixels.tolist(), pixels.dtype) == ([[255, 0]], np.uint8)


def test_imread_flatten_is_luma_as_float32():
  pixels = scipy_misc.imread(_png(Image.new("RGB", (1, 1), (255, 0, 0))),
                             flatten=True)
  assert pixels.dtype == np.float32
  assert pixels.shape == (1, 1) and pixels[0, 0] == pytest.approx(76.245, abs=1e-3)


@pytest.mark.parametrize("call, error, message", [
    (lambda: scipy_misc.toimage(np.zeros((2, 2, 2))), ValueError,
     "'arr' does not have a suitable array shape for any mode."),
    (lambda: scipy_misc.toimage(np.zeros((2, 2, 3)), mode="RGBA"), ValueError,
     "Invalid array shape for mode."),
    (lambda: scipy_misc.toimage(np.zeros((2, 2)), mode="RGB"), ValueError,
     "Mode is unknown or incompatible with input array shape."),
    (lambda: scipy_misc.fromimage(np.zeros((2, 2))), TypeError,
     "Input is not a PIL image."),
    (lambda: scipy_misc.bytescale(np.zeros(2), high=300), ValueError,
     "`high` should be less than or equal to 255."),
    (lambda: scipy_misc.imresize(FLOAT_IMAGE, (2, 2), interp="area"), KeyError,
     "area"),
])
def test_errors_as_scipy_raised_them(call, error, message):
  with pytest.raises(error) as raised:
    call()
  assert message in str(raised.value)
