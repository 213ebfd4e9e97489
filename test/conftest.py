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
Test configuration: the helpers in this folder are importable from every test folder.

Tests mirror the package (``test/formats/test_urdf_reader.py`` tests
``sdf_tools/formats/urdf/reader.py``); the folders have no ``__init__.py``, so pytest puts
each test's folder on ``sys.path``, and this file (loaded first) puts ``test/`` there for
the shared helpers (``support``, ``xml_compare``, ``conversion_rules``, ``chain_fk``...).
Test file names are unique across folders for the same reason.
"""

from hypothesis import settings

# No test is bounded by wall-clock time (a busy neighbour must never fail CI): hypothesis'
# default 200 ms deadline per example is one, so it is off for every test.
settings.register_profile('sdf_tools', deadline=None)
settings.load_profile('sdf_tools')
