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
The command lines' arguments: the parsers of ``urdf2sdf`` and ``sdf_tools``.

Also the words argparse cannot take where they are (``name:=value`` xacro arguments,
``NAME=VALUE`` joint values).

Nothing here imports more than the standard library and the list of SDFormat versions, so
``--help`` and ``--version`` answer before the converter, lxml or numpy are imported.
"""

import argparse
from collections.abc import Iterable
import math
import os
import re
import sys
from typing import Any
from typing import NoReturn

from sdf_tools import __version__
from sdf_tools.formats.sdf.versions import CONVERTIBLE_VERSIONS


class UsageError(Exception):
    """A command line that cannot be run: printed as it is, exit code 2."""


class _Formatter(argparse.HelpFormatter):
    """
    argparse's help formatter, as wide as the terminal, sized without :mod:`shutil`.

    argparse makes a formatter for every ``add_argument`` (to check the metavar), and its
    own asks ``shutil.get_terminal_size``: importing shutil (and with it bz2, lzma, zlib)
    was ~5 ms of every run. This asks the same things: ``COLUMNS``, then the terminal on
    stdout, else 80.
    """

    def __init__(self, prog: str) -> None:
        try:
            columns = int(os.environ.get('COLUMNS', '0'))
        except ValueError:
            columns = 0
        stdout = sys.__stdout__  # None where Python runs without one (pythonw)
        if columns <= 0 and stdout is not None:
            try:
                columns = os.get_terminal_size(stdout.fileno()).columns
            except (AttributeError, ValueError, OSError):
                columns = 0
        super().__init__(prog, width=(columns if columns > 0 else 80) - 2)


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser that raises instead of exiting, so main() owns exit codes."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault('formatter_class', _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(f'{self.prog}: error: {message}')


_ASSIGNMENT = re.compile(r'[A-Za-z_][\w./-]*:?=')
_VALUE_OPTIONS = ('-o', '--output', '--to', '--model', '--format', '--sdf-version',
                  '--package-path', '--mesh-uris', '--auto-inertials', '--keep-expanded',
                  '--view', '--size', '--a-arg', '--b-arg', '--tol', '--configurations',
                  '--seed', '--picture', '--missing-mimic', '--resource-path')
_KEEP_EXPANDED_HELP = ("xacro input: also write xacro's expansion here (one element per "
                       'line); messages about elements whose xacro line cannot be told '
                       'then name its lines')
_XACRO_HELP = ('expand xacro markup in an input not named .xacro (a .urdf, another file, '
               'standard input); .xacro files are always expanded. Expanding xacro runs the '
               'code the file holds, like running a script: give it for files you trust')
_PACKAGE_PATH_HELP = ('where xacro $(find pkg) and package:// look (repeatable, or DIR:DIR): '
                      'a package, a folder of packages, an install prefix or a colcon '
                      "workspace; after the input's own package, checkout and workspace, "
                      'before AMENT_PREFIX_PATH and ROS_PACKAGE_PATH')

_RESOURCE_PATH_HELP = ('where <include> looks for model://NAME and relative URIs first '
                       '(repeatable, or DIR:DIR): a folder holding model folders; then '
                       'GZ_SIM_RESOURCE_PATH, IGN_GAZEBO_RESOURCE_PATH, SDF_PATH, '
                       'GAZEBO_MODEL_PATH and the ROS packages. The files of model://NAME/... '
                       'URIs (meshes) are found in the model folders found there too')


_MESH_URIS = ('model', 'file', 'package')  # sdf_tools.convert.mesh_uris.MODES (not imported)
_MESH_URIS_HELP = ('how mesh URIs are written: model (libsdformat: package:// becomes '
                   'model://, found through GZ_SIM_RESOURCE_PATH), file (absolute file:// '
                   'paths, found like $(find pkg)), package (as written); default model')
_AUTO_INERTIALS_HELP = ('give links without <inertial> the mass properties of their '
                        'collision geometry at this density (kg/m^3, e.g. 1000); meshes need '
                        'trimesh')


_MISSING_MIMIC_HELP = ('a <mimic> whose joint does not exist or has no single value: ignore '
                       '(a warning; the joint moves independently, as urdf2sdf and the ROS '
                       'nodes do) or error; default {}')
_UNLIMITED_PRISMATIC_HELP = ('to URDF: the <limit> to write for prismatic joints without '
                             'limits (URDF requires one and cannot say "unlimited"), e.g. -10 '
                             '10 1000 1 (m, m, N, m/s)')
_UNLIMITED_EFFORT_HELP = ('to URDF: the effort and velocity to write for limits that are not '
                          "enforced (SDFormat's -1 or inf; URDF requires a value and cannot "
                          'say "unlimited"), e.g. 1000 10 (N or N m, m/s or rad/s); default '
                          '1e16 1e16, with a warning')


def _finite(text: str) -> float:
    """Return a finite number (an option's value)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not math.isfinite(value):
        raise argparse.ArgumentTypeError(f'must be a finite number, got {text!r}')
    return value


def _density(text: str) -> float:
    """Return ``--auto-inertials``' value: a finite density greater than 0 (kg/m^3)."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value > 0.0):
        raise argparse.ArgumentTypeError(f'the density (kg/m^3) must be a finite number '
                                         f'greater than 0, got {text!r}')
    return value


_VIEWS = ('front', 'side', 'top', 'iso')  # sdf_tools.drawing.VIEWS (not imported)
_VIEW_HELP = ('the direction the robot is seen from: front (from +x), side (from -y), top, '
              'iso (default), or AZIMUTH,ELEVATION in degrees (as matplotlib; a negative '
              'azimuth after =, as --view=-60,25)')


def _view(text: str) -> str | tuple[float, float]:
    """Return ``--view``'s value: a standard view's name, or (azimuth, elevation) degrees."""
    if text in _VIEWS:
        return text
    try:
        azimuth, elevation = (float(word) for word in text.split(','))
    except ValueError:
        azimuth = elevation = math.nan
    if not (math.isfinite(azimuth) and math.isfinite(elevation)):
        raise argparse.ArgumentTypeError(f'expected one of {", ".join(_VIEWS)} or '
                                         f'AZIMUTH,ELEVATION in degrees, got {text!r}')
    return azimuth, elevation


def _size(text: str) -> tuple[int, int]:
    """Return ``--size``'s value: ``WIDTHxHEIGHT`` pixels, each 16 to 8192."""
    width, _, height = text.lower().partition('x')
    if not (width.isdigit() and height.isdigit() and 16 <= int(width) <= 8192 and
            16 <= int(height) <= 8192):
        raise argparse.ArgumentTypeError(f'expected WIDTHxHEIGHT in pixels (16 to 8192 '
                                         f'each), e.g. 800x600, got {text!r}')
    return int(width), int(height)


def _add_view_parser(sub: 'argparse._SubParsersAction[_Parser]', common: _Parser) -> None:
    """Add ``sdf_tools view``."""
    helptext = 'draw the robot at given joint values (PNG or SVG)'
    s = sub.add_parser('view', help=helptext, parents=[common], description=helptext +
                       ", headless with matplotlib (pip install 'sdf_tools[view]'): visual "
                       'or collision geometry, primitives and meshes (trimesh).')
    s.add_argument('input', help='input file, or - for standard input')
    s.add_argument('assignments', nargs='*', default=[], metavar='NAME=VALUE',
                   help='joint values (rad, m; others are 0), xacro name:=value, RobCoGen '
                   'parameters')
    s.add_argument('-o', '--output', required=True,
                   help='the picture: .png or .svg, written atomically')
    s.add_argument('--view', type=_view, default='iso', help=_VIEW_HELP)
    s.add_argument('--size', type=_size, default=(800, 600), metavar='WxH',
                   help='picture size in pixels (default 800x600)')
    s.add_argument('--collision', action='store_true',
                   help='draw the collision geometry instead of the visual geometry')
    s.add_argument('--frames', action='store_true',
                   help="draw each link frame's axes (x red, y green, z blue)")
    s.add_argument('--labels', action='store_true', help='name the links (at their joints)')
    s.add_argument('--model', help='model to take from an SDFormat world')
    s.add_argument('-q', '--quiet', action='store_true', help='do not print warnings')


def _add_mesh_options(parser: _Parser, uris: bool = True) -> None:
    """Add ``--mesh-uris`` (unless not ``uris``) and ``--auto-inertials`` (URDF to SDFormat)."""
    if uris:
        parser.add_argument('--mesh-uris', choices=_MESH_URIS, default='model',
                            help=_MESH_URIS_HELP)
    parser.add_argument('--auto-inertials', type=_density, metavar='DENSITY',
                        help=_AUTO_INERTIALS_HELP)


def urdf2sdf_parser(prog: str = 'urdf2sdf') -> _Parser:
    p = _Parser(prog=prog, description='Convert a URDF (or xacro) with <gazebo> extensions to '
                'SDFormat, as libsdformat (gz sdf -p) does, with its documented bugs fixed.')
    p.add_argument('input', help='a .urdf or .xacro file, or - for standard input')
    p.add_argument('mappings', nargs='*', default=[], metavar='name:=value',
                   help='xacro arguments')
    p.add_argument('-o', '--output', help='write here (atomically) instead of stdout')
    p.add_argument('--preserve-fixed-joints', action='store_true',
                   help='keep every fixed joint instead of lumping it into its parent')
    p.add_argument('--sdf-version', default='1.9', choices=CONVERTIBLE_VERSIONS,
                   help='SDFormat version to write (default 1.9, as libsdformat 12)')
    p.add_argument('--package-path', action='append', default=[], metavar='DIR',
                   help=_PACKAGE_PATH_HELP)
    _add_mesh_options(p)
    p.add_argument('--xacro', action='store_true', help=_XACRO_HELP)
    p.add_argument('--keep-expanded', metavar='FILE', help=_KEEP_EXPANDED_HELP)
    p.add_argument('-q', '--quiet', action='store_true', help='do not print warnings')
    p.add_argument('--traceback', action='store_true', help=argparse.SUPPRESS)
    _add_version(p)
    return p


def main_parser() -> _Parser:
    p = _Parser(prog='sdf_tools', description='Robot description tools: convert between URDF, '
                'xacro, SDFormat and RobCoGen Kinematics-DSL; check; print the tree; forward '
                'kinematics; compare; export a Gazebo model folder; draw a picture.')
    common = _common_options()
    sub = p.add_subparsers(dest='command', metavar='COMMAND', parser_class=_Parser)
    sub.required = True
    _add_convert(sub, common)
    _add_export(sub, common)
    _add_inspection(sub, common)
    _add_diff(sub)
    _add_view_parser(sub, common)
    p.add_argument('--traceback', action='store_true', help=argparse.SUPPRESS)
    _add_version(p)
    return p


def _common_options() -> _Parser:
    """Return the parser of the options every command that reads one input takes."""
    common = _Parser(add_help=False)
    common.add_argument('--traceback', action='store_true', help=argparse.SUPPRESS)
    common.add_argument('--package-path', action='append', default=[], metavar='DIR',
                        help=_PACKAGE_PATH_HELP)
    common.add_argument('--xacro', action='store_true', help=_XACRO_HELP)
    common.add_argument('--keep-expanded', metavar='FILE', help=_KEEP_EXPANDED_HELP)
    common.add_argument('--resource-path', action='append', default=[], metavar='DIR',
                        help=_RESOURCE_PATH_HELP)
    return common


def _add_convert(sub: 'argparse._SubParsersAction[_Parser]', common: _Parser) -> None:
    """Add ``sdf_tools convert``."""
    c = sub.add_parser('convert', help='convert between formats', parents=[common],
                       description='Convert a description (.urdf .xacro .sdf .world .kindsl) '
                       'to URDF or SDFormat. URDF input goes through the libsdformat-'
                       'compatible converter (gazebo extensions, lumping).')
    c.add_argument('input', help='input file, or - for standard input')
    c.add_argument('mappings', nargs='*', default=[], metavar='name:=value',
                   help='xacro arguments, or RobCoGen parameter values')
    c.add_argument('-o', '--output', help='output file (.urdf or .sdf), written atomically')
    c.add_argument('--to', choices=('sdf', 'urdf'), help='output format (default: from -o, '
                   'else sdf)')
    c.add_argument('--model', help='model to take from an SDFormat world')
    c.add_argument('--preserve-fixed-joints', action='store_true',
                   help='URDF to SDF: keep every fixed joint')
    c.add_argument('--sdf-version', default='1.9', choices=CONVERTIBLE_VERSIONS)
    _add_mesh_options(c)
    c.add_argument('--lossy', action='store_true', help='to URDF: write the nearest URDF, '
                   'leaving out (with a warning for each) what URDF cannot hold, instead of '
                   'refusing it')
    c.add_argument('--unlimited-prismatic', type=_finite, nargs=4,
                   metavar=('LOWER', 'UPPER', 'EFFORT', 'VELOCITY'),
                   help=_UNLIMITED_PRISMATIC_HELP)
    c.add_argument('--unlimited-effort', type=_finite, nargs=2,
                   metavar=('EFFORT', 'VELOCITY'), help=_UNLIMITED_EFFORT_HELP)
    c.add_argument('-q', '--quiet', action='store_true', help='do not print warnings')


def _add_export(sub: 'argparse._SubParsersAction[_Parser]', common: _Parser) -> None:
    """Add ``sdf_tools export``."""
    e = sub.add_parser('export', help='write a self-contained Gazebo model folder',
                       parents=[common], description='Write a description as a Gazebo model '
                       'folder: model.config, model.sdf, and every mesh, texture and '
                       'material script it uses from ROS packages and model folders, copied '
                       "once, its URIs model://NAME/... (NAME: the folder's name). Nothing "
                       'else is copied (no hidden file, no file of another kind); what is '
                       'not is a warning. Gazebo loads the folder from any folder of its '
                       'resource path (GZ_SIM_RESOURCE_PATH), without the ROS workspace.')
    e.add_argument('input', help='input file (.urdf .xacro .sdf .world .kindsl), or - for '
                   'standard input')
    e.add_argument('mappings', nargs='*', default=[], metavar='name:=value',
                   help='xacro arguments, or RobCoGen parameter values')
    e.add_argument('-o', '--output', required=True, metavar='DIR',
                   help='the folder to write (its folder must exist); written whole or not '
                   'at all')
    e.add_argument('--force', action='store_true', help='replace DIR if it holds something, '
                   'only once the new folder is complete, and only if it is a model folder '
                   '(it holds model.config, as export writes) holding no ROS package: never '
                   'the current folder, the home folder or one above them')
    e.add_argument('--strict', action='store_true', help='write nothing (exit 1) unless DIR '
                   'would hold every file the model uses: what it would lack is an error')
    e.add_argument('--model', help='model to take from an SDFormat world')
    e.add_argument('--preserve-fixed-joints', action='store_true',
                   help='URDF: keep every fixed joint')
    e.add_argument('--sdf-version', default='1.9', choices=CONVERTIBLE_VERSIONS,
                   help='SDFormat version of model.sdf (default 1.9, as libsdformat 12)')
    _add_mesh_options(e, uris=False)
    e.add_argument('-q', '--quiet', action='store_true', help='do not print warnings')


def _add_inspection(sub: 'argparse._SubParsersAction[_Parser]', common: _Parser) -> None:
    """Add ``sdf_tools check``, ``tree`` and ``fk``."""
    for name, helptext in (('check', 'check a description and print its tree'),
                           ('tree', 'print the kinematic tree (text, dot or svg)'),
                           ('fk', 'print every link pose for given joint values')):
        s = sub.add_parser(name, help=helptext, description=helptext, parents=[common])
        s.add_argument('input', help='input file, or - for standard input')
        s.add_argument('assignments', nargs='*', default=[], metavar='NAME=VALUE',
                       help='joint values (fk), xacro name:=value, RobCoGen parameters')
        s.add_argument('--model', help='model to take from an SDFormat world')
        if name == 'tree':
            s.add_argument('--format', choices=('text', 'dot', 'svg'), default='text')
            s.add_argument('-o', '--output', help='output file, written atomically')
        if name == 'fk':
            s.add_argument('--json', action='store_true', help='print JSON')
        if name in ('check', 'fk'):
            default = 'ignore' if name == 'check' else 'error'
            s.add_argument('--missing-mimic', choices=('ignore', 'error'), default=default,
                           help=_MISSING_MIMIC_HELP.format(default))


def _tolerance(text: str) -> float:
    """Return ``--tol``'s value: a finite number not below 0."""
    try:
        value = float(text)
    except ValueError:
        value = math.nan
    if not (math.isfinite(value) and value >= 0.0):
        raise argparse.ArgumentTypeError(f'the tolerance must be a finite number not below 0, '
                                         f'got {text!r}')
    return value


def _count(text: str) -> int:
    """Return ``--configurations``' value: a whole number from 0 to 1000."""
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 0 <= value <= 1000:
        raise argparse.ArgumentTypeError(f'expected a whole number from 0 to 1000, got {text!r}')
    return value


def _add_diff(sub: 'argparse._SubParsersAction[_Parser]') -> None:
    """Add ``sdf_tools diff A B`` (exit 0 equal, 1 different, 2 usage or unreadable input)."""
    d = sub.add_parser('diff', help='compare two descriptions by what they mean',
                       description='Compare two descriptions (.urdf .xacro .sdf .world .kindsl) '
                       'by what they mean: links, joints, mass properties, geometry, meshes, '
                       'sensors and plugins, and link poses by forward kinematics. A URDF '
                       'against SDFormat is compared as SDFormat holds it (fixed joints '
                       'lumped). Exit code 0: equal, 1: different, 2: usage error or input '
                       'that cannot be read.')
    d.add_argument('a', help='description A (- for standard input)')
    d.add_argument('b', help='description B (- for standard input)')
    d.add_argument('assignments', nargs='*', default=[], metavar='name:=value',
                   help='xacro arguments (or RobCoGen parameters) for both')
    for side in ('a', 'b'):
        d.add_argument(f'--{side}-arg', action='append', default=[], metavar='name:=value',
                       help=f'a xacro argument for {side.upper()} only (repeatable)')
    d.add_argument('--model', help='model to take from SDFormat worlds')
    d.add_argument('--xacro', action='store_true', help=_XACRO_HELP)
    d.add_argument('--package-path', action='append', default=[], metavar='DIR',
                   help=_PACKAGE_PATH_HELP)
    d.add_argument('--resource-path', action='append', default=[], metavar='DIR',
                   help=_RESOURCE_PATH_HELP)
    d.add_argument('--tol', type=_tolerance, default=1e-6,
                   help='numbers within TOL times the larger of 1 and their size are equal; '
                   'poses within TOL m and rad (default 1e-6)')
    d.add_argument('--configurations', type=_count, default=4, metavar='N',
                   help='random configurations whose link poses are compared, besides the '
                   'zero one (default 4)')
    d.add_argument('--seed', type=int, default=0, help='of the random configurations')
    d.add_argument('--json', action='store_true', help='print JSON')
    d.add_argument('--picture', metavar='FILE', help='also draw both sides over each other '
                   '(.png or .svg), at the configuration where the links are farthest apart: '
                   "what both share in grey, each side's own in its colour (needs matplotlib)."
                   ' It never changes the exit code: a name that cannot be a picture is a '
                   'usage error (2) and a missing matplotlib an error (1) before anything is '
                   'compared; a picture that cannot then be drawn or written is an error on '
                   'stderr')
    d.add_argument('-q', '--quiet', action='store_true', help="do not print the readers' "
                   'warnings')
    d.add_argument('--traceback', action='store_true', help=argparse.SUPPRESS)


def _add_version(parser: _Parser) -> None:
    parser.add_argument('--version', action='version', version=f'%(prog)s {__version__}')


def split_extras(argv: Iterable[str]) -> tuple[list[str], list[str]]:
    """
    Take ``name:=value`` / ``NAME=VALUE`` words out of ``argv`` wherever they are.

    argparse cannot mix a ``nargs='*'`` positional with options given after it, so these
    words are collected first and the rest is parsed; values of options are left alone.
    """
    rest, extras = [], []
    previous = None
    for word in argv:
        if _ASSIGNMENT.match(word) and previous not in _VALUE_OPTIONS:
            extras.append(word)
        else:
            rest.append(word)
        previous = word
    return rest, extras


def mappings_of(items: Iterable[str]) -> dict[str, str]:
    """Split ``name:=value`` arguments (as xacro and ros2 launch take them)."""
    mappings = {}
    for item in items:
        name, sep, value = item.partition(':=')
        if not sep or not name:
            raise UsageError(f'expected name:=value, got {item!r}')
        if not name.startswith('_') or name.startswith('__'):
            mappings[name] = value
    return mappings


def split_assignments(items: Iterable[str]) -> tuple[dict[str, str], dict[str, str]]:
    """Split positional extras into xacro/DSL ``name:=value`` and joint ``NAME=VALUE``."""
    mappings, values = {}, {}
    for item in items:
        if ':=' in item:
            mappings.update(mappings_of([item]))
            continue
        name, sep, value = item.partition('=')
        if not sep or not name:
            raise UsageError(f'expected NAME=VALUE or name:=value, got {item!r}')
        values[name] = value
    return mappings, values


def number(text: str, what: str) -> float:
    """Return ``text`` as a finite float, or raise a usage error naming ``what``."""
    try:
        value = float(text)
    except ValueError:
        value = None
    if value is None or not math.isfinite(value):
        raise UsageError(f'sdf_tools: error: {what} must be a finite number, got {text!r}')
    return value
