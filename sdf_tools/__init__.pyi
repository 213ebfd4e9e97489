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

# What type checkers see of sdf_tools' public names: __init__.py imports each on first use
# (its _API table), which they cannot follow. test_packaging keeps the two alike.

__version__: str
__all__: list[str]

from sdf_tools.comparing import diff as diff
from sdf_tools.comparing import DiffOptions as DiffOptions
from sdf_tools.convert.urdf_to_sdf import ConversionOptions as ConversionOptions
from sdf_tools.convert.urdf_to_sdf import ConversionResult as ConversionResult
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf as urdf_to_sdf
from sdf_tools.drawing import view as view
from sdf_tools.drawing import ViewOptions as ViewOptions
from sdf_tools.errors import ConversionError as ConversionError
from sdf_tools.errors import DescriptionError as DescriptionError
from sdf_tools.errors import Diagnostic as Diagnostic
from sdf_tools.errors import KinematicsError as KinematicsError
from sdf_tools.errors import SdfToolsError as SdfToolsError
from sdf_tools.errors import XmlSyntaxError as XmlSyntaxError
from sdf_tools.exporting import export as export
from sdf_tools.exporting import Exported as Exported
from sdf_tools.exporting import ExportOptions as ExportOptions
from sdf_tools.formats.kindsl.reader import parse_kindsl as parse_kindsl
from sdf_tools.formats.sdf.reader import parse_sdf as parse_sdf
from sdf_tools.formats.sdf.reader import parse_sdf_document as parse_sdf_document
from sdf_tools.formats.sdf.writer import write_sdf as write_sdf
from sdf_tools.formats.urdf.reader import parse_urdf as parse_urdf
from sdf_tools.formats.urdf.writer import write_urdf as write_urdf
from sdf_tools.kinematics import compile_tree as compile_tree
from sdf_tools.kinematics import forward_kinematics as forward_kinematics
from sdf_tools.kinematics import frame_poses as frame_poses
from sdf_tools.kinematics import KinematicTree as KinematicTree
from sdf_tools.loading import check as check
from sdf_tools.loading import Converted as Converted
from sdf_tools.loading import load as load
from sdf_tools.loading import Loaded as Loaded
from sdf_tools.loading import LoadOptions as LoadOptions
from sdf_tools.loading import to_sdf as to_sdf
from sdf_tools.model import Robot as Robot
from sdf_tools.outputs import write_atomically as write_atomically
from sdf_tools.resources.lookup import find_resources as find_resources
from sdf_tools.resources.lookup import Resources as Resources
from sdf_tools.resources.models import ModelFinder as ModelFinder
from sdf_tools.resources.models import ResourcePath as ResourcePath
from sdf_tools.resources.packages import PackageNotFoundError as PackageNotFoundError
from sdf_tools.resources.packages import PackagePath as PackagePath
from sdf_tools.resources.packages import PackageResolver as PackageResolver
from sdf_tools.worlds import World as World
