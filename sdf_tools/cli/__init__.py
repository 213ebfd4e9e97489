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
Command-line tools: ``urdf2sdf`` and ``sdf_tools convert|check|tree|fk|export|view``.

Exit codes: 0 success, 1 invalid description (every problem printed with file:line), 2 usage
error. Results go to stdout (or ``-o``: a file written atomically, a FIFO or device in place;
never a file that was read, :mod:`sdf_tools.outputs`), diagnostics to stderr, never a
traceback (``--traceback`` shows one for bug reports). Also runnable as
``ros2 run sdf_tools urdf2sdf`` and ``ros2 run sdf_tools sdf_tools``.

The arguments are parsed first (:mod:`.arguments`, standard library only), so ``--help`` and
``--version`` answer at once; the commands (:mod:`.commands`) and what they need are imported
after.
"""

from collections.abc import Callable
import gc
import os
import sys
from typing import NoReturn

from sdf_tools.cli.arguments import main_parser
from sdf_tools.cli.arguments import split_extras
from sdf_tools.cli.arguments import urdf2sdf_parser
from sdf_tools.cli.arguments import UsageError
from sdf_tools.outputs import flush_stdout

EXIT_OK = 0
EXIT_INVALID = 1
EXIT_USAGE = 2


def _run(func: Callable[[list[str]], int], argv: list[str], traceback_flag: bool) -> int:
    """Run a command body, turning every failure into a message and an exit code."""
    if sys.stderr is None:  # started with 2>&-: messages go nowhere (print would use stdout)
        sys.stderr = open(os.devnull, 'w')
    try:
        code = func(argv)
        flush_stdout()  # here, so that a full disk is reported (and not exit 0)
        return code
    except UsageError as e:
        print(str(e), file=sys.stderr)
        return EXIT_USAGE
    except BrokenPipeError:
        try:
            sys.stdout = open(os.devnull, 'w')
        except OSError:
            pass
        return EXIT_OK
    except KeyboardInterrupt:
        return 130
    except Exception as e:
        return _failure(e, traceback_flag)


def _failure(e: Exception, traceback_flag: bool) -> int:
    """Print why a command failed (an invalid description, a file, or a bug); return the code."""
    from sdf_tools.cli.common import color
    from sdf_tools.cli.common import print_diagnostics
    from sdf_tools.errors import SdfToolsError
    if isinstance(e, SdfToolsError):  # the errors, and the warnings found before them
        print_diagnostics(e.warnings + e.diagnostics)
        return EXIT_INVALID
    if isinstance(e, OSError):
        where = f'{e.filename}: ' if e.filename else ''
        print(color(sys.stderr, 'Error', '31') + f': {where}{e.strerror or e}', file=sys.stderr)
        return EXIT_INVALID
    if traceback_flag:  # a bug: say so briefly, the traceback only on request
        raise e
    print(color(sys.stderr, 'Error', '31') + f': internal error ({type(e).__name__}: '
          f'{e}); rerun with --traceback and report it', file=sys.stderr)
    return EXIT_INVALID


def _urdf2sdf(argv: list[str]) -> int:
    rest, extras = split_extras(argv)
    args = urdf2sdf_parser().parse_args(rest)
    args.mappings = args.mappings + extras
    from sdf_tools.cli.commands import urdf2sdf
    return urdf2sdf(args)


def urdf2sdf_main(argv: list[str] | None = None) -> int:
    """Entry point of ``urdf2sdf``: run ``argv`` (a list), or the process's command line."""
    if argv is None:
        _as_process(_urdf2sdf)
    return _run(_urdf2sdf, argv, '--traceback' in argv)


def _main(argv: list[str]) -> int:
    rest, extras = split_extras(argv)
    args = main_parser().parse_args(rest)
    if args.command in ('convert', 'export'):
        args.mappings = args.mappings + extras
    else:
        args.assignments = args.assignments + extras
    from sdf_tools.cli.commands import COMMANDS
    return COMMANDS[args.command](args)


def main(argv: list[str] | None = None) -> int:
    """Entry point of ``sdf_tools``: run ``argv`` (a list), or the process's command line."""
    if argv is None:
        _as_process(_main)
    return _run(_main, argv, '--traceback' in argv)


def _as_process(command: Callable[[list[str]], int]) -> NoReturn:
    """
    Run ``command`` on the process's command line, then end the process with its exit code.

    Two things a one-shot process can skip (issue 14; ``bench/bench_process.py``):

    * the cycle collector running every 700 allocations while modules and classes are made
      that live until exit (~6-10 ms of a conversion, 25-30 runs each walking all of them):
      it runs every 100,000 allocations instead (mypy, for the same reason, 200,000);
    * tearing the interpreter down (~20 ms): the output is flushed and the process ends.
      There is nothing to clean up: no handlers run at exit, and files are written
      (atomically) and closed before this.
    """
    gc.set_threshold(100_000, 50, 100)
    code = _run(command, sys.argv[1:], '--traceback' in sys.argv)
    for stream in (sys.stdout, sys.stderr):
        try:
            if stream is not None:  # None: started without it (``>&-``)
                stream.flush()
        except (OSError, ValueError):  # a closed pipe (``| head``) or a closed stream
            pass
    os._exit(code)


if __name__ == '__main__':
    sys.exit(main())
