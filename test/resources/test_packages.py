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

"""Tests of the package lookup (sdf_tools.resources.packages) on workspaces built in tmp_path."""

import os
from pathlib import Path
import urllib.parse

from hypothesis import given
from hypothesis import strategies as st
import pytest
from sdf_tools.resources import packages as packages_module
from sdf_tools.resources.packages import Manifest
from sdf_tools.resources.packages import package_folder
from sdf_tools.resources.packages import PackageNotFoundError
from sdf_tools.resources.packages import PackagePath
from sdf_tools.resources.packages import PackageResolver
from sdf_tools.resources.packages import read_manifest
from sdf_tools.resources.packages import split_folders
from sdf_tools.resources.packages import unquote
from workspaces import make_package
from workspaces import make_tree
from workspaces import manifest
from workspaces import PACKAGE

NO_ENV = {}


def resolver(*folders, near=None, environ=NO_ENV, option='--package-path'):
    """Return a resolver over ``folders`` and ``environ`` (not the test's environment)."""
    return PackageResolver(PackagePath.from_environment([str(f) for f in folders],
                                                        near=near, option=option,
                                                        environ=environ))


@pytest.fixture
def tree(tmp_path):
    return make_tree(tmp_path)


def test_each_kind_of_folder_given(tree):
    cases = {
        'a package folder': (tree['package'], tree['package']),
        'a folder of packages (src/)': (tree['src'], tree['package']),
        'a workspace root: install/ before src/': (tree['ws'], tree['install']),
        'a colcon install folder (isolated: install/<pkg>/share/<pkg>)':
            (tree['ws'] / 'install', tree['install']),
        'an ament prefix (share/<pkg>)': (tree['prefix'], tree['prefix_share']),
    }
    for what, (folder, expected) in cases.items():
        assert resolver(folder).find(PACKAGE) == expected, what
    # A workspace that was never built: its src/ alone.
    (tree['ws'] / 'install').rename(tree['ws'] / 'elsewhere')
    assert resolver(tree['ws']).find(PACKAGE) == tree['package']


def test_environment_routes(tree):
    environ = {'AMENT_PREFIX_PATH': f"/no/such/prefix{os.pathsep}{tree['prefix']}"}
    assert resolver(environ=environ).find(PACKAGE) == tree['prefix_share']
    environ = {'ROS_PACKAGE_PATH': str(tree['src'])}
    assert resolver(environ=environ).find(PACKAGE) == tree['package']
    # An ament prefix is read as ament_index does: share/<pkg> with the index marker.
    (tree['prefix_share'] / 'package.xml').unlink()
    environ = {'AMENT_PREFIX_PATH': str(tree['prefix'])}
    assert resolver(environ=environ).find(PACKAGE) == tree['prefix_share']
    (tree['prefix'] / 'share/ament_index/resource_index/packages' / PACKAGE).unlink()
    with pytest.raises(PackageNotFoundError):
        resolver(environ=environ).find(PACKAGE)


def test_around_the_input_file(tree, tmp_path):
    # In a colcon workspace: the file's own package, then the workspace (install/, src/).
    found = resolver(near=tree['inner_robot'])
    assert found.find('robot_bringup') == tree['inner_robot'].parent.parent
    assert found.find(PACKAGE) == tree['install']
    # In a repository of several packages (no src/ above): the packages beside it, or the
    # whole repository when it is a git checkout.
    repo = tmp_path / 'repo'
    make_package(repo / 'arm' / 'description', name=PACKAGE)
    bringup = make_package(repo / 'bringup', name='bringup')
    assert resolver(near=bringup / 'urdf' / 'arm.xacro').find(PACKAGE) == \
        repo / 'arm' / 'description'
    nested = make_package(repo / 'configs' / 'moveit', name='moveit_config')
    near = nested / 'urdf' / 'arm.xacro'
    with pytest.raises(PackageNotFoundError, match=f'{repo}/configs .*: 1 package'):
        resolver(near=near).find(PACKAGE)
    (repo / '.git').mkdir()
    assert resolver(near=near).find(PACKAGE) == repo / 'arm' / 'description'
    # A file in no package: nothing around it is searched.
    with pytest.raises(PackageNotFoundError):
        resolver(near=tree['robot']).find(PACKAGE)


def test_routes_are_searched_in_order_and_the_first_package_wins(tree):
    environ = {'AMENT_PREFIX_PATH': str(tree['prefix']), 'ROS_PACKAGE_PATH': str(tree['src'])}
    assert resolver(tree['package'], environ=environ).find(PACKAGE) == tree['package']
    assert resolver(tree['ws'], tree['package']).find(PACKAGE) == tree['install']
    assert resolver(environ=environ, near=tree['inner_robot']).find(PACKAGE) == \
        tree['prefix_share']
    environ.pop('AMENT_PREFIX_PATH')
    assert resolver(environ=environ, near=tree['inner_robot']).find(PACKAGE) == \
        tree['package']
    # Several folders in one --package-path item (':'-separated), in order.
    item = f"{tree['prefix']}{os.pathsep}{tree['src']}"
    assert resolver(item).find(PACKAGE) == tree['prefix_share']
    assert split_folders(f'a{os.pathsep}{os.pathsep}b') == ('a', 'b')


def test_in_a_folder_of_packages_the_shallowest_then_alphabetically_first_wins(tmp_path):
    make_package(tmp_path / 'b' / 'deep' / 'x', name='twice')
    make_package(tmp_path / 'c', name='twice')
    make_package(tmp_path / 'a', name='other')
    assert resolver(tmp_path).find('twice') == tmp_path / 'c'
    make_package(tmp_path / 'b2', name='twice')
    assert resolver(tmp_path).find('twice') == tmp_path / 'b2'


def test_what_a_folder_of_packages_search_skips(tmp_path):
    # The <name> counts, not the folder name.
    make_package(tmp_path / 'named_otherwise', name='real_name')
    for hidden in ('.git', 'build', 'install', 'log'):  # (tmp_path/install: a workspace)
        make_package(tmp_path / 'group' / hidden / 'p', name=f'in_{hidden.strip(".")}')
    make_package(tmp_path / 'ignored' / 'p', name='ignored')
    (tmp_path / 'ignored' / 'COLCON_IGNORE').write_text('')
    make_package(tmp_path / 'outer', name='outer')
    make_package(tmp_path / 'outer' / 'inner', name='inner')  # inside a package
    deep = tmp_path / 'l1' / 'l2' / 'l3'
    make_package(deep / 'p', name='depth_4')
    make_package(deep / 'l4' / 'p', name='depth_5')
    found = resolver(tmp_path)
    assert found.find('real_name') == tmp_path / 'named_otherwise'
    assert found.find('outer') == tmp_path / 'outer'
    assert found.find('depth_4') == deep / 'p'
    for name in ('named_otherwise', 'in_git', 'in_build', 'in_install', 'in_log', 'ignored',
                 'inner', 'depth_5'):
        with pytest.raises(PackageNotFoundError):
            found.find(name)


def test_a_folder_is_searched_once_per_resolver(tree, monkeypatch):
    scans = []
    real_scan = packages_module._scan
    monkeypatch.setattr(packages_module, '_scan', lambda root: scans.append(root) or
                        real_scan(root))
    found = resolver(tree['src'])
    for _ in range(3):
        assert found.find(PACKAGE) == tree['package']
        with pytest.raises(PackageNotFoundError):
            found.find('missing')
    assert scans == [str(tree['src'])]


def test_symbolic_link_loops_end(tmp_path):
    make_package(tmp_path / 'a', name='a')
    (tmp_path / 'b').mkdir()
    (tmp_path / 'b' / 'loop').symlink_to(tmp_path)
    assert resolver(tmp_path).find('a') == tmp_path / 'a'


def test_the_error_lists_every_place_searched_in_order(tree, tmp_path):
    broken = tmp_path / 'broken'
    broken.mkdir()
    (broken / 'package.xml').write_text('<package><name>unclosed</package>')
    environ = {'AMENT_PREFIX_PATH': f"{tree['prefix']}{os.pathsep}/no/such/prefix"}
    found = resolver(tree['ws'], tree['package'], tmp_path, environ=environ,
                     near=tree['inner_robot'])
    with pytest.raises(PackageNotFoundError) as caught:
        found.find('ur_description')
    ws, prefix = tree['ws'], tree['prefix']
    bringup = tree['inner_robot'].parent.parent
    assert caught.value.package == 'ur_description'
    assert caught.value.searched == (
        f'{ws}/install (--package-path)',
        f'{ws}/src (--package-path: 2 package(s))',
        f"{tree['package']} (--package-path: package '{PACKAGE}')",
        f'{tmp_path} (--package-path: 2 package(s); {broken}/package.xml:1: not well-formed '
        'XML: Opening and ending tag mismatch: name line 1 and package)',
        f'{prefix} (AMENT_PREFIX_PATH)',
        '/no/such/prefix (AMENT_PREFIX_PATH: no such folder)',
        'ROS_PACKAGE_PATH (not set)',
        f"{bringup} (around the input file: package 'robot_bringup')",
        f'{ws}/install (around the input file)',
        f'{ws}/src (around the input file: 2 package(s))')
    assert str(caught.value) == (
        f"package 'ur_description' not found; searched: {', '.join(caught.value.searched)}; "
        'give its folder with --package-path')
    # Nothing to search: the environment says so, and the hint says how to add a folder.
    with pytest.raises(PackageNotFoundError) as caught:
        resolver(option='the package_path parameter').find('ur_description')
    assert str(caught.value) == (
        "package 'ur_description' not found; searched: AMENT_PREFIX_PATH (not set), "
        'ROS_PACKAGE_PATH (not set); give its folder in the package_path parameter')


def test_a_folder_given_must_exist(tmp_path):
    with pytest.raises(ValueError, match=f'^--package-path {tmp_path}/nope: no such folder$'):
        resolver(tmp_path / 'nope')
    relative = PackagePath.from_environment([os.path.relpath(tmp_path)], environ=NO_ENV)
    assert relative.folders == (str(tmp_path),)  # absolute: xacro joins relative paths


def test_resolve_uri(tree, tmp_path):
    found = resolver(tree['src'])
    mesh = found.resolve_uri(f'package://{PACKAGE}/meshes/base.stl')
    assert mesh == tree['package'] / 'meshes' / 'base.stl' and mesh.is_file()
    assert found.resolve_uri(f'package://{PACKAGE}/meshes/a%20b.stl') == \
        tree['package'] / 'meshes' / 'a b.stl'
    assert found.resolve_uri(f'package://{PACKAGE}') == tree['package']
    assert found.resolve_uri('file:///tmp/a%20b.stl') == Path('/tmp/a b.stl')
    for uri, message in ((f'package://{PACKAGE}/../../etc/passwd', 'leaves the package'),
                         ('package:///meshes/a.stl', 'no package name'),
                         ('model://robot/a.stl', 'not a package:// or file:// URI'),
                         ('meshes/a.stl', 'not a package:// or file:// URI')):
        with pytest.raises(ValueError, match=message):
            found.resolve_uri(uri)
    with pytest.raises(PackageNotFoundError, match="package 'nothere' not found"):
        found.resolve_uri('package://nothere/a.stl')


def test_a_package_folder_named_differently_is_listed_with_its_name(tmp_path):
    (tmp_path / 'package.xml').write_text(manifest('actual'))
    with pytest.raises(PackageNotFoundError) as caught:
        resolver(tmp_path).find('expected')
    assert caught.value.searched[0] == f"{tmp_path} (--package-path: package 'actual')"


@given(st.text(alphabet=st.sampled_from('ab/%2F0e9g \u00e9'), max_size=12))
def test_unquote_is_urllibs(text):
    assert unquote(text) == urllib.parse.unquote(text)
    assert unquote('meshes/a%20b.stl') == 'meshes/a b.stl'


def test_read_manifest_gives_what_a_model_config_takes(tmp_path):
    (tmp_path / 'package.xml').write_text(
        '<?xml version="1.0"?>\n<package format="3">\n  <name>arm_description</name>\n'
        '  <version>2.1.0</version>\n  <description>\n    The <b>arm</b>:\n    meshes and'
        ' URDF.\n  </description>\n  <maintainer email="m@example.com">Mia Maint</maintainer>'
        '\n  <maintainer email="n@example.com">  </maintainer>\n  <author>Ann Author</author>\n'
        '  <author email="b@example.com">Bob</author>\n  <license>BSD</license>\n</package>\n')
    assert read_manifest(str(tmp_path)) == Manifest(
        'arm_description', '2.1.0', 'The arm: meshes and URDF.',
        (('Ann Author', None), ('Bob', 'b@example.com')), (('Mia Maint', 'm@example.com'),))
    (tmp_path / 'package.xml').write_text('<package><version>1</version></package>')
    with pytest.raises(ValueError, match='no <package><name>'):
        read_manifest(str(tmp_path))


def test_package_folder_is_the_nearest_folder_above_with_a_package_xml(tree, tmp_path):
    macro = tree['package'] / 'urdf' / 'arm.xacro'
    assert package_folder(str(macro)) == str(tree['package'])
    assert package_folder(str(tree['package'] / 'package.xml')) == str(tree['package'])
    assert package_folder(str(tree['robot'])) is None
