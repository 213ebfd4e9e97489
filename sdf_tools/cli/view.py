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
The body of ``sdf_tools view``: a picture of a robot at a configuration (PNG or SVG).

``sdf_tools view robot.urdf.xacro elbow=0.5 prefix:=left_ -o robot.png --view side``. The
drawing (:mod:`sdf_tools.drawing`) and matplotlib are imported when the command runs;
without matplotlib it fails (exit 1) saying which pip extra installs it.
"""

import argparse
import os

from sdf_tools.cli.arguments import number
from sdf_tools.cli.arguments import split_assignments
from sdf_tools.cli.arguments import UsageError
from sdf_tools.cli.common import EXIT_OK
from sdf_tools.cli.common import limit_warnings
from sdf_tools.cli.common import load_input
from sdf_tools.cli.common import print_diagnostics
from sdf_tools.cli.common import write_result
from sdf_tools.errors import Code
from sdf_tools.errors import KinematicsError

PROG = 'sdf_tools view'
#: Picture formats by the output's extension.
FORMATS = {'.png': 'png', '.svg': 'svg'}


def view(args: argparse.Namespace) -> int:
    """Draw ``args.input`` at the joint values given; write the picture to ``args.output``."""
    fmt = FORMATS.get(os.path.splitext(args.output)[1].lower())
    if fmt is None:
        raise UsageError(f'{PROG}: error: cannot tell the picture format of '
                         f'{args.output!r}: name a .png or .svg file')
    from sdf_tools.drawing import require_matplotlib
    from sdf_tools.drawing import view as draw
    from sdf_tools.drawing import ViewOptions
    require_matplotlib()  # before loading: say at once what is missing
    mappings, raw = split_assignments(args.assignments)
    values = {name: number(text, f'joint value {name}={text}') for name, text in raw.items()}
    loaded = load_input(args, mappings, PROG)
    folder = None if args.input == '-' else os.path.dirname(os.path.abspath(args.input))
    options = ViewOptions(view=args.view, size=args.size, fmt=fmt, collision=args.collision,
                          frames=args.frames, resources=loaded.resources, folder=folder,
                          labels=args.labels)
    try:
        picture = draw(loaded.robot, options=options, joints=values)
    except KinematicsError as e:
        if e.diagnostic.code is Code.UNKNOWN_JOINT:
            raise UsageError(f'{PROG}: error: {e.diagnostic.message}') from None
        raise
    print_diagnostics(loaded.warnings + limit_warnings(loaded.robot, values) +
                      picture.warnings, quiet=args.quiet)
    write_result(args.output, picture.data, loaded, PROG)
    return EXIT_OK
