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
Tests of xacro expansion (sdf_tools.loading.xacro): ``$(find)`` without ROS, errors.

Every failure is one ``file:line: expression: reason`` line naming the file (or included
file) and the line that holds the failing markup, never xacro's exception class names.
"""

import sys

import pytest
from sdf_tools.errors import Code
from sdf_tools.errors import DescriptionError
from sdf_tools.errors import SdfToolsError
from sdf_tools.errors import SourceLocation
from sdf_tools.loading.xacro import expand_xacro
from sdf_tools.loading.xacro import run_xacro
from sdf_tools.loading.xacro import XACRO_VERSIONS
from sdf_tools.resources.packages import PackagePath
from sdf_tools.resources.packages import PackageResolver
import support
from workspaces import make_package
from workspaces import make_tree
from workspaces import mark_built
from workspaces import PACKAGE
from workspaces import ROBOT_XACRO
from workspaces import XACRO_NS
import xacro
from xacro import substitution_args

NOT_SET = 'AMENT_PREFIX_PATH (not set), ROS_PACKAGE_PATH (not set)'
#: Looks for packages nowhere (the documents of the tests using it name none).
NOWHERE = PackageResolver()


@pytest.fixture(autouse=True)
def no_ros_environment(monkeypatch):
    monkeypatch.delenv('AMENT_PREFIX_PATH', raising=False)
    monkeypatch.delenv('ROS_PACKAGE_PATH', raising=False)


@pytest.fixture
def tree(tmp_path):
    return make_tree(tmp_path)


def mesh_folder(text):
    """Return the folder of the visual's mesh ($(find) expanded) in expanded URDF text."""
    start = text.index('<mesh filename="') + len('<mesh filename="')
    return text[start:text.index('/meshes/base.stl', start)]


def expand(path, *folders, **mappings):
    packages = PackagePath.from_environment([str(f) for f in folders], near=str(path))
    return run_xacro(path.read_bytes(), str(path), PackageResolver(packages),
                     mappings=mappings, path=str(path)).text


def error(path, *folders, **mappings):
    with pytest.raises(DescriptionError) as caught:
        expand(path, *folders, **mappings)
    (diagnostic,) = caught.value.diagnostics
    assert '<class' not in str(diagnostic) and 'Traceback' not in str(diagnostic)
    return diagnostic


def test_find_through_every_route(tree, monkeypatch):
    for folder, expected in ((tree['package'], tree['package']),
                             (tree['src'], tree['package']),
                             (tree['ws'], tree['install']),
                             (tree['prefix'], tree['prefix_share'])):
        text = expand(tree['robot'], folder)
        assert mesh_folder(text) == str(expected), folder
        assert f'package://{PACKAGE}/meshes/base.stl' in text  # left for the converter
    assert mesh_folder(expand(tree['inner_robot'])) == str(tree['install'])
    monkeypatch.setenv('AMENT_PREFIX_PATH', str(tree['prefix']))
    assert mesh_folder(expand(tree['robot'])) == str(tree['prefix_share'])
    monkeypatch.delenv('AMENT_PREFIX_PATH')
    monkeypatch.setenv('ROS_PACKAGE_PATH', str(tree['src']))
    assert mesh_folder(expand(tree['robot'])) == str(tree['package'])


def test_a_missing_package_is_one_error_at_its_line(tree):
    diagnostic = error(tree['robot'])
    assert str(diagnostic) == (
        f"{tree['robot']}:3: $(find {PACKAGE}): package '{PACKAGE}' not found; searched: "
        f'{NOT_SET}; give its folder with --package-path')
    assert diagnostic.code is Code.PACKAGE_NOT_FOUND
    assert (diagnostic.location.line, diagnostic.entity) == (3, f'$(find {PACKAGE})')


def test_a_missing_package_in_an_included_macro_names_that_file(tree):
    macro = tree['package'] / 'urdf' / 'arm.xacro'
    text = macro.read_text().replace(f'$(find {PACKAGE})/meshes', '$(find missing_meshes)/meshes')
    text = text.replace('<xacro:macro', '<!-- not here: $(find missing_meshes) -->\n<xacro:macro')
    macro.write_text(text)
    diagnostic = error(tree['robot'], tree['src'])
    line = text[:text.index('$(find missing_meshes)/meshes')].count('\n') + 1
    assert (diagnostic.location.source, diagnostic.location.line) == (str(macro), line)
    assert diagnostic.message.startswith("package 'missing_meshes' not found; searched: "
                                         f"{tree['src']} (--package-path: 2 package(s)), ")


def test_a_computed_package_name_is_found_when_only_one_place_can_give_it(tmp_path):
    robot = tmp_path / 'r.urdf.xacro'
    one = (f'<robot name="r" {XACRO_NS}>\n<xacro:property name="p" value="zz"/>\n'
           '<link name="a">\n<visual><geometry><mesh filename="$(find ${p}_pkg)/m.stl"/>'
           '</geometry></visual></link>\n</robot>\n')
    robot.write_text(one)
    assert str(error(robot)) == (f"{robot}:4: $(find zz_pkg): package 'zz_pkg' not found; "
                                 f'searched: {NOT_SET}; give its folder with --package-path')
    robot.write_text(one.replace('</robot>', '<link name="$(find ${p}_pkg)"/>\n</robot>'))
    assert error(robot).location.line is None  # two candidates: the file, without a line
    robot.write_text(one.replace('</robot>', '<link name="$(find ${p}_other)"/>\n</robot>'))
    assert error(robot).location.line == 4  # this one cannot give zz_pkg


def test_xacro_failures_are_one_clear_line(tmp_path, monkeypatch):
    monkeypatch.delenv('SDF_TOOLS_UNSET', raising=False)
    cases = {
        '<link name="$(arg side)"/>':
            "$(arg side): xacro argument 'side' is not set; give side:=VALUE, or declare it "
            'with a default: <xacro:arg name="side" default="..."/>',
        '<link name="$(env SDF_TOOLS_UNSET)"/>':
            "$(env SDF_TOOLS_UNSET): environment variable 'SDF_TOOLS_UNSET' is not set (for a "
            'default, use $(optenv SDF_TOOLS_UNSET DEFAULT))',
        '<link name="$(nonsense x)"/>':
            '$(nonsense x): Unknown substitution command [nonsense x]. Valid commands are '
            "['find', 'env', 'optenv', 'dirname', 'arg']",
        '<link name="${1 + undefined_property}"/>':
            "${1 + undefined_property}: xacro failed: name 'undefined_property' is not defined",
    }
    robot = tmp_path / 'r.urdf.xacro'
    for markup, message in cases.items():
        robot.write_text(f'<robot name="r" {XACRO_NS}>\n  <!-- {markup} -->\n  {markup}\n'
                         '</robot>\n')
        assert str(error(robot)) == f'{robot}:3: {message}'
    robot.write_text(f'<robot name="r" {XACRO_NS}>\n<xacro:include filename="none.xacro"/>'
                     '</robot>')
    assert str(error(robot)) == (f'{robot}:2: xacro failed: No such file or directory: '
                                 f'{tmp_path}/none.xacro')  # once, not twice; the include's line
    robot.write_text(f'<robot name="r" {XACRO_NS}><link name="$(arg side)"/></robot>')
    assert 'name="left"' in expand(robot, side='left')


def test_a_xacro_without_what_is_replaced_is_refused_by_name(tree, monkeypatch):
    """There is no public hook for $(find) in xacro: a version that lacks it is named."""
    monkeypatch.delattr(substitution_args, '_eval_find')
    with pytest.raises(SdfToolsError, match=r'has no substitution_args\._eval_find: '
                       r'sdf_tools expands xacro with xacro>=2\.0\.8,<2\.2; install one'):
        expand(tree['robot'], tree['src'])


def test_setup_pins_the_xacro_versions_whose_insides_are_replaced():
    setup = (support.REPO_DIR / 'setup.py').read_text()
    assert f"'xacro{XACRO_VERSIONS}'" in setup


def test_xacro_is_left_as_it_was_and_ament_index_is_never_imported(tree, monkeypatch):
    before = (xacro.parse, xacro.eval_extension, substitution_args._eval_find,
              xacro.handle_macro_call, xacro.replace_node)
    monkeypatch.setitem(sys.modules, 'ament_index_python', None)  # import fails
    monkeypatch.setitem(sys.modules, 'ament_index_python.packages', None)
    assert mesh_folder(expand(tree['robot'], tree['src'])) == str(tree['package'])
    error(tree['robot'])
    assert (xacro.parse, xacro.eval_extension, substitution_args._eval_find,
            xacro.handle_macro_call, xacro.replace_node) == before
    assert xacro.all_includes == []


def test_text_without_a_file_uses_the_resolver_given(tree):
    data = tree['robot'].read_bytes()
    text = expand_xacro(data, '<stdin>', PackageResolver(
        PackagePath.from_environment([str(tree['prefix'])])))
    assert mesh_folder(text) == str(tree['prefix_share'])
    with pytest.raises(DescriptionError, match=r'^<stdin>:3: \$\(find arm_description\): '):
        expand_xacro(data, '<stdin>', PackageResolver(PackagePath.from_environment()))


def demo_package(root, *files):
    """Write package ``demo`` (its package.xml and empty ``files``) into ``root``."""
    root.mkdir(parents=True)
    (root / 'package.xml').write_text('<package format="3"><name>demo</name></package>')
    for name in files:
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text(f'<robot {XACRO_NS}/>')
    return root


INCLUDE = (f'<robot name="r" {XACRO_NS}>\n<!-- arm.xacro -->\n'
           '<xacro:include filename="$(find demo)/urdf/arm.xacro"/>\n</robot>\n')


def test_a_file_missing_from_a_source_package_suggests_building_when_it_is_elsewhere(tmp_path):
    # ros2_control_demos' layout: description/urdf/ in the sources, urdf/ once installed.
    package = demo_package(tmp_path / 'src' / 'demo', 'description/urdf/arm.xacro')
    robot = package / 'description' / 'urdf' / 'robot.urdf.xacro'
    robot.write_text(INCLUDE)
    assert str(error(robot)) == (
        f'{robot}:3: xacro failed: No such file or directory: {package}/urdf/arm.xacro; package '
        f"'demo' was found as sources ({package}), which hold description/urdf/arm.xacro; "
        'installing may lay it out as urdf/arm.xacro: build it (colcon build) and give the '
        'workspace with --package-path')


def test_a_file_missing_from_a_package_without_it_is_not_a_build_problem(tmp_path):
    package = demo_package(tmp_path / 'demo', 'urdf/other.xacro')
    robot = tmp_path / 'robot.urdf.xacro'
    robot.write_text(INCLUDE)
    assert str(error(robot, package)) == (
        f'{robot}:3: xacro failed: No such file or directory: {package}/urdf/arm.xacro; package '
        f"'demo' ({package}) has no urdf/arm.xacro, nor any file named arm.xacro: is it the "
        'version the description was written for?')


def test_a_file_missing_from_an_installed_package_that_its_sources_have_says_rebuild(tmp_path):
    ws = tmp_path / 'ws'
    sources = demo_package(ws / 'src' / 'demo', 'urdf/arm.xacro')
    installed = demo_package(ws / 'install' / 'demo' / 'share' / 'demo')
    mark_built(ws)
    robot = sources / 'robot.urdf.xacro'
    robot.write_text(INCLUDE)
    assert str(error(robot)) == (
        f'{robot}:3: xacro failed: No such file or directory: {installed}/urdf/arm.xacro; '
        f"package 'demo' is used as installed ({installed}), which has no urdf/arm.xacro; its "
        f'sources ({sources}) have it: build the workspace again (colcon build); if it is still '
        'missing, the package does not install it there')


def test_a_duplicate_package_is_a_warning_at_its_find(tmp_path):
    make_package(tmp_path / 'a' / PACKAGE, label='a')
    make_package(tmp_path / 'b' / PACKAGE, label='b')
    robot = tmp_path / 'robot.urdf.xacro'
    robot.write_text(ROBOT_XACRO)
    packages = PackageResolver(PackagePath.from_environment([str(tmp_path)], environ={}))
    run_xacro(robot.read_bytes(), str(robot), packages, path=str(robot))
    (warning,) = packages.take_warnings()
    assert (warning.location, warning.entity) == (SourceLocation(str(robot), 3),
                                                  f'$(find {PACKAGE})')
    assert warning.message.startswith(f"package '{PACKAGE}' is in 2 places: using "
                                      f'{tmp_path}/a/{PACKAGE} (--package-path), not ')


def including(folder, part: str, main: str):
    """Write ``part.xacro`` and ``r.urdf.xacro``, which includes it; return the latter."""
    (folder / 'part.xacro').write_text(f'<robot {XACRO_NS}>{part}</robot>\n')
    robot = folder / 'r.urdf.xacro'
    robot.write_text(main)
    return robot


def test_arguments_no_file_declares_or_reads_are_warned_about(tmp_path):
    robot = including(tmp_path, '<xacro:arg name="side" default="l"/>',
                      f'<robot name="r" {XACRO_NS}>\n<xacro:include filename="part.xacro"/>\n'
                      '<xacro:arg name="prefix" default=""/>\n<link name="$(arg prefix)'
                      '$(arg side)${xacro.arg(\'tool\')}$(eval scale)"/>\n</robot>\n')
    given = {'prefx': 'a_', 'prefix': 'b_', 'side': 'r', 'tool': 't', 'scale': '2', 'z': '1'}
    expansion = run_xacro(robot.read_bytes(), str(robot), NOWHERE, mappings=given,
                          path=str(robot))
    assert 'name="b_rt2"' in expansion.text
    assert expansion.unused == ('prefx', 'z')
    assert [str(d) for d in expansion.warnings] == [
        f'{robot}: warning: prefx:=a_ changes nothing: no xacro file declares or reads an '
        "argument 'prefx'; its arguments are side, prefix, tool, scale (did you mean prefix?)",
        f'{robot}: warning: z:=1 changes nothing: no xacro file declares or reads an argument '
        "'z'; its arguments are side, prefix, tool, scale"]
    assert {d.code for d in expansion.warnings} == {Code.UNUSED_PARAMETER}
    robot.write_text(f'<robot name="r" {XACRO_NS}><link name="a"/></robot>')
    expansion = run_xacro(robot.read_bytes(), str(robot), NOWHERE, mappings={'x': '1'},
                          path=str(robot))
    assert expansion.warnings[0].message.endswith("argument 'x'; it has no arguments")


def test_comments_with_double_hyphens_reach_xacro_readable(tmp_path):
    # tinyxml2 (libsdformat, urdfdom) reads such comments, expat (xacro's minidom) does not:
    # xacro gets them readable, in the main file and in includes, and lines do not move.
    robot = including(tmp_path, '\n<!-- a -- b --->\n<link name="b"/>\n',
                      f'<!-- spawn_entity.py --entity r -->\n<robot name="r" {XACRO_NS}>\n'
                      '<xacro:include filename="part.xacro"/>\n<link name="$(arg side)"/>\n'
                      '</robot>\n')
    text = expand(robot, side='a')
    assert '<link name="b"/>' in text and '<link name="a"/>' in text
    assert str(error(robot)).startswith(f'{robot}:4: $(arg side): ')
    alone = f'<robot name="r" {XACRO_NS}>\n<!-- -- -->\n<link name="a"/>\n</robot>\n'
    assert '<link name="a"/>' in expand_xacro(alone.encode(), '<stdin>', NOWHERE)


def test_xacro_expands_the_bytes_given_not_the_file_read_again(tmp_path):
    # The bytes were read and checked once; the file may have changed since, or be a pipe
    # that is empty once read: xacro gets the bytes, and only opens the includes.
    robot = including(tmp_path, '<link name="part"/>',
                      f'<robot name="r" {XACRO_NS}>\n<xacro:include filename="part.xacro"/>\n'
                      '<link name="first"/>\n</robot>\n')
    data = robot.read_bytes()
    robot.write_text(f'<robot name="r" {XACRO_NS}><link name="second"/></robot>\n')
    expansion = run_xacro(data, str(robot), NOWHERE, path=str(robot))
    assert '<link name="first"/>' in expansion.text and 'second' not in expansion.text
    assert '<link name="part"/>' in expansion.text  # resolved against the file's folder
    assert expansion.text.startswith('<?xml version="1.0" ?><robot')  # no banner: the
    # document goes in through xacro's parse and process_doc, never its process_file
    assert expansion.files[0] == (str(robot), data)
    assert expansion.inputs == (str(tmp_path / 'part.xacro'),)
    robot.unlink()
    assert '<link name="first"/>' in expand_xacro(data, str(robot), NOWHERE, path=str(robot))


# --- a macro call: its line, the nearest name, and where what it made came from --------------

WHEEL = (f'<robot name="r" {XACRO_NS}>\n'
         '<xacro:property name="w" value="0.1"/>\n'
         '<xacro:macro name="wheel" params="prefix color:=red x:=0 *joint">\n'
         '  <link name="${prefix}_wheel">\n'
         '    <visual><origin xyz="${x} 0 0"/><geometry><sphere radius="${w}"/></geometry>'
         '</visual>\n'
         '  </link>\n'
         '</xacro:macro>\n'
         '<link name="base"/>\n'
         '{call}\n'
         '</robot>\n')


@pytest.mark.parametrize('call, message', [
    ('<xacro:propery name="h" value="1"/>',
     'unknown macro name: xacro:propery; did you mean <xacro:property>?'),
    ('<xacro:wheell prefix="l"><origin/></xacro:wheell>',
     'unknown macro name: xacro:wheell; did you mean <xacro:wheel>?'),
    ('<xacro:wheel prefix="l" colour="blue"><origin/></xacro:wheel>',
     'Invalid parameter "colour" of <xacro:wheel> (its parameters: prefix, color, x, joint); '
     'did you mean color?'),
])
def test_a_call_xacro_refuses_is_named_at_its_line_with_the_nearest_name(
        call, message, tmp_path):
    robot = tmp_path / 'r.urdf.xacro'
    robot.write_text('<!-- first -->\n' + WHEEL.replace('{call}', call))
    diagnostic = error(robot)
    assert (str(diagnostic), diagnostic.code) == (f'{robot}:10: xacro failed: {message}',
                                                  'xacro')


def test_a_bad_value_given_to_a_macro_names_the_call_beside_the_macro_body(tmp_path):
    from sdf_tools.loading import load
    robot = tmp_path / 'r.urdf.xacro'
    robot.write_text(WHEEL.replace('{call}', '<xacro:wheel prefix="l" x="0.4q"><origin/>'
                                   '</xacro:wheel>\n<xacro:wheel prefix="r" x="1"><origin/>'
                                   '</xacro:wheel>'))
    with pytest.raises(DescriptionError) as caught:
        load(str(robot))
    assert [str(d) for d in caught.value.diagnostics] == [
        f"{robot}:5: link 'l_wheel': <origin> xyz must be 3 numbers, got '0.4q 0 0' (expanded "
        f'from <xacro:wheel> at {robot}:9)']
    # xacro's own failure in a macro called from a macro: every call, innermost first
    robot.write_text(WHEEL.replace('${x} 0 0', '${x*2+1} 0 0').replace(
        '{call}', '<xacro:macro name="base" params="x">\n'
        '<xacro:wheel prefix="l" x="${x}"><origin/></xacro:wheel></xacro:macro>\n'
        '<xacro:base x="\'0.4q\'"/>'))
    assert str(error(robot)) == (
        f'{robot}:5: ${{x*2+1}}: xacro failed: can only concatenate str (not "int") to str '
        f'(expanded from <xacro:wheel> at {robot}:10, from <xacro:base> at {robot}:11)')
