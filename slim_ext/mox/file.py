"""mox.file: MoXing's file API on ``tf.io.gfile``.

MoXing scripts read and write OBS (``obs://``, ``s3://``) and local paths
through one API, ``mox.file``. Here it is built on ``tf.io.gfile``, so it
works on local paths and on every file system TensorFlow has (``gs://``,
``hdfs://``; ``s3://`` with tensorflow-io). Object stores have no real
directories, so a MoXing script never creates one before writing into it:
``copy``, ``copy_parallel``, ``write`` and ``append`` create the parent
directories of what they write, and the same script keeps working once its
paths are local.

A path on a file system TensorFlow does not have raises ValueError naming
it and what to do.
"""
from __future__ import annotations

import concurrent.futures
import functools
import posixpath
from typing import Any, Callable, Iterator, List, Optional, Sequence, Tuple, TypeVar

from absl import logging
import tensorflow as tf

__all__ = [
    "File", "append", "copy", "copy_parallel", "exists", "get_size", "glob",
    "is_directory", "list_directory", "make_dirs", "mk_dir", "read", "remove",
    "rename", "walk", "write",
]

File = tf.io.gfile.GFile

_Function = TypeVar("_Function", bound=Callable[..., Any])


def _file_system_checked(function: _Function) -> _Function:
  """Turns "no file system for this scheme" into an error saying what to do."""
  @functools.wraps(function)
  def checked(*args, **kwargs):
    try:
      return function(*args, **kwargs)
    except tf.errors.UnimplementedError as error:
      raise ValueError(
          f"mox.file.{function.__name__}({', '.join(map(repr, args))}): "
          f"TensorFlow has no file system for this path ({error.message}). "
          "slim_ext.mox.file runs on tf.io.gfile: use a local path (copy OBS "
          "data down first, e.g. with obsutil), or install the file system's "
          "TensorFlow plugin (tensorflow-io for s3://).") from None
  return checked


def _join(directory: str, name: str) -> str:
  """`directory`/`name`, either of which may be "" (nothing to join)."""
  if not directory or not name:
    return directory or name
  return f"{directory.rstrip('/')}/{name}"


def _make_parent(url: str) -> None:
  parent = posixpath.dirname(url.rstrip("/"))
  if parent and not parent.endswith(":/") and not tf.io.gfile.exists(parent):
    tf.io.gfile.makedirs(parent)


def _relative_walk(url: str) -> Iterator[Tuple[str, List[str], List[str]]]:
  """tf.io.gfile.walk, with each directory given relative to `url` ("" first)."""
  root = url.rstrip("/")
  for directory, subdirectories, files in tf.io.gfile.walk(root):
    relative = directory.rstrip("/")[len(root):].lstrip("/")
    yield relative, subdirectories, files


@_file_system_checked
def exists(url: str) -> bool:
  """Whether a file or directory is at `url`."""
  return tf.io.gfile.exists(url)


@_file_system_checked
def is_directory(url: str) -> bool:
  """Whether `url` is a directory."""
  return tf.io.gfile.isdir(url)


@_file_system_checked
def glob(url: str) -> List[str]:
  """The paths matching the pattern `url` (``*``, ``?``, ``[...]``)."""
  return tf.io.gfile.glob(url)


@_file_system_checked
def list_directory(url: str, recursive: bool = False,
                   remove_sep: bool = False, skip_file: bool = False,
                   skip_dir: bool = False) -> List[str]:
  """The entries of the directory `url`, sorted, relative to it.

  Args:
    url: a directory.
    recursive: list everything under it (paths like "a/b.txt"), not only
      its own entries.
    remove_sep: MoXing strips a trailing "/" from OBS directory names when
      asked; names here never have one.
    skip_file: leave files out.
    skip_dir: leave directories out.

  Returns:
    The sorted entries.

  Raises:
    tf.errors.NotFoundError: `url` is not a directory.
  """
  del remove_sep  # names never end in a separator here
  if not tf.io.gfile.isdir(url):
    raise tf.errors.NotFoundError(None, None,
                                  f"{url}: no such directory to list.")
  entries = []
  for directory, subdirectories, files in _relative_walk(url):
    if not skip_dir:
      entries.extend(_join(directory, name) for name in subdirectories)
    if not skip_file:
      entries.extend(_join(directory, name) for name in files)
    if not recursive:
      break
  return sorted(entries)


@_file_system_checked
def walk(url: str, topdown: bool = True,
         onerror: Optional[Callable[[Exception], None]] = None):
  """``os.walk`` for any path: (directory, subdirectories, files) tuples."""
  return tf.io.gfile.walk(url, topdown=topdown, onerror=onerror)


@_file_system_checked
def make_dirs(url: str) -> None:
  """Creates the directory `url` and any missing parents; fine if it exists."""
  tf.io.gfile.makedirs(url)


@_file_system_checked
def mk_dir(url: str) -> None:
  """Creates the directory `url`; its parent must exist."""
  tf.io.gfile.mkdir(url)


@_file_system_checked
def get_size(url: str, recursive: bool = False) -> int:
  """Bytes in the file `url`, or in every file under the directory `url`.

  Args:
    url: a file or a directory.
    recursive: MoXing's switch for OBS directories; local directories (and
      every directory here) always count everything under them.

  Returns:
    The size in bytes.
  """
  del recursive  # always, as MoXing does for local paths
  if not tf.io.gfile.isdir(url):
    return tf.io.gfile.stat(url).length
  return sum(tf.io.gfile.stat(_join(_join(url, directory), name)).length
             for directory, _, files in _relative_walk(url) for name in files)


@_file_system_checked
def read(url: str, binary: bool = False) -> Any:
  """The whole file: bytes if `binary`, else str (UTF-8)."""
  with tf.io.gfile.GFile(url, "rb" if binary else "r") as f:
    return f.read()


@_file_system_checked
def write(url: str, data: Any, binary: bool = False) -> None:
  """Replaces the file's content with `data` (bytes if `binary`, else str)."""
  _make_parent(url)
  with tf.io.gfile.GFile(url, "wb" if binary else "w") as f:
    f.write(data)


@_file_system_checked
def append(url: str, data: Any, binary: bool = False) -> None:
  """Adds `data` at the end of the file, creating it if needed."""
  _make_parent(url)
  with tf.io.gfile.GFile(url, "ab" if binary else "a") as f:
    f.write(data)


@_file_system_checked
def copy(src_url: str, dst_url: str) -> None:
  """Copies one file, replacing `dst_url` if it exists.

  Raises:
    ValueError: `src_url` is a directory (copy_parallel copies those).
    tf.errors.NotFoundError: `src_url` does not exist.
  """
  if tf.io.gfile.isdir(src_url):
    raise ValueError(f"mox.file.copy: {src_url} is a directory; copy copies "
                     "one file, copy_parallel(src_url, dst_url) a directory.")
  _make_parent(dst_url)
  tf.io.gfile.copy(src_url, dst_url, overwrite=True)


@_file_system_checked
def copy_parallel(src_url: str, dst_url: str,
                  file_list: Optional[Sequence[str]] = None,
                  threads: int = 16, is_processing: bool = False,
                  use_queue: bool = True) -> None:
  """Copies the directory `src_url` into `dst_url`, files in parallel.

  Like ``shutil.copytree`` except that `dst_url` may exist: files already
  there are replaced, others kept.

  Args:
    src_url: the directory to copy.
    dst_url: where its content goes (created if needed).
    file_list: copy only these paths, relative to `src_url`.
    threads: files copied at once.
    is_processing: MoXing's choice of processes over threads; copies here
      always use threads (the work is I/O).
    use_queue: how MoXing fed its workers; no effect here.

  Raises:
    ValueError: `src_url` is not a directory, or `threads` < 1.
  """
  del is_processing, use_queue  # how MoXing spread the work; same result
  if not tf.io.gfile.isdir(src_url):
    raise ValueError(f"mox.file.copy_parallel: {src_url} is not a directory; "
                     "copy(src_url, dst_url) copies a single file.")
  if threads < 1:
    raise ValueError(f"mox.file.copy_parallel: threads={threads}; need >= 1.")
  if file_list is None:
    tf.io.gfile.makedirs(dst_url)
    for directory, subdirectories, _ in _relative_walk(src_url):
      for name in subdirectories:
        tf.io.gfile.makedirs(_join(dst_url, _join(directory, name)))
    file_list = list_directory(src_url, recursive=True, skip_dir=True)

  def copy_one(relative: str) -> None:
    copy(_join(src_url, relative), _join(dst_url, relative))

  with concurrent.futures.ThreadPoolExecutor(max_workers=threads) as pool:
    # list() re-raises the first copy that failed.
    list(pool.map(copy_one, file_list))


@_file_system_checked
def remove(url: str, recursive: bool = False) -> None:
  """Deletes a file, or with `recursive` a directory and all under it.

  As in MoXing, a directory given without `recursive` is left in place (a
  warning says so).

  Raises:
    tf.errors.NotFoundError: nothing is at `url`.
  """
  if tf.io.gfile.isdir(url):
    if recursive:
      tf.io.gfile.rmtree(url)
    else:
      logging.warning("mox.file.remove: %s is a directory; kept (pass "
                      "recursive=True to delete it and its content).", url)
    return
  tf.io.gfile.remove(url)


@_file_system_checked
def rename(src_url: str, dst_url: str) -> None:
  """Moves a file or directory; an existing file at `dst_url` is replaced."""
  tf.io.gfile.rename(src_url, dst_url, overwrite=True)
