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
The body of ``sdf_tools diff A B``: load both, compare them, print the report.

Exit codes, so that it can gate a description package in CI: 0 the two are equal, 1 they
differ, 2 a usage error or an input that cannot be read (each problem printed with its
file and line). The report goes to stdout (``--json``: the schema of
:mod:`sdf_tools.comparing`), the readers' warnings to stderr.
"""

import json
import math
import sys

from sdf_tools.cli.arguments import mappings_of
from sdf_tools.cli.arguments import UsageError
from sdf_tools.cli.commands import print_diagnostics
from sdf_tools.errors import SdfToolsError
from sdf_tools.outputs import write_output

EXIT_EQUAL = 0
EXIT_DIFFERENT = 1
EXIT_UNREADABLE = 2
_PROG = 'sdf_tools diff'


def diff_command(args) -> int:
    """Compare ``args.a`` and ``args.b`` (module docstring); return the exit code."""
    from sdf_tools.comparing import diff
    from sdf_tools.comparing import DiffOptions
    from sdf_tools.comparing.report import to_json
    from sdf_tools.comparing.report import to_text
    if args.a == '-' and args.b == '-':
        raise UsageError(f'{_PROG}: error: only one of A and B can be standard input')
    both = _mappings(args.assignments)
    try:
        loaded = [_load(args, path, {**both, **mappings_of(extra)})
                  for path, extra in ((args.a, args.a_arg), (args.b, args.b_arg))]
        comparison = diff(loaded[0], loaded[1], DiffOptions(args.tol, args.configurations,
                                                            args.seed))
    except SdfToolsError as e:
        print_diagnostics(e.diagnostics)
        return EXIT_UNREADABLE
    except OSError as e:
        print(f'Error: {e.filename or ""}: {e.strerror or e}', file=sys.stderr)
        return EXIT_UNREADABLE
    print_diagnostics(loaded[0].warnings + loaded[1].warnings, quiet=args.quiet)
    if args.json:
        text = json.dumps(_finite(to_json(comparison)), indent=2) + '\n'
    else:
        text = to_text(comparison)
    write_output(None, text)
    return EXIT_EQUAL if comparison.equal else EXIT_DIFFERENT


def _mappings(items) -> dict:
    """Return the ``name:=value`` words for both sides (joint values make no sense here)."""
    for item in items:
        if ':=' not in item:
            raise UsageError(f'{_PROG}: error: expected name:=value, got {item!r}')
    return mappings_of(items)


def _load(args, path: str, mappings: dict):
    """Load one side with the xacro arguments, package path and model of the command line."""
    from sdf_tools.loading import load
    from sdf_tools.loading import LoadOptions
    from sdf_tools.loading import package_resolver
    try:
        packages = package_resolver(args.package_path, near=None if path == '-' else path)
        return load(path, LoadOptions(mappings=mappings, model=args.model, packages=packages))
    except ValueError as e:  # a --package-path folder that does not exist, a bad parameter
        raise UsageError(f'{_PROG}: error: {e}') from None


def _finite(value):
    """Return JSON data with infinite and NaN numbers written as text (JSON has none)."""
    if isinstance(value, float) and not math.isfinite(value):
        return str(value)
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_finite(item) for item in value]
    return value
