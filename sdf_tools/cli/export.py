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
The body of ``sdf_tools export``: a description as a self-contained Gazebo model folder.

Loads the input as the other commands do, exports it (:func:`sdf_tools.exporting.export`),
prints the warnings, and on standard output the folder, its ``model://`` name, what was
copied and, when something was not, how much. ``--strict``: nothing is written unless the
folder holds every file the model uses; what it would lack is printed as errors (exit 1).
"""

import argparse

from sdf_tools.cli.arguments import mappings_of
from sdf_tools.cli.arguments import UsageError
from sdf_tools.cli.common import EXIT_INVALID
from sdf_tools.cli.common import EXIT_OK
from sdf_tools.cli.common import load_input
from sdf_tools.cli.common import print_diagnostics


def export_command(args: argparse.Namespace) -> int:
    """Write ``args.input`` as the model folder ``args.output``; return the exit code."""
    from sdf_tools.convert.urdf_to_sdf import ConversionOptions
    from sdf_tools.exporting import export
    from sdf_tools.exporting import ExportOptions
    from sdf_tools.exporting.report import counted
    from sdf_tools.exporting.report import lacking
    from sdf_tools.exporting.report import NotSelfContained
    from sdf_tools.outputs import OverwriteError
    loaded = load_input(args, mappings_of(args.mappings), 'sdf_tools export')
    conversion = ConversionOptions(preserve_fixed_joints=args.preserve_fixed_joints,
                                   sdf_version=args.sdf_version,
                                   auto_inertials=args.auto_inertials)
    try:
        exported = export(loaded, args.output, ExportOptions(
            conversion=conversion, force=args.force, strict=args.strict))
    except OverwriteError as e:  # as load_input reports an output that is a file read
        raise UsageError(f'sdf_tools export: error: {e}') from None
    except NotSelfContained as e:
        print_diagnostics(e.diagnostics, quiet=args.quiet)
        return EXIT_INVALID
    print_diagnostics(exported.warnings, quiet=args.quiet)
    copied = len(exported.files) - 2
    print(f'{args.output}: model://{exported.name} (model.config, '
          f'model.sdf and {copied} file{"" if copied == 1 else "s"} copied'
          + (f'; not copied: {counted(exported.used, "not copied")}'
             if lacking(exported.used) else '') + ')')
    return EXIT_OK
