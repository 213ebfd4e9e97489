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
The fuzzing harness of ``test/test_fuzz.py`` (seeded, in CI) and ``bench/fuzz.py`` (long).

Inputs come from two sources:

* hypothesis strategies that build structured URDF, SDFormat and Kinematics-DSL documents
  with hostile values: numbers such as ``nan``, ``inf``, ``1e400`` and ``1e154`` (whose
  square overflows), names that are empty, unicode, duplicated or reserved, trees with
  cycles, several roots and dangling references, and random ``<gazebo>`` blocks;
* mutations of real descriptions (the URDF corpus, their SDFormat conversions, the DSL test
  files): byte flips, deletions, insertions of hostile snippets, truncation, duplicated or
  deleted elements, swapped attribute values and replaced numbers.

Each input goes through a pipeline: the reader, then for a model the converter, both
writers (whose output must read back), and the kinematics (``compile_tree``,
``forward_kinematics`` single and batch, ``joint_vector``, ``joint_transforms``,
``frame_poses`` and the ``joint_state_plan`` hot path with random names and values).

The oracle (:class:`Oracle`) is the contract of the public API: a call either returns or
raises one of the exception types its docstring documents for that input (the
:class:`~sdf_tools.errors.SdfToolsError` subclasses, and ``ValueError``/``TypeError`` only
where the harness misuses an API on purpose, e.g. a ``q`` of the wrong shape). Anything
else, a call slower than :data:`SLOW_SECONDS`, or a diagnostic without a message, is a
violation.
"""

from collections import Counter
from dataclasses import dataclass
from dataclasses import field
import math
import os
from pathlib import Path
import random
import re
import resource
import signal
import threading
import time
import traceback
from xml.sax.saxutils import quoteattr

from hypothesis import strategies as st
from lxml import etree
import numpy as np
from sdf_tools.convert.urdf_to_sdf import ConversionOptions
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.errors import ConversionError
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import KinematicsError
from sdf_tools.errors import XmlSyntaxError
from sdf_tools.formats.kindsl.reader import parse_kindsl
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.sdf.writer import write_sdf
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.formats.urdf.writer import write_urdf
from sdf_tools.kinematics import compile_tree
from sdf_tools.kinematics import forward_kinematics
from sdf_tools.kinematics import frame_poses
from sdf_tools.model import Limit

#: A call slower than this is a violation (seconds).
SLOW_SECONDS = 2.0
#: A call still running after this much CPU time is stopped and reported as a hang (seconds).
HANG_SECONDS = 20.0

READ_ERRORS = (XmlSyntaxError, DescriptionError)
CONVERT_ERRORS = (DescriptionError, ConversionError)

#: Bugs already reported, each tracked by a strict xfail test in the tests of the module it
#: is in (``test/formats/test_urdf_reader.py``, ``test/test_validate.py``...):
#: ``(target, exception type, where)``; ``target`` ``None`` matches any call, ``where`` is a
#: function in the traceback or a part of the message. The fuzz counts them as ``<type>
#: (known bug)`` instead of failing on them again; delete an entry when its bug is fixed.
KNOWN_BUGS = ()


class FuzzViolation(AssertionError):
    """An oracle violation (raised in strict mode, so that hypothesis shrinks the input)."""


class _Hang(BaseException):
    """Raised by the alarm inside a call that runs longer than :data:`HANG_SECONDS`."""


@dataclass
class Violation:
    """One broken promise: which call, what happened, and the input that did it."""

    target: str
    problem: str
    detail: str
    data: object = None

    def __str__(self) -> str:
        return f'{self.target}: {self.problem}\n{self.detail}'


@dataclass
class Stats:
    """Counts of one target: calls, outcomes by exception type, times."""

    calls: int = 0
    outcomes: Counter = field(default_factory=Counter)
    max_seconds: float = 0.0
    slow: int = 0
    slowest: object = None


class Oracle:
    """
    Runs calls, times them and checks their outcome against the documented contract.

    Parameters
    ----------
    strict : bool
        Raise :class:`FuzzViolation` at the first violation (tests); otherwise record it
        and go on (long runs).

    """

    def __init__(self, strict: bool = True):
        self.strict = strict
        self.stats: dict[str, Stats] = {}
        self.violations: list[Violation] = []
        self.known: list[Violation] = []
        self.inputs = Counter()
        self.current = None

    def begin(self, kind: str, data) -> None:
        """Start one input of ``kind`` (for counting and for violation reports)."""
        self.inputs[kind] += 1
        self.current = data

    def call(self, target: str, allowed: tuple, func, *args, **kwargs):
        """
        Call ``func(*args, **kwargs)``; return its result, or ``None`` if it raised.

        ``allowed`` are the exception types the API documents for this call.
        """
        stats = self.stats.setdefault(target, Stats())
        stats.calls += 1
        start = time.process_time()  # CPU time: a busy machine must not make a call 'slow'
        problem = None
        result = None
        try:
            with _Alarm(HANG_SECONDS):
                result = func(*args, **kwargs)
        except _Hang:
            problem = (f'still running after {HANG_SECONDS:g} s of CPU time', '')
            stats.outcomes['hang'] += 1
        except allowed as e:
            stats.outcomes[type(e).__name__] += 1
            bad = _bad_diagnostics(e)
            if bad:
                problem = (bad, str(e)[:2000])
        except Exception as e:  # noqa: B902 - anything undocumented is what we look for
            detail = ''.join(traceback.format_exception(e)[-8:])
            if _known_bug(target, e):
                stats.outcomes[f'{type(e).__name__} (known bug)'] += 1
                self.known.append(Violation(target, f'known bug: {type(e).__name__}', detail,
                                            self.current))
            else:
                stats.outcomes[type(e).__name__] += 1
                problem = (f'undocumented {type(e).__name__}: {str(e)[:300]}', detail)
        else:
            stats.outcomes['ok'] += 1
        elapsed = time.process_time() - start
        if elapsed > stats.max_seconds:
            stats.max_seconds = elapsed
            stats.slowest = self.current
        if elapsed > SLOW_SECONDS and problem is None:
            stats.slow += 1
            problem = (f'took {elapsed:.2f} s (limit {SLOW_SECONDS:g} s)', '')
        if problem is not None:
            self._violation(target, *problem)
        return result

    def check(self, target: str, ok: bool, detail: str = '') -> None:
        """Record a property of the results (e.g. two evaluators agree); false is a violation."""
        stats = self.stats.setdefault(target, Stats())
        stats.calls += 1
        stats.outcomes['ok' if ok else 'violated'] += 1
        if not ok:
            self._violation(target, 'does not hold', detail)

    def _violation(self, target: str, problem: str, detail: str) -> None:
        violation = Violation(target, problem, detail, self.current)
        self.violations.append(violation)
        if self.strict:
            raise FuzzViolation(f'{violation}\ninput: {_show(self.current)}')


def _known_bug(target: str, error) -> bool:
    """Return whether an exception of a call is one of :data:`KNOWN_BUGS`."""
    name = type(error).__name__
    functions = {frame.name for frame in traceback.extract_tb(error.__traceback__)}
    return any(name == kind and target == (call or target)
               and (where in functions or where in str(error))
               for call, kind, where in KNOWN_BUGS)


def _bad_diagnostics(error) -> str | None:
    """Return what is wrong with an error's diagnostics (they must say something)."""
    diagnostics = getattr(error, 'diagnostics', None)
    if diagnostics is None:
        return None  # ValueError/TypeError for documented misuse
    if not diagnostics:
        return 'error without any diagnostic'
    for d in diagnostics:
        if not d.message or not d.message.strip():
            return f'diagnostic without a message: {d!r}'
    return None


def _show(data, limit: int = 3000) -> str:
    text = repr(data)
    return text if len(text) <= limit else text[:limit] + f'... ({len(text)} characters)'


class _Alarm:
    """
    Interrupt a call that uses too much CPU time (main thread only; elsewhere a no-op).

    CPU time (``ITIMER_PROF``), not wall time, so that a busy machine cannot turn a slow call
    into a 'hang'; the fuzzed calls read bytes in memory and never wait.
    """

    def __init__(self, seconds: float):
        self.seconds = seconds
        self.active = threading.current_thread() is threading.main_thread()

    def __enter__(self):
        if self.active:
            self.previous = signal.signal(signal.SIGPROF, self._fire)
            signal.setitimer(signal.ITIMER_PROF, self.seconds)
        return self

    def __exit__(self, *exc):
        if self.active:
            signal.setitimer(signal.ITIMER_PROF, 0.0)
            signal.signal(signal.SIGPROF, self.previous)
        return False

    @staticmethod
    def _fire(signum, frame):
        raise _Hang()


def peak_rss_mb() -> float:
    """Return this process's peak resident memory so far (MB)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


def current_rss_mb() -> float:
    """Return this process's resident memory now (MB), from /proc (0 where absent)."""
    try:
        with open('/proc/self/statm') as f:
            return int(f.read().split()[1]) * os.sysconf('SC_PAGE_SIZE') / 2**20
    except OSError:
        return 0.0


# --- pipelines ------------------------------------------------------------------------------

def urdf_pipeline(oracle: Oracle, data, rng: random.Random) -> None:
    """Read URDF; convert it to SDFormat (which must read back); then the model stages."""
    robot = oracle.call('parse_urdf', READ_ERRORS, parse_urdf, data, 'fuzz.urdf')
    if robot is None:
        return
    options = ConversionOptions(preserve_fixed_joints=rng.random() < 0.3,
                                sdf_version=rng.choice(('1.9', '1.10', '1.11')))
    result = oracle.call('urdf_to_sdf', CONVERT_ERRORS, urdf_to_sdf, robot, options)
    if result is not None:
        # <gazebo> blobs are copied verbatim, as libsdformat does: the output is only as
        # valid as they are. Without blobs it must read back.
        allowed = (DescriptionError,) if robot.gazebo else ()
        oracle.call('parse_sdf(urdf_to_sdf output)', allowed, parse_sdf, result.sdf,
                    'converted.sdf')
    model_stages(oracle, robot, rng)


def sdf_pipeline(oracle: Oracle, data, rng: random.Random) -> None:
    """Read SDFormat (sometimes naming a model), then the model stages."""
    model = rng.choice((None, None, None, 'm', 'robot', ''))
    robot = oracle.call('parse_sdf', READ_ERRORS, parse_sdf, data, 'fuzz.sdf', model=model)
    if robot is not None:
        model_stages(oracle, robot, rng)


def kindsl_pipeline(oracle: Oracle, text, parameters, rng: random.Random) -> None:
    """Read the DSL (``TypeError`` allowed only for bad parameter values), then the model."""
    allowed = (DescriptionError,)
    if parameters and not all(_finite_real(v) for v in parameters.values()):
        allowed += (TypeError,)
    robot = oracle.call('parse_kindsl', allowed, parse_kindsl, text, 'fuzz.kindsl',
                        parameters=parameters)
    if robot is not None:
        model_stages(oracle, robot, rng)


def _finite_real(value) -> bool:
    if not isinstance(value, (int, float)) or isinstance(value, bool):
        return False
    try:
        return math.isfinite(float(value))
    except OverflowError:
        return False


def model_stages(oracle: Oracle, robot, rng: random.Random) -> None:
    """Write the model as URDF and SDFormat (each must read back), then the kinematics."""
    limit = rng.choice((None, Limit(-1.0, 1.0, 10.0, 1.0)))
    written = oracle.call('write_urdf', (ConversionError,), write_urdf, robot,
                          unlimited_prismatic=limit)
    if written is not None:
        oracle.call('parse_urdf(write_urdf output)', (), parse_urdf, written[0], 'written.urdf')
    version = rng.choice(('1.7', '1.8', '1.9', '1.10', '1.11'))
    text = oracle.call('write_sdf', (ConversionError,), write_sdf, robot, version=version)
    if text is not None:
        oracle.call('parse_sdf(write_sdf output)', (), parse_sdf, text, 'written.sdf')
    kinematics_stage(oracle, robot, rng)


#: Joint values: ordinary, large (finite), tiny, and the ones a mimic multiplier overflows.
_Q_VALUES = (0.0, 1.0, -1.0, 0.5, math.pi, -math.pi, 1e3, -1e6, 1e15, 1e300, -1e300,
             5e-324, 1e-300, 2.0 ** 60)
#: Values a caller may pass as a joint position: the API must refuse the bad ones cleanly.
_BAD_VALUES = (math.nan, math.inf, -math.inf, 'abc', None, True, 10 ** 400, [1.0], 1e308,
               np.float32(1.5), np.float64('nan'), 3, -7, np.int64(2))


def random_q(rng: random.Random, n: int) -> list:
    """Return ``n`` finite joint values, mostly ordinary, sometimes huge or tiny."""
    return [rng.choice(_Q_VALUES) if rng.random() < 0.3 else rng.uniform(-4.0, 4.0)
            for _ in range(n)]


def kinematics_stage(oracle: Oracle, robot, rng: random.Random) -> None:
    """Compile the tree and evaluate it every way, with good and bad joint values."""
    mode = rng.choice(('error', 'ignore'))
    tree = oracle.call('compile_tree', (KinematicsError,), compile_tree, robot,
                       missing_mimic=mode)
    if tree is None:
        return
    n = tree.n_q
    q = random_q(rng, n)
    # KinematicsError is documented for an infinite joint value: finite values times a huge
    # (finite) mimic multiplier overflow.
    oracle.call('forward_kinematics', (KinematicsError,), forward_kinematics, tree, q)
    batch = np.array([random_q(rng, n) for _ in range(rng.choice((2, 9, 12)))])
    poses = oracle.call('forward_kinematics(batch)', (KinematicsError,), forward_kinematics,
                        tree, batch, chunk_size=rng.choice((None, 1, 5)))
    oracle.call('forward_kinematics(wrong shape)', (ValueError,), forward_kinematics, tree,
                np.zeros(n + rng.choice((1, 2))))
    if poses is not None:
        oracle.call('frame_poses', (), frame_poses, tree, link_poses=poses)
        single = oracle.call('forward_kinematics(batch row)', (KinematicsError,),
                             forward_kinematics, tree, batch[-1].tolist())
        if single is not None:
            agree = _agree(single, poses[-1], _reach(robot, tree))
            oracle.check('forward_kinematics: batch == single', agree,
                         f'row {batch[-1].tolist()}')
    oracle.call('joint_transforms', (KinematicsError,), tree.joint_transforms, q)
    oracle.call('joint_transforms(wrong length)', (ValueError,), tree.joint_transforms,
                q + [0.0])

    names = _random_names(rng, tree, robot)
    values = [rng.choice(_BAD_VALUES) if rng.random() < 0.15 else rng.choice(_Q_VALUES)
              for _ in names]
    oracle.call('joint_vector', (KinematicsError,), tree.joint_vector,
                dict(zip(names, values)), strict=rng.random() < 0.3)
    plan = oracle.call('joint_state_plan', (), tree.joint_state_plan, names)
    if plan is None:
        return
    state = tree.default_q().tolist()
    positions = values if rng.random() < 0.8 else values[:rng.randrange(len(values) + 1)]
    if rng.random() < 0.3:
        positions = np.array([v if _finite_real(v) else 0.0 for v in positions])
    updated = oracle.call('JointStatePlan.update', (KinematicsError,),
                          lambda: plan.update(state, positions) or True)
    if updated:  # the mimic joints' own values are read from the positions just used
        oracle.call('JointStatePlan.transforms', (KinematicsError,), plan.transforms, state,
                    positions)


def _agree(single, batch, reach: float = 0.0) -> bool:
    """
    Return whether two ``(links, 4, 4)`` pose arrays agree to rounding (where both are finite).

    Rotations (entries of at most 1) agree to 1e-9. ``reach`` bounds the translations met on
    the way (:func:`_reach`): a position that is the small difference of huge joint offsets
    (1e100 - 1e100, a fuzzed joint frame) rounds differently in the single and batch
    evaluators, within ``reach`` times rounding; where ``reach`` is past the largest float,
    rounding bounds nothing and only the rotations are compared.
    """
    finite = np.isfinite(single) & np.isfinite(batch)
    if not np.array_equal(finite, np.isfinite(single) | np.isfinite(batch)):
        return False
    rotation = np.zeros(single.shape, dtype=bool)
    rotation[..., :3, :3] = True
    if not np.allclose(single[finite & rotation], batch[finite & rotation], rtol=1e-9,
                       atol=1e-9):
        return False
    translation = finite & ~rotation
    with np.errstate(over='ignore'):
        scale = 1.0 + np.abs(single[translation]).max(initial=0.0) + reach
    return not math.isfinite(scale) or bool(np.allclose(
        single[translation], batch[translation], rtol=1e-9, atol=1e-9 * scale))


def _reach(robot, tree) -> float:
    """Return the sum of the translation norms of every joint's frames and root pose (m)."""
    poses = [p for j in robot.joints for p in (j.origin, j.joint_in_child)]
    translations = [p.xyz for p in poses] + [xyz for xyz, _ in tree.root_link_poses]
    return sum(math.hypot(*xyz) for xyz in translations)  # inf past the largest float


def _random_names(rng: random.Random, tree, robot) -> list:
    """Return names for a joint_states message: coordinates, mimic joints, links, junk."""
    pool = list(tree.coordinate_names) + [j.name for j in robot.joints]
    pool += [link.name for link in robot.links[:3]] + ['', 'nope', 'j/qw', '\u00e9', 'world']
    return [rng.choice(pool) for _ in range(rng.randrange(0, 2 * len(pool) + 1))]


# --- hypothesis strategies: values ----------------------------------------------------------

#: Number texts that readers must handle: non-finite, overflowing, malformed.
SPECIAL_NUMBERS = (
    'nan', 'NaN', '-nan', 'inf', '-inf', 'Infinity', '1e400', '-1e400', '1e-400', '1e308',
    '-1.7976931348623157e308', '1e154', '-1e154', '1e200', '4.9e-324', '1e-200', '0', '-0',
    '0.0', '1', '-1', '.5', '5.', '1e', '.', '', ' ', '0x10', '1_000', '\u0661', '1,5',
    'abc', '+-1', '1e-3', '1e16', '--1', '1e+', '9' * 400, '0.' + '0' * 400 + '1',
)
_ORDINARY = st.floats(-10.0, 10.0, allow_nan=False).map(repr)
_HOSTILE_NUMBER = st.one_of(
    st.sampled_from(SPECIAL_NUMBERS),
    st.floats(allow_nan=True, allow_infinity=True).map(repr),
    st.integers(-10 ** 20, 10 ** 20).map(str),
)
#: Names that collide, are reserved, empty, odd or unicode.
NAME_POOL = ('a', 'b', 'c', 'base', 'l1', 'l2', 'j1', 'j2', 'world', '', ' ', '__model__',
             'x::y', 'a b', '\u00e9l\u00e9ment', '\u65e5\u672c', 'world_to_base', 'm',
             'robot', 'l1_link', 'j1_joint', 'base__fixed', 'model_frame', '_fixed_joint_lump__',
             'l0', 'j0', 'f0', 'n0')
_HOSTILE_NAME = st.one_of(
    st.sampled_from(NAME_POOL), st.sampled_from(NAME_POOL),
    st.text(st.characters(codec='utf-8', exclude_categories=('Cs', 'Cc')), max_size=8),
    st.text(st.characters(codec='utf-8', exclude_categories=('Cs',)), max_size=3),
)
BOOL_WORDS = ('true', 'false', 'True', 'yes', 'no', '1', '0', '', 'maybe')


class _Ctx:
    """
    The draw function of one document and its *chaos*: how often a value is hostile.

    Documents with chaos 0 are valid in their values, so the later stages (converter,
    writers, kinematics) see many models; higher chaos stresses the readers' checks.
    """

    def __init__(self, draw):
        self.draw = draw
        self.chaos = draw(st.sampled_from((0.0, 0.0, 0.0, 0.0, 0.005, 0.02, 0.1, 0.3)))
        # Coin flips come from a seeded generator: hypothesis' own floats favour 0.0.
        self.rng = random.Random(draw(st.integers(0, 2 ** 32 - 1)))

    def bad(self) -> bool:
        """Return whether the next value is hostile."""
        return self.chaos > 0.0 and self.rng.random() < self.chaos

    def chance(self, p: float) -> bool:
        """Return True with probability ``p``."""
        return self.rng.random() < p

    def number(self) -> str:
        """Return a number as text."""
        return self.draw(_HOSTILE_NUMBER if self.bad() else _ORDINARY)

    def vector(self, n: int) -> str:
        """Return ``n`` numbers as text (with chaos, sometimes another count)."""
        if self.bad():
            n = self.draw(st.integers(0, n + 2))
        return ' '.join(self.number() for _ in range(n))

    def name(self, default: str) -> str:
        """Return ``default``, or with chaos a hostile name."""
        return self.draw(_HOSTILE_NAME) if self.bad() else default

    def pick(self, good, hostile=()):
        """Return an element of ``good``, or with chaos of ``hostile`` or a hostile name."""
        if self.bad():
            return self.draw(st.sampled_from(tuple(hostile))) if hostile and \
                self.chance(0.5) else self.draw(_HOSTILE_NAME)
        return self.draw(st.sampled_from(tuple(good)))

    def maybe(self, value, keep: float = 1.0):
        """Return ``value`` with probability ``keep`` (with chaos, sometimes ``None``)."""
        if self.bad() or not self.chance(keep):
            return None
        return value


def _attr(name: str, value) -> str:
    return '' if value is None else f' {name}={quoteattr(value)}'


def _esc(text: str) -> str:
    return text.replace('&', '&amp;').replace('<', '&lt;').replace('>', '&gt;')


def _num(tag: str, value) -> str:
    return '' if value is None else f'<{tag}>{_esc(value)}</{tag}>'


# --- URDF documents -------------------------------------------------------------------------

URDF_JOINT_TYPES = ('revolute', 'continuous', 'prismatic', 'fixed', 'floating', 'planar')
GAZEBO_TAGS = ('mu1', 'mu2', 'kp', 'kd', 'fdir1', 'maxContacts', 'material', 'selfCollide',
               'turnGravityOff', 'dampingFactor', 'maxVel', 'minDepth', 'laserRetro',
               'provideFeedback', 'implicitSpringDamper', 'cfmDamping', 'stopCfm', 'stopErp',
               'springReference', 'springStiffness', 'fudgeFactor', 'preserveFixedJoint',
               'disableFixedJointLumping', 'static', 'canonicalBody', 'gravity',
               'self_collide', 'pose', 'frame', 'enable_wind')
_NUMERIC_TAGS = ('mu1', 'mu2', 'kp', 'kd', 'maxContacts', 'dampingFactor', 'maxVel',
                 'minDepth', 'laserRetro', 'stopCfm', 'stopErp', 'springReference',
                 'springStiffness', 'fudgeFactor')


def _origin(c: _Ctx, tag: str = 'origin') -> str:
    xyz = c.vector(3) if c.chance(0.7) else None
    rpy = c.vector(3) if c.chance(0.5) else None
    return f'<{tag}' + _attr('xyz', xyz) + _attr('rpy', rpy) + '/>'


def _urdf_geometry(c: _Ctx) -> str:
    kind = c.pick(('box', 'cylinder', 'sphere', 'mesh', 'capsule'), ('cone', 'none', 'two'))
    if kind == 'box':
        shape = '<box' + _attr('size', c.maybe(c.vector(3))) + '/>'
    elif kind in ('cylinder', 'capsule'):
        shape = (f'<{kind}' + _attr('radius', c.maybe(c.number()))
                 + _attr('length', c.maybe(c.number())) + '/>')
    elif kind == 'sphere':
        shape = '<sphere' + _attr('radius', c.maybe(c.number())) + '/>'
    elif kind == 'mesh':
        shape = ('<mesh' + _attr('filename', c.maybe(c.name('package://r/m.dae')))
                 + _attr('scale', c.vector(3) if c.chance(0.3) else None) + '/>')
    elif kind == 'two':
        shape = '<box size="1 1 1"/><sphere radius="1"/>'
    elif kind == 'none':
        shape = ''
    else:
        shape = f'<{_esc(kind)} radius="1"/>' if kind.isidentifier() else ''
    return f'<geometry>{shape}</geometry>'


def _urdf_material(c: _Ctx, name) -> str:
    inner = ''
    if c.chance(0.7):
        inner += '<color' + _attr('rgba', c.maybe(c.vector(4))) + '/>'
    if c.chance(0.1):
        inner += '<texture' + _attr('filename', c.name('t.png')) + '/>'
    return '<material' + _attr('name', c.maybe(name)) + f'>{inner}</material>'


def _urdf_link(c: _Ctx, name, materials) -> str:
    parts = []
    if c.chance(0.7):
        inertial = []
        if c.chance(0.5):
            inertial.append(_origin(c))
        if not c.bad():
            inertial.append('<mass' + _attr('value', c.maybe(c.number())) + '/>')
        if not c.bad():
            inertial.append('<inertia' + ''.join(
                _attr(k, c.maybe(c.number()))
                for k in ('ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')) + '/>')
        parts.append('<inertial>' + ''.join(inertial) + '</inertial>')
    for tag in ('visual', 'collision'):
        for _ in range(c.draw(st.integers(0, 2))):
            inner = [_origin(c)] if c.chance(0.5) else []
            if not c.bad():
                inner.append(_urdf_geometry(c))
            if tag == 'visual' and c.chance(0.5):
                inner.append(_urdf_material(c, None if c.chance(0.3) else c.pick(materials)))
            parts.append(f'<{tag}' + _attr('name', c.name('v') if c.chance(0.4) else None)
                         + '>' + ''.join(inner) + f'</{tag}>')
    return '<link' + _attr('name', name) + '>' + ''.join(parts) + '</link>'


def _urdf_joint(c: _Ctx, name, parent, child, joint_names) -> str:
    jtype = c.pick(URDF_JOINT_TYPES, ('ball', 'screw', 'bogus', '', ' revolute '))
    parts = []
    if c.chance(0.7):
        parts.append(_origin(c))
    if parent is not None:
        parts.append('<parent' + _attr('link', parent) + '/>')
    if child is not None:
        parts.append('<child' + _attr('link', child) + '/>')
    if c.chance(0.6):
        parts.append('<axis' + _attr('xyz', c.maybe(c.vector(3))) + '/>')
    if jtype in ('revolute', 'prismatic') and not c.bad() or c.chance(0.3):
        parts.append('<limit' + ''.join(_attr(k, c.maybe(c.number(), 0.8)) for k in (
            'lower', 'upper')) + ''.join(_attr(k, c.maybe(c.number())) for k in (
                'effort', 'velocity')) + '/>')
    if c.chance(0.2):
        parts.append('<dynamics' + _attr('damping', c.maybe(c.number(), 0.7))
                     + _attr('friction', c.maybe(c.number(), 0.7)) + '/>')
    if c.chance(0.25):
        target = c.pick(joint_names, ('missing', name))
        parts.append('<mimic' + _attr('joint', c.maybe(target))
                     + _attr('multiplier', c.maybe(c.number(), 0.7))
                     + _attr('offset', c.maybe(c.number(), 0.5)) + '/>')
    if c.chance(0.1):
        parts.append('<calibration' + _attr('rising', c.maybe(c.number(), 0.5))
                     + _attr('falling', c.maybe(c.number(), 0.5)) + '/>')
    if c.chance(0.1):
        parts.append('<safety_controller' + _attr('k_velocity', c.maybe(c.number()))
                     + ''.join(_attr(k, c.maybe(c.number(), 0.7)) for k in (
                         'k_position', 'soft_lower_limit', 'soft_upper_limit')) + '/>')
    return ('<joint' + _attr('name', name) + _attr('type', c.maybe(jtype)) + '>'
            + ''.join(parts) + '</joint>')


def _gazebo_block(c: _Ctx, references) -> str:
    references = list(references) or ['a']
    ref = None if c.chance(0.3) else c.pick(references, ('missing', '', 'world'))
    children = []
    for _ in range(c.draw(st.integers(0, 4))):
        kind = c.draw(st.sampled_from(('tag', 'tag', 'tag', 'sensor', 'plugin', 'visual',
                                       'collision', 'joint', 'gripper', 'projector', 'light')))
        name = c.pick(references)
        if kind == 'tag':
            tag = c.draw(st.sampled_from(GAZEBO_TAGS))
            if tag in _NUMERIC_TAGS:
                value = c.number()
            elif tag == 'fdir1':
                value = c.vector(3)
            elif tag == 'material':
                value = c.name('Gazebo/Red')
            else:
                value = c.pick(BOOL_WORDS[:6], BOOL_WORDS[6:])
            if c.chance(0.5):
                children.append(f'<{tag}>{_esc(value)}</{tag}>')
            else:
                children.append(f'<{tag}' + _attr('value', value) + '/>')
        elif kind in ('sensor', 'projector', 'light'):
            pose = c.draw(st.sampled_from(('', 'pose', 'pose', 'relative')))
            if pose == 'pose':
                pose = f'<pose>{_esc(c.vector(6))}</pose>'
            elif pose == 'relative':
                pose = f'<pose relative_to={quoteattr(name)}>0 0 0 0 0 0</pose>'
            children.append(f'<{kind} name="s" type="contact">{pose}<contact><collision>'
                            f'{_esc(name)}_collision</collision></contact></{kind}>')
        elif kind == 'plugin':
            offsets = ''.join(f'<{k}>{_esc(c.vector(3))}</{k}>' for k in (
                'xyzOffset', 'rpyOffset') if c.chance(0.5))
            children.append(f'<plugin name="p" filename="libp.so"><bodyName>{_esc(name)}'
                            f'</bodyName>{offsets}<projector>{_esc(name)}/p</projector>'
                            '</plugin>')
        elif kind == 'visual':
            children.append('<visual><material><ambient>' + _esc(c.vector(4))
                            + '</ambient></material></visual>')
        elif kind == 'collision':
            children.append('<collision><surface><friction><ode><mu>' + _esc(c.number())
                            + '</mu></ode></friction></surface><max_contacts>3</max_contacts>'
                            '</collision>')
        elif kind == 'joint':
            children.append(f'<joint name="g" type="fixed"><parent>{_esc(name)}</parent>'
                            f'<child>{_esc(c.pick(references))}</child></joint>')
        else:
            children.append(f'<gripper name="g"><gripper_link>{_esc(name)}</gripper_link>'
                            f'<palm_link>{_esc(name)}</palm_link></gripper>')
    return '<gazebo' + _attr('reference', ref) + '>' + ''.join(children) + '</gazebo>'


def _tree_edges(c: _Ctx, n_links: int, n_joints: int):
    """Return ``(parent index, child index)`` per joint: a tree, or with chaos anything."""
    edges = []
    for i in range(n_joints):
        if i + 1 < n_links and not c.bad():
            edges.append((c.draw(st.integers(0, i)), i + 1))
        else:
            edges.append((c.draw(st.integers(-1, max(n_links - 1, 0))),
                          c.draw(st.integers(-1, max(n_links - 1, 0)))))
    return edges


@st.composite
def urdf_documents(draw):
    """Return a strategy for URDF documents (bytes) with hostile values and shapes."""
    c = _Ctx(draw)
    n_links = draw(st.integers(1 if c.chaos == 0.0 else 0, 7))
    links = [c.name(f'l{i}') for i in range(n_links)]
    n_joints = max(n_links - 1, 0) if not c.bad() else draw(st.integers(0, n_links + 2))
    joints = [c.name(f'j{i}') for i in range(n_joints)]
    materials = ['red', 'blue', 'green'][:draw(st.integers(0, 3))]
    parts = [_urdf_material(c, c.name(name)) for name in materials]
    materials.append('undefined')
    parts += [_urdf_link(c, name, materials) for name in links]
    for name, (p, q) in zip(joints, _tree_edges(c, n_links, n_joints)):
        parent = links[p] if 0 <= p < n_links else c.pick(('world',), ('missing', ''))
        child = links[q] if 0 <= q < n_links else c.pick(('missing',), ('world', ''))
        parts.append(_urdf_joint(c, name, c.maybe(parent), c.maybe(child), joints))
    parts += [_gazebo_block(c, links + joints) for _ in range(draw(st.integers(0, 3)))]
    if c.chance(0.05):
        parts.append(_origin(c))
    if c.bad():
        draw(st.randoms(use_true_random=False)).shuffle(parts)
    root = c.pick(('robot',), ('sdf', 'Robot', 'model'))
    return (f'<{root}' + _attr('name', c.maybe(c.name('r'))) + '>' + ''.join(parts)
            + f'</{root}>').encode('utf-8')


# --- SDFormat documents ---------------------------------------------------------------------

SDF_VERSIONS = ('1.4', '1.5', '1.6', '1.7', '1.8', '1.9', '1.10', '1.11')
SDF_JOINT_TYPES = ('revolute', 'continuous', 'prismatic', 'fixed', 'ball', 'universal',
                   'revolute2', 'screw', 'gearbox')
SDF_SHAPES = ('box', 'cylinder', 'sphere', 'capsule', 'ellipsoid', 'plane', 'mesh',
              'heightmap')


def _sdf_pose(c: _Ctx, frames) -> str:
    if c.chance(0.4):
        return ''
    quat = c.chance(0.15)
    attrs = _attr('relative_to', c.pick(frames) if c.chance(0.4) else None)
    if c.chance(0.05):
        attrs += _attr('frame', c.pick(frames))
    if quat:
        attrs += ' rotation_format="quat_xyzw"'
    elif c.bad():
        attrs += _attr('rotation_format', c.pick(('euler_rpy',), ('bogus', 'quat_xyzw')))
    if c.chance(0.1) and not quat or c.bad():
        attrs += _attr('degrees', c.pick(('true', 'false'), BOOL_WORDS))
    return f'<pose{attrs}>{_esc(c.vector(7 if quat else 6))}</pose>'


def _sdf_shape(c: _Ctx) -> str:
    kind = c.pick(SDF_SHAPES, ('empty', 'none', 'polyline'))
    if kind == 'box':
        inner = _num('size', c.maybe(c.vector(3)))
    elif kind in ('cylinder', 'capsule'):
        inner = _num('radius', c.maybe(c.number())) + _num('length', c.maybe(c.number()))
    elif kind == 'sphere':
        inner = _num('radius', c.maybe(c.number()))
    elif kind == 'ellipsoid':
        inner = _num('radii', c.vector(3))
    elif kind == 'plane':
        inner = _num('normal', c.vector(3)) + _num('size', c.vector(2))
    elif kind == 'mesh':
        inner = (_num('uri', c.maybe(c.name('model://r/m.dae')))
                 + _num('scale', c.vector(3) if c.chance(0.3) else None)
                 + ('<submesh><name>x</name></submesh>' if c.chance(0.1) else ''))
    elif kind == 'heightmap':
        inner = '<uri>h.png</uri>'
    elif kind == 'empty':
        return '<geometry/>'
    elif kind == 'none':
        return ''
    else:
        return '<geometry><polyline><point>0 0</point></polyline><box/></geometry>'
    return f'<geometry><{kind}>{inner}</{kind}></geometry>'


def _sdf_link(c: _Ctx, name, frames) -> str:
    parts = [_sdf_pose(c, frames)]
    if c.chance(0.6):
        inertia = ''
        if c.chance(0.6):
            inertia = '<inertia>' + ''.join(_num(k, c.maybe(c.number(), 0.9)) for k in (
                'ixx', 'ixy', 'ixz', 'iyy', 'iyz', 'izz')) + '</inertia>'
        parts.append('<inertial>' + _sdf_pose(c, frames) + _num('mass', c.maybe(c.number()))
                     + inertia + '</inertial>')
    for tag in ('visual', 'collision'):
        for _ in range(c.draw(st.integers(0, 2))):
            extra = ''
            if tag == 'visual' and c.chance(0.4):
                extra = ('<material>' + _num('diffuse', c.vector(4))
                         + '<script><name>Gazebo/Red</name></script></material>')
            elif tag == 'collision' and c.chance(0.3):
                extra = '<surface><friction><ode><mu>1</mu></ode></friction></surface>'
            parts.append(f'<{tag}' + _attr('name', c.maybe(c.name(f'{tag[0]}{_}'))) + '>'
                         + _sdf_pose(c, frames) + _sdf_shape(c) + extra + f'</{tag}>')
    if c.chance(0.1):
        parts.append('<sensor name="s" type="imu"><pose>0 0 0 0 0 0</pose></sensor>')
    return '<link' + _attr('name', name) + '>' + ''.join(parts) + '</link>'


def _sdf_axis(c: _Ctx, tag, frames, joints) -> str:
    parts = []
    if c.chance(0.9):
        expressed = c.pick(frames) if c.chance(0.2) else None
        parts.append('<xyz' + _attr('expressed_in', expressed) + '>' + _esc(c.vector(3))
                     + '</xyz>')
    if c.chance(0.1):
        parts.append(_num('use_parent_model_frame', c.pick(('true', 'false'), BOOL_WORDS)))
    if c.chance(0.5):
        parts.append('<limit>' + ''.join(_num(k, c.maybe(c.number(), 0.8)) for k in (
            'lower', 'upper', 'effort', 'velocity')) + '</limit>')
    if c.chance(0.3):
        parts.append('<dynamics>' + ''.join(_num(k, c.maybe(c.number(), 0.6)) for k in (
            'damping', 'friction', 'spring_reference', 'spring_stiffness')) + '</dynamics>')
    if c.chance(0.25):
        parts.append('<mimic' + _attr('joint', c.maybe(c.pick(joints, ('missing',))))
                     + _attr('axis', c.pick(('axis',), ('axis2', 'x'))) + '>'
                     + ''.join(_num(k, c.maybe(c.number(), 0.6)) for k in (
                         'multiplier', 'offset', 'reference')) + '</mimic>')
    if c.chance(0.05):
        parts.append('<initial_position>1</initial_position>')
    return f'<{tag}>' + ''.join(parts) + f'</{tag}>'


def _sdf_joint(c: _Ctx, name, parent, child, frames, joints) -> str:
    parts = [_sdf_pose(c, frames)]
    if parent is not None:
        parts.append(f'<parent>{_esc(parent)}</parent>')
    if child is not None:
        parts.append(f'<child>{_esc(child)}</child>')
    jtype = c.pick(SDF_JOINT_TYPES, ('floating', 'planar', 'bogus', 'REVOLUTE'))
    for tag in ('axis', 'axis2'):
        if c.chance(0.8 if tag == 'axis' else 0.4):
            parts.append(_sdf_axis(c, tag, frames, joints))
    for tag in ('thread_pitch', 'screw_thread_pitch', 'gearbox_ratio'):
        if c.chance(0.15):
            parts.append(_num(tag, c.number()))
    if c.chance(0.1):
        parts.append(_num('gearbox_reference_body', c.pick(frames)))
    if c.chance(0.05):
        parts.append('<physics><ode><cfm>0.1</cfm></ode></physics>')
    return ('<joint' + _attr('name', name) + _attr('type', c.maybe(jtype)) + '>'
            + ''.join(parts) + '</joint>')


def _sdf_model(c: _Ctx, name, depth=0) -> str:
    n_links = c.draw(st.integers(1 if c.chaos == 0.0 else 0, 5))
    links = [c.name(f'l{i}') for i in range(n_links)]
    n_joints = max(n_links - 1, 0) if not c.bad() else c.draw(st.integers(0, n_links + 1))
    joints = [c.name(f'j{i}') for i in range(n_joints)]
    frames = [c.name(f'f{i}') for i in range(c.draw(st.integers(0, 2)))]
    nested = [c.name(f'n{i}') for i in range(c.draw(st.integers(0, 1 if depth < 2 else 0)))]
    # Pose references to links (and the model frame) cannot form cycles through joints.
    refs = ['__model__'] + links
    hostile_refs = joints + frames + nested + [
        'world', 'missing', '', 'n0::l0', 'n0::__model__', 'l0::x']
    parts = [_sdf_pose(c, refs)]
    parts += [_sdf_link(c, link, refs[:i + 1]) for i, link in enumerate(links)]
    for name_, (p, q) in zip(joints, _tree_edges(c, n_links, n_joints)):
        parent = links[p] if 0 <= p < n_links else c.pick(('world',), hostile_refs)
        child = links[q] if 0 <= q < n_links else c.pick(hostile_refs)
        parts.append(_sdf_joint(c, name_, c.maybe(parent), c.maybe(child), refs,
                                joints or ['j']))
    for frame in frames:
        attached = c.pick(refs, hostile_refs) if c.chance(0.7) else None
        parts.append('<frame' + _attr('name', frame) + _attr('attached_to', attached) + '>'
                     + _sdf_pose(c, refs) + '</frame>')
    parts += [_sdf_model(c, model, depth + 1) for model in nested]
    if c.chance(0.05):
        parts.append('<static>' + c.pick(('true', 'false'), BOOL_WORDS) + '</static>')
    if c.chance(0.1):
        parts.append('<plugin name="p" filename="libp.so"/>')
    if c.bad():
        parts.append('<include><uri>model://x</uri></include>')
    attrs = _attr('name', name)
    if c.chance(0.1):
        attrs += _attr('canonical_link', c.pick(links or ['l0'], hostile_refs))
    if c.chance(0.05):
        attrs += _attr('placement_frame', c.pick(links or ['l0'], hostile_refs))
    return f'<model{attrs}>' + ''.join(parts) + '</model>'


@st.composite
def sdf_documents(draw):
    """Return a strategy for SDFormat documents (bytes): versions, worlds, nested models."""
    c = _Ctx(draw)
    n_models = 2 if c.bad() else 1
    body = ''.join(_sdf_model(c, c.maybe(c.name('m'))) for _ in range(n_models))
    if c.chance(0.15):
        body = f'<world name="w">{body}</world>'
    version = c.maybe(c.pick(SDF_VERSIONS, ('1.12', '1.3', '2.0', 'x', '1.9.0')))
    root = c.pick(('sdf',), ('robot', 'SDF'))
    return (f'<{root}' + _attr('version', version) + f'>{body}</{root}>').encode('utf-8')


# --- Kinematics-DSL documents ---------------------------------------------------------------

_DSL_ATOMS = st.one_of(
    st.sampled_from(('1', '0', '0.5', '.5', '1e-3', '1e400', '1e308', '9' * 400, 'PI', 'p',
                     'q', 'p[2]', 'p[1/0]', 'q[PI]', '0.0')),
    st.floats(0.0, 10.0).map(repr),
)
DSL_EXPRESSION = st.recursive(
    _DSL_ATOMS,
    lambda inner: st.one_of(
        st.tuples(inner, st.sampled_from(('+', '-', '*', '/')), inner).map(''.join),
        inner.map(lambda e: f'({e})'),
        inner.map(lambda e: f'-{e}'),
    ),
    max_leaves=6,
)
_DSL_ORDINARY = st.floats(-3.0, 3.0, allow_nan=False).map(repr)
DSL_NAMES = ('base', 'l1', 'l2', 'l3', 'j1', 'j2', 'j3', 'world', 'f', 'x')


def _dsl_value(c: _Ctx) -> str:
    return c.draw(DSL_EXPRESSION if c.bad() else _DSL_ORDINARY)


def _dsl_vector(c: _Ctx) -> str:
    n = c.draw(st.sampled_from((2, 4))) if c.bad() else 3
    return '(' + ', '.join(_dsl_value(c) for _ in range(n)) + ')'


def _dsl_pose(c: _Ctx) -> str:
    parts = [f'{key} = {_dsl_vector(c)}' for key in ('translation', 'rotation')
             if not c.bad()]
    return '{ ' + ' '.join(parts) + ' }'


def _dsl_link(c: _Ctx, keyword, name, link_id, children) -> str:
    parts = []
    if link_id is not None:
        parts.append('id = ' + (c.pick(('1', '2', '3', '0', '-1', '1.5', 'x')) if c.bad()
                                else str(link_id)))
    floating = ' floating' if keyword == 'RobotBase' and c.chance(0.3) else ''
    if keyword == 'link' or floating or c.chance(0.5):
        if not c.bad():
            items = [f'{k} = {_dsl_vector(c) if k == "CoM" else _dsl_value(c)}' for k in (
                'mass', 'CoM', 'Ix', 'Iy', 'Iz', 'Ixy', 'Ixz', 'Iyz') if not c.bad()]
            parts.append('inertia_properties { ' + ' '.join(items) + ' }')
    if not c.bad():
        parts.append('children { ' + ' '.join(f'{a} via {b}' for a, b in children) + ' }')
    if c.chance(0.2):
        parts.append('frames { ' + c.pick((f'tip_{name}',), DSL_NAMES) + ' ' + _dsl_pose(c)
                     + ' }')
    return f'{keyword} {name}{floating} {{ ' + '\n'.join(parts) + ' }'


@st.composite
def kindsl_documents(draw):
    """Return a strategy for ``(text, parameters)``: DSL documents and parameter values."""
    c = _Ctx(draw)
    n = draw(st.integers(0, 4))
    links = [c.pick((f'l{i + 1}',), DSL_NAMES) for i in range(n)]
    joints = [c.pick((f'j{i + 1}',), DSL_NAMES) for i in range(n)]
    children = {i: [] for i in range(-1, n)}
    for i in range(n):
        parent = draw(st.integers(-1, i - 1))
        if c.bad():
            parent = draw(st.integers(-1, n - 1))
        children[parent].append((links[i], joints[i]))
    parts = []
    if not c.bad():
        parts.append(_dsl_link(c, 'RobotBase', c.pick(('base',), DSL_NAMES), None,
                               children[-1]))
    parts += [_dsl_link(c, 'link', links[i], i + 1, children[i]) for i in range(n)]
    for name in joints:
        keyword = c.pick(('r_joint', 'p_joint'), ('x_joint', 'link'))
        body = 'ref_frame ' + _dsl_pose(c) if not c.bad() else ''
        parts.append(f'{keyword} {name} {{ {body} }}')
    if c.bad():
        parts.append(c.pick(('// c',), ('/* unclosed', '#', '\x00', '}', '{', '\u00e9')))
    text = f'Robot {c.pick(("R",), DSL_NAMES)} {{\n' + '\n'.join(parts) + '\n}\n'
    parameters = None
    if c.chance(0.3):
        parameters = {name: c.draw(st.floats(-5, 5)) if not c.bad() else c.pick(
            (1.0,), (math.nan, math.inf, True, 'x', 10 ** 400, 2)) for name in ('p', 'q')
            if c.chance(0.7)}
    return text, parameters


# --- mutations of real descriptions ---------------------------------------------------------

HOSTILE_SNIPPETS = (
    b'<!DOCTYPE robot [<!ENTITY x "y">]>', b'&x;', b'&#0;', b'\x00', b'\xff\xfe', b'\xc3',
    b'<', b'>', b'"', b"'", b'&', b']]>', b'<![CDATA[', b'<!--', b'<?pi?>', b'nan', b'inf',
    b'1e400', b'1e154', b'-1e308', b'4.9e-324', b'0', b'-', b'::', b'__model__', b'world',
    b'<xacro:include filename="x"/>', b'\xef\xbb\xbf', b'\r\n', b'\t', b' ' * 64,
    b'<link name="l"/>', b'<joint name="j" type="fixed"><parent link="world"/>'
    b'<child link="l"/></joint>', b'<gazebo reference="nope"><mu1>nan</mu1></gazebo>',
)
_NUMBER_BYTES = re.compile(rb'-?\d+(?:\.\d*)?(?:[eE][-+]?\d+)?')
_SPECIAL_NUMBER_BYTES = tuple(s.encode() for s in SPECIAL_NUMBERS if s.isascii())


def _flip(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    i = rng.randrange(len(data))
    return data[:i] + bytes([rng.randrange(256)]) + data[i + 1:]


def _delete(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    i = rng.randrange(len(data))
    return data[:i] + data[i + rng.randint(1, 64):]


def _insert(data: bytes, rng: random.Random) -> bytes:
    i = rng.randrange(len(data) + 1)
    return data[:i] + rng.choice(HOSTILE_SNIPPETS) + data[i:]


def _duplicate_bytes(data: bytes, rng: random.Random) -> bytes:
    if not data:
        return data
    i = rng.randrange(len(data))
    j = min(len(data), i + rng.randint(1, 256))
    return data[:j] + data[i:j] + data[j:]


def _truncate(data: bytes, rng: random.Random) -> bytes:
    return data[:rng.randrange(len(data) + 1)]


def _replace_number(data: bytes, rng: random.Random) -> bytes:
    matches = list(_NUMBER_BYTES.finditer(data))
    if not matches:
        return data
    m = rng.choice(matches)
    return data[:m.start()] + rng.choice(_SPECIAL_NUMBER_BYTES) + data[m.end():]


def _structural(data: bytes, rng: random.Random) -> bytes:
    """Duplicate, delete or move an element, or swap two attribute values, with lxml."""
    try:
        root = etree.fromstring(data, etree.XMLParser(resolve_entities=False,
                                                      no_network=True))
    except (etree.XMLSyntaxError, ValueError):
        return data
    elements = [e for e in root.iter() if isinstance(e.tag, str)]
    if len(elements) < 2:
        return data
    op = rng.randrange(4)
    element = rng.choice(elements[1:])
    parent = element.getparent()
    if op == 0:
        parent.insert(parent.index(element), _copy(element))
    elif op == 1:
        parent.remove(element)
    elif op == 2:
        target = rng.choice(elements)
        if element not in target.iterancestors() and element is not target:
            parent.remove(element)
            target.append(element)
    else:
        attributes = [(e, k) for e in elements for k in e.attrib]
        if len(attributes) >= 2:
            (e1, k1), (e2, k2) = rng.sample(attributes, 2)
            v1, v2 = e1.get(k1), e2.get(k2)
            e1.set(k1, v2)
            e2.set(k2, v1)
    return etree.tostring(root)


def _copy(element):
    return etree.fromstring(etree.tostring(element, with_tail=False))


BYTE_MUTATIONS = (_flip, _delete, _insert, _duplicate_bytes, _truncate)
TREE_MUTATIONS = (_replace_number, _replace_number, _structural, _structural, _structural)


def mutate(data: bytes, rng: random.Random) -> bytes:
    """
    Return ``data`` after one to four random mutations.

    A third of the inputs get byte-level damage (mostly refused as malformed XML); the rest
    get mutations that keep the XML well formed (numbers replaced, elements duplicated,
    deleted or moved, attribute values swapped), which reach the deeper checks.
    """
    mutations = BYTE_MUTATIONS if rng.random() < 0.33 else TREE_MUTATIONS
    for _ in range(rng.randint(1, 4)):
        data = rng.choice(mutations)(data, rng)
    return data


def urdf_seeds(corpus_dir: Path, data_dir: Path) -> list:
    """Return the URDF seeds: the corpus (read-only, in memory) and the test data."""
    paths = sorted(corpus_dir.glob('*.urdf')) if corpus_dir.is_dir() else []
    paths += sorted((data_dir / 'conversion').glob('**/*.urdf'))
    return [p.read_bytes() for p in paths]


def sdf_seeds(urdf_data: list, data_dir: Path) -> list:
    """Return the SDFormat seeds: the test data plus conversions of some URDF seeds."""
    seeds = [p.read_bytes() for p in sorted((data_dir / 'sdf').glob('*.sdf'))]
    for data in urdf_data[::3]:
        try:
            seeds.append(urdf_to_sdf(parse_urdf(data)).sdf.encode('utf-8'))
        except (XmlSyntaxError, DescriptionError, ConversionError):
            pass
    return seeds


def kindsl_seeds(data_dir: Path) -> list:
    """Return the Kinematics-DSL seeds (the test data)."""
    return [p.read_text('utf-8') for p in sorted((data_dir / 'kindsl').glob('*.kindsl'))]


def mutate_text(text: str, rng: random.Random) -> str:
    """Mutate a DSL text (as UTF-8 bytes, decoded back with replacement)."""
    return mutate(text.encode('utf-8'), rng).decode('utf-8', 'replace')
