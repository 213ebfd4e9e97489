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
The one way in: a description (a file, standard input or text) to a model, and out to SDFormat.

The command line, both ROS nodes and the launch files load through here, so a description is
read, detected, expanded and converted the same way wherever it comes from:

* :func:`load` reads a path (``-``: standard input) or text in any format sdf_tools reads
  (URDF, xacro, SDFormat, RobCoGen Kinematics-DSL), expands xacro when asked (``.xacro``
  files, or ``LoadOptions.xacro``: expanding runs the code the file holds, so markup in
  anything else is refused), and returns a :class:`Loaded`: the
  :class:`~sdf_tools.model.Robot`, the warnings, the files read and where packages were
  looked for, plus for xacro where its lines come from
  (:class:`~sdf_tools.source_map.SourceMap`) and for SDFormat the whole document. It is
  two halves: :func:`prepare` (read, detect, expand: :mod:`.sources`) and :func:`read`
  (each format's reader: :mod:`.readers`); a caller that writes files too (the command
  line's ``-o`` and ``--keep-expanded``) checks them against what was read in between;
* :func:`to_sdf` writes what was loaded as SDFormat: URDF through the libsdformat-compatible
  converter (``<gazebo>`` extensions, fixed-joint lumping), the rest through the SDFormat
  writer;
* :func:`check` returns every problem ``sdf_tools check`` reports.

Where packages (``$(find)``, ``package://``) and models (``model://``, ``<include>``) are
looked for is the run's :class:`~sdf_tools.resources.lookup.Resources`, which the entry point
builds once (:func:`~sdf_tools.resources.lookup.find_resources`) and passes down; :func:`load`
called without them builds the default (around the input file, then the environment), and
nothing below it builds any.

For xacro input, everything reported names the xacro files' lines, never those of the hidden
expansion (:mod:`sdf_tools.loading.xacro_map`). Nothing here imports ROS, and nothing here
writes a file. Errors are :class:`~sdf_tools.errors.SdfToolsError` whose text is compiler
style, e.g. ``robot.urdf:42: joint 'elbow': <limit> upper must be a number, got 'abc'``.
"""

from sdf_tools.loading.converting import check
from sdf_tools.loading.converting import Converted
from sdf_tools.loading.converting import errors_in
from sdf_tools.loading.converting import left_out_of_sdf
from sdf_tools.loading.converting import to_sdf
from sdf_tools.loading.options import LoadOptions
from sdf_tools.loading.options import WrongFormat
from sdf_tools.loading.readers import files_read
from sdf_tools.loading.readers import Loaded
from sdf_tools.loading.readers import read
from sdf_tools.loading.sources import prepare
from sdf_tools.loading.sources import Prepared
from sdf_tools.resources.lookup import find_resources
from sdf_tools.resources.lookup import Resources

__all__ = ['check', 'Converted', 'errors_in', 'files_read', 'left_out_of_sdf', 'load',
           'Loaded', 'LoadOptions', 'prepare', 'Prepared', 'read', 'to_sdf', 'WrongFormat']


def load(path: str | None = None, options: LoadOptions | None = None, *,
         text: str | bytes | None = None, resources: Resources | None = None) -> Loaded:
    """
    Read a description file, standard input (``-``) or text into a model.

    Parameters
    ----------
    path : str, optional
        ``.urdf``, ``.xacro``, ``.sdf``, ``.world``, ``.kindsl`` or ``-``.
    options : LoadOptions, optional
        Arguments, forced format, ... (defaults: detect the format; expand xacro in
        ``.xacro`` files only).
    text : str or bytes, optional
        The description itself, instead of ``path`` (named ``options.source``).
    resources : Resources, optional
        Where ``$(find pkg)``, ``package://``, ``model://`` and ``<include>`` s look
        (:func:`~sdf_tools.resources.lookup.find_resources`); default: around the input
        file, then the environment.

    Returns
    -------
    Loaded

    Raises
    ------
    SdfToolsError
        The input cannot be read, is empty, too large or in no format sdf_tools reads,
        holds xacro markup not asked for (``options.xacro``), xacro fails, or the
        description is invalid; the message lists every problem with its file and line.
    WrongFormat
        The input is in a format ``options.formats`` does not hold.
    ValueError
        Neither or both of ``path`` and ``text`` are given, or a RobCoGen parameter value
        is not a number.

    """
    options = options or LoadOptions()
    if resources is None:  # the one default: the lookups of a run without an entry point
        resources = find_resources(near=None if path in (None, '-') else path)
    return read(prepare(path, options, resources, text=text), options)
