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
SDFormat's rules for element names, in one place for the reader and the writers.

``world`` and names that start and end with ``__`` (``__model__``, ...) are reserved, and from
SDFormat 1.8 on ``::`` separates nested scopes, so a plain name may not contain it. Names are
judged as libsdformat reads them, without the spaces around them.
"""

from sdf_tools.topology import WORLD


def as_read(name: str) -> str:
    """Return ``name`` as libsdformat reads it: it trims attribute values (``' a '`` is ``a``)."""
    return name.strip()


def is_reserved(name: str) -> bool:
    """Return whether SDFormat reserves ``name`` (``world``, ``__anything__``) as it reads it."""
    name = as_read(name)
    return name == WORLD or (len(name) >= 4 and name.startswith('__') and name.endswith('__'))


def name_problem(name: str, what: str = 'name', version: tuple = (1, 9)) -> str | None:
    """
    Return why ``name`` cannot be an SDFormat element name, or ``None`` when it can.

    Parameters
    ----------
    name : str
        The name.
    what : str
        How messages call it, e.g. ``'model name'``.
    version : tuple
        The SDFormat version as ``(major, minor)``.

    """
    read = as_read(name)
    if not read:
        return f'the {what} is empty'
    if is_reserved(name):
        trimmed = '' if name == read else f' (read as {read!r}: SDFormat trims names)'
        return f'the {what} {name!r}{trimmed} is reserved in SDFormat'
    if '::' in name and version >= (1, 8):
        return (f"{what}s must not contain '::' in SDFormat 1.8 and later (it separates "
                'nested scopes)')
    return None
