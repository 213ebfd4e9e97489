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


"""Tests of sdf_tools.drawing.shapes: the primitives as triangles."""

from collections import Counter
import math

import numpy as np
import pytest
from sdf_tools.drawing import shapes
from sdf_tools.model import Box
from sdf_tools.model import Capsule
from sdf_tools.model import Cylinder
from sdf_tools.model import Sphere

# geometry, its volume, and its extent along x, y, z
PRIMITIVES = (
    (Box((0.3, 0.4, 0.5)), 0.3 * 0.4 * 0.5, (0.3, 0.4, 0.5)),
    (Cylinder(0.1, 0.6), math.pi * 0.01 * 0.6, (0.2, 0.2, 0.6)),
    (Sphere(0.25), 4.0 / 3.0 * math.pi * 0.25 ** 3, (0.5, 0.5, 0.5)),
    (Capsule(0.1, 0.4), math.pi * 0.01 * 0.4 + 4.0 / 3.0 * math.pi * 0.001, (0.2, 0.2, 0.6)),
)


@pytest.mark.parametrize('geometry, volume, extent', PRIMITIVES,
                         ids=[type(p[0]).__name__ for p in PRIMITIVES])
def test_primitives_are_closed_and_wound_outward(geometry, volume, extent):
    vertices, faces = shapes.primitive(geometry)
    # Closed and consistently wound: each directed edge once, and its reverse once.
    edges = Counter((int(a), int(b)) for face in faces for a, b in zip(face, np.roll(face, -1)))
    assert set(edges.values()) == {1}
    assert all(edges[(b, a)] == 1 for a, b in edges)
    corners = vertices[faces]
    signed = np.einsum('ij,ij->i', corners[:, 0], np.cross(corners[:, 1], corners[:, 2])).sum()
    assert signed / 6.0 == pytest.approx(volume, rel=0.03)  # positive: the normals point out


@pytest.mark.parametrize('geometry, volume, extent', PRIMITIVES,
                         ids=[type(p[0]).__name__ for p in PRIMITIVES])
def test_primitives_span_their_size_centred_on_their_frame(geometry, volume, extent):
    vertices, _ = shapes.primitive(geometry)
    assert vertices.max(axis=0) == pytest.approx(np.array(extent) / 2.0, abs=1e-12)
    assert vertices.min(axis=0) == pytest.approx(-np.array(extent) / 2.0, abs=1e-12)
    if not isinstance(geometry, Box):  # round: every vertex within its radius of the axis
        radius = extent[0] / 2.0
        assert np.hypot(vertices[:, 0], vertices[:, 1]).max() == pytest.approx(radius)


def test_other_geometry_has_no_shape():
    from sdf_tools.model import OtherGeometry
    from sdf_tools.xmlio.element import Element
    assert shapes.primitive(OtherGeometry('plane', (Element('plane'),))) is None
    assert shapes.primitive(None) is None
