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
Peak memory of whole commands on inputs made to be large: work bounded by the input.

Each case runs the command as a process under a small Python parent that waits for it and
reports ``resource.getrusage(RUSAGE_CHILDREN)``: the child's peak resident set size
(``ru_maxrss``), its CPU time (user + system), plus the wall time, the exit code and the
bytes it wrote to standard output. The inputs, made in a temporary folder:

* ``chain check`` / ``chain tree``: a URDF chain of 20,000 revolute joints (5 MB), through
  ``sdf_tools check`` and ``sdf_tools tree``. Target: under 600 MB.
* ``zip bomb --auto-inertials`` / ``zip bomb view``: a robot whose one link's visual and
  collision are a zipped COLLADA file (``.zae``, 1.5 MB) holding a 1.5 GB comment, through
  ``urdf2sdf --auto-inertials 1000`` and ``sdf_tools view`` (needs matplotlib). Target:
  under 400 MB. ``... at the limit``: the same with a comment just under the most a mesh may
  decompress to, read whole.
* ``include fan-out``: 18 SDFormat files each including the next twice (262,143 models if
  all were read), through ``sdf_tools check``. Target: refused in seconds.
* ``diff 48,000 links``: ``sdf_tools diff`` of a 48,000-link chain of fixed joints against
  a copy of it.

    python3 bench/bench_memory.py [--case NAME ...] [--json OUT]
"""

import argparse
import json
import os
from pathlib import Path
import subprocess
import sys
import tempfile
import zipfile

REPO_DIR = Path(__file__).resolve().parent.parent
MIB = 1 << 20

#: The parent of each measured command: runs argv[2:], its standard output into argv[1].
PARENT = r"""
import resource, subprocess, sys, time
start = time.perf_counter()
with open(sys.argv[1], 'wb') as out:
    done = subprocess.run(sys.argv[2:], stdout=out, stderr=subprocess.PIPE)
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
lines = done.stderr.decode('utf-8', 'replace').splitlines()
print(done.returncode, usage.ru_maxrss, usage.ru_utime + usage.ru_stime, wall, len(lines))
print(lines[0][:300] if lines else '')
"""
CLI = 'import sys; from sdf_tools import cli; sys.exit(cli.{}(sys.argv[1:]))'


def measure(argv: list, folder: Path, entry: str = 'main') -> dict:
    """Return the figures of the command ``sdf_tools ARGV`` (``urdf2sdf`` for that entry)."""
    out = folder / 'stdout'
    command = [sys.executable, '-c', CLI.format(entry)] + argv
    env = dict(os.environ, PYTHONPATH=str(REPO_DIR))
    done = subprocess.run([sys.executable, '-c', PARENT, str(out)] + command, env=env,
                          cwd=folder, capture_output=True, text=True, check=True)
    first, message = done.stdout.split('\n', 1)
    code, peak_kb, cpu, wall, lines = first.split()
    return {'exit': int(code), 'peak_mb': int(peak_kb) / 1024.0, 'cpu_s': float(cpu),
            'wall_s': float(wall), 'stdout_mb': out.stat().st_size / 1e6,
            'stderr_lines': int(lines), 'first_message': message.strip()}


def chain_urdf(path: Path, joints: int, fixed: bool = False) -> Path:
    """Write a URDF chain of revolute joints (about 260 bytes a joint), or of bare fixed ones."""
    with open(path, 'w') as f:
        f.write('<robot name="chain">\n')
        for i in range(joints + 1):
            f.write(f'  <link name="link_{i:05d}"/>\n')
        for i in range(joints):
            if fixed:   # 5 tags a link and joint: 48,000 of them stay under the tag limit
                f.write(f'  <joint name="joint_{i:05d}" type="fixed"><parent link="link_{i:05d}"'
                        f'/><child link="link_{i + 1:05d}"/></joint>\n')
                continue
            f.write(f'  <joint name="joint_{i:05d}" type="revolute">\n'
                    f'    <parent link="link_{i:05d}"/><child link="link_{i + 1:05d}"/>\n'
                    '    <origin xyz="0.0 0.0 0.125" rpy="0.0 0.0 0.0314159"/>\n'
                    '    <axis xyz="0 1 0"/>\n'
                    '    <limit lower="-1.5708" upper="1.5708" effort="10" velocity="1"/>\n'
                    '  </joint>\n')
        f.write('</robot>\n')
    return path


def zip_bomb(folder: Path, name: str, comment_mib: int) -> Path:
    """Write a robot whose link's meshes are ``name``: a cube with a long COLLADA comment."""
    corners = ' '.join(f'{x} {y} {z}' for x in (0, 1) for y in (0, 1) for z in (0, 1))
    faces = '0 1 3 0 3 2 4 6 7 4 7 5 0 4 5 0 5 1 2 3 7 2 7 6 0 2 6 0 6 4 1 5 7 1 7 3'
    cube = (f'<mesh><source id="p"><float_array id="pa" count="24">{corners}</float_array>'
            '<technique_common><accessor source="#pa" count="8" stride="3"><param name="X" '
            'type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>'
            '</accessor></technique_common></source><vertices id="v"><input '
            'semantic="POSITION" source="#p"/></vertices><triangles count="12"><input '
            f'semantic="VERTEX" source="#v" offset="0"/><p>{faces}</p></triangles></mesh>')
    head = ('<?xml version="1.0"?>\n<COLLADA xmlns="http://www.collada.org/2005/11/'
            'COLLADASchema" version="1.4.1"><asset><unit meter="1"/></asset>\n<!--')
    tail = (f'--><library_geometries><geometry id="g">{cube}</geometry></library_geometries>'
            '<library_visual_scenes><visual_scene id="s"><node><instance_geometry url="#g"/>'
            '</node></visual_scene></library_visual_scenes><scene><instance_visual_scene '
            'url="#s"/></scene></COLLADA>\n')
    with zipfile.ZipFile(folder / name, 'w', zipfile.ZIP_DEFLATED, compresslevel=9) as archive:
        with archive.open('mesh.dae', 'w', force_zip64=True) as member:
            member.write(head.encode())
            spaces = b' ' * MIB
            for _ in range(comment_mib):
                member.write(spaces)
            member.write(tail.encode())
    robot = folder / f'{name}.urdf'
    robot.write_text(f'<robot name="bomb"><link name="base">'
                     f'<visual><geometry><mesh filename="{name}"/></geometry></visual>'
                     f'<collision><geometry><mesh filename="{name}"/></geometry></collision>'
                     '</link></robot>\n')
    return robot


def fan_out(folder: Path, depth: int = 18) -> Path:
    """Write m0.sdf ... m17.sdf, each including the next twice."""
    for k in range(depth):
        inner = '' if k == depth - 1 else ''.join(
            f'<include><uri>m{k + 1}.sdf</uri><name>{c}</name></include>' for c in 'ab')
        (folder / f'm{k}.sdf').write_text(f'<sdf version="1.9"><model name="m{k}">'
                                          f'<link name="l"/>{inner}</model></sdf>\n')
    return folder / 'm0.sdf'


def cases(folder: Path) -> dict:
    """Return each case: a function making its input and returning its figures."""
    from sdf_tools.resources.meshes import MESH_BYTES_LIMIT

    def chain(command, joints=20_000):
        def run():
            return measure([command, str(chain_urdf(folder / f'chain{joints}.urdf', joints))],
                           folder)
        return run

    def bomb(view, comment_mib):
        def run():
            robot = zip_bomb(folder, f'bomb{comment_mib}.zae', comment_mib)
            if view:
                return measure(['view', str(robot), '-o', str(folder / 'bomb.png')], folder)
            return measure(['--auto-inertials', '1000', str(robot), '-o',
                            str(folder / 'bomb.sdf')], folder, 'urdf2sdf_main')
        return run

    near = MESH_BYTES_LIMIT // MIB - 1
    return {'chain check': chain('check'), 'chain tree': chain('tree'),
            'zip bomb --auto-inertials': bomb(False, 1500), 'zip bomb view': bomb(True, 1500),
            'zip bomb --auto-inertials at the limit': bomb(False, near),
            'zip bomb view at the limit': bomb(True, near),
            'include fan-out': lambda: measure(['check', str(fan_out(folder))], folder),
            'diff 48,000 links': lambda: measure(
                ['diff', '-q'] + [str(chain_urdf(folder / f'{s}.urdf', 47_999, fixed=True))
                                  for s in 'ab'], folder)}


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--case', action='append', help='run only this case (repeatable)')
    parser.add_argument('--json', help='also write the figures here')
    args = parser.parse_args(argv)
    sys.path.insert(0, str(REPO_DIR))
    figures = {}
    with tempfile.TemporaryDirectory() as name:
        table = cases(Path(name))
        for case in args.case or table:
            if 'view' in case:
                try:
                    import matplotlib  # noqa: F401 - view needs it
                except ImportError:
                    print(f"{case}: skipped (pip install 'sdf_tools[view]')")
                    continue
            figures[case] = f = table[case]()
            print(f'{case:40} exit {f["exit"]}  peak {f["peak_mb"]:7.1f} MB  CPU '
                  f'{f["cpu_s"]:6.2f} s  wall {f["wall_s"]:6.2f} s  stdout '
                  f'{f["stdout_mb"]:8.2f} MB  stderr {f["stderr_lines"]} lines', flush=True)
            if f['first_message']:
                print(f'    {f["first_message"][:200]}', flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(figures, indent=2) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
