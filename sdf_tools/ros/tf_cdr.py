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
The ``/tf`` path's messages as serialised CDR: ``JointState`` read, ``TFMessage`` written.

rclpy publishes ``bytes`` as an already serialised message, and a raw subscription hands
the callback the bytes it received. Converting a 44-transform ``TFMessage`` object costs
rclpy about 190 us: :class:`TfMessageCdr` lays the message out once per list of
``(frame_id, child_frame_id)`` pairs, and each message only writes the stamp and the seven
doubles of each transform into that template (measured 40x cheaper than rclpy's conversion
for talos). Converting a ``JointState`` with 32 names into an object is rclpy's next cost:
:class:`JointStateReader` reads the stamp and the positions where they are and decodes the
names only when their bytes change (measured 13x cheaper).

The layout is the one Fast DDS (and every ROS 2 middleware) puts on the wire:

* a 4-byte encapsulation header ``00 01 00 00``: plain CDR (XCDR1), little endian;
* then, with every field aligned to its own size counted from the end of that header:
  ``TFMessage`` = ``sequence<geometry_msgs/TransformStamped>`` (``uint32`` count, then the
  elements); ``TransformStamped`` = ``header.stamp.sec`` (``int32``),
  ``header.stamp.nanosec`` (``uint32``), ``header.frame_id``, ``child_frame_id`` (each a
  string: ``uint32`` byte length including the terminating NUL, the UTF-8 bytes, the NUL),
  then ``transform.translation`` x, y, z and ``transform.rotation`` x, y, z, w (``float64``,
  aligned to 8).

``sensor_msgs/JointState`` = ``header`` (stamp as above, ``frame_id``), ``name``
(``sequence<string>``: ``uint32`` count, the strings), ``position``, ``velocity``, ``effort``
(``sequence<float64>``: ``uint32`` count, the doubles aligned to 8).

Alignment padding is written as zeros. (Fast DDS leaves it uninitialised, so the bytes of
``rclpy.serialization.serialize_message`` differ from these only there.)

Each transform's seven doubles end on an 8-byte boundary where the next transform's stamp
starts, so one precompiled ``struct.Struct('<7diI')`` writes a transform's pose and the next
stamp in one ``pack_into`` call: measured the fastest of per-field ``pack_into``, a single
``pack`` of the whole message with the constant parts as arguments, and ``memoryview`` casts.
For many transforms :meth:`TfMessageCdr.fill_poses` writes them all at once from a (7, n)
array (:class:`~sdf_tools.kinematics.joint_states.TfArrays`), through numpy views of the
template: the template starts 4 bytes into its buffer, so that the doubles and the stamps
after them (two 32-bit fields in one 64-bit word) are 8-byte aligned there.
"""

from array import array
import struct
import sys
from typing import Iterable

import numpy as np
from sdf_tools.kinematics.tree import Transform

#: The encapsulation header: CDR (XCDR1) little endian, no options.
ENCAPSULATION = b'\x00\x01\x00\x00'

_COUNT = struct.Struct('<I')
_HEADER = struct.Struct('<iII')  # JointState: stamp sec, nanosec, frame_id length
_STAMP = struct.Struct('<iI')  # builtin_interfaces/Time: sec, nanosec
_POSE_AND_STAMP = struct.Struct('<7diI')  # one pose (m, unit quaternion), the next stamp
#: The template as doubles and 64-bit words, and the indices of the poses and the stamps.
_Arrays = tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]
_BASE = 4  # where the message starts in a template's buffer (doubles 8-byte aligned)


def _align(offset: int, size: int) -> int:
    return -(-offset // size) * size


def _string(text: str) -> bytes:
    """Return a CDR string without its length: the UTF-8 bytes and the NUL."""
    data = text.encode('utf-8')
    if b'\0' in data:
        raise ValueError(f'frame name {text!r} contains a NUL character')
    return data + b'\0'


class TfMessageCdr:
    """
    The serialised ``TFMessage`` of one list of frame pairs; stamp and poses set per message.

    Parameters
    ----------
    frames : sequence of (str, str)
        ``(header.frame_id, child_frame_id)`` of each transform, in message order.

    Attributes
    ----------
    frames : tuple of (str, str)
        The frame pairs.
    size : int
        Length of the serialised message (bytes, encapsulation header included).
    padding : tuple of int
        Indices of the alignment padding bytes (always zero here).

    """

    __slots__ = ('frames', 'size', 'padding', '_buffer', '_view', '_first_stamp', '_poses',
                 '_arrays')

    def __init__(self, frames: Iterable[tuple[str, str]]) -> None:
        self.frames = tuple((str(parent), str(child)) for parent, child in frames)
        body = bytearray(_COUNT.pack(len(self.frames)))
        padding: list[int] = []
        poses = []
        first_stamp = None

        def pad(size: int) -> None:
            end = _align(len(body), size)
            padding.extend(range(len(ENCAPSULATION) + len(body),
                                 len(ENCAPSULATION) + end))
            body.extend(bytes(end - len(body)))

        for parent, child in self.frames:
            pad(4)
            if first_stamp is None:
                first_stamp = len(ENCAPSULATION) + len(body)
            body.extend(_STAMP.pack(0, 0))
            for name in (parent, child):
                pad(4)
                data = _string(name)
                body.extend(_COUNT.pack(len(data)))
                body.extend(data)
            pad(8)
            poses.append(len(ENCAPSULATION) + len(body))
            body.extend(struct.pack('<7d', 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 1.0))
        self.size = len(ENCAPSULATION) + len(body)
        self.padding = tuple(padding)
        # The message starts at _BASE (the doubles 8-byte aligned in the buffer); 8 spare
        # bytes after it: the last transform's pack_into writes a stamp there, unread.
        self._buffer = bytearray(bytes(_BASE) + ENCAPSULATION + body + bytes(_STAMP.size))
        self._view = memoryview(self._buffer)[_BASE:_BASE + self.size]
        self._first_stamp = None if first_stamp is None else _BASE + first_stamp
        self._poses = tuple(_BASE + offset for offset in poses)
        self._arrays: _Arrays | None = None

    def __len__(self) -> int:
        """Return the number of transforms."""
        return len(self.frames)

    def fill(self, sec: int, nanosec: int, transforms: Iterable[Transform]) -> bytes:
        """
        Write the stamp and the transforms; return the serialised message.

        Parameters
        ----------
        sec : int
            ``header.stamp.sec`` of every transform (s, int32).
        nanosec : int
            ``header.stamp.nanosec`` of every transform (ns, uint32).
        transforms : iterable of ((float, float, float), (float, float, float, float))
            ``T_frame_child`` of each frame pair in order: translation (m) and rotation
            quaternion ``(x, y, z, w)``, as ``JointStatePlan.transforms`` returns them.
            Exactly one per frame pair.

        Returns
        -------
        bytes
            The CDR message, encapsulation header included (a copy: the template is reused).

        """
        buffer = self._buffer
        if self._first_stamp is not None:
            _STAMP.pack_into(buffer, self._first_stamp, sec, nanosec)
        pack_into = _POSE_AND_STAMP.pack_into
        for offset, ((x, y, z), (qx, qy, qz, qw)) in zip(self._poses, transforms):
            pack_into(buffer, offset, x, y, z, qx, qy, qz, qw, sec, nanosec)
        return bytes(self._view)

    def fill_poses(self, sec: int, nanosec: int, poses: np.ndarray) -> bytes:
        """
        Write the stamp and the transforms given as an array; return the serialised message.

        Parameters
        ----------
        sec, nanosec : int
            ``header.stamp`` of every transform (s as int32, ns as uint32).
        poses : ndarray, shape (7, n)
            Rows ``x, y, z`` (m) and ``qx, qy, qz, qw``, one column per frame pair in order
            (:attr:`~sdf_tools.kinematics.joint_states.TfArrays.poses`).

        Returns
        -------
        bytes
            As :meth:`fill`.

        """
        if self._arrays is None:
            self._arrays = self._make_arrays()
        doubles, words, pose_index, stamp_index = self._arrays
        doubles[pose_index] = poses
        words[stamp_index] = (sec & 0xFFFFFFFF) | nanosec << 32  # little endian: sec first
        if self._first_stamp is not None:
            _STAMP.pack_into(self._buffer, self._first_stamp, sec, nanosec)
        return bytes(self._view)

    def _make_arrays(self) -> _Arrays:
        """Return the buffer as doubles and 64-bit words, and where poses and stamps go."""
        if sys.byteorder != 'little':
            raise ValueError('fill_poses writes little-endian values on this machine only')
        count = len(self._buffer) // 8
        doubles = np.frombuffer(self._buffer, dtype=np.float64, count=count)
        words = np.frombuffer(self._buffer, dtype=np.uint64, count=count)
        first = np.array(self._poses, dtype=np.intp) // 8
        return (doubles, words, first + np.arange(7)[:, None], first + 7)


class JointStateReader:
    """
    Read the stamp, names and positions of serialised ``sensor_msgs/JointState`` messages.

    The names are decoded when their bytes differ from the previous message's (a
    publisher's names never change) and returned as the same tuple otherwise; with the
    same ``frame_id`` length too, the positions are where they were in that message.
    """

    __slots__ = ('_frame_length', '_start', '_blob', '_names', '_count', '_doubles')

    def __init__(self) -> None:
        self._frame_length = -1  # the last message's layout (:meth:`_layout`)
        self._start = 0
        self._blob = b''
        self._names: tuple[str, ...] = ()
        self._count = 0
        self._doubles = 0

    def read(self, data: bytes) -> tuple[int, int, tuple[str, ...], array]:
        """
        Return ``(sec, nanosec, names, positions)`` of one message.

        Parameters
        ----------
        data : bytes
            The message as received (CDR, encapsulation header included).

        Returns
        -------
        tuple
            ``header.stamp.sec`` (s), ``header.stamp.nanosec`` (ns), ``name`` (tuple of str)
            and ``position`` (``array('d')``, rad or m).

        Raises
        ------
        ValueError
            ``data`` is not a little-endian CDR ``JointState`` (cut short, inconsistent
            lengths, names that are not UTF-8); deserialise it the ordinary way instead.

        """
        try:
            if not data.startswith(ENCAPSULATION) or sys.byteorder != 'little':
                raise ValueError('not little-endian CDR')
            sec, nanosec, frame_length = _HEADER.unpack_from(data, 4)
            if (frame_length != self._frame_length
                    or not data.startswith(self._blob, self._start)):
                self._layout(data, frame_length)
            (count,) = _COUNT.unpack_from(data, self._count)
            offset = self._doubles
            end = offset + 8 * count
            if end > len(data):
                raise ValueError('positions cut short')
            positions = array('d')
            positions.frombytes(data[offset:end])
            return sec, nanosec, self._names, positions
        except struct.error as e:
            raise ValueError(f'JointState cut short: {e}') from None

    def _layout(self, data: bytes, frame_length: int) -> None:
        """Decode the names of ``data`` and remember where its fields are."""
        self._frame_length = -1  # (until the names are read)
        self._start = 4 + _align(12 + frame_length, 4)  # the name count
        self._blob, self._names = _read_names(data, self._start)
        self._count = 4 + _align(self._start - 4 + len(self._blob), 4)  # the position count
        self._doubles = 4 + _align(self._count, 8)  # (count - 4 + 4, aligned, absolute)
        self._frame_length = frame_length


def _read_names(data: bytes, start: int) -> tuple[bytes, tuple[str, ...]]:
    """Return the bytes of the ``name`` sequence at ``start`` and the names it holds."""
    (count,) = _COUNT.unpack_from(data, start)
    if count > len(data):
        raise ValueError('name count beyond the message')
    offset = start + 4
    names = []
    for _ in range(count):
        offset = 4 + _align(offset - 4, 4)
        (length,) = _COUNT.unpack_from(data, offset)
        text = data[offset + 4:offset + 4 + length]
        if length == 0 or len(text) != length or text[-1] != 0:
            raise ValueError('malformed name')
        try:
            names.append(text[:-1].decode('utf-8'))
        except UnicodeDecodeError:
            raise ValueError('name is not UTF-8') from None
        offset += 4 + length
    return data[start:offset], tuple(names)
