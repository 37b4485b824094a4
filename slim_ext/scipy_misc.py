"""SciPy's image helpers, removed in SciPy 1.2, on Pillow with SciPy 1.1's meaning.

TF1-era input pipelines, dataset tools and tests read, wrote and resized
images with ``scipy.misc.imread``, ``imsave`` and ``imresize`` (and the
``toimage`` / ``fromimage`` / ``bytescale`` they are built on). SciPy removed
them in 1.2 and pointed to imageio and Pillow, which do not do what they did:

* ``toimage`` -- and so ``imsave`` and ``imresize`` -- byte-scales any array
  that is not uint8: its own minimum becomes 0 and its maximum 255 (imageio
  multiplies floats by 255 instead; Pillow refuses them). ``imresize`` of a
  float image returns uint8 values on that scale.
* A 3-D array's channel axis is the first of size 3 (else 4), wherever it is.
* ``fromimage`` -- and so ``imread`` -- expands palette images to RGB (RGBA
  when the palette has a transparent entry) and 1-bit images to 8-bit.

``slimport rewrite`` points those names here; each function below keeps SciPy
1.1's behaviour on the installed Pillow (which SciPy required for them too),
without its deprecation warnings.
"""
from __future__ import annotations

from typing import Any, Optional, Sequence, Tuple, Union

import numpy as np

# imresize's interp names -> Pillow resampling filters (PIL.Image.Resampling).
_RESAMPLING = {"nearest": 0, "lanczos": 1, "bilinear": 2, "bicubic": 3,
               "cubic": 3}
_COLOUR_MODES = ("RGB", "RGBA", "YCbCr", "CMYK")
_MODE_ERROR = "Mode is unknown or incompatible with input array shape."


def _pil_image():
  # Imported on use: only code that reads or writes images needs Pillow.
  from PIL import Image  # pylint: disable=import-outside-toplevel
  return Image


def bytescale(data: np.ndarray, cmin: Any = None, cmax: Any = None,
              high: int = 255, low: int = 0) -> np.ndarray:
  """An array scaled to uint8: ``cmin``..``cmax`` onto ``low``..``high``.

  Args:
    data: the array. A uint8 array is returned as it is.
    cmin: the value that becomes ``low``; the array's minimum by default.
    cmax: the value that becomes ``high``; the array's maximum by default.
    high: at most 255.
    low: at least 0.

  Returns:
    A uint8 array, rounded to the nearest integer and clipped to
    ``low``..``high``.

  Raises:
    ValueError: ``high`` > 255, ``low`` < 0, ``high`` < ``low`` or ``cmax`` <
      ``cmin``.
  """
  if data.dtype == np.uint8:
    return data
  if high > 255:
    raise ValueError("`high` should be less than or equal to 255.")
  if low < 0:
    raise ValueError("`low` should be greater than or equal to 0.")
  if high < low:
    raise ValueError("`high` should be greater than or equal to `low`.")
  cmin = data.min() if cmin is None else cmin
  cmax = data.max() if cmax is None else cmax
  span = cmax - cmin
  if span < 0:
    raise ValueError("`cmax` should be larger than `cmin`.")
  if span == 0:
    span = 1  # a constant image maps to `low`
  scaled = (data - cmin) * (float(high - low) / span) + low
  return (scaled.clip(low, high) + 0.5).astype(np.uint8)


def fromimage(im: Any, flatten: bool = False,
              mode: Optional[str] = None) -> np.ndarray:
  """A copy of a PIL image as an array, colours in the last axis.

  Args:
    im: a PIL image.
    flatten: convert to grey-scale floats (mode 'F'), after ``mode``.
    mode: a PIL mode to convert to first. Without one, a palette image becomes
      RGB (RGBA if it has a transparent entry) and a 1-bit image 8-bit ('L').

  Returns:
    The pixels: (M, N) for grey-scale, (M, N, 3) for RGB, (M, N, 4) for RGBA.

  Raises:
    TypeError: ``im`` is not a PIL image.
  """
  image_class = _pil_image().Image
  if not isinstance(im, image_class):
    raise TypeError("Input is not a PIL image.")
  if mode is not None:
    if mode != im.mode:
      im = im.convert(mode)
  elif im.mode == "P":
    im = im.convert("RGBA" if "transparency" in im.info else "RGB")
  if flatten:
    im = im.convert("F")
  elif im.mode == "1":
    im = im.convert("L")
  return np.array(im)


def imread(name: Any, flatten: bool = False,
           mode: Optional[str] = None) -> np.ndarray:
  """An image file's pixels (``fromimage`` of the opened file).

  Args:
    name: a file name or a binary file object.
    flatten: grey-scale floats (see ``fromimage``).
    mode: a PIL mode to convert to (see ``fromimage``).

  Returns:
    The pixels as an array.
  """
  return fromimage(_pil_image().open(name), flatten=flatten, mode=mode)


def _grey_image(data: np.ndarray, size: Tuple[int, int], high: int, low: int,
                cmin: Any, cmax: Any, pal: Any, mode: Optional[str]) -> Any:
  """toimage of a 2-D array."""
  image_module = _pil_image()
  if mode == "F":
    return image_module.frombytes("F", size, data.astype(np.float32).tobytes())
  if mode in (None, "L", "P"):
    image = image_module.frombytes(
        "L", size, bytescale(data, cmin, cmax, high, low).tobytes())
    if pal is None and mode == "P":  # a grey palette
      pal = np.arange(256, dtype=np.uint8)[:, np.newaxis] * np.ones(
          (3,), dtype=np.uint8)[np.newaxis, :]
    if pal is not None:
      image.putpalette(np.asarray(pal, dtype=np.uint8).tobytes())
    return image
  if mode == "1":  # `high` is the threshold
    return image_module.frombytes("1", size, (data > high).tobytes())
  cmin = np.amin(np.ravel(data)) if cmin is None else cmin
  cmax = np.amax(np.ravel(data)) if cmax is None else cmax
  data = (data * 1.0 - cmin) * (high - low) / (cmax - cmin) + low
  if mode != "I":
    raise ValueError(_MODE_ERROR)
  return image_module.frombytes("I", size, data.astype(np.uint32).tobytes())


def toimage(arr: Any, high: int = 255, low: int = 0, cmin: Any = None,
            cmax: Any = None, pal: Any = None, mode: Optional[str] = None,
            channel_axis: Optional[int] = None) -> Any:
  """A PIL image of an array, byte-scaled unless it is uint8.

  Args:
    arr: a 2-D array, or a 3-D one with an axis of size 3 or 4 (the colours).
    high: the value the array's ``cmax`` becomes (for 'L', 'P', RGB modes), or
      the threshold for mode '1'.
    low: the value ``cmin`` becomes.
    cmin: see ``bytescale``.
    cmax: see ``bytescale``.
    pal: a (256, 3) uint8 palette for a 2-D array (mode 'P').
    mode: the PIL mode. For 2-D arrays 'L' by default, or 'P', 'F' (float32
      values, not scaled), 'I' (scaled to ``low``..``high``) or '1'; for 3-D
      arrays 'RGB' (3 colours) or 'RGBA' (4) by default, or 'YCbCr', 'CMYK'.
    channel_axis: the colours' axis of a 3-D array; by default the first of
      size 3, else the first of size 4.

  Returns:
    The PIL image.

  Raises:
    ValueError: a complex array, a shape no mode fits, or a mode the shape
      does not allow.
  """
  data = np.asarray(arr)
  if np.iscomplexobj(data):
    raise ValueError("Cannot convert a complex-valued array.")
  shape = list(data.shape)
  if not (len(shape) == 2 or (len(shape) == 3 and (3 in shape or 4 in shape))):
    raise ValueError("'arr' does not have a suitable array shape for any mode.")
  if len(shape) == 2:
    return _grey_image(data, (shape[1], shape[0]), high, low, cmin, cmax, pal,
                       mode)
  if channel_axis is None:
    channel_axis = shape.index(3) if 3 in shape else shape.index(4)
  channels = shape[channel_axis]
  if channels not in (3, 4):
    raise ValueError("Channel axis dimension is not valid.")
  # Colours last; the image's size is (columns, rows) of what is left.
  order = [axis for axis in range(3) if axis != channel_axis] + [channel_axis]
  pixels = np.transpose(bytescale(data, cmin, cmax, high, low), order)
  size = (pixels.shape[1], pixels.shape[0])
  if mode is None:
    mode = "RGB" if channels == 3 else "RGBA"
  if mode not in _COLOUR_MODES:
    raise ValueError(_MODE_ERROR)
  if (mode in ("RGB", "YCbCr")) != (channels == 3):
    raise ValueError("Invalid array shape for mode.")
  return _pil_image().frombytes(mode, size, pixels.tobytes())


def imsave(name: Any, arr: Any, format: Optional[str] = None) -> None:  # pylint: disable=redefined-builtin
  """Writes an array as an image file (``toimage`` with the colours last).

  Args:
    name: a file name or a binary file object.
    arr: an (M, N), (M, N, 3) or (M, N, 4) array; byte-scaled unless uint8.
    format: the image format; needed with a file object, else read off the
      file name.
  """
  image = toimage(arr, channel_axis=2)
  if format is None:
    image.save(name)
  else:
    image.save(name, format)


def imresize(arr: Any, size: Union[int, float, Sequence[int]],
             interp: str = "bilinear", mode: Optional[str] = None) -> np.ndarray:
  """An image array resized with Pillow (``toimage``, then ``fromimage``).

  Args:
    arr: the image array; byte-scaled to uint8 unless it is uint8 (see
      ``toimage``), so the result is uint8 on that scale.
    size: an int is a percentage of the size, a float a fraction of it, a
      pair the (rows, columns) wanted.
    interp: 'nearest', 'lanczos', 'bilinear', 'bicubic' or 'cubic'.
    mode: the PIL mode ``toimage`` makes.

  Returns:
    The resized pixels.

  Raises:
    KeyError: an unknown ``interp``.
  """
  image = toimage(arr, mode=mode)
  if np.issubdtype(type(size), np.signedinteger):
    size = tuple((np.array(image.size) * (size / 100.0)).astype(int))
  elif np.issubdtype(type(size), np.floating):
    size = tuple((np.array(image.size) * size).astype(int))
  else:
    size = (size[1], size[0])
  return fromimage(image.resize(size, resample=_RESAMPLING[interp]))
