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
Where a description's names are looked for: ROS packages and Gazebo model folders, together.

A :class:`Resources` holds both lookups of one run: the
:class:`~sdf_tools.resources.packages.PackageResolver` (``$(find pkg)``, ``package://``) and
the :class:`~sdf_tools.resources.models.ModelFinder` (``model://``, SDFormat ``<include>``
s), which finds ``package://`` URIs and ``model://NAME`` as the package ``NAME`` through that
same resolver. :func:`find_resources` is the one place both are built: the entry point of a
run (a command, a node, a launch file; :func:`sdf_tools.loading.load` when called without
them) builds them once and passes them down, so every file of the run is looked for by the
same rules and each package folder is searched once.
"""

from typing import TYPE_CHECKING

from sdf_tools.records import record
from sdf_tools.resources.models import ModelFinder
from sdf_tools.resources.models import ResourcePath
from sdf_tools.resources.packages import PackagePath
from sdf_tools.resources.packages import PackageResolver

if TYPE_CHECKING:
    from collections.abc import Iterable
    from collections.abc import Mapping


@record(frozen=True, eq=False)
class Resources:
    """
    Where one run looks for what its descriptions name (module docstring).

    Attributes
    ----------
    packages : PackageResolver
        Finds ROS packages (``$(find pkg)``, ``package://pkg/...``); caches its searches and
        keeps the ``package.xml`` files it read (:meth:`files_read`).
    models : ModelFinder
        Finds Gazebo model folders (``model://``, ``<include>`` URIs); its ``packages`` is
        ``packages``.

    """

    packages: PackageResolver
    models: ModelFinder

    def files_read(self) -> tuple[str, ...]:
        """Return the ``package.xml`` files the lookups read so far, each once, in order."""
        read = self.packages.files_read()
        other = self.models.packages
        if other is not None and other is not self.packages:
            read += tuple(name for name in other.files_read() if name not in read)
        return read


def find_resources(package_path: 'Iterable[str]' = (), resource_path: 'Iterable[str]' = (), *,
                   near: str | None = None,
                   environ: 'Mapping[str, str] | None' = None,
                   package_option: str = '--package-path',
                   resource_option: str = '--resource-path') -> Resources:
    """
    Return where packages and models are looked for: around ``near``, the folders, the rest.

    Packages are looked for around the input file ``near`` (its package, checkout and
    workspace), in ``package_path``, then in ``AMENT_PREFIX_PATH`` and ``ROS_PACKAGE_PATH``
    (:mod:`sdf_tools.resources.packages`); models in ``resource_path``, then in
    ``GZ_SIM_RESOURCE_PATH``, ``IGN_GAZEBO_RESOURCE_PATH``, ``SDF_PATH`` and
    ``GAZEBO_MODEL_PATH``, then as the ROS package of their name
    (:mod:`sdf_tools.resources.models`).

    Parameters
    ----------
    package_path : iterable of str
        Folders given by the user (``--package-path``, the ``package_path`` parameter or
        launch argument); each item may itself be a ``:``-separated list.
    resource_path : iterable of str
        Folders of models given by the user (``--resource-path``), likewise.
    near : str, optional
        The input file (``None``: standard input or text, which has no folder).
    environ : mapping, optional
        The environment (default ``os.environ``).
    package_option, resource_option : str
        How the user gives each kind of folder, for messages.

    Raises
    ------
    ValueError
        A folder given does not exist (the text names it and how it was given).

    """
    packages = PackageResolver(PackagePath.from_environment(
        package_path, near=near, option=package_option, environ=environ))
    return Resources(packages, ModelFinder(ResourcePath.from_environment(
        resource_path, option=resource_option, environ=environ), packages, resource_option))
