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
Pictures read back: the pixels of a PNG, and where on them something is drawn.

A picture of ``W x H`` pixels showing the window ``(u0, u1, v0, v1)`` of the picture plane
(metres) maps pixel column ``c`` to ``u0 + (u1 - u0) * [c, c + 1] / W`` and row ``r`` (from
the top) to ``v1 - (v1 - v0) * [r + 1, r] / H``: :func:`drawn_extent` turns the pixels that
differ from the background back into picture-plane metres with it.
"""

import io

import numpy as np


def pixels(data: bytes) -> np.ndarray:
    """Return a PNG's pixels, (H, W, 3) uint8 RGB, read with Pillow (matplotlib's own)."""
    from PIL import Image
    return np.asarray(Image.open(io.BytesIO(data)).convert('RGB'))


def drawn(rgb: np.ndarray, background=(255, 255, 255), threshold: int = 8) -> np.ndarray:
    """Return where ``rgb`` differs from ``background`` by more than ``threshold``: (H, W)."""
    return np.abs(rgb.astype(int) - np.array(background)).max(axis=2) > threshold


def drawn_extent(mask: np.ndarray, window) -> tuple[float, float, float, float]:
    """Return ``(u_min, u_max, v_min, v_max)`` (m) of the pixels set in ``mask``, edge to edge."""
    rows, columns = np.nonzero(mask)
    height, width = mask.shape
    u0, u1, v0, v1 = window
    du, dv = (u1 - u0) / width, (v1 - v0) / height
    return (u0 + columns.min() * du, u0 + (columns.max() + 1) * du,
            v1 - (rows.max() + 1) * dv, v1 - rows.min() * dv)


def pixel_size(window, size) -> tuple[float, float]:
    """Return the width and height (m) of one pixel of a picture of ``size`` showing ``window``."""
    return (window[1] - window[0]) / size[0], (window[3] - window[2]) / size[1]
