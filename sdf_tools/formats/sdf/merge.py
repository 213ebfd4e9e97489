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
SDFormat merge-include (``<include merge="true">``, SDFormat 1.9), as libsdformat 12 merges.

The included model is not nested: its content becomes the including model's, as
libsdformat's ``insertIncludedElement`` moves it (PX4's vehicle models are built so: a
camera model merged into a base model merged into a frame):

* its links, joints, frames and nested models keep their names, which are then names of
  the including model (a name both use is an error, as any name used twice);
* a ``<frame>`` stands for the merged model's frame: :func:`frame_name`
  (``_merged__NAME__model__``, NAME the include's ``<name>`` else the model's), attached to
  the merged model's canonical link and placed where the model would be (the include's
  ``<pose>``, else the model's own, with its ``relative_to``, else in the including model's
  frame; a ``<placement_frame>`` places that frame of the merged model there);
* inside it, what was relative to the model frame is relative to that frame: links and
  nested models without a ``relative_to`` and anything naming ``__model__``
  (:class:`~.frames.Scope` ``merged_into``);
* its ``<plugin>`` s (the include's too), ``<gripper>`` s and custom elements
  (``prefix:name``) become the including model's (:func:`moved_parts`); its other children
  (``<static>``, ``<self_collide>``, ``<enable_wind>``, ...) are not merged: libsdformat
  drops them silently, sdf_tools with a warning, unless they say what the schema's default
  says (and ``<static>`` only when the model has links, which then move with the including
  model).

libsdformat checks the included model alone before merging it, so a merged model without
links must be static, and its content may name only its own frames.
"""

from sdf_tools.errors import Code
from sdf_tools.formats.sdf.content import check_values
from sdf_tools.formats.sdf.elements import ElementReader
from sdf_tools.formats.sdf.frames import FrameGraph
from sdf_tools.formats.sdf.frames import MODEL_FRAME
from sdf_tools.formats.sdf.frames import Scope
from sdf_tools.formats.sdf.frames import Vertex
from sdf_tools.formats.sdf.include import Included
from sdf_tools.formats.sdf.include import written
from sdf_tools.formats.sdf.values import read_bool
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.element import from_lxml
from sdf_tools.xmlio.parse import ValueReader

# The children libsdformat moves into the including model besides the frames (and custom
# elements, whose names hold a ':').
_MOVED = ('plugin', 'gripper')
# The children of the model that the model reader reads: its frames (an <include> is a
# nested model), and its <pose> and <static>, applied to the merged model's frame.
_READ = ('link', 'joint', 'frame', 'model', 'include', 'pose', 'static')
# The model's settings that are not merged, and their schema defaults: a setting left at its
# default is no loss (the including model's own setting applies to all its links).
_SETTINGS = {'self_collide': False, 'enable_wind': False, 'allow_auto_disable': True}


def frame_name(model: str) -> str:
    """Return the name of the frame libsdformat adds for a merged model called ``model``."""
    return f'_merged__{model}__model__'


def add_frame(graph: FrameGraph, included: Included, scope: Scope, name: str, frame: str,
              version: tuple[int, int], poses: ElementReader | None) -> Scope:
    """
    Add the ``<frame>`` a merged model stands behind to a graph; return its content's scope.

    Parameters
    ----------
    graph : FrameGraph
        The graph of the model it is merged into (the frame and the scope are added).
    included : Included
        The merge-include.
    scope : Scope
        The model it is merged into.
    name : str
        The merged model's name (the include's ``<name>``, else the model's).
    frame : str
        The frame's name (:func:`frame_name`, or what an old file renamed it to).
    version : tuple
        The SDFormat version of the included file.
    poses : ElementReader or None
        Reads ``included.pose`` (``None`` when there is none).

    """
    inner = Scope(scope.prefix + frame, scope.prefix, name, included.elem, scope.depth,
                  placement_elem=included.placement, version=version, merged_into=scope)
    vertex = Vertex(inner.key, 'frame', frame, included.include, scope, inner=inner,
                    rel_text=MODEL_FRAME, data=included)
    if included.pose is not None:
        assert poses is not None  # given with a pose to read
        vertex.pose, rel = poses.pose(included.pose, vertex.entity)
        vertex.rel_text, vertex.pose_elem = rel or MODEL_FRAME, included.pose
    graph.add(vertex)
    graph.add_scope(inner)
    return inner


def moved_parts(v: ValueReader, included: Included, entity: str,
                kept: bool) -> list[Element]:
    """
    Return the children a merged model gives the including model, and warn about the rest.

    Parameters
    ----------
    v : ValueReader
        Records the problems.
    included : Included
        The merge-include.
    entity : str
        The merged model, for messages.
    kept : bool
        The including model is the top model (or merged into it), whose other children
        sdf_tools keeps: the moved parts are returned serialised; else (a nested model)
        they are dropped with a warning, as a nested model's are.

    """
    moved = []
    for child in included.elem:
        if not isinstance(child.tag, str) or child.tag in _READ:
            continue
        if child.tag in _MOVED or ':' in written(child):
            moved.append(child)
        elif child.tag not in _SETTINGS or read_bool(
                v, child, entity, f'<{child.tag}>', child.text, None) != _SETTINGS[child.tag]:
            v.warn(child, entity, f'<{written(child)}> of a merged model is not kept: '
                   'libsdformat merges only its links, joints, frames, models, plugins, '
                   'grippers and custom elements', Code.DROPPED)
    out = []
    for child in moved + list(included.plugins):
        if kept:
            check_values(v, 'model', child, entity, included.version)
            out.append(from_lxml(child))
        else:
            v.warn(child, entity, f'<{written(child)}> of a model merged into a nested model '
                   'is not kept (nested models are flattened)', Code.DROPPED)
    return out


def check_merged(v: ValueReader, included: Included, scope: Scope) -> None:
    """Report a merged model without links that is not static; warn that <static> goes."""
    entity = f"model '{scope.name}'"
    at = included.static
    static = at is not None and read_bool(v, at, entity, '<static>', at.text, False)
    if not scope.links and not scope.models and not static:
        v.error(included.include, entity, 'has no <link> (only static models may have none; '
                'libsdformat checks a merged model alone)', Code.NO_LINKS)
    elif static and scope.links and at is not None:
        v.warn(at, entity, 'is static, but merging makes its links links of '
               'the including model: they are static only if that model is (libsdformat '
               'drops the <static> of a merged model)', Code.DROPPED)
