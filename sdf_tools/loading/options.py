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

"""How a description is read: :class:`LoadOptions`, and :class:`WrongFormat` for a refused one."""

from sdf_tools.records import field
from sdf_tools.records import record


@record(frozen=True, eq=False)
class LoadOptions:
    """
    How :func:`~sdf_tools.loading.load` reads a description.

    Where packages and models are looked for is not an option: it is the
    :class:`~sdf_tools.resources.lookup.Resources` of the run, given beside the options.

    Attributes
    ----------
    mappings : dict
        xacro arguments (``name -> value``); for RobCoGen input without ``parameters``,
        its parameter values (texts of finite numbers).
    parameters : dict or None
        RobCoGen parameter values (``name -> float``).
    model : str or None
        The model to take from an SDFormat world holding several.
    fmt : str or None
        ``'urdf'``, ``'sdf'``, ``'kindsl'`` or ``'xacro'`` to force a reader; ``None``:
        detected from the name and content (:func:`~sdf_tools.loading.sources.detect_format`).
    check_uris : bool
        Warn about mesh and texture URIs that name no file
        (:func:`~sdf_tools.resources.uris.check_uris`).
    xacro : bool or None
        Whether xacro markup is expanded, which runs the code it holds (its expressions
        are Python, and escape xacro's checks): ``None`` for ``.xacro`` files only (markup
        elsewhere is refused, naming its line and ``xacro_remedy``), ``True`` also for
        other files and text, ``False`` never (the nodes: xacro must be expanded before,
        as for robot_state_publisher).
    xacro_remedy : str
        What the refusal of markup not asked for tells the user to do (the command line
        names ``--xacro``, the launch files renaming the file).
    formats : tuple of str
        The formats accepted (expanded xacro is ``'urdf'``); input in another raises
        :class:`WrongFormat` before it is read.
    source : str or None
        Name of text given directly, in messages (default ``<string>``).
    max_bytes : int or None
        Largest input (default: each reader's own limit); for SDFormat also the most its
        included files may hold in all.
    whole_document : bool
        SDFormat: a document without exactly one model (an empty world, several models
        and no ``model`` asked for) loads too; ``Loaded.models`` then holds every model
        (``sdf_tools check``). Otherwise it is an error (the tools that need one model).

    """

    mappings: dict = field(default_factory=dict)
    parameters: dict | None = None
    model: str | None = None
    fmt: str | None = None
    check_uris: bool = False
    xacro: bool | None = None
    xacro_remedy: str = 'if you trust it, expand it with LoadOptions(xacro=True)'
    formats: tuple[str, ...] = ('urdf', 'sdf', 'kindsl')
    source: str | None = None
    max_bytes: int | None = None
    whole_document: bool = False


class WrongFormat(ValueError):
    """
    The input is in a format the caller does not accept (``LoadOptions.formats``).

    Attributes
    ----------
    source : str
        The file name, ``<stdin>`` or the name of the text.
    fmt : str
        Its format.

    """

    def __init__(self, source: str, fmt: str):
        super().__init__(f'{source} is {fmt}')
        self.source = source
        self.fmt = fmt
