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
The ``<mesh><uri>`` the converter writes for each URDF ``<mesh filename>``.

``ConversionOptions.mesh_uris`` picks one of :data:`MODES`:

* ``model`` (default, libsdformat's rule): the first ``package://`` becomes ``model://``;
  Gazebo then finds ``model://pkg/x`` as ``pkg/x`` in a folder of its resource path
  (``GZ_SIM_RESOURCE_PATH``), e.g. ``PREFIX/share`` for an installed package;
* ``file``: every mesh becomes ``file:///absolute/path``, found through the package
  resolver (``package://`` and ``model://``), as written (``file://``, absolute paths) or
  against the description file's folder (relative paths). A URI that cannot be located is
  kept as written, with the warning that says why; Gazebo then needs its resource path;
* ``package``: as written (``package://`` stays; for tools that resolve it themselves).

Only the URIs the converter writes from URDF geometry change: ``<gazebo>`` blobs are copied as
written in every mode (libsdformat's rule), so a ``<uri>`` in one (a material script, a
plugin parameter) is the author's, for Gazebo.

With a resolver (``ConversionOptions.packages``), every mode also warns, through
:func:`sdf_tools.resources.uris.check_uris`, about referenced meshes and textures whose
file does not exist, and about the paths written in ``<gazebo>`` content (a
gz_ros2_control ``<parameters>`` file) that name nothing.

``ConversionOptions.uri_map`` (``sdf_tools export``, which copies the files into a model
folder) overrides the mode for the meshes it holds, and gives the URI of each URDF texture
it holds; the caller has located the files, so what cannot be located is not warned about
here then.
"""

import os
from typing import TYPE_CHECKING

from sdf_tools.errors import Reporter
from sdf_tools.model import Mesh
from sdf_tools.model import Robot
from sdf_tools.resources.uris import check_uris

if TYPE_CHECKING:   # (urdf_to_sdf imports this module; pathlib only where a package is found)
    from pathlib import Path

    from sdf_tools.convert.urdf_to_sdf import ConversionOptions

#: The values of ``ConversionOptions.mesh_uris``.
MODES = ('model', 'file', 'package')


def model_uri(filename: str) -> str:
    """Return libsdformat's URI for a URDF mesh filename (first ``package://`` -> ``model://``)."""
    # libsdformat replaces the first 'package://' wherever it occurs.
    return filename.replace('package://', 'model://', 1)


def mesh_uris(robot: Robot, options: 'ConversionOptions', reporter: Reporter,
              ) -> dict[str, str]:
    """
    Return URDF mesh filename -> the ``<uri>`` to write, for every mesh of ``robot``.

    With ``options.uri_map``, also URDF texture filename -> its URI, for every texture
    the map holds.

    Parameters
    ----------
    robot : Robot
        The URDF model.
    options : ConversionOptions
        ``mesh_uris``, ``packages`` and ``input_folder``.
    reporter : Reporter
        Receives the warnings of :func:`~sdf_tools.resources.uris.check_uris` (with a
        resolver only).

    """
    located: dict[str, Path] = {}
    given = options.uri_map or {}
    if options.packages is not None:
        located, warnings = check_uris(robot, options.packages, options.input_folder,
                                       every_mesh=options.mesh_uris == 'file')
        if options.uri_map is None:
            reporter.warnings.extend(warnings)
    uris: dict[str, str] = {}
    for link in robot.links:
        for part in link.visuals + link.collisions:
            if isinstance(part.geometry, Mesh) and part.geometry.filename not in uris:
                filename = part.geometry.filename
                if filename in given:
                    uris[filename] = given[filename]
                elif options.mesh_uris == 'model':
                    uris[filename] = model_uri(filename)
                elif options.mesh_uris == 'file' and filename in located:
                    uris[filename] = 'file://' + os.fspath(located[filename])
                else:
                    uris[filename] = filename
    if given:
        uris.update((uri, given[uri]) for uri, is_mesh, _, _ in robot.resource_uses()
                    if not is_mesh and uri in given)
    return uris
