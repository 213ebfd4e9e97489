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
Writing results: atomically, so a failed run never leaves a partial or clobbered file.

Reading lives in :mod:`sdf_tools.loading.sources`; this is the only module that writes files.
"""

import os
import sys


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


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
