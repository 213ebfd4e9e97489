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
What the launch files call: read a description file into text, parse launch argument values.

Kept out of the launch files so that it is tested without ``launch`` installed; imports
neither rclpy nor launch. Errors are :class:`ValueError` or
:class:`~sdf_tools.errors.SdfToolsError` with a message meant for the person running
``ros2 launch``.
"""

import shlex

from sdf_tools.files.packages import PackagePath
from sdf_tools.files.packages import PackageResolver
from sdf_tools.files.sources import read_description as _read_description

_TRUE = frozenset({'true', '1', 'yes', 'on'})
_FALSE = frozenset({'false', '0', 'no', 'off'})


def parse_xacro_args(text: str) -> dict:
    """
    Return the ``name:=value`` pairs of a launch argument such as ``"prefix:=left_ arm:=true"``.

    Values may be quoted (shell rules): ``'name:="a b"'``.

    Raises
    ------
    ValueError
        An item is not ``name:=value``.

    """
    mappings = {}
    for item in shlex.split(text or ''):
        name, sep, value = item.partition(':=')
        if not sep or not name:
            raise ValueError(f'xacro_args: expected name:=value items, got {item!r}')
        mappings[name] = value
    return mappings


def read_description(path: str, xacro_args: str = '', package_path: str = '') -> str:
    """
    Return the description text of a file, expanding xacro.

    Parameters
    ----------
    path : str
        ``.urdf``, ``.xacro``, ``.sdf``, ``.world`` or ``.kindsl`` file (the format is decided
        as :func:`sdf_tools.files.sources.detect_format` does).
    xacro_args : str
        ``name:=value`` items for xacro (:func:`parse_xacro_args`).
    package_path : str
        Folders where xacro's ``$(find pkg)`` looks first, ``:``-separated (the
        ``package_path`` launch argument); then the environment and the folders around
        ``path`` (:mod:`sdf_tools.files.packages`).

    Raises
    ------
    ValueError
        ``path`` is empty, ``xacro_args`` are malformed or given for a file that is not
        xacro, or a ``package_path`` folder does not exist.
    SdfToolsError
        The file cannot be read, or xacro fails (file:line and xacro's reason; a package
        not found lists where it was looked for).

    """
    if not path:
        raise ValueError('description_file is required, e.g. description_file:=robot.urdf')
    mappings = parse_xacro_args(xacro_args)
    packages = PackagePath.from_environment([package_path], near=path,
                                            option='the package_path launch argument')
    description = _read_description(path, mappings, PackageResolver(packages))
    if mappings and not description.xacro:
        raise ValueError(f'xacro_args given, but {path} is {description.fmt}, not xacro')
    return description.data.decode('utf-8')


def as_bool(name: str, value: str) -> bool:
    """Return a launch argument as a bool (``true/false``, ``1/0``, ``yes/no``, ``on/off``)."""
    text = str(value).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    raise ValueError(f'{name} must be true or false, got {value!r}')


def as_float(name: str, value: str) -> float:
    """Return a launch argument as a float (``1`` is 1.0: ROS double parameters need it)."""
    try:
        return float(value)
    except ValueError:
        raise ValueError(f'{name} must be a number, got {value!r}') from None
