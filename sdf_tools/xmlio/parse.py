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
Safe XML parsing with source lines, and strict readers for the values inside.

:func:`parse_xml` is the only way sdf_tools turns text into elements:

* entity expansion and network access are off, and a document that declares entities is
  refused (no billion laughs, no external entities, no file content echoed back);
* nesting deeper than 256 levels, inputs larger than ``max_bytes``, inputs with more than
  ``max_tags`` tags and single names, texts or attribute values over libxml2's 10 MB are
  refused;
* malformed XML is an error with its line, never "recovered";
* ``--`` inside a comment (``<!-- spawn_entity.py --entity r -->``), which XML forbids but
  libsdformat, urdfdom (tinyxml2) and ROS users write, is read as tinyxml2 reads it: the
  comment ends at the first ``-->`` (:func:`~.markup.readable_comments`; comments are dropped, and
  lines do not move);
* element names with ``::`` (``<ignition::corrected_offsets>``, written by libsdformat 12)
  are well-formed XML but not namespace-well-formed, so lxml refuses them; they are read
  with ``::`` replaced by :data:`DCOLON` and written back by :func:`to_string`;
* names with a prefix no ``xmlns:`` declares (``<xyz ignition:expressed_in="...">``, which
  libsdformat writes and reads: tinyxml2 knows no namespaces) are refused by lxml too; the
  document is then read again with each such prefix declared on the root element as
  ``urn:sdf-tools:undeclared:<prefix>`` (:data:`UNDECLARED_NS`), so the element is
  ``{urn:sdf-tools:undeclared:ignition}foo`` in lxml, ``ignition:foo`` for
  :func:`local_name`, and written back as it was, without a declaration, by
  :func:`to_string`. Lines do not move (the declarations go inside the root's start tag).

:class:`ValueReader` reads numbers, vectors and required attributes the same strict way
everywhere and records each problem, with its line and entity, in a :class:`Reporter`.
"""

from collections.abc import Iterable
import math
import re
from typing import TYPE_CHECKING
from typing import TypeVar

from lxml import etree

from sdf_tools.errors import Code
from sdf_tools.errors import Diagnostic
from sdf_tools.errors import Reporter
from sdf_tools.errors import Severity
from sdf_tools.errors import SourceLocation
from sdf_tools.errors import XmlSyntaxError
from sdf_tools.xmlio.markup import has_instruction
from sdf_tools.xmlio.markup import markup_spans
from sdf_tools.xmlio.markup import readable_comments
from sdf_tools.xmlio.node import Node

if TYPE_CHECKING:  # ValueReader's default left out is None (PEP 696; mypy flags the '= None')
    from typing_extensions import TypeVar as DefaultTypeVar
    _D = DefaultTypeVar('_D', default=None)
else:
    _D = TypeVar('_D')

#: Largest document :func:`parse_xml` accepts by default (bytes). The biggest real robot
#: descriptions are a few hundred kilobytes.
DEFAULT_MAX_BYTES = 32 * 1024 * 1024
#: Most tags (``<`` characters) :func:`parse_xml` accepts by default. Memory and time go with
#: the number of elements (libxml2 alone spends about 130 bytes on each, a reader up to a
#: kilobyte and a few microseconds), not with the bytes: 32 MB of ``<a/>`` would take a
#: gigabyte. The largest corpus robot (PR2) has about 4,000 tags; at this limit a document
#: of nothing but links takes about a second and 170 MB.
DEFAULT_MAX_TAGS = 250_000

#: Stand-in for ``::`` inside element names while a document is held by lxml.
DCOLON = '_-dcolon-_'
#: Namespace given to a prefix the document uses without declaring it (module docstring);
#: the prefix follows it.
UNDECLARED_NS = 'urn:sdf-tools:undeclared:'
#: Most distinct undeclared prefixes a document may use (real ones use one or two).
MAX_UNDECLARED_PREFIXES = 64

#: What may come before the root element: a UTF-8 byte order mark, then whitespace,
#: comments, PIs and a DOCTYPE (which may hold an internal subset in brackets, with '>').
XML_PREAMBLE = re.compile(
    rb'(\xef\xbb\xbf)?(\s|<\?.*?\?>|<!--.*?-->|<!DOCTYPE[^>\[]*(\[.*?\])?\s*>)*', re.DOTALL)

# Characters of decimal numbers and the whitespace between them. With only these, float()
# accepts exactly the decimal forms C++ stod reads in full ('1', '-2.5', '.5', '1e-3') and
# refuses nan, inf, underscores, hex and non-ASCII digits, while parsing in C.
_NUMERIC_TEXT = re.compile(r'[0-9eE.+\- \t\r\n]*')
# The patterns below serve rarer paths (text given as str, errors, retries, names written
# back): they are compiled when first used, through re's cache, not by every process that
# imports this module (with those of .markup and the URDF reader, ~5 M instructions).
_ENCODING_DECL = r'^(\s*<\?xml[^>]*?encoding\s*=\s*)(["\'])[^"\']*\2'
_LXML_POSITION = r',\s*line \d+, column \d+(?:\s*\(.*\))?\s*$'
_DCOLON_TAG = rb'(</?)([A-Za-z_][-\w.:]*::[-\w.:]*)'
# libxml2's message for a prefix without a declaration, on an element or an attribute.
_UNDEFINED_PREFIX = r'Namespace prefix ([^\W\d][-\w.]*) (?:for \S+ )?on \S+ is not defined'
_ROOT_NAME = rb'<[^\s/>!?]+'
_UNDECLARED_DECLARATION = r'\sxmlns:([^\s=]+)="' + re.escape(UNDECLARED_NS) + r'\1"'
_START_TAG = r'<[^<>]*>'
# References to entities other than the five XML predefines and character references.
_ENTITY_REFERENCE = rb'&(?!(?:amp|lt|gt|quot|apos);|#)([^\s;&<]{0,64};?)'


def _escape_dcolon_tags(data: bytes) -> bytes:
    """Replace ``::`` in element names (outside comments and CDATA) by :data:`DCOLON`."""
    mark = DCOLON.encode()
    dcolon_tag = re.compile(_DCOLON_TAG)

    def escape(text: bytes) -> bytes:
        return dcolon_tag.sub(lambda t: t.group(1) + t.group(2).replace(b'::', mark), text)

    out: list[bytes] = []
    pos = 0
    for start, end, _ in markup_spans(data):
        out += (escape(data[pos:start]), data[start:end])
        pos = end
    out.append(escape(data[pos:]))
    return b''.join(out)


def _syntax_error(source: str, message: str, line: int | None = None) -> XmlSyntaxError:
    return XmlSyntaxError(Diagnostic(message, SourceLocation(source, line), code=Code.SYNTAX))


def parse_xml(data: bytes | bytearray | memoryview | str, source: str = '<string>', *,
              max_bytes: int = DEFAULT_MAX_BYTES, max_tags: int = DEFAULT_MAX_TAGS,
              instructions: list[Diagnostic] | None = None) -> etree._Element:
    """
    Parse XML text safely and return the root element (comments and PIs dropped).

    Parameters
    ----------
    data : bytes or str
        The document. A ``str`` may carry an XML declaration naming another encoding; it is
        read as the text it is.
    source : str
        Name used in error messages (a file name or a label).
    max_bytes : int
        Larger inputs are refused before parsing.
    max_tags : int
        Inputs with more ``<`` characters (tags, comments, ...) are refused before parsing.
    instructions : list, optional
        Given, receives a warning (:class:`~sdf_tools.errors.Diagnostic`, ``dropped``) with
        the line of each processing instruction inside the root element, which is dropped
        as every one is: libsdformat and urdfdom (tinyxml2) refuse a document holding one
        there, so none may be copied into an output. Found by one search of the text for
        ``<?`` past the XML declaration (none: parsed as without).

    Raises
    ------
    XmlSyntaxError
        Malformed, too large, too many tags, too deep, empty, declaring entities, or not
        text.

    """
    if isinstance(data, str):
        as_utf8 = re.sub(_ENCODING_DECL, r'\1\2utf-8\2', data, count=1)
        data = as_utf8.encode('utf-8', 'surrogatepass')
    elif not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f'parse_xml() needs bytes or str, got {type(data).__name__}')
    data = bytes(data)
    if len(data) > max_bytes:
        raise _syntax_error(source, f'document is {len(data)} bytes, more than the limit of '
                            f'{max_bytes} bytes')
    # (no more '<' than bytes: counted only when there could be too many)
    tags = data.count(b'<') if len(data) > max_tags else 0
    if tags > max_tags:
        raise _syntax_error(source, f'document has {tags} tags, more than the limit of '
                            f'{max_tags}')
    keep_pis = instructions is not None and has_instruction(data, preamble_end(data))
    try:
        root = _parse_namespace_lenient(data, keep_pis)
    except etree.XMLSyntaxError as e:
        raise _xml_error(source, e) from None
    except ValueError as e:  # e.g. NUL bytes in the input
        raise _syntax_error(source, f'not well-formed XML: {e}') from None
    if root is None:
        raise _syntax_error(source, 'document is empty')
    docinfo = root.getroottree().docinfo
    dtd = docinfo.internalDTD
    # lxml-stubs 0.5.1 lacks DTD.iterentities, DocInfo.system_url, a PI's target; sourceline: ...
    if dtd is not None and any(True for _ in dtd.iterentities()):  # type: ignore[attr-defined]
        raise _syntax_error(source, 'entity declarations are not allowed (entity expansion '
                            'is disabled for safety)', 1)
    system_url = docinfo.system_url  # type: ignore[attr-defined]
    if system_url is not None or docinfo.public_id is not None:
        # The external DTD is never loaded, so libxml2 accepts references to the entities
        # it might declare: left unexpanded in text, silently dropped from attributes. The
        # raw text is searched (a comment can give a false alarm; no reference is missed).
        m = re.search(_ENTITY_REFERENCE, data)
        if m is not None:
            shown = m.group(1).decode('utf-8', 'replace')
            raise _syntax_error(source, f"entity reference '&{shown}' in a document whose "
                                'DOCTYPE names an external DTD (never loaded): entities are '
                                'not allowed (entity expansion is disabled for safety)',
                                data.count(b'\n', 0, m.start()) + 1)
    if keep_pis and instructions is not None:
        instructions.extend(_drop_instructions(root, source))
    return root


def _drop_instructions(root: etree._Element, source: str) -> list[Diagnostic]:
    """Remove the processing instructions inside ``root``; return a warning for each."""
    warnings = []
    for pi in list(root.iter(etree.ProcessingInstruction)):
        parent = pi.getparent()
        assert parent is not None  # inside root
        if pi.tail:  # text after it stays where it was (lxml removes a node with its tail)
            before = pi.getprevious()
            if before is not None:
                before.tail = (before.tail or '') + pi.tail
            else:
                parent.text = (parent.text or '') + pi.tail
        name: str = pi.target  # type: ignore[attr-defined]
        target = name if len(name) <= 40 else name[:40] + '...'
        warnings.append(Diagnostic(
            f'the processing instruction <?{target} ...?> inside <{local_name(parent)}> is '
            'left out (libsdformat and urdfdom, which read XML with tinyxml2, refuse a '
            'document holding one)',
            SourceLocation(source, pi.sourceline),  # type: ignore[arg-type]
            severity=Severity.WARNING, code=Code.DROPPED))
        parent.remove(pi)
    return warnings


def parse_xml_file(path: str, max_bytes: int) -> etree._Element:
    """
    Read and parse a small XML file (a ``package.xml``, a ``model.config``) safely.

    Raises
    ------
    ValueError
        It cannot be read (``PATH: reason``), or is not acceptable XML (the
        :class:`~sdf_tools.errors.XmlSyntaxError` text, with its line).

    """
    try:
        with open(path, 'rb') as f:
            data = f.read(max_bytes + 1)
        return parse_xml(data, path, max_bytes=max_bytes)
    except OSError as e:
        raise ValueError(f'{path}: {e.strerror}') from None
    except XmlSyntaxError as e:
        raise ValueError(str(e)) from None


def _parse_namespace_lenient(data: bytes, keep_pis: bool = False) -> etree._Element:
    """
    Parse, reading ``::`` in names and undeclared prefixes as libsdformat does (docstring).

    Each retry fixes what the previous attempt's errors show (libxml2 lists namespace
    errors, which are not fatal, for the whole document, up to 100 of them): ``--`` in
    comments once, ``::`` once, undeclared prefixes a few times at most. Whatever else is
    wrong is reported as is.
    """
    declared: set[str] = set()
    escaped = commented = False
    for attempt in range(5):
        # A new parser each time: its error log holds this attempt's errors only (the
        # exception's log is lxml's global one, with other documents' errors).
        parser = etree.XMLParser(resolve_entities=False, no_network=True, load_dtd=False,
                                 huge_tree=False, remove_comments=True,
                                 remove_pis=not keep_pis, recover=False)
        try:
            return etree.fromstring(data, parser)
        except etree.XMLSyntaxError:
            if attempt == 4:
                raise
            errors = [(entry.type_name, entry.message) for entry in parser.error_log]
            if not commented and any(kind == 'ERR_HYPHEN_IN_COMMENT' for kind, _ in errors):
                data, commented = readable_comments(data), True
                continue
            if not escaped and b'::' in data and any('QName' in m for _, m in errors):
                data, escaped = _escape_dcolon_tags(data), True
                continue
            prefixes = {m.group(1) for kind, message in errors
                        if kind == 'NS_ERR_UNDEFINED_NAMESPACE'
                        and (m := re.search(_UNDEFINED_PREFIX, message))} - declared
            if not prefixes or len(declared | prefixes) > MAX_UNDECLARED_PREFIXES:
                raise
            if (declaring := _declare_prefixes(data, prefixes)) is None:
                raise
            data = declaring
            declared |= prefixes
    raise AssertionError('unreachable: the last attempt returns or raises')


def preamble_end(data: bytes) -> int:
    """Return where the text after the XML declaration, comments and blanks starts."""
    match = XML_PREAMBLE.match(data)  # it always matches (every part is optional)
    return match.end() if match is not None else 0


def _declare_prefixes(data: bytes, prefixes: Iterable[str]) -> bytes | None:
    """Return ``data`` with ``prefixes`` declared on the root (``None``: no root found)."""
    start = preamble_end(data)
    name = re.compile(_ROOT_NAME).match(data, start)
    if name is None:
        return None
    declarations = ''.join(f' xmlns:{p}="{UNDECLARED_NS}{p}"' for p in sorted(prefixes))
    return data[:name.end()] + declarations.encode('utf-8') + data[name.end():]


def _xml_error(source: str, e: etree.XMLSyntaxError) -> XmlSyntaxError:
    msg = re.sub(_LXML_POSITION, '', str(e)).strip()
    # By the error's code, never its text: the text may quote the document (a comment
    # about spawn_entity.py is no entity): libxml2's errors about entities (lxml's
    # ErrorTypes names them) are the ones that say "entity". lxml-stubs 0.5.1 leaves
    # ParseError.code out.
    code = e.code  # type: ignore[attr-defined]
    entity_errors = {value for name, value in vars(etree.ErrorTypes).items()
                     if isinstance(value, int) and 'ENTITY' in name}
    if code in entity_errors or msg.startswith('Maximum entity amplification'):
        msg = f'entities are not allowed (entity expansion is disabled for safety): {msg}'
    elif 'Excessive depth' in msg:
        msg = 'elements are nested more than 256 levels deep'
    elif 'XML_PARSE_HUGE' in msg or 'Resource limit exceeded' in msg:
        msg = f'a name, text or attribute value is larger than the XML parser allows: {msg}'
    else:
        msg = f'not well-formed XML: {msg}'
    line = e.lineno if isinstance(e.lineno, int) and e.lineno > 0 else None
    return _syntax_error(source, msg, line)


def to_string(element: etree._Element, *, pretty: bool = True, declaration: bool = False,
              with_tail: bool = True) -> str:
    """
    Serialise an element to text, with its names as they were written.

    ``::`` is restored in element names, and prefixes the input used without declaring
    them are written without a declaration again (module docstring). An element inside a
    document is written with only the namespace declarations it uses (lxml would repeat
    every one in scope, e.g. the root's ``xmlns:xacro``).

    With ``pretty``, the tree is first indented in place as libsdformat's ``ToString`` does
    (two spaces a level): whitespace-only text between elements is layout and is replaced;
    the text of leaf elements and any other text are kept as they are. (lxml's own
    ``pretty_print`` leaves every ancestor of an element with whitespace text unindented, so
    one indented ``<gazebo>`` blob put a whole model on one line.)
    """
    if element.nsmap and element.getparent() is not None:
        import copy  # (here: a conversion never needs it)
        element = copy.deepcopy(element)
        etree.cleanup_namespaces(element)
    if pretty:
        etree.indent(element, space='  ')
    text = etree.tostring(element, encoding='unicode', with_tail=with_tail)
    if pretty:
        text += '\n'
    text = restore_names(text)
    if declaration:
        text = "<?xml version='1.0' encoding='utf-8'?>\n" + text
    return text


def restore_names(text: str) -> str:
    """
    Return serialised XML with its names as they were written (see :func:`to_string`).

    ``::`` is restored in element names, and prefixes the input used without declaring them
    lose the declarations parsing gave them.
    """
    if DCOLON in text:
        text = text.replace(DCOLON, '::')
    if UNDECLARED_NS in text:
        text = re.sub(_START_TAG, lambda m: re.sub(_UNDECLARED_DECLARATION, '', m.group()),
                      text)
    return text


def first_child(parent: etree._Element | None, tag: str) -> etree._Element | None:
    """Return the first child of ``parent`` named ``tag``, or ``None`` (also for no parent)."""
    if parent is None:
        return None
    # iterchildren filters in C; find() would parse a path expression on every call.
    return next(parent.iterchildren(tag), None)


def attribute_items(element: etree._Element) -> list[tuple[str, str]]:
    """Return an element's attributes (lxml-stubs 0.5.1 types them str or bytes; lxml: str)."""
    return element.attrib.items()  # type: ignore[return-value]


def local_name(element: Node) -> str:
    """
    Return an element's name as written (for messages and comparisons).

    ``::`` is restored, and a name whose prefix the document did not declare is
    ``prefix:name`` again (module docstring).
    """
    tag = element.tag
    if DCOLON in tag:
        tag = tag.replace(DCOLON, '::')
    if tag.startswith('{' + UNDECLARED_NS):
        prefix, _, name = tag[len(UNDECLARED_NS) + 1:].partition('}')
        tag = f'{prefix}:{name}'
    return tag


def parse_number(text: str) -> float | None:
    """
    Parse a strict decimal number; return ``None`` when the text is not one.

    Accepts what C++ ``stod`` accepts without trailing junk: ``1``, ``-2.5``, ``.5``,
    ``1e-3``. Refuses ``nan``, ``inf``, hex, underscores and empty text. Overflow to
    infinity (``1e400``) is returned as ``inf``; callers check finiteness.
    """
    if _NUMERIC_TEXT.fullmatch(text) is None:
        return None
    try:
        return float(text)
    except ValueError:  # e.g. '1e', '.', '1.2.3', '+-1', '' or several numbers
        return None


class ValueReader:
    """
    Strict readers for attribute and element values, reporting into a :class:`Reporter`.

    Each method returns the value, or ``None`` (or the given default) after recording an
    error naming the source line, the entity and the element, e.g.
    ``robot.urdf:42: joint 'elbow': <limit> upper must be a number, got 'abc'``.

    Valid attribute texts are remembered per instance (one document): descriptions repeat
    most of them (``0 0 0``, ``1 1 1``, the same limits), so each distinct text is parsed
    once. Memory stays linear in the document.
    """

    __slots__ = ('source', 'reporter', '_numbers', '_vectors')

    def __init__(self, source: str, reporter: Reporter) -> None:
        self.source = source
        self.reporter = reporter
        self._numbers: dict[str, float] = {}  # attribute text -> its finite value
        self._vectors: dict[tuple[str, int], tuple[float, ...]] = {}  # (text, n) -> n values

    def loc(self, element: Node) -> SourceLocation:
        """Return the location of an element."""
        return SourceLocation(self.source, element.sourceline)  # type: ignore[arg-type]

    def error(self, element: Node, entity: str | None, message: str,
              code: Code = Code.INVALID) -> None:
        """Record an error at an element."""
        self.reporter.error(message, self.loc(element), entity, code)

    def warn(self, element: Node, entity: str | None, message: str,
             code: Code = Code.WARNING) -> None:
        """Record a warning at an element."""
        self.reporter.warn(message, self.loc(element), entity, code)

    def number(self, element: Node, entity: str | None, what: str,
               text: str | None, default: _D = None,  # type: ignore[assignment]
               *, positive: bool = False, nonnegative: bool = False) -> float | _D:
        """
        Read one number from ``text`` (an attribute value or element text).

        ``what`` names it in messages, e.g. ``'<limit> upper'``. Missing text returns
        ``default``.
        """
        if text is None:
            return default
        value = parse_number(text)
        if value is None:
            self.error(element, entity, f'{what} must be a number, got {quote_value(text)}',
                       Code.BAD_NUMBER)
            return default
        if not math.isfinite(value):
            self.error(element, entity, f'{what} must be finite, got {quote_value(text)}',
                       Code.BAD_NUMBER)
            return default
        if positive and value <= 0.0:
            self.error(element, entity, f'{what} must be positive, got {quote_value(text)}',
                       Code.BAD_NUMBER)
            return default
        if nonnegative and value < 0.0:
            self.error(element, entity, f'{what} must not be negative, got {quote_value(text)}',
                       Code.BAD_NUMBER)
            return default
        return value

    def attr_number(self, element: Node, entity: str | None, attr: str,
                    default: _D = None,  # type: ignore[assignment]
                    *, required: bool = False, positive: bool = False,
                    nonnegative: bool = False) -> float | _D:
        """Read a numeric attribute; a missing required one is an error."""
        text = element.get(attr)
        if text is None:
            if required:
                self.missing_attr(element, entity, attr)
            return default
        # Fast path for the valid case; the message is only built when something is wrong.
        value = self._numbers.get(text)
        if value is None and _plain(text):
            try:
                value = float(text)
            except ValueError:
                pass
            else:
                if math.isfinite(value):
                    self._numbers[text] = value
                else:
                    value = None
        if value is not None and not (positive and value <= 0.0) and \
                not (nonnegative and value < 0.0):
            return value
        return self.number(element, entity, f'<{local_name(element)}> {attr}', text, default,
                           positive=positive, nonnegative=nonnegative)

    def vector(self, element: Node, entity: str | None, what: str, text: str | None,
               n: int, default: _D = None,  # type: ignore[assignment]
               ) -> tuple[float, ...] | _D:
        """Read ``n`` whitespace-separated numbers from ``text``; ``None`` text -> default."""
        if text is None:
            return default
        try:
            if _NUMERIC_TEXT.fullmatch(text) is None:
                raise ValueError
            # At most n + 1 parts: ten megabytes of numbers must not become a list of
            # millions of floats.
            parts = text.split(None, n)
            values = [float(part) for part in parts[:n]]
        except ValueError:
            self.error(element, entity, f'{what} must be {n} numbers, got {quote_value(text)}',
                       Code.BAD_NUMBER)
            return default
        if len(parts) != n:
            self.error(element, entity, f'{what} must be {n} numbers, got {quote_value(text)}',
                       Code.BAD_ARITY)
            return default
        if not all(map(math.isfinite, values)):
            self.error(element, entity, f'{what} must be finite, got {quote_value(text)}',
                       Code.BAD_NUMBER)
            return default
        return tuple(values)

    def attr_vector(self, element: Node, entity: str | None, attr: str, n: int,
                    default: _D = None,  # type: ignore[assignment]
                    *, required: bool = False) -> tuple[float, ...] | _D:
        """Read an attribute holding ``n`` numbers."""
        text = element.get(attr)
        if text is None:
            if required:
                self.missing_attr(element, entity, attr)
            return default
        key = (text, n)
        values = self._vectors.get(key)
        if values is not None:
            return values
        if _plain(text):  # fast path, as in attr_number
            try:
                values = tuple(map(float, text.split(None, n)))
            except ValueError:
                values = ()
            if len(values) == n and all(map(math.isfinite, values)):
                self._vectors[key] = values
                return values
        return self.vector(element, entity, f'<{local_name(element)}> {attr}', text, n,
                           default)

    def required_attr(self, element: Node, entity: str | None,
                      attr: str) -> str | None:
        """Return a non-empty attribute value, or record an error and return ``None``."""
        value = element.get(attr)
        if value is None or not value.strip():
            self.missing_attr(element, entity, attr)
            return None
        return value

    def missing_attr(self, element: Node, entity: str | None, attr: str) -> None:
        """Record a missing required attribute."""
        self.error(element, entity,
                   f'<{local_name(element)}> is missing required attribute {attr!r}',
                   Code.MISSING_ATTRIBUTE)


def _plain(text: str) -> bool:
    """
    Return whether valid numbers in ``text`` are read alike by ``float`` and the strict reader.

    Printable ASCII without ``_``: of those characters ``float`` reads finite numbers made of
    digits, ``.``, ``e``, ``E``, ``+``, ``-`` and spaces only, as :data:`_NUMERIC_TEXT` allows
    (checked in a fifth of the time the expression takes). Other texts take the strict path.
    """
    return text.isascii() and text.isprintable() and '_' not in text


def quote_value(text: str, limit: int = 40) -> str:
    """Quote a user value for a message, shortened so that no large content is echoed."""
    text = text.strip()
    if len(text) > limit:
        text = text[:limit] + '...'
    return repr(text)
