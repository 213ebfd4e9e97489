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
Small URDF documents for the converter's tests, and ways to look at the result.

``robot(link('base'), link('arm'), joint('j', 'base', 'arm'))`` is a valid URDF (each link
with a unit inertial, revolute and prismatic joints with limits); :func:`convert` runs it
through :func:`~sdf_tools.convert.urdf_to_sdf.urdf_to_sdf` as ``test.urdf``.
"""

from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.formats.urdf.reader import parse_urdf
import support
from xml_compare import parse
from xml_compare import values_equal

FIXTURE_DIR = support.DATA_DIR / 'conversion'
INERTIAL = ('<inertial><mass value="1"/><inertia ixx="1" ixy="0" ixz="0" iyy="1" iyz="0" '
            'izz="1"/></inertial>')


def convert(urdf, **options):
    """Convert URDF text with :class:`ConversionOptions` ``options``."""
    robot = parse_urdf(urdf, 'test.urdf')
    return urdf_to_sdf(robot, ConversionOptions(**options))


def model_of(result):
    """Return the ``<model>`` element of a conversion result."""
    return parse(result.sdf).find('model')


def link(name, body=''):
    """Return a ``<link>`` with a unit inertial and ``body``."""
    return f'<link name="{name}">{INERTIAL}{body}</link>'


def joint(name, parent, child, kind='revolute', extra=''):
    """Return a ``<joint>`` (with limits where its kind needs them) and ``extra``."""
    limit = '<limit lower="-1" upper="1" effort="1" velocity="1"/>' \
        if kind in ('revolute', 'prismatic') else ''
    return (f'<joint name="{name}" type="{kind}"><parent link="{parent}"/>'
            f'<child link="{child}"/>{limit}{extra}</joint>')


def robot(*parts, name='r'):
    """Return a ``<robot>`` of ``parts``."""
    return f'<robot name="{name}">' + ''.join(parts) + '</robot>'


def pose_is(element, expected):
    """Whether a <pose> element's value is the pose ``expected`` (text), by meaning."""
    return values_equal('pose', expected, element.text, rtol=1e-12, atol=1e-12)


def codes(result):
    """Return the codes of a result's warnings."""
    return [w.code for w in result.warnings]
