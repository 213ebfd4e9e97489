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

"""Tests of the Gazebo model lookup (sdf_tools.resources.models) on folders built in tmp_path."""

import os
import shlex

from model_folders import make_model
from model_folders import make_package
from model_folders import model_config
import pytest
from sdf_tools.resources.models import model_file
from sdf_tools.resources.models import ModelFinder
from sdf_tools.resources.models import ModelNotFoundError
from sdf_tools.resources.models import ResourcePath
from sdf_tools.resources.packages import PackagePath
from sdf_tools.resources.packages import PackageResolver

BODY = '<model name="m"><link name="l"/></model>'


def finder(*folders, environ=None, packages=None):
    """Return a finder over ``folders`` and ``environ`` (never the test's environment)."""
    return ModelFinder(ResourcePath.from_environment([str(f) for f in folders],
                                                     environ=environ or {}), packages)


def test_resource_path_order_given_folders_then_each_variable(tmp_path):
    names = ('given', 'GZ_SIM_RESOURCE_PATH', 'IGN_GAZEBO_RESOURCE_PATH', 'SDF_PATH',
             'GAZEBO_MODEL_PATH')
    folders = {name: tmp_path / name for name in names}
    for name, folder in folders.items():
        make_model(folder, 'box', BODY)
    environ = {name: str(folder) for name, folder in folders.items() if name != 'given'}
    # Each folder wins over those after it; with it gone, the next one is taken.
    for i, name in enumerate(names):
        given = [folders['given']] if i == 0 else []
        left = {k: v for k, v in environ.items() if names.index(k) >= i}
        assert finder(*given, environ=left).find('model://box', None) == \
            str(folders[name] / 'box')


def test_variables_hold_several_folders(tmp_path):
    make_model(tmp_path / 'b', 'box', BODY)
    environ = {'SDF_PATH': f'{tmp_path / "a"}{os.pathsep}{tmp_path / "b"}'}
    assert finder(environ=environ).find('model://box/model.sdf', None) == \
        str(tmp_path / 'b' / 'box' / 'model.sdf')


def test_a_given_folder_must_exist(tmp_path):
    with pytest.raises(ValueError, match=r'--resource-path .*nope: no such folder'):
        finder(tmp_path / 'nope')


def test_relative_uri_starts_in_the_including_files_folder(tmp_path):
    make_model(tmp_path / 'worlds' / 'models', 'box', BODY)
    make_model(tmp_path / 'path', 'models/box', BODY)
    found = finder(tmp_path / 'path').find('models/box', str(tmp_path / 'worlds'))
    assert found == str(tmp_path / 'worlds' / 'models' / 'box')
    # Not next to the file: the resource path.
    assert finder(tmp_path / 'path').find('models/box', str(tmp_path)) == \
        str(tmp_path / 'path' / 'models' / 'box')


def test_model_uri_falls_back_to_the_ros_package(tmp_path):
    make_package(tmp_path / 'src' / 'my_robot', 'my_robot',
                 {'models/arm/model.config': model_config('arm', ('1.9', 'model.sdf')),
                  'models/arm/model.sdf': f'<sdf version="1.9">{BODY}</sdf>'})
    packages = PackageResolver(PackagePath((str(tmp_path / 'src'),)))
    found = finder(packages=packages).find('model://my_robot/models/arm', None)
    assert found == str(tmp_path / 'src' / 'my_robot' / 'models' / 'arm')
    assert finder(packages=packages).find('package://my_robot/models/arm/model.sdf', None) \
        == str(tmp_path / 'src' / 'my_robot' / 'models' / 'arm' / 'model.sdf')
    with pytest.raises(ModelNotFoundError, match="nor is 'other' a ROS package found"):
        finder(packages=packages).find('model://other', None)


def test_a_bare_name_is_looked_up_as_its_model_uri(tmp_path):
    # libsdformat strips the scheme (findFile): <uri>x500</uri> is <uri>model://x500</uri>.
    make_package(tmp_path / 'src' / 'x500', 'x500', {
        'model.config': model_config('x500', ('1.9', 'model.sdf')),
        'model.sdf': f'<sdf version="1.9">{BODY}</sdf>'})
    packages = PackageResolver(PackagePath((str(tmp_path / 'src'),)))
    make_model(tmp_path / 'path', 'box', BODY)
    make_model(tmp_path / 'here', 'box', BODY)
    layouts = [(finder(packages=packages), None, tmp_path / 'src' / 'x500', 'x500'),
               (finder(tmp_path / 'path'), None, tmp_path / 'path' / 'box', 'box'),
               (finder(tmp_path / 'path'), tmp_path / 'here', tmp_path / 'here' / 'box', 'box')]
    for models, folder, found, name in layouts:
        folder = None if folder is None else str(folder)
        assert models.find(name, folder) == models.find(f'model://{name}', folder) == \
            str(found)
        assert models.find(f'{name}/model.sdf', folder) == str(found / 'model.sdf')


def test_a_sibling_model_folder_is_named_when_not_found(tmp_path):
    # PX4's x500_depth includes x500, its sibling: where to point --resource-path.
    make_model(tmp_path / 'models', 'x500', BODY)
    depth = make_model(tmp_path / 'models', 'x500_depth', BODY)
    with pytest.raises(ModelNotFoundError) as info:
        finder().find('x500', str(depth))
    assert f"nor in the including file's folder {depth}; add the folder holding x500/ " \
        f"({tmp_path / 'models'} holds it) with --resource-path" in str(info.value)
    with pytest.raises(ModelNotFoundError, match='a path that climbs out of its folder is '
                       "looked for only in the including file's"):
        finder(tmp_path / 'models' / 'x500').find('../x500', None)


def test_file_uri_and_absolute_path(tmp_path):
    folder = make_model(tmp_path, 'box', BODY)
    assert finder().find(f'file://{folder}', None) == str(folder)
    assert finder().find(str(folder / 'model.sdf'), None) == str(folder / 'model.sdf')
    with pytest.raises(ModelNotFoundError, match='needs an absolute path'):
        finder().find('file://box', str(tmp_path))


def test_web_uris_are_never_fetched():
    uri = 'https://fuel.gazebosim.org/1.0/OpenRobotics/models/Table'
    with pytest.raises(ModelNotFoundError, match='does not download models .no network.; '
                       f'download it .e.g. gz fuel download -u {uri}'):
        finder().find(uri, None)


def test_the_download_advice_is_a_command_that_works_pasted():
    # Fuel model names have spaces; the URL is one word of the command.
    uri = "https://fuel.gazebosim.org/1.0/OpenRobotics/models/Coke Can's"
    with pytest.raises(ModelNotFoundError) as info:
        finder().find(uri, None)
    command = str(info.value).partition('(e.g. ')[2].partition(') and include')[0]
    assert shlex.split(command) == ['gz', 'fuel', 'download', '-u', uri]


def test_not_found_says_where_it_looked(tmp_path):
    with pytest.raises(ModelNotFoundError) as info:
        finder(tmp_path, environ={'SDF_PATH': '/no/such'}).find('model://box', None)
    text = str(info.value)
    assert f'{tmp_path} (--resource-path)' in text
    assert '/no/such (SDF_PATH: no such folder)' in text
    assert 'GZ_SIM_RESOURCE_PATH (not set)' in text
    assert 'add the folder holding box/ with --resource-path' in text


def test_model_name_may_not_climb_out(tmp_path):
    make_model(tmp_path, 'box', BODY)
    with pytest.raises(ModelNotFoundError, match='not a model name'):
        finder(tmp_path / 'box').find('model://../box', None)


def test_model_config_picks_the_newest_version_read(tmp_path):
    config = model_config('box', ('1.5', 'a.sdf'), ('1.11', 'c.sdf'), ('1.12', 'd.sdf'),
                          ('1.6', 'b.sdf'))
    folder = make_model(tmp_path, 'box', BODY, config=config)
    for name in 'abcd':
        (folder / f'{name}.sdf').write_text('')
    assert model_file(str(folder), (1, 11)) == (str(folder / 'c.sdf'), None)
    assert model_file(str(folder), (1, 9)) == (str(folder / 'b.sdf'), None)


def test_model_config_versions_of_thousands_of_digits_are_passed_over(tmp_path):
    config = model_config('box', ('1.9', 'a.sdf'), ('1.' + '1' * 5000, 'b.sdf'))
    folder = make_model(tmp_path, 'box', BODY, config=config)
    for name in 'ab':
        (folder / f'{name}.sdf').write_text('')
    assert model_file(str(folder), (1, 11)) == (str(folder / 'a.sdf'), None)


def test_model_config_without_versions_takes_the_first(tmp_path):
    folder = make_model(tmp_path, 'box', BODY,
                        config=model_config('box', ('', 'model.sdf'), ('', 'other.sdf')))
    assert model_file(str(folder), (1, 11))[0] == str(folder / 'model.sdf')


def test_manifest_xml_is_read_with_a_note(tmp_path):
    folder = make_model(tmp_path, 'box', BODY)
    (folder / 'model.config').rename(folder / 'manifest.xml')
    path, note = model_file(str(folder), (1, 11))
    assert path == str(folder / 'model.sdf')
    assert 'manifest.xml is deprecated' in note


@pytest.mark.parametrize('entry, message', [
    ('../secret.sdf', 'outside the model folder'),
    ('/etc/hostname', 'outside the model folder'),
    ('link.sdf', 'a link to a file outside the model folder'),
    ('missing.sdf', 'which is not a file in'),
    ('', 'no <sdf> element naming the model file'),
])
def test_model_config_reads_only_files_in_the_folder(tmp_path, entry, message):
    (tmp_path / 'secret.sdf').write_text(f'<sdf version="1.9">{BODY}</sdf>')
    folder = make_model(tmp_path, 'box', BODY, config=model_config('box', ('1.9', entry)))
    (folder / 'link.sdf').symlink_to(tmp_path / 'secret.sdf')
    with pytest.raises(ModelNotFoundError, match=message):
        model_file(str(folder), (1, 11))


def test_a_model_folder_needs_a_model_config(tmp_path):
    (tmp_path / 'box').mkdir()
    with pytest.raises(ModelNotFoundError, match='needs a model.config'):
        model_file(str(tmp_path / 'box'), (1, 11))
