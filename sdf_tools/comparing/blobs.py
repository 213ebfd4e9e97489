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
XML content compared as what it configures: sensors, plugins, surfaces, ``<gazebo>`` blobs.

The content sdf_tools keeps without modelling it (SDFormat ``extras``, URDF ``<gazebo>``
blobs, ``<transmission>``...) is compared as a tree of settings, not as text:

* elements are matched by tag and ``name`` attribute, whatever their order (the k-th of a
  tag and name on one side with the k-th on the other);
* attributes and texts that are numbers (or lists of numbers) compare within the tolerance
  (:func:`~sdf_tools.comparing.values.close`), a ``<pose>`` as a pose (position, and the
  angle between the rotations: ``0 1.5708 0`` and ``3.1416 1.5708 3.1416`` are one
  orientation); ``true``/``1`` and ``false``/``0`` are the same; other text compares with
  its white space collapsed;
* an element that holds nothing (no attribute, no text, nothing but such elements inside,
  ``<ode/>``) configures nothing and is left out.

Each difference is a :class:`BlobDifference` at the path of the element that differs
(``sensor 'camera'/camera/image/width``).
"""

from collections.abc import Iterable
import math

from sdf_tools.comparing.values import all_close
from sdf_tools.comparing.values import poses_close
from sdf_tools.model import Pose
from sdf_tools.records import record
from sdf_tools.xmlio.element import Element
from sdf_tools.xmlio.parse import local_name

_BOOLS = {'true': 'true', '1': 'true', 'false': 'false', '0': 'false'}


@record(frozen=True)
class BlobDifference:
    """
    One setting that differs: its ``path``, and its text on each side (``None``: absent).

    For an element only on one side, the text is the element when it holds only text
    (``<topic>contacts</topic>``), else its start tag (``<sensor name="cam">``).
    """

    path: str
    a: str | None
    b: str | None


def label(element: Element) -> str:
    """Return how a path names an element: ``tag`` or ``tag 'name'``."""
    name = element.get('name')
    tag = local_name(element)
    return tag if name is None else f"{tag} '{name}'"


def start_tag(element: Element) -> str:
    """Return an element's start tag, attributes in document order."""
    attributes = ''.join(f' {key}="{value}"' for key, value in element.attrib.items())
    return f'<{local_name(element)}{attributes}>'


def summary(element: Element) -> str:
    """Return an element only one side has, as text (:class:`BlobDifference`)."""
    start = start_tag(element)
    if any(isinstance(child.tag, str) for child in element):
        return start
    text = ' '.join((element.text or '').split())
    return f'{start}{text}</{local_name(element)}>' if text else start


def is_empty(element: Element) -> bool:
    """Return whether an element configures nothing (module docstring)."""
    for item in element.iter():
        if isinstance(item.tag, str) and (item.attrib or (item.text and item.text.strip())):
            return False
    return True


def same_text(a: str | None, b: str | None, tol: float) -> bool:
    """Return whether two texts (or attribute values) set the same (module docstring)."""
    a = ' '.join((a or '').split())
    b = ' '.join((b or '').split())
    if a == b:
        return True
    if _BOOLS.get(a.lower(), a) == _BOOLS.get(b.lower(), b):
        return True
    numbers_a, numbers_b = _numbers(a), _numbers(b)
    return numbers_a is not None and numbers_b is not None and \
        all_close(numbers_a, numbers_b, tol)


def _numbers(text: str) -> list[float] | None:
    """Return the numbers of a space-separated list, or ``None`` if a word is no number."""
    try:
        return [float(word) for word in text.split()] if text else None
    except ValueError:
        return None


def _pose(element: Element) -> Pose | None:
    """Return the pose a ``<pose>`` element's text gives (``None`` if it is no pose)."""
    numbers = _numbers(' '.join((element.text or '').split()))
    if numbers is None or not all(map(math.isfinite, numbers)):
        return None
    if element.get('rotation_format') == 'quat_xyzw':
        if len(numbers) != 7 or not any(numbers[3:]):
            return None
        norm = math.hypot(*numbers[3:])
        x, y, z, qx, qy, qz, qw = numbers
        return Pose((x, y, z), (qx / norm, qy / norm, qz / norm, qw / norm))
    if len(numbers) != 6:
        return None
    x, y, z, roll, pitch, yaw = numbers
    if same_text(element.get('degrees'), 'true', 0.0):
        roll, pitch, yaw = map(math.radians, (roll, pitch, yaw))
    return Pose.from_rpy((x, y, z), (roll, pitch, yaw))


def _same_pose(a: Element, b: Element, tol: float) -> bool:
    """Return whether two ``<pose>`` elements give one pose within ``tol``."""
    if local_name(a) != 'pose':
        return False
    pose_a, pose_b = _pose(a), _pose(b)
    return pose_a is not None and pose_b is not None and poses_close(pose_a, pose_b, tol)


def keyed(elements: Iterable[Element]) -> dict[tuple[str, str | None], list[Element]]:
    """Return ``(tag, name) -> [element, ...]`` of the elements that configure something."""
    groups: dict[tuple[str, str | None], list[Element]] = {}
    for element in elements:
        if isinstance(element.tag, str) and not is_empty(element):
            groups.setdefault((local_name(element), element.get('name')), []).append(element)
    return groups


def compare_elements(a_elements: Iterable[Element], b_elements: Iterable[Element], tol: float,
                     path: str = '') -> list[BlobDifference]:
    """
    Return the :class:`BlobDifference` s between two lists of sibling elements.

    Parameters
    ----------
    a_elements, b_elements : iterable of Element
        What each side holds at this place.
    tol : float
        The tolerance of numbers.
    path : str
        The path of their parent (``''`` at the top).

    """
    out: list[BlobDifference] = []
    groups_a, groups_b = keyed(a_elements), keyed(b_elements)
    for key in list(groups_a) + [k for k in groups_b if k not in groups_a]:
        list_a, list_b = groups_a.get(key, []), groups_b.get(key, [])
        for index in range(max(len(list_a), len(list_b))):
            a = list_a[index] if index < len(list_a) else None
            b = list_b[index] if index < len(list_b) else None
            named = a if a is not None else b
            assert named is not None   # index < the longer list's length
            here = _join(path, label(named), index)
            if a is None or b is None:
                out.append(BlobDifference(here, None if a is None else summary(a),
                                          None if b is None else summary(b)))
            else:
                _compare_element(a, b, tol, here, out)
    return out


def _join(path: str, name: str, index: int) -> str:
    """Return the path of the ``index``-th element called ``name`` under ``path``."""
    name = name if index == 0 else f'{name} #{index + 1}'
    return f'{path}/{name}' if path else name


def _compare_element(a: Element, b: Element, tol: float, path: str,
                     out: list[BlobDifference]) -> None:
    """Append the differences of two elements of one tag and name."""
    same_pose = _same_pose(a, b, tol)
    skipped = ('name', 'degrees', 'rotation_format') if same_pose else ('name',)
    for key in list(a.attrib) + [k for k in b.attrib if k not in a.attrib]:
        if key not in skipped and not same_text(a.get(key), b.get(key), tol):
            out.append(BlobDifference(f'{path}/@{key}', a.get(key), b.get(key)))
    if not (same_pose or same_text(a.text, b.text, tol)):
        out.append(BlobDifference(path, (a.text or '').strip() or None,
                                  (b.text or '').strip() or None))
    out.extend(compare_elements(a, b, tol, path))
