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
``sdf_tools view`` as users meet it: a picture of a robot with primitives, in seconds.

For the bundled demo, the corpus robots with the most primitive shapes (their meshes are
not in the corpus: they are left out, with a warning each) and a made-up robot of four large
meshes (spheres of 81,920 triangles each, binary STL, decimated to ``max_faces``), two
figures:

* the whole process, ``sdf_tools view ROBOT -o robot.png`` (800 x 600, iso view), wall time
  from start to exit and CPU time (user + system; on a busy machine the fairer figure),
  medians of ``--rounds``;
* in one process, after matplotlib is imported (its import is timed once, apart): reading
  the description, forward kinematics, the triangles (:func:`sdf_tools.drawing.scene.
  build_scene`) and the drawing (:func:`sdf_tools.drawing.render.draw_layers`), medians.

Target (issue 26): a corpus robot with primitives in a couple of seconds, the whole process.

    python3 bench/bench_view.py [--rounds N] [--json OUT]
"""

import argparse
import json
import os
from pathlib import Path
import resource
import statistics
import subprocess
import sys
import tempfile
import time

REPO_DIR = Path(__file__).resolve().parent.parent
if str(REPO_DIR) not in sys.path:
    sys.path.insert(0, str(REPO_DIR))

SHARED_DIR = Path(os.environ.get('SDF_TOOLS_SHARED', REPO_DIR.parent / 'shared'))
CORPUS_DIR = SHARED_DIR / 'corpus' / 'urdf'
DEMO = REPO_DIR / 'sdf_tools' / 'examples' / 'demo_arm.urdf.xacro'
#: (label, file, extra command-line words)
ROBOTS = (('demo_arm', DEMO, ['shoulder_lift=0.6', 'elbow=0.9']),
          ('tiago', CORPUS_DIR / 'tiago.urdf', []),
          ('go1_gazebo', CORPUS_DIR / 'go1_gazebo.urdf', []),
          ('r2d2_macroed', CORPUS_DIR / 'r2d2_macroed.urdf', []),
          ('baxter', CORPUS_DIR / 'baxter.urdf', []),
          ('rrbot', CORPUS_DIR / 'rrbot.urdf', []),
          ('baxter --collision', CORPUS_DIR / 'baxter.urdf', ['--collision']),
          ('anymal_c --collision', CORPUS_DIR / 'anymal_c.urdf', ['--collision']))
TARGET = 2.0


def _mesh_robot(folder: Path) -> Path:
    """Write a chain of four links whose visuals are 81,920-triangle spheres; return its URDF."""
    import trimesh
    for i in range(4):  # four files, each read and decimated
        trimesh.creation.icosphere(subdivisions=6, radius=0.1 + 0.01 * i).export(
            str(folder / f'ball{i}.stl'))
    links = ''.join(f'<link name="l{i}"><visual><geometry><mesh filename="ball{i}.stl"/>'
                    '</geometry></visual></link>' for i in range(4))
    joints = ''.join(f'<joint name="j{i}" type="revolute"><parent link="l{i - 1}"/>'
                     f'<child link="l{i}"/><origin xyz="0 0 0.25"/><axis xyz="1 0 0"/>'
                     '<limit lower="-1" upper="1" effort="1" velocity="1"/></joint>'
                     for i in range(1, 4))
    path = folder / 'meshes.urdf'
    path.write_text(f'<robot name="meshes">{links}{joints}</robot>')
    return path


def _process_seconds(path, words, out, rounds):
    """Return the median wall and CPU (user + system) times (s) of ``sdf_tools view``."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(REPO_DIR),
                                                       os.environ.get('PYTHONPATH', '')]))
    command = [sys.executable, '-c', 'from sdf_tools.cli import main; main()', 'view',
               str(path), *words, '-q', '-o', str(out)]
    times, cpu = [], []
    for _ in range(rounds):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(command, env=env, check=True, timeout=600)
        times.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(times), statistics.median(cpu)


def _stages(path, words, rounds):
    """Return the median seconds of each stage in this process, and the triangles drawn."""
    from sdf_tools.drawing import camera
    from sdf_tools.drawing import link_poses
    from sdf_tools.drawing.render import draw_layers
    from sdf_tools.drawing.render import Layer
    from sdf_tools.drawing.render import RenderOptions
    from sdf_tools.drawing.scene import build_scene
    from sdf_tools.drawing.scene import SceneOptions
    from sdf_tools.loading import load
    values = {w.split('=')[0]: float(w.split('=')[1]) for w in words if '=' in w}
    options = SceneOptions(collision='--collision' in words, folder=str(Path(path).parent))
    stages = {'load': [], 'fk': [], 'scene': [], 'draw': []}
    for _ in range(rounds):
        start = time.perf_counter()
        robot = load(str(path)).robot
        loaded = time.perf_counter()
        poses = link_poses(robot, values)
        placed = time.perf_counter()
        scene = build_scene(robot, poses, options)
        built = time.perf_counter()
        draw_layers([Layer(scene)], camera('iso'), RenderOptions())
        done = time.perf_counter()
        for name, seconds in zip(stages, (loaded - start, placed - loaded, built - placed,
                                          done - built)):
            stages[name].append(seconds)
    return {name: statistics.median(times) for name, times in stages.items()}, \
        len(scene.triangles)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split('\n\n')[0])
    parser.add_argument('--rounds', type=int, default=5, help='timed runs of each robot')
    parser.add_argument('--json', help='write the results here')
    args = parser.parse_args(argv)
    start = time.perf_counter()
    import matplotlib.backends.backend_agg  # noqa: F401 - its import, timed once
    import matplotlib.figure  # noqa: F401
    print(f'import matplotlib (Agg): {time.perf_counter() - start:.3f} s')
    print(f'{"robot":24} {"triangles":>9} {"process":>8} {"cpu":>6} {"load":>7} {"fk":>7} '
          f'{"scene":>7} {"draw":>7}')
    results = {}
    with tempfile.TemporaryDirectory() as folder:
        robots = ROBOTS + (('4 meshes of 81,920 faces', _mesh_robot(Path(folder)), []),)
        for label, path, words in robots:
            if not path.is_file():
                print(f'{label:24} (not here: {path})')
                continue
            stages, triangles = _stages(path, words, args.rounds)
            process, cpu = _process_seconds(path, words, Path(folder) / 'robot.png',
                                            args.rounds)
            results[label] = dict(stages, process=process, process_cpu=cpu,
                                  triangles=triangles)
            print(f'{label:24} {triangles:9d} {process:8.3f} {cpu:6.3f} ' +
                  ' '.join(f'{stages[name]:7.3f}' for name in ('load', 'fk', 'scene', 'draw')))
    for what, key in (('wall', 'process'), ('CPU', 'process_cpu')):
        slowest = max(r[key] for label, r in results.items() if 'meshes' not in label)
        print(f'slowest process with primitives, {what} time: {slowest:.2f} s (target '
              f'{TARGET:.0f} s): {"met" if slowest <= TARGET else "NOT met"}')
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=2) + '\n')
    return 0


if __name__ == '__main__':
    sys.exit(main())
