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
Regenerate the libsdformat goldens of test/data (needs the oracle).

    python3 test/regen_goldens.py [--oracle /tmp/sdformat_oracle]

For each sdf_tools fixture NAME.urdf: NAME.sdformat12.3.0.sdf is what oracle convert
prints, or, when libsdformat cannot convert it, NAME.sdformat12.3.0.txt records the exit code
and stderr. demo_arm.urdf is first re-expanded from the bundled xacro example. For each
SDFormat fixture test/data/sdf/NAME.sdf, NAME.poses.txt is what oracle poses prints. The
goldens come from libsdformat only, never from sdf_tools.
"""

import argparse
import os
from pathlib import Path
import re
import subprocess
import sys

HERE = Path(__file__).resolve().parent
DATA = HERE / 'data' / 'conversion'
SDF_DATA = HERE / 'data' / 'sdf'


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--oracle', default=os.environ.get('SDF_TOOLS_ORACLE',
                                                           '/tmp/sdformat_oracle'))
    args = parser.parse_args(argv)
    import xacro
    example = HERE.parent / 'sdf_tools' / 'examples' / 'demo_arm.urdf.xacro'
    (DATA / 'demo_arm.urdf').write_text(xacro.process_file(str(example)).toprettyxml(
        indent='  '))
    for urdf in sorted(DATA.glob('*.urdf')):
        proc = subprocess.run([args.oracle, 'convert', str(urdf)], capture_output=True,
                              text=True, timeout=300)
        sdf = urdf.with_suffix('.sdformat12.3.0.sdf')
        txt = urdf.with_suffix('.sdformat12.3.0.txt')
        if proc.returncode == 0:
            sdf.write_text(proc.stdout)
            txt.unlink(missing_ok=True)
        else:
            stderr = re.sub(r'\x1b\[[0-9;]*m', '', proc.stderr).replace(f'{DATA}/', '')
            txt.write_text(f'# oracle convert exit code: {proc.returncode}\n# stderr:\n{stderr}')
            sdf.unlink(missing_ok=True)
        print(f'{urdf.name}: exit {proc.returncode}')
    for sdf in sorted(SDF_DATA.glob('*.sdf')):
        proc = subprocess.run([args.oracle, 'poses', str(sdf)], capture_output=True,
                              text=True, timeout=300, check=True)
        sdf.with_suffix('.poses.txt').write_text(proc.stdout)
        print(f'{sdf.name}: poses')
    return 0


if __name__ == '__main__':
    sys.exit(main())
