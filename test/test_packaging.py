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
Packaging: the package installs the way ROS 2 tools expect.

``colcon build`` (colcon-common-extensions from PyPI) in a temporary workspace must install
the ament index marker, package.xml, the launch and config files, the example, and the
executables in lib/sdf_tools where ``ros2 run`` and launch ``Node(...)`` look; ``colcon
test`` must run the package's tests. ``pip install .`` must work outside ROS. The core must
not import ROS.
"""

import ast
import os
import re
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET

import pytest
import support

EXECUTABLES = ('urdf2sdf', 'sdf_tools', 'state_publisher', 'sdf_converter')


def _colcon():
    return shutil.which('colcon')


def _copy_sources(destination):
    ignore = shutil.ignore_patterns('build', 'install', 'log', '.git', '__pycache__',
                                    '*.egg-info', '.pytest_cache', '.hypothesis')
    shutil.copytree(support.REPO_DIR, destination, ignore=ignore)
    return destination


@pytest.fixture(scope='module')
def workspace(tmp_path_factory):
    if _colcon() is None:
        pytest.skip('colcon is not installed (pip install colcon-common-extensions)')
    ws = tmp_path_factory.mktemp('ws')
    _copy_sources(ws / 'src' / 'sdf_tools')
    proc = subprocess.run([_colcon(), 'build', '--packages-select', 'sdf_tools'], cwd=ws,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    return ws


def test_colcon_build_installs_what_ros2_tools_look_for(workspace):
    prefix = workspace / 'install' / 'sdf_tools'
    assert (prefix / 'share/ament_index/resource_index/packages/sdf_tools').is_file()
    assert (prefix / 'share/sdf_tools/package.xml').is_file()
    for name in EXECUTABLES:
        exe = prefix / 'lib' / 'sdf_tools' / name
        assert exe.is_file(), f'{exe} missing: ros2 run sdf_tools {name} would fail'
    assert (prefix / 'share/sdf_tools/examples/demo_arm.urdf.xacro').is_file()
    for pattern, directory in (('*.launch.py', 'launch'), ('*.yaml', 'config')):
        sources = sorted(p.name for p in (support.REPO_DIR / directory).glob(pattern))
        installed = sorted(p.name for p in (prefix / 'share/sdf_tools' / directory).glob(
            pattern))
        assert installed == sources


def test_installed_urdf2sdf_runs(workspace):
    """The installed script runs from the install space alone (as after sourcing it)."""
    prefix = workspace / 'install/sdf_tools'
    exe = prefix / 'lib/sdf_tools/urdf2sdf'
    example = prefix / 'share/sdf_tools/examples/demo_arm.urdf.xacro'
    site = prefix / 'lib' / f'python{sys.version_info[0]}.{sys.version_info[1]}' / \
        'site-packages'
    env = dict(os.environ, PYTHONPATH=str(site), PYTHONNOUSERSITE='1')
    proc = subprocess.run([str(exe), str(example)], capture_output=True, text=True,
                          timeout=120, cwd=workspace, env=env, check=False)
    assert proc.returncode == 0, proc.stderr
    assert '<model name="demo_arm">' in proc.stdout


def test_colcon_test_runs_the_package_tests(workspace):
    proc = subprocess.run([_colcon(), 'test', '--packages-select', 'sdf_tools',
                           '--pytest-args', '-k', 'test_xml_source or test_describe'],
                          cwd=workspace, capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    result = subprocess.run([_colcon(), 'test-result', '--all'], cwd=workspace,
                            capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stdout
    assert '0 errors, 0 failures' in result.stdout


def test_pip_install_outside_ros(tmp_path):
    target = tmp_path / 'site'
    source = _copy_sources(tmp_path / 'source')  # setuptools writes build/ next to setup.py
    proc = subprocess.run([sys.executable, '-m', 'pip', 'install', '--quiet', '--no-deps',
                           '--target', str(target), str(source)],
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    assert (target / 'sdf_tools' / 'examples' / 'demo_arm.urdf.xacro').is_file()
    assert (target / 'sdf_tools' / 'convert' / 'urdf_to_sdf.py').is_file()
    # the SDFormat vocabulary, data the readers and the converter need
    assert (target / 'sdf_tools' / 'formats' / 'sdf' / 'spec' / 'table.json').is_file()


# The pip a fresh venv of this Python brings, and Ubuntu 22.04's (ROS 2 Humble's) 22.0.2:
# without a PEP 517 backend both fell back to `setup.py install`, which honours setup.cfg's
# install_scripts and put the commands in lib/sdf_tools, off the venv's PATH.
@pytest.mark.parametrize('pip', ['bundled', '22.0.2'])
def test_pip_install_puts_the_commands_on_the_venv_path(tmp_path, pip):
    if pip != 'bundled' and sys.version_info >= (3, 12):
        pytest.skip(f'pip {pip} does not run on Python 3.12 (no distutils)')
    venv = tmp_path / 'venv'
    subprocess.run([sys.executable, '-m', 'venv', str(venv)], check=True, timeout=300)
    python = venv / 'bin' / 'python'
    if pip != 'bundled':
        subprocess.run([str(python), '-m', 'pip', 'install', '--quiet', f'pip=={pip}'],
                       check=True, capture_output=True, timeout=300)
    source = _copy_sources(tmp_path / 'source')
    proc = subprocess.run([str(python), '-m', 'pip', 'install', '--quiet', '--no-deps',
                           str(source)], capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr
    for name in EXECUTABLES:
        assert (venv / 'bin' / name).is_file(), f'pip install . put no {name} in bin/'
    assert not (venv / 'lib' / 'sdf_tools').exists()


def test_setup_ships_exactly_the_tracked_examples():
    """setup.py lists the example files (no glob): a new example must be added there."""
    if not (support.REPO_DIR / '.git').exists() or shutil.which('git') is None:
        pytest.skip('not a git checkout: the tracked examples cannot be told')
    tracked = subprocess.run(['git', 'ls-files', 'sdf_tools/examples'], cwd=support.REPO_DIR,
                             capture_output=True, text=True, check=True).stdout.split()
    tree = ast.parse((support.REPO_DIR / 'setup.py').read_text())
    (listed,) = [ast.literal_eval(node.value) for node in ast.walk(tree)
                 if isinstance(node, ast.Assign) and node.targets[0].id == 'EXAMPLES']
    assert sorted(listed) == sorted(os.path.basename(path) for path in tracked)


def test_core_never_imports_ros():
    code = ('import sys, sdf_tools, sdf_tools.cli, sdf_tools.convert.urdf_to_sdf, '
            'sdf_tools.kinematics, sdf_tools.formats.sdf.reader, '
            'sdf_tools.formats.kindsl.reader, sdf_tools.loading; '
            "print(sorted(m for m in sys.modules if m.split('.')[0] in "
            "('rclpy', 'tf2_ros', 'launch', 'launch_ros', 'std_msgs', 'sensor_msgs', "
            "'geometry_msgs')))")
    proc = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True,
                          timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == '[]'


#: The floors of the house, ground first (sdf_tools/__init__.py and aesthetics.md): a module
#: imports only from rooms on lower floors, or from its own room.
FLOORS = {
    'records': 0,
    'errors': 1, 'transforms': 1,
    'topology': 2, 'batch_transforms': 2, 'formatting': 2, 'inertia': 2, 'source_map': 2,
    'outputs': 2,
    'xmlio': 3,  # XML syntax: imports only errors (and records)
    'robot_index': 3,
    'model': 4,
    'validate': 5, 'resources': 5, 'worlds': 5,
    'describe': 6,
    'formats': 7,
    'convert': 8, 'kinematics': 8,
    'loading': 9,
    'comparing': 10, 'drawing': 10, 'exporting': 10,
    'cli': 11, 'ros': 11,
}
ROS = {'rclpy', 'tf2_ros', 'tf2_msgs', 'launch', 'launch_ros', 'std_msgs', 'sensor_msgs',
       'geometry_msgs', 'rcl_interfaces', 'builtin_interfaces', 'rosidl_runtime_py'}


def _imports(path):
    """Return every module ``path`` imports (``from sdf_tools import x`` as ``sdf_tools.x``)."""
    imported = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            imported.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            imported.add(node.module)
            if node.module == 'sdf_tools':
                imported.update(f'sdf_tools.{a.name}' for a in node.names
                                if not a.name.startswith('__'))
    return imported


def _room(module: str) -> str | None:
    parts = module.split('.')
    return parts[1] if parts[0] == 'sdf_tools' and len(parts) > 1 else None


def test_layering():
    """Every import goes down the floor table; only sdf_tools/ros imports ROS."""
    modules = sorted((support.REPO_DIR / 'sdf_tools').rglob('*.py'))
    rooms = {path.relative_to(support.REPO_DIR / 'sdf_tools').parts[0].removesuffix('.py')
             for path in modules} - {'__init__', 'examples'}
    assert rooms == set(FLOORS), 'a new room needs its floor in FLOORS'
    upward = []
    for path in modules:
        relative = path.relative_to(support.REPO_DIR / 'sdf_tools')
        room = relative.parts[0].removesuffix('.py')
        imported = _imports(path)
        tops = {name.split('.')[0] for name in imported}
        if room != 'ros':
            assert not tops & ROS, f'{relative} imports {sorted(tops & ROS)}'
        if room == '__init__':
            continue
        for name in imported:
            other = _room(name)
            if other is not None and other != room and FLOORS[other] >= FLOORS[room]:
                upward.append(f'{relative} ({room}, floor {FLOORS[room]}) imports {name} '
                              f'(floor {FLOORS[other]})')
        if room == 'xmlio':  # XML syntax knows only the error table (and records)
            assert {_room(n) for n in imported if _room(n)} <= {'xmlio', 'errors', 'records'}, \
                relative
        if room == 'convert':
            assert not any(name.startswith('sdf_tools.formats.sdf.reader') for name in imported)
        if room == 'kinematics':
            assert not {_room(n) for n in imported} & {'formats', 'convert', 'resources'}, \
                relative
    assert upward == []


def test_package_xml_declares_what_the_code_uses():
    root = ET.parse(support.REPO_DIR / 'package.xml').getroot()
    assert root.get('format') == '3'
    assert root.findtext('export/build_type') == 'ament_python'
    depends = {e.text for e in root if e.tag in ('exec_depend', 'depend')}
    for needed in ('rclpy', 'tf2_ros_py', 'tf2_msgs', 'geometry_msgs', 'sensor_msgs',
                   'std_msgs', 'xacro', 'python3-lxml', 'python3-numpy', 'launch',
                   'launch_ros'):
        assert needed in depends, f'package.xml lacks exec_depend {needed}'
    tests = {e.text for e in root if e.tag == 'test_depend'}
    for needed in ('ament_copyright', 'ament_flake8', 'ament_pep257', 'python3-pytest'):
        assert needed in tests


def test_public_api_resolves_every_name():
    import sdf_tools
    for name in sdf_tools.__all__:
        assert getattr(sdf_tools, name) is not None, name
    with pytest.raises(AttributeError, match='no attribute'):
        sdf_tools.no_such_thing


def test_type_checkers_see_the_public_api_as_it_is_imported():
    """__init__.pyi (read by type checkers) imports each public name from where _API does."""
    import sdf_tools
    stub = ast.parse((support.REPO_DIR / 'sdf_tools' / '__init__.pyi').read_text())
    seen = {alias.asname: node.module for node in stub.body if isinstance(node, ast.ImportFrom)
            for alias in node.names}
    assert seen == sdf_tools._API
    assert (support.REPO_DIR / 'sdf_tools' / 'py.typed').is_file()


@pytest.mark.mypy
def test_a_users_type_checker_sees_the_public_api_and_frozen_records(tmp_path):
    """A user's mypy sees the public names' types, and frozen records refusing assignment."""
    api = pytest.importorskip('mypy.api', reason='mypy is not installed')
    user = tmp_path / 'user.py'
    user.write_text('import sdf_tools\n'
                    'from sdf_tools.model import Pose\n'
                    "loaded = sdf_tools.load('robot.urdf')\n"
                    'reveal_type(loaded)\n'
                    'pose = Pose((0.0, 0.0, 0.0), (0.0, 0.0, 0.0, 1.0))\n'
                    'pose.xyz = (1.0, 2.0, 3.0)\n')
    here = os.getcwd()
    os.chdir(tmp_path)  # the package as installed, not this checkout's sources
    try:
        out, err, status = api.run(['--cache-dir', os.devnull, '--no-incremental', str(user)])
    finally:
        os.chdir(here)
    # the class where it is defined (a module of sdf_tools.loading), not Any
    assert re.search(r'Revealed type is "sdf_tools\.loading(\.\w+)?\.Loaded"', out), out + err
    assert 'Property "xyz" defined in "Pose" is read-only' in out, out + err
