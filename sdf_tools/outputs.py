# Copyright 2026 sdf_tools contributors
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

"""
Writing results: atomically, so a failed run never leaves a partial or clobbered file or folder.

Reading lives in :mod:`sdf_tools.loading.sources`; this is the only module that writes files:
one file (:func:`write_atomically`) or a whole folder (:func:`write_folder`).
"""

import errno
import os
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Mapping


def write_output(path: str | None, text: str) -> None:
    """Write ``text`` to the file ``path`` atomically, or to standard output for ``-``/``None``."""
    if path in (None, '-'):
        sys.stdout.write(text)
        sys.stdout.flush()
    else:
        write_atomically(path, text)


def write_atomically(path: str, text: str | bytes) -> None:
    """
    Write ``text`` to ``path`` so that readers see the old file or the whole new one.

    ``text`` is written as UTF-8; bytes (a picture) as they are.

    The text goes to a temporary file in the same directory, is flushed to disk, and
    replaces ``path`` in one rename; on any failure the temporary file is removed and
    ``path`` is untouched. An existing file's permission bits are kept, and a symbolic link
    is written through (its target is replaced, the link stays). Errors name ``path``.
    """
    import tempfile  # here, not at the top: a run that prints to stdout needs none of it
    target = os.path.realpath(path)
    try:
        fd, tmp = tempfile.mkstemp(prefix='.' + os.path.basename(target) + '.',
                                   suffix='.tmp', dir=os.path.dirname(target))
    except OSError as e:
        raise type(e)(e.errno, e.strerror, path) from None
    try:
        binary = isinstance(text, bytes)
        with os.fdopen(fd, 'wb' if binary else 'w', encoding=None if binary else 'utf-8') as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
        try:
            os.chmod(tmp, os.stat(target).st_mode & 0o7777)
        except FileNotFoundError:
            os.chmod(tmp, 0o666 & ~_umask())
        os.replace(tmp, target)
    except BaseException as e:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        if isinstance(e, OSError) and e.errno is not None:
            raise type(e)(e.errno, e.strerror, path) from None  # the user's name, not tmp's
        raise


def check_folder(path: str, *, replace: bool = False) -> bool:
    """
    Check that :func:`write_folder` may write the folder ``path``; return whether it exists.

    Raises
    ------
    FileExistsError
        ``path`` is a folder holding something, and ``replace`` is not set.
    NotADirectoryError
        ``path`` is something else than a folder (a file, a symbolic link), which is never
        replaced.
    FileNotFoundError
        The folder that would hold ``path`` does not exist.

    """
    if os.path.islink(path) or (os.path.lexists(path) and not os.path.isdir(path)):
        raise NotADirectoryError(errno.ENOTDIR, 'not a folder (a file or a symbolic link), '
                                 'which is never replaced', path)
    parent = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(parent):
        raise FileNotFoundError(errno.ENOENT, 'the folder that would hold it does not exist',
                                path)
    if not os.path.isdir(path):
        return False
    if not replace and os.listdir(path):
        raise FileExistsError(errno.ENOTEMPTY, 'the folder is not empty', path)
    return True


def write_folder(path: str, files: 'Mapping[str, str | bytes | os.PathLike]', *,
                 replace: bool = False) -> None:
    """
    Write the folder ``path`` holding ``files``, so that it appears whole or not at all.

    The folder is built as a hidden temporary sibling (every file flushed to disk), then
    renamed to ``path``. An existing empty folder is replaced by that rename; one holding
    something only with ``replace``, and only once the new one is complete: the old one is
    renamed aside, the new one into place, then the old one removed. On any failure the
    temporary folder is removed and ``path`` is as it was. Files get the permissions the
    umask gives new files, folders those it gives new folders.

    Parameters
    ----------
    path : str
        The folder.
    files : mapping
        Relative path (``/``-separated, inside the folder) -> the text to write (``str``,
        as UTF-8), the bytes, or a file (:class:`os.PathLike`) whose content is copied.
    replace : bool
        Replace a folder that holds something.

    Raises
    ------
    OSError
        From :func:`check_folder`, or a file cannot be read or written; the error names
        ``path`` or the file.
    ValueError
        A relative path is absolute, empty or leaves the folder.

    """
    import shutil  # here, not at the top: only folder writers need it
    import tempfile
    for relative in files:
        parts = relative.split('/')
        if not relative or relative.startswith('/') or any(p in ('', '.', '..') for p in parts):
            raise ValueError(f'{relative!r}: not a relative path inside the folder')
    target = os.path.abspath(path)
    exists = check_folder(target, replace=replace)
    try:
        tmp = tempfile.mkdtemp(prefix='.' + os.path.basename(target) + '.', suffix='.tmp',
                               dir=os.path.dirname(target))
    except OSError as e:
        raise type(e)(e.errno, e.strerror, path) from None
    try:
        for relative, content in files.items():
            _write_file(os.path.join(tmp, *relative.split('/')), content)
        os.chmod(tmp, 0o777 & ~_umask())
        _fsync_folder(tmp)
        _swap(tmp, target, exists and bool(os.listdir(target)), path)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def _write_file(destination: str, content) -> None:
    """Write one file of :func:`write_folder` (its folders made), flushed to disk."""
    import shutil
    os.makedirs(os.path.dirname(destination), exist_ok=True)
    with open(destination, 'xb') as f:
        if isinstance(content, str):
            f.write(content.encode('utf-8'))
        elif isinstance(content, bytes):
            f.write(content)
        else:
            with open(content, 'rb') as source:
                shutil.copyfileobj(source, f, 1024 * 1024)
        f.flush()
        os.fsync(f.fileno())


def _fsync_folder(folder: str) -> None:
    """Flush a folder's entries to disk (where the system allows it)."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _swap(tmp: str, target: str, occupied: bool, name: str) -> None:
    """Rename ``tmp`` to ``target``; an ``occupied`` target is moved aside, then removed."""
    import shutil
    import tempfile
    if not occupied:
        try:
            os.rename(tmp, target)
        except OSError as e:
            raise type(e)(e.errno, e.strerror, name) from None
        return
    aside = tempfile.mkdtemp(prefix='.' + os.path.basename(target) + '.', suffix='.old',
                             dir=os.path.dirname(target))
    try:
        os.rename(target, aside)
    except OSError as e:
        os.rmdir(aside)
        raise type(e)(e.errno, e.strerror, name) from None
    try:
        os.rename(tmp, target)
    except BaseException as e:
        os.rename(aside, target)
        if isinstance(e, OSError):
            raise type(e)(e.errno, e.strerror, name) from None
        raise
    shutil.rmtree(aside, ignore_errors=True)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
