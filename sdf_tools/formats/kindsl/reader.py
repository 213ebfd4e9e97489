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
RobCoGen Kinematics-DSL reader: ``.kindsl`` text to :class:`~sdf_tools.model.Robot`.

The language (RobCoGen's documentation, "Kinematics-DSL")::

    Robot Fancy {
        RobotBase base0 { inertia_properties {...}  children { link1 via jA } }
        link link1 {
            id = 1
            inertia_properties { mass = 1.0  CoM = (0.5, .0, .0)
                                 Ix=0.0025 Iy=0.33458 Iz=0.33458 Ixy=0.0 Ixz=0.0 Iyz=0.0 }
            children { link2 via jB }
            frames { tip { translation = (1.0, 0.0, 0.0)  rotation = (0.0, 0.0, 0.0) } }
        }
        p_joint jB { ref_frame { translation = (1.0, 0.0, 0.0)  rotation = (-PI/2.0, 0.0, 0.0) } }
    }

Numbers and parameters
----------------------
Wherever a number is expected the reader takes an expression: decimal literals (``.5``,
``1e-3``), ``PI``, parentheses, unary minus and ``+ - * /`` (``-PI/2.0``, ``2*PI``,
``PI*0.5``). A bare identifier is a *parameter* (RobCoGen: "any symbolic identifier appearing
where a numerical property is expected is a parameter"); its value comes from the
``parameters`` mapping, and a missing one is an error naming it and the line of its first
use. RobCoGen 2's ``name[default]`` form is accepted too: the default applies when
``parameters`` has no value.
Expressions are evaluated by a small recursive-descent parser, never ``eval``.

Comments are ``// ...`` and ``/* ... */``. Keys inside a block may come in any order; each
may appear once. Syntax errors stop the reader at once (with line and column); every other
problem is collected and reported together, as for URDF::

    fancy.kindsl:12: link 'link1': <message>

How it is built: :mod:`.lexer` cuts the text into tokens, :mod:`.parser` reads them into a
:class:`~.document.Document`, and :mod:`.builder` resolves its names and makes the model
(and says how the language maps to it).
"""

from collections.abc import Mapping
import math
import numbers

from sdf_tools.errors import Code
from sdf_tools.errors import Reporter
from sdf_tools.errors import SourceLocation
from sdf_tools.formats.kindsl.builder import build_robot
from sdf_tools.formats.kindsl.builder import inertial_from_kindsl
from sdf_tools.formats.kindsl.lexer import located_error
from sdf_tools.formats.kindsl.parser import MAX_EXPRESSION_DEPTH
from sdf_tools.formats.kindsl.parser import parse_document
from sdf_tools.formats.reading import checked
from sdf_tools.formats.reading import with_warnings
from sdf_tools.model import Robot

__all__ = ['MAX_BYTES', 'MAX_EXPRESSION_DEPTH', 'inertial_from_kindsl', 'parse_kindsl']

#: Largest document :func:`parse_kindsl` accepts by default (bytes, or characters for text).
#: Hand-written models are a few kilobytes (a 40-link humanoid is about 25); the pure-Python
#: reader takes up to two seconds per megabyte, so the XML formats' limit
#: (:data:`~sdf_tools.xmlio.parse.DEFAULT_MAX_BYTES`) would allow a minute of work.
MAX_BYTES = 256 * 1024


def parse_kindsl(text: str | bytes, source: str = '<string>', *,
                 parameters: Mapping[str, float] | None = None,
                 max_bytes: int = MAX_BYTES) -> Robot:
    """
    Read a RobCoGen Kinematics-DSL document.

    Parameters
    ----------
    text : str or bytes
        The document (bytes are decoded as UTF-8).
    source : str
        Name for messages (file name or label).
    parameters : mapping of str to float, optional
        Values of the model's parameters (identifiers used where a number is expected).
    max_bytes : int
        Larger documents are refused (default :data:`MAX_BYTES`, 256 KiB).

    Returns
    -------
    Robot
        With ``source_format='kindsl'``; non-fatal problems are in ``Robot.warnings``.

    Raises
    ------
    DescriptionError
        Syntax errors (the first one), or every semantic problem found: missing parameters,
        duplicate names or ids, undefined or unused joints, links with two parents, ...
    TypeError
        ``text`` is not text, or a parameter value is not a finite real number.

    """
    if isinstance(text, (bytes, bytearray, memoryview)):
        data = bytes(text)
        if len(data) > max_bytes:
            raise located_error(source, None, f'document is {len(data)} bytes, more than the '
                                f'limit of {max_bytes} bytes', Code.TOO_LARGE)
        try:
            text = data.decode('utf-8-sig')
        except UnicodeDecodeError as e:
            raise located_error(source, None, f'not UTF-8 text ({e.reason} at byte '
                                f'{e.start})', Code.BAD_ENCODING) from None
    elif not isinstance(text, str):
        raise TypeError(f'parse_kindsl() needs str or bytes, got {type(text).__name__}')
    elif len(text) > max_bytes:
        raise located_error(source, None, f'document is {len(text)} characters, more than the '
                            f'limit of {max_bytes}', Code.TOO_LARGE)
    reporter = Reporter()
    params = _check_parameters(parameters)
    document, used = parse_document(text.lstrip('\ufeff'), source, reporter, params)
    robot = build_robot(document, source, reporter)
    checked(robot, reporter)
    unused = sorted(set(params) - used)
    if unused:
        reporter.warn('parameters not used by the model: ' + ', '.join(map(repr, unused)),
                      SourceLocation(source), f"robot '{robot.name}'", Code.UNUSED_PARAMETER)
    return with_warnings(robot, reporter)


def _check_parameters(parameters: Mapping[str, object] | None) -> dict[str, float]:
    if parameters is None:
        return {}
    values = {}
    for name, value in dict(parameters).items():
        number: float | None = None
        if isinstance(value, numbers.Real) and not isinstance(value, bool):
            try:
                number = float(value)
            except OverflowError:  # an int beyond the float range
                pass
        if number is None or not math.isfinite(number):
            shown = repr(value)
            if len(shown) > 40:
                shown = shown[:40] + '...'
            raise TypeError(f'parameter {name!r} must be a finite number, got {shown}')
        values[str(name)] = number
    return values
