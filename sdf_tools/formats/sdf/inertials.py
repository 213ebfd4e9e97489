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
Inertials libsdformat loads: what it refuses, and what both SDFormat writers write instead.

libsdformat refuses a link whose mass is negative or whose inertia no rigid body can have
("A link named ... has invalid inertia", ignition-math's ``MassMatrix3::IsValid``), and
Gazebo then loads nothing. :func:`refused` lists those links of a model read from SDFormat
as errors (``sdf_tools check``); the writers never write them:

* :func:`placeholder` gives a link without positive mass a placeholder inertial (mass
  :data:`MASSLESS_MASS`, inertia :data:`MASSLESS_INERTIA` about the same axes), with a
  warning: the URDF converter for every link without mass (libsdformat would drop it), the
  model writer for a negative mass;
* :func:`valid_inertia` replaces an inertia no rigid body has by the nearest valid one, with a
  warning (the converter also replaces the degenerate ones of bodies with mass, on which
  DART aborts).
"""

import math

from sdf_tools import inertia
from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import Reporter
from sdf_tools.errors import Severity
from sdf_tools.errors import SourceLocation
from sdf_tools.model import Robot

#: Mass (kg) and principal moments (kg m^2) of the placeholder inertial.
MASSLESS_MASS = 1e-3
MASSLESS_INERTIA = 1e-6


def placeholder(body: inertia.Body | None, *, what: str, then: str,
                location: SourceLocation | None, entity: str, reporter: Reporter,
                mass: float = MASSLESS_MASS, moment: float = MASSLESS_INERTIA) -> inertia.Body:
    """
    Return the placeholder body of a link without positive mass, and warn.

    Parameters
    ----------
    body : tuple or None
        The link's ``(mass, com, quat, inertia)`` (:mod:`sdf_tools.inertia`), or ``None``
        when it has none; the placeholder keeps its centre of mass and axes.
    what : str
        What is wrong, e.g. ``'has mass -1, which is not positive'``.
    then : str
        The end of the warning: what the placeholder achieves, e.g. ``'so that it stays in
        the model (...)'``.
    location, entity
        Where the warning points.
    reporter : Reporter
        Where the warning goes.
    mass, moment : float
        The placeholder's mass (kg) and principal moments (kg m^2).

    """
    reporter.warn(f'{what}; it is written with a placeholder inertial (mass {mass:g} kg, '
                  f'inertia {moment:g} kg m^2) {then}', location, entity, Code.MASSLESS_LINK)
    com, quat = (body[1], body[2]) if body is not None else \
        ((0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))
    return mass, com, quat, (moment, 0.0, 0.0, moment, 0.0, moment)


def valid_inertia(m: float, values: inertia.Inertia6, *, location: SourceLocation | None,
                  entity: str, reporter: Reporter, degenerate: bool = True) -> inertia.Inertia6:
    """
    Return ``values``, or the nearest valid inertia with a warning if it is not valid.

    ``values`` are ``(ixx, ixy, ixz, iyy, iyz, izz)`` (kg m^2) of a body of mass ``m``. With
    ``degenerate``, an inertia leaving a body with mass free to spin about an axis is
    replaced too.

    Raises
    ------
    DescriptionError
        The nearest valid inertia is not finite.

    """
    moments = inertia.principal_moments(values)
    invalid = not inertia.is_physical(values, moments=moments)
    if not invalid and not (degenerate and inertia.is_degenerate(m, values, moments)):
        return values
    fixed = inertia.nearest_physical(values, m * inertia.MIN_GYRATION_RADIUS ** 2)
    old = ', '.join(f'{v:.6g}' for v in moments)
    if not all(map(math.isfinite, fixed)):
        raise DescriptionError(Diagnostic(
            f'<inertia> (principal moments {old}) cannot be written: the nearest valid one has '
            'entries beyond the largest floating-point number', location, entity,
            code=Code.BAD_NUMBER))
    new = ', '.join(f'{v:.6g}' for v in inertia.principal_moments(fixed))
    why = ('is not one a rigid body can have (negative, or violating the triangle '
           'inequality), which libsdformat and Gazebo reject' if invalid else
           'leaves a body with mass free to spin without resistance, which physics '
           'engines cannot simulate (DART aborts)')
    reporter.warn(f'<inertia> (principal moments {old}) {why}; it is written as the '
                  f'nearest valid one whose radius of gyration is at least '
                  f'{inertia.MIN_GYRATION_RADIUS * 1e3:g} mm ({new})', location, entity,
                  Code.BAD_INERTIA)
    return fixed


def refused(robot: Robot) -> tuple[Diagnostic, ...]:
    """
    Return an error for each link whose inertial libsdformat refuses (negative mass, invalid).

    Each has the code, entity and place of the reader's warning about it
    (:func:`~sdf_tools.validate.check_inertial`), so that
    :func:`~sdf_tools.errors.combine` puts it in the warning's stead.
    """
    errors = []
    for link in robot.links:
        inertial = link.inertial
        if inertial is None:
            continue
        values = (inertial.ixx, inertial.ixy, inertial.ixz, inertial.iyy, inertial.iyz,
                  inertial.izz)
        if not all(map(math.isfinite, (inertial.mass, *values))):
            continue  # an error already
        if inertial.mass < 0.0:
            problem, code = f'<mass> is negative ({inertial.mass:g} kg)', Code.NEGATIVE_MASS
            fix = 'a placeholder inertial'
        elif not inertia.is_physical(values):
            moments = ', '.join(f'{v:.6g}' for v in inertia.principal_moments(values))
            problem, code = (f'<inertia> is not one a rigid body can have (principal moments '
                             f'{moments})'), Code.BAD_INERTIA
            fix = 'the nearest valid inertia'
        else:
            continue
        errors.append(Diagnostic(
            f'{problem}: libsdformat refuses the link ("invalid inertia"), so Gazebo does not '
            f'load the model (sdf_tools convert writes {fix} to SDFormat, with a warning; to '
            f'URDF it writes the link unchanged, and urdf2sdf then writes {fix})',
            link.location, f"link '{link.name}'", Severity.ERROR, code))
    return tuple(errors)
