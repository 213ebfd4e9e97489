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

"""Tests of what each place is (sdf_tools.resources.package_places), on trees in tmp_path."""

from sdf_tools.resources import package_places
from sdf_tools.resources.package_places import around
from sdf_tools.resources.package_places import classify
from sdf_tools.resources.package_places import files_named
from sdf_tools.resources.package_places import is_workspace
from sdf_tools.resources.package_places import scan
from sdf_tools.resources.package_places import Skipped
from workspaces import make_package
from workspaces import mark_built


def kinds(places):
    """Return ``(path, kind, route, full)`` of each place, for comparing."""
    return [(place.path, place.kind, place.route, place.full) for place in places]


def test_a_workspace_is_told_by_the_marks_colcon_leaves(tmp_path):
    ws = tmp_path / 'ws'
    (ws / 'src').mkdir(parents=True)
    assert not is_workspace(str(ws))  # src/ alone: any folder of checkouts (~/src)
    (ws / 'install').mkdir()
    (ws / 'install' / 'setup.sh').write_text('echo not colcon\n')
    assert not is_workspace(str(ws))  # an install/ of shell scripts colcon did not make
    for marks in (('log', 'COLCON_IGNORE'), ('build', 'COLCON_IGNORE'),
                  ('install', 'COLCON_IGNORE'), ('install', '.colcon_install_layout')):
        other = tmp_path / '_'.join(marks)
        (other / 'src').mkdir(parents=True)
        (other / marks[0]).mkdir()
        (other / marks[0] / marks[1]).write_text('')
        assert is_workspace(str(other)), marks
        (other / 'src').rmdir()
        assert not is_workspace(str(other)), marks  # the marks without src/


def test_what_a_folder_given_is(tmp_path):
    package = make_package(tmp_path / 'pkg', name='p')
    colcon_install = tmp_path / 'merged'
    colcon_install.mkdir()
    (colcon_install / '.colcon_install_layout').write_text('merged\n')
    ament = tmp_path / 'opt_ros'
    (ament / 'share' / 'ament_index').mkdir(parents=True)
    catkin = tmp_path / 'devel'
    catkin.mkdir()
    (catkin / '.catkin').write_text('')
    ws = tmp_path / 'ws'
    (ws / 'src').mkdir(parents=True)
    mark_built(ws)
    scripts = tmp_path / 'scripts_repo'
    (scripts / 'install').mkdir(parents=True)
    (scripts / 'install' / 'local_setup.sh').write_text('')
    checkout = tmp_path / 'checkout'
    (checkout / '.git').mkdir(parents=True)
    route = '--package-path'
    for folder, expected in (
            (package, [(package, 'package', False)]),
            (colcon_install, [(colcon_install, 'prefix', False)]),
            (ament, [(ament, 'prefix', False)]),
            (catkin, [(catkin, 'prefix', False)]),
            (ws, [(ws / 'install', 'prefix', False), (ws / 'src', 'packages', True)]),
            (ws / 'install', [(ws / 'install', 'prefix', False)]),
            (ws / 'src', [(ws / 'src', 'packages', True)]),
            (scripts, [(scripts, 'packages', False)]),  # not a workspace: no src/, no marks
            (checkout, [(checkout, 'packages', True)]),
            (tmp_path / 'none', [(tmp_path / 'none', 'missing', False)])):
        assert kinds(classify(str(folder), route)) == \
            [(str(path), kind, route, full) for path, kind, full in expected], folder
    # A workspace's install/ knows its sources (for the hint of a file missing there).
    assert [place.sources for place in classify(str(ws), route)] == [str(ws / 'src'), None]
    assert classify(str(ws / 'install'), route)[0].sources == str(ws / 'src')


def test_the_places_around_the_input_file(tmp_path):
    # A clone in a built workspace: install/, the package, the clone, the rest of src/.
    ws = tmp_path / 'ws'
    (ws / 'src').mkdir(parents=True)
    mark_built(ws)
    clone = ws / 'src' / 'repo'
    (clone / '.git').mkdir(parents=True)
    package = make_package(clone / 'robot', name='robot')
    near = str(package / 'urdf' / 'arm.xacro')
    assert kinds(around(near)[0]) == [
        (str(ws / 'install'), 'prefix', "the input's workspace", False),
        (str(package), 'package', "the input's package", False),
        (str(clone), 'packages', "the input's checkout", True),
        (str(ws / 'src'), 'packages', "the input's workspace", True)]
    # The whole workspace under git: its src/ covers the checkout.
    (clone / '.git').rmdir()
    (ws / '.git').mkdir()
    assert [place.route for place in around(near)[0]] == [
        "the input's workspace", "the input's package", "the input's workspace"]
    # A clone under a folder named src that is no workspace: the clone alone, and the lone
    # src/ is told (for the hint of a package not found).
    home = tmp_path / 'home'
    mine = home / 'src' / 'mine'
    (mine / '.git').mkdir(parents=True)
    package = make_package(mine / 'robot', name='robot')
    places, lone = around(str(package / 'urdf' / 'arm.xacro'))
    assert kinds(places) == [(str(package), 'package', "the input's package", False),
                             (str(mine), 'packages', "the input's checkout", True)]
    assert lone == str(home / 'src')
    # Neither a checkout nor a workspace: the folder beside the package, bounded.
    (mine / '.git').rmdir()
    assert kinds(around(str(package / 'urdf' / 'arm.xacro'))[0]) == [
        (str(package), 'package', "the input's package", False),
        (str(mine), 'packages', "beside the input's package", False)]
    # A checkout without a package is still the input's checkout.
    (mine / '.git').mkdir()
    assert kinds(around(str(mine / 'robot.urdf.xacro'))[0]) == [
        (str(mine), 'packages', "the input's checkout", True)]


def test_a_search_skips_what_colcon_skips_and_names_the_ignore_markers(tmp_path):
    make_package(tmp_path / 'named_otherwise', name='real_name')
    for skipped in ('.git', 'build', 'install', 'log', 'node_modules', '__pycache__'):
        make_package(tmp_path / 'group' / skipped / 'p', name=f'in_{skipped.strip(".")}')
    for marker in ('COLCON_IGNORE', 'AMENT_IGNORE', 'CATKIN_IGNORE'):
        make_package(tmp_path / marker.lower(), name=f'ignored_{marker[0].lower()}')
        (tmp_path / marker.lower() / marker).write_text('')
    (tmp_path / 'plain_ignored').mkdir()
    (tmp_path / 'plain_ignored' / 'COLCON_IGNORE').write_text('')
    make_package(tmp_path / 'outer', name='outer')
    make_package(tmp_path / 'outer' / 'inner', name='inner')  # inside a package
    found = scan(str(tmp_path))
    assert found.packages == {'real_name': [str(tmp_path / 'named_otherwise')],
                              'outer': [str(tmp_path / 'outer')]}
    assert found.ignored == (
        Skipped(str(tmp_path / 'ament_ignore'), 'AMENT_IGNORE', 'ignored_a'),
        Skipped(str(tmp_path / 'catkin_ignore'), 'CATKIN_IGNORE', 'ignored_c'),
        Skipped(str(tmp_path / 'colcon_ignore'), 'COLCON_IGNORE', 'ignored_c'),
        Skipped(str(tmp_path / 'plain_ignored'), 'COLCON_IGNORE'))
    assert found.unreadable == () and found.stopped_after is None


def test_folders_that_cannot_be_read_are_skipped_and_listed(tmp_path):
    make_package(tmp_path / 'z_after', name='after')
    (tmp_path / 'loop').symlink_to(tmp_path / 'loop')  # ELOOP, as /proc/1/cwd is EACCES
    found = scan(str(tmp_path))
    assert found.packages == {'after': [str(tmp_path / 'z_after')]}
    assert found.unreadable == (Skipped(str(tmp_path / 'loop'),
                                        'Too many levels of symbolic links'),)


def test_bounds_stop_a_bounded_search_but_not_a_full_one(tmp_path, monkeypatch):
    monkeypatch.setattr(package_places, 'MAX_FOLDERS', 5)
    monkeypatch.setattr(package_places, 'MAX_DEPTH', 2)
    for i in range(6):
        (tmp_path / 'a_wide' / str(i)).mkdir(parents=True)
    make_package(tmp_path / 'b' / 'c' / 'd', name='deep')  # 3 levels down
    bounded = scan(str(tmp_path))
    assert (bounded.packages, bounded.stopped_after) == ({}, 5)
    assert scan(str(tmp_path), full=True).packages == {'deep': [str(tmp_path / 'b/c/d')]}
    monkeypatch.setattr(package_places, 'MAX_FULL_FOLDERS', 5)  # its safety stop
    assert scan(str(tmp_path), full=True).stopped_after == 5


def test_duplicates_are_all_kept_shallowest_first_then_alphabetically(tmp_path):
    make_package(tmp_path / 'b' / 'deep', name='twice')
    make_package(tmp_path / 'c', name='twice')
    make_package(tmp_path / 'a' / 'x', name='twice')
    assert scan(str(tmp_path)).packages == {
        'twice': [str(tmp_path / 'c'), str(tmp_path / 'a/x'), str(tmp_path / 'b/deep')]}


def test_symbolic_links_are_followed_once(tmp_path):
    make_package(tmp_path / 'a', name='a')
    (tmp_path / 'b').mkdir()
    (tmp_path / 'b' / 'loop').symlink_to(tmp_path)
    elsewhere = make_package(tmp_path.parent / f'{tmp_path.name}_elsewhere', name='linked')
    (tmp_path / 'c').symlink_to(elsewhere)  # a workspace's src/ often links checkouts
    assert scan(str(tmp_path), full=True).packages == {'a': [str(tmp_path / 'a')],
                                                       'linked': [str(tmp_path / 'c')]}


def test_files_named(tmp_path):
    package = make_package(tmp_path / 'p', name='p')
    (package / 'description' / 'urdf').mkdir(parents=True)
    (package / 'description' / 'urdf' / 'arm.xacro').write_text('')
    (package / '.hidden').mkdir()
    (package / '.hidden' / 'arm.xacro').write_text('')
    assert files_named(str(package), 'arm.xacro') == ['urdf/arm.xacro',
                                                      'description/urdf/arm.xacro']
    assert files_named(str(package), 'none.xacro') == []
