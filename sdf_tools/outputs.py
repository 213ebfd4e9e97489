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
Writing results: never a partial or clobbered file, never a file that was read.

Reading lives in :mod:`sdf_tools.loading.sources`; this is the only module that writes files:
one file or a whole folder (:func:`write_folder`, for ``sdf_tools export``).

* :func:`check_outputs` refuses, before anything is written, an output that is a file read to
  make it (the input, the file on standard input, a xacro include, a YAML file xacro
  loaded, an SDFormat include and its model.config, a package.xml, a mesh) or that another
  output of the same run names; files are compared by identity (device and inode), so
  links and other spellings of a name are caught;
* :func:`descriptor_of` tells a name of a file descriptor (``/dev/stdout``, a link to
  ``/proc/self/fd/1``, ...) by what it resolves to, not by its spelling: such an output is
  written through the descriptor, never replaced;
* :func:`write_output` writes to standard output or a file (:func:`write_file`);
* :func:`write_file` replaces a regular file atomically (:func:`write_atomically`) and writes a
  FIFO or a device in place (``-o /dev/null`` discards, and ``/dev/null`` stays a device);
  a directory is an error.

While a file is written atomically, SIGTERM and SIGHUP remove the temporary file before they
end the process, as Ctrl-C (SIGINT, ``KeyboardInterrupt``) does.
"""

import contextlib
import errno
import os
import re
import stat
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Iterable
    from collections.abc import Iterator
    from collections.abc import Mapping
    from types import FrameType
    from typing import TextIO

#: What standard output is called in messages.
STDOUT = '<stdout>'
#: Standard input, among the inputs of :func:`check_outputs` (the file open on it).
STDIN = '-'
_DESCRIPTOR_NAMES = {1: STDOUT, 2: '<stderr>'}
#: Most symbolic links followed to tell whether a name is a file descriptor (Linux's limit).
_MAX_LINKS = 40
#: The folders of a process's descriptors below ``/proc/PID``: its own, or a thread's (a
#: pattern compiled when first used: most processes never use it).
_FD_FOLDER = r'(?:/task/[0-9]+)?/fd'
#: What tells files apart (:func:`_identity`): a path, ``(device, inode)``, or ``(device,
#: inode, name)`` of a folder and a name in it.
_Identity = str | tuple[int, int] | tuple[int, int, str]


class OverwriteError(ValueError):
    """An output names a file that was read to make it, or that another output names."""


def check_outputs(outputs: 'Iterable[str | None]', inputs: 'Iterable[str]' = ()) -> None:
    """
    Refuse outputs that would overwrite a file read to make them, or each other.

    Called before anything is written. Outputs that are no regular file (a FIFO, a device:
    written in place, never replaced) are not compared with the inputs; an output that does
    not exist yet is compared by its folder and name, each as the path resolves (``x/../y``
    and ``y/`` are ``y``). An output that names a file descriptor (:func:`descriptor_of`:
    ``-``, ``/dev/stdout``, ``/proc/self/fd/1``, ...) is compared with the inputs by the
    file open there; two outputs to one descriptor are refused; ``None`` is no output.

    Parameters
    ----------
    outputs : iterable of str or None
        The files the run writes.
    inputs : iterable of str
        The files read to make them, the input itself first; ``-`` (:data:`STDIN`) is the
        file open on standard input, compared by what it is (``urdf2sdf - -o in.urdf <
        in.urdf`` is refused).

    Raises
    ------
    OverwriteError
        The message names the output and the file it is, e.g. ``refusing to write
        robot.urdf: it is the input; nothing was written``.

    """
    read: dict[_Identity, tuple[int, str]] = {}
    for index, source in enumerate(inputs):
        found = _identity(source) if source != STDIN else _descriptor_identity(0)
        if found is not None:
            read.setdefault(found, (index, source))
    written: dict[_Identity | tuple[str, int], str] = {}
    for name in outputs:
        if name is None:
            continue
        descriptor = descriptor_of(name)
        key = ('descriptor', descriptor) if descriptor is not None else _identity(name)
        opened = _descriptor_identity(descriptor) if descriptor is not None else key
        shown = name if descriptor is None else _DESCRIPTOR_NAMES.get(
            descriptor, f'file descriptor {descriptor}')
        if key is None:
            continue
        if descriptor is not None and key in written:
            problem = f'refusing to write two outputs to {shown} ({written[key]} and {name})'
        elif opened in read:
            index, other = read[opened]
            problem = f'refusing to write {shown}: it is {_what(index, other, name)}'
        elif key in written:
            other = written[key]
            problem = (f'refusing to write {name} twice (two outputs name it)' if other == name
                       else f'refusing to write {other} and {name}: they are the same file')
        else:
            written[key] = name
            continue
        raise OverwriteError(f'{problem}; nothing was written')


def _what(index: int, other: str, name: str) -> str:
    """Return what the input ``other`` (the ``index``-th) is, for an output named ``name``."""
    if other == STDIN:
        return 'the file on standard input, the input'
    if index == 0:
        return 'the input' if other == name else f'the input {other}'
    return f'{other}, which was read to make the output'


def _identity(path: str) -> _Identity | None:
    """
    Return what tells ``path``'s file apart, or ``None`` when it is no regular file.

    ``(device, inode)`` of an existing regular file (through symbolic links); for a name
    that does not exist yet, ``(device, inode)`` of its folder and its name. The path is
    resolved as :func:`write_atomically` resolves it (``os.path.realpath``), so that what is
    compared is what would be written.
    """
    real = os.path.realpath(path)
    try:
        info = os.stat(real)
    except OSError:
        folder, name = os.path.split(real)
        try:
            info = os.stat(folder)
        except OSError:
            return real
        return info.st_dev, info.st_ino, name
    return (info.st_dev, info.st_ino) if stat.S_ISREG(info.st_mode) else None


def _descriptor_identity(descriptor: int) -> tuple[int, int] | None:
    """Return ``(device, inode)`` of the regular file open on ``descriptor``, or ``None``."""
    try:
        info = os.fstat(descriptor)
    except OSError:  # closed
        return None
    return (info.st_dev, info.st_ino) if stat.S_ISREG(info.st_mode) else None


def descriptor_of(path: str) -> int | None:
    """
    Return the file descriptor of this process ``path`` names, or ``None`` for any other.

    ``-`` is standard output (1). Any other name is told by what it resolves to, not by
    its spelling: its symbolic links are followed one at a time, and a name ``N`` in this
    process's folder of descriptors (``/proc/self/fd``, ``/proc/thread-self/fd``,
    ``/proc/PID/task/TID/fd``; ``/dev/fd`` where it is a folder of its own) is descriptor
    ``N``. So ``/dev/stdout``, ``//dev/stdout``, ``/dev/./stdout``, ``/dev/fd/../fd/1`` and
    a link to ``/proc/self/fd/1`` all name 1, and the file open there is written through
    it, never replaced (``>> log`` keeps the log). The last link, a descriptor's own, is
    never followed: it names what the descriptor has open, under a name of its own.
    """
    if path == '-':
        return 1
    current = path
    for _ in range(_MAX_LINKS):
        folder, name = os.path.split(current)
        if name.isascii() and name.isdigit() and _descriptor_folder(folder):
            return int(name)
        try:
            target = os.readlink(current)
        except (OSError, ValueError):  # not a symbolic link (or no such file, a NUL byte)
            return None
        current = os.path.join(folder, target)
    return None


def _descriptor_folder(folder: str) -> bool:
    """Return whether ``folder`` is where this process's file descriptors are listed."""
    real = os.path.realpath(folder or os.curdir)
    own = os.path.realpath('/proc/self')  # /proc/PID, as /proc numbers this process
    if real.startswith(own + '/') and re.fullmatch(_FD_FOLDER, real[len(own):]):
        return True
    return real == '/dev/fd' and not os.path.islink('/dev/fd')  # BSD and macOS: fdescfs


def write_output(path: str | None, text: str | bytes) -> None:
    """Write ``text`` to the file ``path`` (:func:`write_file`), or stdout for ``-``/``None``."""
    if path in (None, '-'):
        _write_descriptor(1, STDOUT, text)
    else:
        write_file(path, text)


def flush_stdout() -> None:
    """Flush standard output; an error (a full disk, a closed pipe) names ``<stdout>``."""
    if sys.stdout is None:  # closed when the process started: nothing was written to it
        return
    try:
        sys.stdout.flush()
    except OSError as e:
        raise _named(e, STDOUT) from None


def _standard_output() -> 'TextIO':
    """Return ``sys.stdout``; ``OSError`` (EBADF) when the process was started without one."""
    if sys.stdout is None:
        raise OSError(errno.EBADF, 'standard output is closed (started with >&-); give the '
                      'output file with -o', STDOUT)
    return sys.stdout


def write_file(path: str, text: str | bytes, *, wait_for_reader: bool = True) -> None:
    """
    Write ``text`` (UTF-8) to ``path``: a regular file atomically, a FIFO or device in place.

    Bytes (a picture) are written as they are.

    A file that does not exist yet or a regular file is written by
    :func:`write_atomically`; a FIFO, character or block device (``/dev/null``) is opened
    and written, never replaced nor created; a symbolic link is written through. A name of
    a file descriptor (``/dev/stdout``, ``/dev/stderr``, ``/dev/fd/N``) is written through
    that descriptor, as a shell does (:func:`descriptor_of`): ``-o /dev/stdout >> log``
    appends to ``log``, never replaces it. Errors (``OSError``) name ``path``: a
    directory, a socket, a full disk, a closed standard output, ...

    Opening a FIFO waits for a process to read it, as a shell's ``>`` does; with
    ``wait_for_reader=False`` (a node, which must not hang in a callback) a FIFO that no
    process reads is an error instead.
    """
    descriptor = descriptor_of(path)
    if descriptor is not None:
        _write_descriptor(descriptor, path, text)
        return
    try:
        mode = os.stat(path).st_mode
    except OSError:  # does not exist yet (or cannot be told): the atomic write says why
        mode = None
    if mode is not None and _in_place(mode):
        _write_in_place(path, text, wait_for_reader)
    else:
        write_atomically(path, text)


def _write_descriptor(descriptor: int, path: str, text: str | bytes) -> None:
    """Write ``text`` through an open file descriptor (after what the process wrote to it)."""
    try:
        if descriptor in (1, 2):
            stream = _standard_output() if descriptor == 1 else sys.stderr
            if stream is None:
                raise OSError(errno.EBADF, 'standard error is closed (started with 2>&-)')
            if isinstance(text, bytes):
                stream.flush()
                stream.buffer.write(text)
                stream.buffer.flush()
            else:
                stream.write(text)
                stream.flush()
        else:
            with open(os.dup(descriptor), 'wb') as f:
                f.write(_encoded(text))
    except OSError as e:
        raise _named(e, path) from None


def _encoded(text: str | bytes) -> bytes:
    return text if isinstance(text, bytes) else text.encode('utf-8')


def _in_place(mode: int) -> bool:
    return stat.S_ISFIFO(mode) or stat.S_ISCHR(mode) or stat.S_ISBLK(mode)


def _write_in_place(path: str, text: str | bytes, wait_for_reader: bool) -> None:
    """Open a FIFO or device (no creation, no truncation) and write ``text`` to it."""
    try:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CLOEXEC |
                         (0 if wait_for_reader else os.O_NONBLOCK))
        except OSError as e:
            if e.errno == errno.ENXIO and not wait_for_reader:
                raise OSError(e.errno, 'a FIFO that no process reads', path) from None
            raise
        if not _in_place(os.fstat(fd).st_mode):  # replaced by a file since: write that one
            os.close(fd)
            write_atomically(path, text)
            return
        os.set_blocking(fd, True)  # a reader is there: it takes the text at its pace
        with open(fd, 'wb') as f:
            f.write(_encoded(text))
    except OSError as e:
        raise _named(e, path) from None


def write_atomically(path: str, text: str | bytes) -> None:
    """
    Write ``text`` to ``path`` so that readers see the old file or the whole new one.

    ``text`` is written as UTF-8; bytes (a picture) as they are.

    The text goes to a temporary file in the same directory, is flushed to disk, and
    replaces ``path`` in one rename; on any failure the temporary file is removed and
    ``path`` is untouched. An existing file's permission bits are kept, and a symbolic link
    is written through (its target is replaced, the link stays). Only a regular file is
    replaced: anything else (a directory, a FIFO, a device) is an error
    (:func:`write_file` writes FIFOs and devices in place). Errors name ``path``. SIGTERM
    and SIGHUP meanwhile remove the temporary file, then end the process
    (:func:`_signals_clean_up`).
    """
    import tempfile  # here, not at the top: a run that prints to stdout needs none of it
    if path.endswith(os.sep) or (os.altsep and path.endswith(os.altsep)):
        raise IsADirectoryError(errno.EISDIR, 'a name ending in a slash names a folder', path)
    try:  # the folder as the system sees it (realpath would read 'missing/../x' as 'x')
        os.stat(os.path.dirname(path) or os.curdir)
    except OSError as e:
        raise _named(e, path) from None
    target = os.path.realpath(path)
    try:
        mode: int | None = os.stat(target).st_mode
    except FileNotFoundError:
        mode = None
    except OSError as e:
        raise _named(e, path) from None
    if mode is not None and not stat.S_ISREG(mode):
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
        raise OSError(errno.EINVAL, 'not a regular file: it is never replaced', path)
    with _signals_clean_up():
        tmp = None
        try:
            with _signals_blocked():  # no signal between the file's creation and ``tmp =``
                fd, tmp = tempfile.mkstemp(prefix='.' + os.path.basename(target) + '.',
                                           suffix='.tmp', dir=os.path.dirname(target))
            with os.fdopen(fd, 'wb') as f:
                f.write(_encoded(text))
                f.flush()
                os.fsync(f.fileno())
            os.chmod(tmp, 0o666 & ~_umask() if mode is None else mode & 0o7777)
            os.replace(tmp, target)
        except BaseException as e:
            if tmp is not None:
                try:
                    os.unlink(tmp)
                except FileNotFoundError:
                    pass
            if isinstance(e, OSError) and e.errno is not None:
                raise _named(e, path) from None  # the user's name, not tmp's
            raise


def _named(e: OSError, name: str) -> OSError:
    """Return ``e`` naming ``name`` (a file name, ``<stdout>``) as the file that failed."""
    if e.errno is None:
        return e
    return type(e)(e.errno, e.strerror, name)


# --- signals during an atomic write ----------------------------------------------------------

_CLEANUP_SIGNALS = ('SIGTERM', 'SIGHUP')


class _Terminated(BaseException):
    """A signal that ends the process arrived during an atomic write."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


def _terminate(signum: int, frame: 'FrameType | None') -> None:
    raise _Terminated(signum)


@contextlib.contextmanager
def _signals_clean_up() -> 'Iterator[None]':
    """
    Let SIGTERM and SIGHUP raise in the block, then end the process by the signal after it.

    Only a signal left to its default action (ending the process at once, which would leave
    the temporary file behind) is handled; one the program handles itself (the nodes stop
    between two callbacks on SIGTERM: the write finishes first) or ignores is left alone.
    The handlers are installed in the main thread only (Python runs handlers there), for
    the block only, and the previous ones are put back before the process ends.
    """
    import signal
    import threading
    installed = {}
    if threading.current_thread() is threading.main_thread():
        for name in _CLEANUP_SIGNALS:
            signum = getattr(signal, name, None)
            if signum is not None and signal.getsignal(signum) == signal.SIG_DFL:
                installed[signum] = signal.signal(signum, _terminate)
    received = None
    try:
        yield
    except _Terminated as e:
        received = e.signum
    finally:
        for signum, handler in installed.items():
            signal.signal(signum, handler)
    if received is not None:
        os.kill(os.getpid(), received)  # its default action again: the process ends
        raise SystemExit(128 + received)  # only if the signal was delivered to another thread


@contextlib.contextmanager
def _signals_blocked() -> 'Iterator[None]':
    """Hold SIGINT, SIGTERM and SIGHUP back in this thread while the block runs."""
    import signal
    held = {signal.SIGINT} | {getattr(signal, name) for name in _CLEANUP_SIGNALS
                              if hasattr(signal, name)}
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, held)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


# --- folders ------------------------------------------------------------------------------

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
    umask gives new files, folders those it gives new folders. SIGTERM and SIGHUP meanwhile
    remove the temporary folder, then end the process, as for :func:`write_atomically`.

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
    with _signals_clean_up():
        tmp = None
        try:
            with _signals_blocked():  # no signal between the folder's creation and ``tmp =``
                try:
                    tmp = tempfile.mkdtemp(prefix='.' + os.path.basename(target) + '.',
                                           suffix='.tmp', dir=os.path.dirname(target))
                except OSError as e:
                    raise type(e)(e.errno, e.strerror, path) from None
            for relative, content in files.items():
                _write_file(os.path.join(tmp, *relative.split('/')), content)
            os.chmod(tmp, 0o777 & ~_umask())
            _fsync_folder(tmp)
            with _signals_blocked():  # the old folder is never left aside on its own
                _swap(tmp, target, exists and bool(os.listdir(target)), path)
        except BaseException:
            if tmp is not None:
                shutil.rmtree(tmp, ignore_errors=True)
            raise


def _write_file(destination: str, content: 'str | bytes | os.PathLike') -> None:
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
