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
from sdf_tools.errors import Code
from sdf_tools.errors import SourceLocation
from sdf_tools.resources import package_places
from sdf_tools.resources import packages as packages_module
from sdf_tools.resources.package_places import Manifest
from sdf_tools.resources.package_places import package_folder
from sdf_tools.resources.package_places import read_manifest
from sdf_tools.resources.packages import PackageNotFoundError
from sdf_tools.resources.packages import PackagePath
from sdf_tools.resources.packages import PackageResolver
from sdf_tools.resources.packages import split_folders
from sdf_tools.resources.packages import unquote
from workspaces import make_package
from workspaces import make_tree
from workspaces import manifest
from workspaces import mark_built
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
    # In a built colcon workspace: its install/, then the file's own package, then src/.
    found = resolver(near=tree['inner_robot'])
    assert found.find('robot_bringup') == tree['inner_robot'].parent.parent
    assert found.find(PACKAGE) == tree['install']
    # In a folder of packages (no workspace, no checkout): the packages beside it, or the
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
    # A file in no package and no checkout: nothing around it is searched.
    with pytest.raises(PackageNotFoundError):
        resolver(near=tree['robot']).find(PACKAGE)


def test_routes_are_searched_in_order_and_the_first_package_wins(tree):
    environ = {'AMENT_PREFIX_PATH': str(tree['prefix']), 'ROS_PACKAGE_PATH': str(tree['src'])}
    assert resolver(tree['package'], environ=environ).find(PACKAGE) == tree['package']
    assert resolver(tree['ws'], tree['package']).find(PACKAGE) == tree['install']
    # Around the input first, before the folders given and the environment.
    assert resolver(tree['prefix'], environ=environ, near=tree['inner_robot']).find(PACKAGE) \
        == tree['install']
    assert resolver(environ=environ, near=tree['robot']).find(PACKAGE) == tree['prefix_share']
    environ.pop('AMENT_PREFIX_PATH')
    assert resolver(environ=environ, near=tree['robot']).find(PACKAGE) == tree['package']
    # Several folders in one --package-path item (':'-separated), in order.
    item = f"{tree['prefix']}{os.pathsep}{tree['src']}"
    assert resolver(item).find(PACKAGE) == tree['prefix_share']
    assert split_folders(f'a{os.pathsep}{os.pathsep}b') == ('a', 'b')


def test_a_clone_under_a_folder_named_src_is_searched_first_and_alone(tmp_path):
    # ~/src/myrepo (a git clone) beside a stale copy and a big unrelated tree: ~/src is not
    # a colcon workspace, the clone's own copy is used, and nothing else is searched.
    src = tmp_path / 'src'
    mine = src / 'myrepo'
    (mine / '.git').mkdir(parents=True)
    robot = make_package(mine / 'robot_description', name='robot_description')
    make_package(mine / PACKAGE)
    make_package(src / 'aaa_stale' / PACKAGE)
    for i in range(20):
        (src / 'node_modules' / f'm{i}').mkdir(parents=True)
    found = resolver(near=robot / 'urdf' / 'arm.xacro')
    assert found.find(PACKAGE) == mine / PACKAGE
    assert found.take_warnings() == ()
    assert [line.split(' (')[0] for line in found.searched()] == [
        str(robot), str(mine), 'AMENT_PREFIX_PATH', 'ROS_PACKAGE_PATH']


def test_the_folder_bound_never_stops_the_search_of_the_inputs_checkout(tmp_path, monkeypatch):
    monkeypatch.setattr(package_places, 'MAX_FOLDERS', 10)
    monkeypatch.setattr(package_places, 'MAX_DEPTH', 2)
    repo = tmp_path / 'repo'
    (repo / '.git').mkdir(parents=True)
    for i in range(20):
        (repo / 'a_wide' / str(i)).mkdir(parents=True)
    for i in range(20):  # skipped by name: no folder of it is visited
        (repo / 'node_modules' / str(i)).mkdir(parents=True)
    deep = make_package(repo / 'z' / 'y' / 'x' / 'w', name='deep')
    robot = make_package(repo / 'robot', name='robot')
    assert resolver(near=robot / 'urdf' / 'r.xacro').find('deep') == deep
    # The same folder given (without .git) is bounded, and the message says where it stopped.
    (repo / '.git').rmdir()
    with pytest.raises(PackageNotFoundError, match=f'{repo} \\(--package-path: 1 package\\(s\\), '
                       'stopped after 10 folders\\)'):
        resolver(repo).find('deep')


def test_a_built_workspace_is_used_as_built(tmp_path):
    ws = tmp_path / 'ws'
    source = make_package(ws / 'src' / 'robot', name='robot')
    near = source / 'urdf' / 'r.xacro'
    mark_built(ws, install=False)  # built, nothing installed yet: the sources
    assert resolver(near=near).find('robot') == source
    installed = make_package(ws / 'install' / 'robot' / 'share' / 'robot', name='robot')
    mark_built(ws)
    found = resolver(near=near)
    assert found.find('robot') == installed  # even the input's own package
    assert found.take_warnings() == ()  # an install is no duplicate of its sources


def test_an_install_folder_of_scripts_does_not_make_a_workspace(tmp_path):
    (tmp_path / 'install').mkdir()
    (tmp_path / 'install' / 'setup.sh').write_text('#!/bin/sh\n')
    (tmp_path / 'src').mkdir()
    package = make_package(tmp_path / 'tools' / PACKAGE)
    assert resolver(tmp_path).find(PACKAGE) == package


def test_two_packages_of_one_name_in_a_folder_are_a_warning(tmp_path):
    make_package(tmp_path / 'b' / 'deep' / 'x', name='twice')
    make_package(tmp_path / 'c', name='twice')
    found = resolver(tmp_path)
    assert found.find('twice') == tmp_path / 'c'
    (warning,) = found.take_warnings()
    assert (str(warning), warning.code) == (
        f"warning: package 'twice' is in 2 places: using {tmp_path}/c (--package-path), not "
        f'{tmp_path}/b/deep/x (--package-path); in one folder, the shallowest wins, then the '
        'first in alphabetical order', Code.DUPLICATE_PACKAGE)
    assert found.find('twice') == tmp_path / 'c' and found.take_warnings() == ()  # once


def test_a_package_around_the_input_and_in_a_folder_given_is_a_warning(tmp_path):
    repo = tmp_path / 'repo'
    (repo / '.git').mkdir(parents=True)
    robot = make_package(repo / 'robot', name='robot')
    mine = make_package(repo / PACKAGE)
    given = tmp_path / 'ws_src'
    other = make_package(given / PACKAGE)
    found = resolver(given, near=robot / 'urdf' / 'r.xacro')
    assert found.find(PACKAGE) == mine
    assert [str(w) for w in found.take_warnings()] == [
        f"warning: package '{PACKAGE}' is in 2 places: using {mine} (the input's checkout), "
        f"not {other} (--package-path); the input's checkout is searched first"]
    # The environment is an underlay: shadowing it is what it is for.
    underlay = {'ROS_PACKAGE_PATH': str(given)}
    found = resolver(near=robot / 'urdf' / 'r.xacro', environ=underlay)
    assert found.find(PACKAGE) == mine and found.take_warnings() == ()


def test_a_package_in_two_folders_given_is_a_warning_and_the_first_wins(tmp_path):
    first = make_package(tmp_path / 'a' / PACKAGE)
    second = make_package(tmp_path / 'b' / PACKAGE)
    third = make_package(tmp_path / 'c' / 'deep' / PACKAGE)
    found = resolver(tmp_path / 'a', tmp_path / 'b', f"{tmp_path / 'c'}")
    assert found.find(PACKAGE) == first
    (warning,) = found.take_warnings()
    assert (str(warning), warning.code) == (
        f"warning: package '{PACKAGE}' is in 3 places: using {first} (--package-path), not "
        f'{second} (--package-path), {third} (--package-path); the folder given first in '
        '--package-path wins', Code.DUPLICATE_PACKAGE)
    assert found.find(PACKAGE) == first and found.take_warnings() == ()  # once
    # The parameter's name is the route; a package folder given counts as a folder given.
    found = resolver(second, tmp_path / 'a', option='the package_path parameter')
    assert found.find(PACKAGE) == second
    assert [str(w) for w in found.take_warnings()] == [
        f"warning: package '{PACKAGE}' is in 2 places: using {second} (the package_path "
        f'parameter), not {first} (the package_path parameter); the folder given first in the '
        'package_path parameter wins']


def test_one_folder_given_twice_is_no_duplicate(tree, tmp_path):
    (tmp_path / 'link').symlink_to(tree['src'])
    for folders in ((tree['src'], tree['src']), (tree['src'], tmp_path / 'link'),
                    (tree['src'], tree['package']), (f"{tree['src']}{os.pathsep}{tree['src']}",)):
        found = resolver(*folders)
        assert found.find(PACKAGE) == tree['package'], folders
        assert found.take_warnings() == (), folders
    # A workspace's install/ is no duplicate of its src/, whichever is given first.
    for folders in ((tree['ws'], tree['src']), (tree['ws'] / 'install', tree['package']),
                    (tree['package'], tree['ws'] / 'install')):
        found = resolver(*folders)
        assert found.find(PACKAGE) == (tree['package'] if folders[0] == tree['package']
                                       else tree['install']), folders
        assert found.take_warnings() == (), folders


def test_a_folder_given_shadows_the_environment_without_a_warning(tree, tmp_path):
    # The environment is an underlay (AMENT_PREFIX_PATH, share/<pkg>/package.xml): a folder
    # given wins over it silently, as does an earlier prefix over a later one.
    mine = make_package(tmp_path / 'mine' / PACKAGE)
    other = tmp_path / 'other_prefix'
    make_package(other / 'share' / PACKAGE, label='other')
    environ = {'AMENT_PREFIX_PATH': f"{tree['prefix']}{os.pathsep}{other}",
               'ROS_PACKAGE_PATH': f"{tree['src']}{os.pathsep}{tmp_path / 'mine'}"}
    found = resolver(tmp_path / 'mine', environ=environ)
    assert found.find(PACKAGE) == mine and found.take_warnings() == ()
    found = resolver(environ=environ)
    assert found.find(PACKAGE) == tree['prefix_share'] and found.take_warnings() == ()
    found = resolver(environ={'ROS_PACKAGE_PATH': environ['ROS_PACKAGE_PATH']})
    assert found.find(PACKAGE) == tree['package'] and found.take_warnings() == ()
    # The same prefix given as a folder is no underlay: two folders given, a warning.
    found = resolver(tmp_path / 'mine', other, environ=environ)
    assert found.find(PACKAGE) == mine
    assert [str(w) for w in found.take_warnings()] == [
        f"warning: package '{PACKAGE}' is in 2 places: using {mine} (--package-path), not "
        f"{other / 'share' / PACKAGE} (--package-path); the folder given first in "
        '--package-path wins']


def test_a_checkout_and_the_rest_of_its_workspace_holding_one_package_is_a_warning(tmp_path):
    ws = tmp_path / 'ws'
    repo = ws / 'src' / 'repo'
    (repo / '.git').mkdir(parents=True)
    mark_built(ws, install=False)
    robot = make_package(repo / 'robot', name='robot')
    mine = make_package(repo / PACKAGE)
    other = make_package(ws / 'src' / 'aaa' / PACKAGE)  # found first in src/ alone
    found = resolver(near=robot / 'urdf' / 'r.xacro')
    assert found.find(PACKAGE) == mine
    assert [str(w) for w in found.take_warnings()] == [
        f"warning: package '{PACKAGE}' is in 2 places: using {mine} (the input's checkout), "
        f"not {other} (the input's workspace); the input's checkout is searched first"]


def test_an_ignore_marker_is_named_when_it_hides_the_package(tmp_path):
    hidden = make_package(tmp_path / 'arm', name=PACKAGE)
    (hidden / 'CATKIN_IGNORE').write_text('')
    with pytest.raises(PackageNotFoundError) as caught:
        resolver(tmp_path).find(PACKAGE)
    assert str(caught.value) == (
        f"package '{PACKAGE}' not found; searched: {tmp_path} (--package-path: 0 package(s); "
        f"skipped for an ignore marker: {hidden} (CATKIN_IGNORE, package '{PACKAGE}')), "
        'AMENT_PREFIX_PATH (not set), ROS_PACKAGE_PATH (not set); '
        f"'{PACKAGE}' is in {hidden}, which is skipped for its CATKIN_IGNORE: remove that "
        'file, or give the folder with --package-path; give its folder with --package-path')
    assert resolver(hidden).find(PACKAGE) == hidden  # given itself, it is used


def test_unreadable_folders_are_skipped_listed_and_warned_about(tmp_path):
    package = make_package(tmp_path / 'z', name='z')
    (tmp_path / 'loop').symlink_to(tmp_path / 'loop')  # as /proc/1/cwd under --package-path /
    found = resolver(tmp_path)
    assert found.find('z') == package
    (warning,) = found.take_warnings()
    assert (str(warning), warning.code) == (
        f'warning: the search for packages in {tmp_path} (--package-path) skipped 1 folder(s) '
        f'or link(s) it could not read: {tmp_path}/loop (Too many levels of symbolic links)',
        Code.INCOMPLETE_SEARCH)
    with pytest.raises(PackageNotFoundError, match=f'unreadable: {tmp_path}/loop \\(Too many'):
        found.find('other')


def test_a_src_folder_that_is_no_workspace_is_named_when_a_package_is_not_found(tmp_path):
    robot = make_package(tmp_path / 'src' / 'robot', name='robot')
    make_package(tmp_path / 'src' / 'other_repo' / 'sub' / 'lib', name='lib')
    (tmp_path / 'src' / 'robot' / '.git').mkdir()
    with pytest.raises(PackageNotFoundError) as caught:
        resolver(near=robot / 'urdf' / 'r.xacro').find('lib')
    assert str(caught.value).endswith(
        f'; {tmp_path}/src was not searched: {tmp_path} is not a colcon workspace (no build/, '
        'install/ or log/ made by colcon); if it holds the package, give '
        f'{tmp_path}/src with --package-path; give its folder with --package-path')


def test_warnings_are_taken_once_and_placed_at_the_use_that_caused_them(tmp_path):
    make_package(tmp_path / 'a', name='twice')
    make_package(tmp_path / 'b', name='twice')
    found = resolver(tmp_path)
    found.find('twice')
    where = SourceLocation('robot.xacro', 3)
    calls = []
    found.place_warnings(lambda: calls.append(1) or where, '$(find twice)')
    found.place_warnings(lambda: calls.append(2) or SourceLocation('elsewhere'), 'x')
    (warning,) = found.take_warnings(SourceLocation('later'), 'y')
    assert (warning.location, warning.entity, calls) == (where, '$(find twice)', [1])
    assert found.take_warnings() == ()


def test_a_folder_is_searched_once_per_resolver(tree, monkeypatch):
    scans = []
    real_scan = packages_module.scan
    monkeypatch.setattr(packages_module, 'scan', lambda root, full: scans.append(root) or
                        real_scan(root, full))
    later = tree['ws'].parent / 'later'
    make_package(later / 'lib', name='lib')
    found = resolver(tree['src'], later)
    for _ in range(3):
        assert found.find(PACKAGE) == tree['package']  # later/ is searched for duplicates
        assert found.find('lib') == later / 'lib'
        with pytest.raises(PackageNotFoundError):
            found.find('missing')
    assert scans == [str(tree['src']), str(later)]


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
    assert caught.value.searched == (  # the workspace given is the input's: searched once
        f"{ws}/install (the input's workspace)",
        f"{bringup} (the input's package: package 'robot_bringup')",
        f"{ws}/src (the input's workspace: 2 package(s))",
        f"{tree['package']} (--package-path: package '{PACKAGE}')",
        f'{tmp_path} (--package-path: 2 package(s); {broken}/package.xml:1: not well-formed '
        'XML: Opening and ending tag mismatch: name line 1 and package)',
        f'{prefix} (AMENT_PREFIX_PATH)',
        '/no/such/prefix (AMENT_PREFIX_PATH: no such folder)',
        'ROS_PACKAGE_PATH (not set)')
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
