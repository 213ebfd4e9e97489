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
xacro, run safely and explained: every file checked, ``$(find)`` without ROS, clear errors.

The ``xacro`` library keeps its state in module globals, so one expansion runs at a time.
The document goes in through xacro's public functions (``init_stacks``, ``parse``,
``process_doc``: ``process_file``'s steps), as the bytes already read and checked, never its
file to open again (a pipe such as ``/dev/stdin`` is empty by then; a file changed since
would be expanded unchecked). xacro has no public hook for the rest, so while it runs these
are replaced (and put back afterwards), which ties sdf_tools to the xacro versions whose
insides it was written against (:data:`XACRO_VERSIONS`, pinned in ``setup.py``; another
xacro lacking one of them is refused, :func:`_check_hooks`):

* ``xacro.parse`` checks each file xacro opens (every include) with the safe parser
  (:func:`~sdf_tools.xmlio.parse.parse_xml`), as the document was, then gives xacro the
  text with the ``--`` XML forbids in comments made spaces
  (:func:`~sdf_tools.xmlio.markup.readable_comments`: tinyxml2 and the safe parser read such
  comments, expat refuses them; lines do not move; the document gets the same);
* ``$(find pkg)`` (xacro's private ``substitution_args._eval_find``) asks a
  :class:`~sdf_tools.resources.packages.PackageResolver` instead of ament_index_python, so
  no sourced ROS is needed; the lookup's warnings (a duplicate package) are placed at the
  line of that ``$(find)``;
* a failing ``$(...)`` substitution is remembered with its text, so the error names it and
  the line of the file (or included file) that holds it;
* a macro call (``handle_macro_call``) is remembered while it runs, and the elements its
  expansion inserts (``replace_node``): a call that fails (an unknown macro, a parameter the
  macro lacks) is reported at its line with the nearest name (``<xacro:wheell>``: did you
  mean ``<xacro:wheel>``?), and what is reported in a macro's body names the call that
  expanded it (:func:`~.xacro_map.map_expansion`).

Errors read ``file:line: expression: reason``, e.g.
``robot.urdf.xacro:12: $(find ur_description): package 'ur_description' not found;
searched: ...; give its folder with --package-path``; other xacro failures read
``file[:line]: xacro failed: reason``, once, without exception class names. A file that
cannot be opened is reported at the line that names it (the include, ``load_yaml``), with
what the package it is in tells (:meth:`PackageResolver.explain_missing`).
"""

from collections.abc import Callable
from collections.abc import Iterable
from collections.abc import Iterator
from collections.abc import Sequence
import contextlib
import difflib
import io
import os
import re
import threading
from types import ModuleType
from typing import IO
from typing import TYPE_CHECKING
from xml.dom import minidom

from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import SdfToolsError
from sdf_tools.errors import Severity
from sdf_tools.errors import SourceLocation
from sdf_tools.loading.xacro_calls import Active
from sdf_tools.loading.xacro_calls import call_failure
from sdf_tools.loading.xacro_calls import Calls
from sdf_tools.loading.xacro_calls import expansion_note
from sdf_tools.loading.xacro_map import Files
from sdf_tools.records import record
from sdf_tools.resources.packages import PackageNotFoundError
from sdf_tools.resources.packages import PackageResolver
from sdf_tools.xmlio.markup import readable_comments
from sdf_tools.xmlio.markup import xacro_markup_at
from sdf_tools.xmlio.markup import xml_text
from sdf_tools.xmlio.parse import DEFAULT_MAX_BYTES
from sdf_tools.xmlio.parse import parse_xml

if TYPE_CHECKING:
    from sdf_tools.source_map import SourceMap

#: The xacro versions :func:`run_xacro` works with (``setup.py`` pins them): those whose
#: functions :func:`_patched_xacro` replaces, read in xacro 2.0.8 to 2.0.10 and 2.1.1.
XACRO_VERSIONS = '>=2.0.8,<2.2'
#: What :func:`run_xacro` uses of the ``xacro`` module besides its public entry points.
_HOOKS = ('init_stacks', 'parse', 'process_doc', 'eval_extension', 'handle_macro_call',
          'replace_node', 'root_dir', 'all_includes', 'filestack', 'macrostack')
# xacro keeps its state (file stack, includes, arguments) in module globals: one expansion
# at a time.
_XACRO_LOCK = threading.Lock()
_SUBSTITUTION = re.compile(r'\$\(([^)]*)\)')  # as xacro's lexer reads $(...)
_EXPRESSION = re.compile(r'\$\{[^}]*\}')
_COMMENT = re.compile(r'<!--.*?-->', re.DOTALL)
_CLASS_NAME = re.compile(r"<class '[\w.]+'>:\s*")
_WHEN_EVALUATING = re.compile(r"\s*when evaluating expression '(.*)'\s*", re.DOTALL)
# The markup a refusal quotes: a substitution or a xacro element's name.
_MARKUP_SHOWN = re.compile(rb'\$\{[^}\n]*\}?|\$\([^)\n]*\)?|<\s*xacro:[-\w.]*|')
# What run_xacro was given: (source, path, data).
_Context = tuple[str, str | None, bytes]
# Where a failing markup is: the offset of its match in a file's text, or None.
_Matcher = Callable[[str], int | None]


class _SubstitutionFailed(Exception):
    """A ``$(...)`` substitution failed: its text (evaluated) and the cause."""

    def __init__(self, expression: str, cause: BaseException):
        super().__init__(expression)
        self.expression = expression
        self.cause = cause


@record(frozen=True)
class Expansion:
    """
    What :func:`run_xacro` produced.

    Attributes
    ----------
    text : str
        The URDF text, as xacro writes it (whitespace between elements dropped).
    files : tuple of (str, bytes)
        Every file xacro read, each once, in the order it read them: the document itself
        first (named ``source``), then each included file (named as xacro names it).
    inputs : tuple of str
        The absolute paths of the files xacro read besides the document: includes and YAML
        files (``xacro.load_yaml``), each once, in order (xacro's own list, as
        ``xacro --deps`` prints it).
    unused : tuple of str
        The arguments given that the documents neither declare (``<xacro:arg>``) nor read
        (``$(arg)``, ``xacro.arg()``, ``$(eval)``), in the order given: they change nothing.
    warnings : tuple of Diagnostic
        One per unused argument, naming the arguments the documents have.
    calls : tuple
        For each element of ``text`` in document order, the macro calls whose expansion
        made it, innermost first, each ``(name, attributes)`` as written (``()`` when no
        macro was called).

    """

    text: str
    files: tuple[tuple[str, bytes], ...]
    inputs: tuple[str, ...] = ()
    unused: tuple[str, ...] = ()
    warnings: tuple[Diagnostic, ...] = ()
    calls: tuple = ()


class _Arguments(dict[str, str]):
    """
    xacro's table of arguments (``name -> value``), noting the names the documents know.

    xacro keeps the arguments given and those ``<xacro:arg>`` declares in this one table:
    a declaration asks whether its name is given (``in``) before setting its default, and
    every ``$(arg)``, ``xacro.arg()`` or ``$(eval)`` name is looked up (``[]``).
    """

    __slots__ = ('known',)

    def __init__(self, items: Iterable[tuple[str, str]]) -> None:
        super().__init__(items)
        self.known: dict[str, None] = {}  # names declared or read, in the order met

    def __contains__(self, name: str) -> bool:  # type: ignore[override]  # xacro's: str
        self.known[name] = None
        return super().__contains__(name)

    def __getitem__(self, name: str) -> str:
        value = super().__getitem__(name)
        self.known[name] = None
        return value


def expand_xacro(data: bytes, source: str, packages: PackageResolver, *,
                 mappings: dict | None = None, path: str | None = None) -> str:
    """Expand xacro markup and return the URDF text (:func:`run_xacro`'s ``text``)."""
    return run_xacro(data, source, packages, mappings=mappings, path=path).text


def run_xacro(data: bytes, source: str, packages: PackageResolver, *,
              mappings: dict | None = None, path: str | None = None) -> Expansion:
    """
    Expand xacro markup with the ``xacro`` library; return the URDF text and the files read.

    Parameters
    ----------
    data : bytes
        The xacro document (already read; checked with the safe parser first).
    source : str
        Name for messages.
    packages : PackageResolver
        Where ``$(find pkg)`` looks (the run's
        :class:`~sdf_tools.resources.lookup.Resources`).
    mappings : dict, optional
        ``name:=value`` arguments (strings).
    path : str, optional
        The file the document came from: includes and ``$(dirname)`` resolve against it.

    Raises
    ------
    XmlSyntaxError
        The document, or a file it includes, is not acceptable XML: entity declarations,
        nesting deeper than 256, larger than the size limit, malformed (xacro's own parser
        never sees such a file).
    DescriptionError
        xacro failed: a package not found, an argument or environment variable not set,
        a bad expression, ... (the message names the file, the line when it can be told,
        the substitution and the reason).

    """
    parse_xml(data, source)  # refuse entities and oversized input before xacro sees it
    import xacro
    _check_hooks(xacro)
    mappings = _Arguments((str(k), str(v)) for k, v in (mappings or {}).items())
    given = tuple(mappings.items())
    # File name as xacro gives it (None: the document) -> its bytes.
    files: dict[str | None, bytes] = {None: data}
    context = (source, path, data)
    calls = Calls()
    with _XACRO_LOCK, _patched_xacro(xacro, packages, files, context, calls):
        saved_cwd = os.getcwd()
        try:
            # xacro's process_file, but on the bytes read and checked: the file is never
            # opened again. Without a file, includes resolve against the working directory.
            xacro.init_stacks(path)
            doc = xacro.parse(readable_comments(data).decode('utf-8'))
            xacro.process_doc(doc, mappings=mappings, verbosity=0)
            read = ((source, data),) + tuple((name, text) for name, text in files.items()
                                             if name is not None and name != path)
            # xacro lists each include and YAML file it opened, relative to its root_dir.
            inputs = tuple(dict.fromkeys(os.path.abspath(os.path.join(xacro.root_dir, name))
                                         for name in xacro.all_includes))
            unused = tuple((name, value) for name, value in given if name not in mappings.known)
            return Expansion(doc.toxml(), read, inputs, tuple(name for name, _ in unused),
                             tuple(_unused_warning(name, value, tuple(mappings.known), source)
                                   for name, value in unused), calls.of_elements(doc))
        except SdfToolsError:
            raise  # an included file refused by the safe parser, with its own location
        except Exception as e:  # xacro raises XacroException, ExpatError, KeyError, ...
            opened = [(source, data)] + [(name, text) for name, text in files.items()
                                         if name is not None and name != path]
            raise _explain(xacro, e, (source, path, data), packages,
                           (opened, calls.active)) from None
        finally:
            os.chdir(saved_cwd)
            del xacro.all_includes[:]  # xacro only ever appends to it


def _unused_warning(name: str, value: str, known: tuple, source: str) -> Diagnostic:
    """Return the warning that argument ``name:=value`` changes nothing (xacro is silent)."""
    if known:
        close = difflib.get_close_matches(name, known, n=1)
        have = f'its arguments are {", ".join(known)}' + \
            (f' (did you mean {close[0]}?)' if close else '')
    else:
        have = 'it has no arguments'
    return Diagnostic(f'{name}:={value} changes nothing: no xacro file declares or reads '
                      f'an argument {name!r}; {have}', SourceLocation(source), None,
                      Severity.WARNING, Code.UNUSED_PARAMETER)


@contextlib.contextmanager
def _patched_xacro(xacro: ModuleType, packages: PackageResolver,
                   files: dict[str | None, bytes], context: _Context,
                   calls: Calls) -> Iterator[None]:
    """
    Replace xacro's file parser, package lookup, substitution entry and macro calls.

    (The module docstring says why.) ``calls`` records the macro calls.

    A lookup that leaves warnings (a duplicate package) places them at the line of its
    ``$(find)``; ``context`` is ``(source, path, data)`` of :func:`run_xacro`, to tell it.

    xacro parses files with ``xml.dom.minidom``, which expands internal entities and has no
    depth limit: ``parse`` first reads the file itself and checks it, so a file that
    declares entities, nests too deeply or is too large is refused before xacro parses it,
    and records it in ``files`` (name -> bytes). Files that cannot be opened are left to
    xacro, which reports them its way.
    """
    from xacro import substitution_args
    original_parse, original_extension = xacro.parse, xacro.eval_extension
    original_find = substitution_args._eval_find
    original_call, original_replace = xacro.handle_macro_call, xacro.replace_node

    def parse(inp: str | IO[bytes] | None, filename: str | None = None) -> minidom.Document:
        if inp is None:  # an include (the document is given as text)
            assert filename is not None  # xacro names the file it includes
            name = os.path.join(xacro.root_dir, filename)
            try:
                with open(name, 'rb') as f:
                    data = f.read(DEFAULT_MAX_BYTES + 1)
            except OSError:
                return original_parse(inp, filename)
            parse_xml(data, filename)
            files.setdefault(filename, data)
            inp = io.BytesIO(readable_comments(data))
        return original_parse(inp, filename)

    def find(package: str) -> str:
        folder = str(packages.find(package))
        expression = f'$(find {package})'
        packages.place_warnings(lambda: _locate(_context_files(xacro, *context),
                                                _substitution_matcher(expression)), expression)
        return folder

    def eval_extension(text: str) -> str:
        try:
            return original_extension(text)
        except Exception as e:
            raise _SubstitutionFailed(text, _innermost(e)) from None

    def handle_macro_call(node: minidom.Element, macros: object, symbols: object) -> bool:
        active = calls.active
        if not node.tagName.startswith('xacro:') or (active and active[-1][0] is node):
            return original_call(node, macros, symbols)  # no call, or xacro:call's own
        active.append((node, node.tagName, tuple(node.attributes.items()), macros))
        handled = original_call(node, macros, symbols)
        active.pop()  # not when it fails: then it names the call
        return handled

    def replace_node(node: minidom.Element, by: minidom.Element | None,
                     content_only: bool = False) -> None:
        if by is not None and calls.active and calls.active[-1][0] is node:
            calls.insert(by.childNodes)  # the macro's expansion, put where the call was
        return original_replace(node, by, content_only)

    # (mypy lets no one assign a ModuleType's attributes: the four lines are ignored.)
    xacro.parse, xacro.eval_extension = parse, eval_extension  # type: ignore[attr-defined]
    xacro.handle_macro_call, xacro.replace_node = (  # type: ignore[attr-defined]
        handle_macro_call, replace_node)
    substitution_args._eval_find = find
    try:
        yield
    finally:
        xacro.parse, xacro.eval_extension = (  # type: ignore[attr-defined]
            original_parse, original_extension)
        xacro.handle_macro_call, xacro.replace_node = (  # type: ignore[attr-defined]
            original_call, original_replace)
        substitution_args._eval_find = original_find


def _check_hooks(xacro: ModuleType) -> None:
    """Refuse an ``xacro`` without what :func:`_patched_xacro` replaces (:data:`_HOOKS`)."""
    from xacro import substitution_args
    missing = [name for name in _HOOKS if not hasattr(xacro, name)]
    if not hasattr(substitution_args, '_eval_find'):
        missing.append('substitution_args._eval_find')
    if missing:
        raise SdfToolsError(Diagnostic(
            f'the xacro installed ({os.path.dirname(str(xacro.__file__))}) has no '
            f'{", ".join(missing)}: sdf_tools expands xacro with xacro{XACRO_VERSIONS}; '
            f'install one of those (pip install "xacro{XACRO_VERSIONS}")', code=Code.XACRO))


def _innermost(e: BaseException) -> BaseException:
    """Return the exception an ``XacroException`` wraps (xacro nests them), or ``e``."""
    while not isinstance(e, _SubstitutionFailed) and (inner := getattr(e, 'exc', None)):
        e = inner
    return e


def _explain(xacro: ModuleType, e: Exception, context: _Context, packages: PackageResolver,
             calls: tuple[Files, list[Active]]) -> DescriptionError:
    """
    Return the :class:`DescriptionError` for a xacro failure (module docstring).

    ``context`` is ``(source, path, data)`` of :func:`run_xacro`; ``calls`` the files read,
    ``(name, bytes)``, and :attr:`~.xacro_calls.Calls.active`: a call xacro refused is
    reported at its line (:func:`~.xacro_calls.call_failure`), another failure in a macro
    names the calls it was expanded from.
    """
    source, path, data = context
    refused = call_failure(e, calls[1], calls[0])
    if refused is not None:
        return DescriptionError(refused)
    note = expansion_note(*calls)
    files = _context_files(xacro, source, path, data)
    failed: BaseException | None = e
    while failed is not None and not isinstance(failed, _SubstitutionFailed):
        failed = getattr(failed, 'exc', None)
    if failed is not None:
        cause = failed.cause
        location = _locate(files, _substitution_matcher(failed.expression))
        code = Code.PACKAGE_NOT_FOUND if isinstance(cause, PackageNotFoundError) else Code.XACRO
        return DescriptionError(Diagnostic(_substitution_reason(failed.expression, cause)
                                           + note, location, failed.expression, code=code))
    evaluating = _WHEN_EVALUATING.fullmatch(getattr(e, 'suffix', None) or '')
    wrapped = getattr(e, 'exc', None)
    if evaluating is not None and wrapped is not None:  # ${...}, which xacro names
        entity = f'${{{evaluating.group(1)}}}'
        location = _locate(files, lambda text: _find_literal(text, entity))
        return DescriptionError(Diagnostic(f'xacro failed: {_reason(wrapped)}{note}',
                                           location, entity, code=Code.XACRO))
    reason = _reason(e)
    missing = _innermost(e)
    current = _read_files(xacro, list(reversed(xacro.filestack or [None]))[:1], source, path,
                          data)[0][0]
    location = SourceLocation(current)
    if isinstance(missing, OSError) and missing.filename:  # an include, a YAML file, ...
        location = _locate(files, _path_matcher(str(missing.filename)))
        if location.line is None:
            location = SourceLocation(current)
        hint = packages.explain_missing(os.path.join(xacro.root_dir, missing.filename))
        reason += f'; {hint}' if hint else ''
    return DescriptionError(Diagnostic(f'xacro failed: {reason}{note}', location,
                                       code=Code.XACRO))


def _context_files(xacro: ModuleType, source: str, path: str | None,
                   data: bytes) -> list[tuple[str, str]]:
    """Return ``[(name, text)]`` of the files xacro is in: macros being expanded, includes."""
    macro_files = [macro.history[-1][-1] for macro in reversed(xacro.macrostack or [])
                   if getattr(macro, 'history', None) and macro.history[-1]]
    stack_files = list(reversed(xacro.filestack or [None]))
    return _read_files(xacro, macro_files + stack_files, source, path, data)


def _substitution_reason(expression: str, cause: BaseException) -> str:
    words = expression[2:-1].split()
    command, name = (words + ['', ''])[:2]
    if isinstance(cause, PackageNotFoundError):
        return str(cause)
    if command == 'arg' and type(cause).__name__ == 'ArgException':
        return (f"xacro argument '{name}' is not set; give {name}:=VALUE, or declare it "
                f'with a default: <xacro:arg name="{name}" default="..."/>')
    if command == 'env' and len(words) == 2 and name not in os.environ:
        return (f"environment variable '{name}' is not set (for a default, use "
                f'$(optenv {name} DEFAULT))')
    return _reason(cause)


def _reason(e: BaseException) -> str:
    """Return what went wrong, once: xacro repeats a wrapped error and its class name."""
    inner = getattr(e, 'exc', None)
    if inner is None:
        text = str(e) or type(e).__name__
    else:
        message = str(e.args[0]) if e.args and e.args[0] else ''
        inner_text = _reason(inner)
        if not message:
            text = inner_text
        elif isinstance(inner, OSError) or inner_text in message:
            text = message  # xacro's text already says it
        else:
            text = f'{message} {inner_text}'
        suffix = getattr(e, 'suffix', None)
        if suffix:
            text = f'{text} {suffix}'
    return ' '.join(_CLASS_NAME.sub('', text).split())


def _read_files(xacro: ModuleType, names: Iterable[str | None], source: str, path: str | None,
                data: bytes) -> list[tuple[str, str]]:
    """
    Return ``[(name, text)]`` of xacro's file names, each once, in order.

    The main file (``None`` for text given directly, or ``path``) is named ``source`` (the
    name the user gave); a file that cannot be read has no text.
    """
    files, done = [], set()
    for name in names:
        main = name is None or name == path
        if (None if main else name) in done:
            continue
        done.add(None if main else name)
        if main:
            files.append((source, data.decode('utf-8', 'replace')))
            continue
        assert name is not None  # (None is the main file)
        try:
            with open(os.path.join(xacro.root_dir, name), 'rb') as f:
                text = f.read(DEFAULT_MAX_BYTES).decode('utf-8', 'replace')
        except OSError:
            text = ''
        files.append((name, text))
    return files


def _locate(files: Sequence[tuple[str, str]], matcher: _Matcher) -> SourceLocation:
    """
    Return where the failing markup is: the first line ``matcher`` finds in ``files``.

    ``matcher(text)`` returns the offset of a match or ``None``; comments are blanked first
    (xacro does not evaluate them). Without a match, the first file, without a line.
    """
    for name, text in files:
        text = _COMMENT.sub(lambda m: re.sub(r'[^\n]', ' ', m.group()), text)
        offset = matcher(text)
        if offset is not None:
            return SourceLocation(name, text.count('\n', 0, offset) + 1)
    return SourceLocation(files[0][0])


def _find_literal(text: str, literal: str) -> int | None:
    offset = text.find(literal)
    return None if offset < 0 else offset


def _path_matcher(path: str) -> _Matcher:
    """
    Return a matcher for where a file that could not be opened is named.

    The longest end of ``path`` (``urdf/arm.xacro`` of ``/ws/src/arm/urdf/arm.xacro``) that
    is written as a whole, as in ``$(find arm)/urdf/arm.xacro`` or ``"arm.xacro"``.
    """
    parts = path.replace(os.sep, '/').split('/')
    ends = [re.compile(r'(?<![\w.-])' + re.escape('/'.join(parts[i:])) + r'(?![\w.-])')
            for i in range(len(parts)) if parts[i]]

    def match(text: str) -> int | None:
        for end in ends:
            m = end.search(text)
            if m is not None:
                return m.start()
        return None

    return match


def _substitution_matcher(expression: str) -> _Matcher:
    """
    Return a matcher for the ``$(...)`` that evaluated to ``expression``.

    The text as written is preferred; otherwise a ``$(...)`` whose ``${...}`` parts could
    have produced it, when it is the only such one in the file.
    """
    wanted = ' '.join(expression[2:-1].split())

    def match(text: str) -> int | None:
        candidates = []
        for m in _SUBSTITUTION.finditer(text):
            written = ' '.join(m.group(1).split())
            if written == wanted:
                return m.start()
            literal = _EXPRESSION.split(written)
            if len(literal) > 1 and re.fullmatch('.*?'.join(map(re.escape, literal)), wanted):
                candidates.append(m.start())
        return candidates[0] if len(candidates) == 1 else None

    return match


def refuse_unasked(data: bytes, source: str, file: str | None, asked: bool | None,
                   fmt: str | None, remedy: str) -> None:
    """
    Raise unless xacro was asked for: expanding it runs the code the file holds.

    ``asked`` is ``LoadOptions.xacro`` (``None``: only ``.xacro`` files or ``fmt='xacro'``;
    ``True``: any input; ``False``: never); ``remedy`` ends the message (``--xacro``, ...).
    """
    if asked or (asked is None and (fmt == 'xacro' or (file or '').lower().endswith('.xacro'))):
        return
    data = xml_text(data)  # as the parser reads it: markup in UTF-16 too
    offset = xacro_markup_at(data)
    location = SourceLocation(source, None if offset is None else
                              data.count(b'\n', 0, offset) + 1)
    if asked is False:
        raise DescriptionError(Diagnostic('xacro markup must be expanded first (use a '
                                          'path, or run xacro)', location, code=Code.XACRO))
    match = _MARKUP_SHOWN.match(data, offset or 0)
    markup = match.group().decode('utf-8', 'replace') if match else ''
    shown = repr(markup[:40] + ('...' if len(markup) > 40 else ''))
    where = ('in a file not named .xacro' if file else
             'on standard input' if source == '<stdin>' else f'in {source}')
    raise DescriptionError(Diagnostic(
        f'xacro markup {shown} {where}: not expanded, because expanding xacro runs the '
        f'code it holds; {remedy}', location, code=Code.XACRO))


def expand(data: bytes, source: str, file: str | None, mappings: dict,
           packages: PackageResolver) -> tuple[bytes, 'SourceMap', tuple[str, ...], tuple,
                                               tuple]:
    """
    Return xacro's expansion laid out one element per line, and its map to the files.

    Then the other files xacro read, the arguments that changed nothing, and a warning for
    each of those (:func:`run_xacro`, :func:`~.xacro_map.map_expansion`).
    """
    from sdf_tools.loading.xacro_map import map_expansion
    expansion = run_xacro(data, source, packages, mappings=mappings, path=file)
    text, origins = map_expansion(expansion.text, expansion.files,
                                  f'{source} (expanded by xacro)', expansion.calls)
    return (text.encode('utf-8'), origins, expansion.inputs, expansion.unused,
            expansion.warnings)
