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
Tests of sdf_tools.convert.gazebo_ext and gazebo_apply: ``<gazebo>`` extensions.

Each extension is parsed and applied through the whole converter, from URDF text.
"""

import re

from diagnostics import INERTIA
from diagnostics import urdf
import pytest
from sdf_tools.convert.urdf_to_sdf import urdf_to_sdf
from sdf_tools.errors import DescriptionError
from sdf_tools.formats.urdf.reader import parse_urdf
import support
from urdf_snippets import codes
from urdf_snippets import convert
from urdf_snippets import FIXTURE_DIR
from urdf_snippets import joint
from urdf_snippets import link
from urdf_snippets import model_of
from urdf_snippets import robot


def test_link_joint_and_model_extensions():
    result = convert(robot(
        link('base', '<collision><geometry><box size="1 1 1"/></geometry></collision>'
             '<visual><geometry><box size="1 1 1"/></geometry></visual>'),
        link('a'), joint('j', 'base', 'a'),
        '<gazebo reference="base"><turnGravityOff>true</turnGravityOff>'
        '<dampingFactor>0.05</dampingFactor><selfCollide>true</selfCollide>'
        '<mu1>0.9</mu1><kp>1e6</kp><fdir1>1 0 0</fdir1><maxContacts>3.7</maxContacts>'
        '<material>Gazebo/Grey</material><visual><transparency>0.5</transparency></visual>'
        '<enable_wind>true</enable_wind></gazebo>'
        '<gazebo reference="j"><stopCfm>0.1</stopCfm><provideFeedback>true</provideFeedback>'
        '<springStiffness>10</springStiffness></gazebo>'
        '<gazebo><static>yes</static><plugin name="p" filename="libp.so"/></gazebo>'))
    m = model_of(result)
    base = m.find("link[@name='base']")
    assert base.findtext('gravity') == 'false'
    assert base.findtext('velocity_decay/linear') == '0.05'
    assert base.findtext('self_collide') == '1'
    assert base.findtext('enable_wind') == 'true'
    c = base.find('collision')
    assert c.findtext('surface/friction/ode/mu') == '0.9'
    assert c.findtext('surface/friction/ode/fdir1') == '1 0 0'
    assert c.findtext('surface/contact/ode/kp') == '1000000'
    assert c.findtext('max_contacts') == '3'  # libsdformat's stoi truncation, with a warning
    v = base.find('visual')
    assert v.findtext('transparency') == '0.5'
    assert v.findtext('material/script/name') == 'Gazebo/Grey'
    j = m.find("joint[@name='j']")
    assert j.findtext('physics/ode/limit/cfm') == '0.1'
    assert j.findtext('physics/ode/limit/erp') == '0.2'  # schema default, as gz sdf prints
    assert j.findtext('physics/provide_feedback') == 'true'
    assert j.findtext('physics/ode/provide_feedback') == 'true'
    assert j.findtext('axis/dynamics/spring_stiffness') == '10'
    assert m.findtext('static') == 'true'
    assert m.find("plugin[@name='p']") is not None
    assert 'read-as' in codes(result)


def test_malformed_extension_number_is_an_error_with_its_line():
    urdf = robot(link('base'), '\n<gazebo reference="base">\n<mu1>abc</mu1></gazebo>')
    message = ("test.urdf:3: <gazebo reference='base'>: <mu1> (SDFormat <mu>) must be a "
               "number, got 'abc'")
    with pytest.raises(DescriptionError, match=re.escape(message)):
        convert(urdf)


def test_extension_numbers_are_read_as_libsdformat_reads_them(tmp_path):
    # libsdformat reads the special tags with std::stod and std::stoi: the leading number.
    text = robot(link('base', '<collision><geometry><box size="1 1 1"/></geometry>'
                      '</collision>'),
                 '<gazebo reference="base"><mu1>0.5x</mu1><maxContacts>1e3</maxContacts>'
                 '<kd value=" 100 "/></gazebo>')
    result = convert(text)
    c = model_of(result).find("link[@name='base']/collision")
    assert (c.findtext('surface/friction/ode/mu'), c.findtext('max_contacts'),
            c.findtext('surface/contact/ode/kd')) == ('0.5', '1', '100')
    assert [w.message for w in result.warnings] == [
        "<mu1> (SDFormat <mu>) '0.5x' is read as 0.5 by libsdformat",
        "<maxContacts> (SDFormat <max_contacts>) '1e3' is read as 1 by libsdformat"]
    if support.oracle_path() is not None:   # the same values as libsdformat's conversion
        (tmp_path / 'r.urdf').write_text(text)
        theirs = support.run_oracle('convert', tmp_path / 'r.urdf')
        assert '<mu>0.5</mu>' in theirs.stdout and '<max_contacts>1</max_contacts>' in \
            theirs.stdout


def test_extension_warnings_name_what_has_no_effect():
    result = convert(robot(
        link('base'), link('a'), joint('jf', 'base', 'a', 'fixed'),
        '<gazebo reference="nothing"><mu1>1</mu1></gazebo>',
        '<gazebo><selfCollide>true</selfCollide></gazebo>',
        '<gazebo reference="base"><stopCfm>1</stopCfm></gazebo>',
        '<gazebo reference="jf"><provideFeedback>true</provideFeedback></gazebo>'))
    messages = [str(w) for w in result.warnings]
    assert any("reference 'nothing' names no link or joint" in m for m in messages)
    assert any('<selfCollide> has no effect in a model-level block' in m for m in messages)
    assert any('<stopCfm> has no effect in a link-level block' in m for m in messages)
    assert any("joint 'jf' is fixed and is merged into its parent" in m for m in messages)


def test_named_visuals_and_collisions_get_their_links_extensions():
    # libsdformat: only elements whose generated name has no lump prefix get them.
    result = convert(robot(
        link('base', '<collision name="bumper"><geometry><box size="1 1 1"/></geometry>'
             '</collision><visual name="shell"><geometry><box size="1 1 1"/></geometry>'
             '</visual>'),
        link('child', '<collision name="pad"><geometry><box size="1 1 1"/></geometry>'
             '</collision>'),
        joint('jf', 'base', 'child', 'fixed'),
        '<gazebo reference="base"><mu1>0.6</mu1><material>Gazebo/Green</material></gazebo>'
        '<gazebo reference="child"><mu1>1.5</mu1></gazebo>'))
    base = model_of(result).find("link[@name='base']")
    bumper = base.find("collision[@name='base_fixed_joint_lump__bumper_collision']")
    assert bumper.findtext('surface/friction/ode/mu') == '0.6'
    assert base.findtext('visual/material/script/name') == 'Gazebo/Green'
    pad = base.find("collision[@name='base_fixed_joint_lump__pad_collision_1']")
    assert pad.findtext('surface/friction/ode/mu') == '1.5'


def test_extension_of_a_parent_does_not_leak_into_a_lumped_childs_collision():
    # libsdformat applies it when the child's name starts with the parent's: we warn.
    result = convert(robot(
        link('finger', '<collision><geometry><box size="1 1 1"/></geometry></collision>'),
        link('finger_tip', '<collision><geometry><box size="1 1 1"/></geometry></collision>'),
        joint('jt', 'finger', 'finger_tip', 'fixed'),
        '<gazebo reference="finger"><mu1>1000</mu1></gazebo>'))
    f = model_of(result).find("link[@name='finger']")
    assert f.findtext("collision[@name='finger_collision']/surface/friction/ode/mu") == '1000'
    assert f.find("collision[@name='finger_tip_collision_1']/surface") is None
    assert 'extension-target' in codes(result)


def test_max_contacts_must_fit_an_int():
    urdf = robot(link('base', '<collision><geometry><box size="1 1 1"/></geometry>'
                      '</collision>'),
                 '<gazebo reference="base"><maxContacts>3000000000</maxContacts></gazebo>')
    with pytest.raises(DescriptionError, match=r'<maxContacts> \(SDFormat <max_contacts>\) '
                       'must be an integer of 32 bits'):
        convert(urdf)


def test_extensions_of_a_fixed_joint_to_world_apply_without_a_warning():
    # A fixed joint to world is not lumped: its <provideFeedback> is written, not dropped.
    result = convert(robot('<link name="world"/>', link('base'),
                           joint('fix', 'world', 'base', 'fixed'),
                           '<gazebo reference="fix"><provideFeedback>true</provideFeedback>'
                           '</gazebo>'))
    assert model_of(result).findtext("joint[@name='fix']/physics/provide_feedback") == 'true'
    assert 'no-effect' not in codes(result)


def test_surface_blob_after_an_earlier_extension_keeps_every_value_in_place():
    result = urdf_to_sdf(parse_urdf((FIXTURE_DIR / 'surface_blob.urdf').read_bytes()))
    surface = model_of(result).find('link/collision/surface')
    assert surface.findtext('bounce/restitution_coefficient') == '0.4'
    assert surface.findtext('friction/ode/mu') is None  # the blob replaced that surface
    assert surface.findtext('friction/ode/mu2') == '0.3'
    assert surface.findtext('contact/ode/kd') == '20'
    # libsdformat 12.3 nests <kd> in <mu2> in <restitution_coefficient>:
    golden = (FIXTURE_DIR / 'surface_blob.sdformat12.3.0.sdf').read_text()
    assert '<mu2>' in golden.split('<restitution_coefficient>')[1].split(
        '</restitution_coefficient>')[0]


@pytest.mark.parametrize('block', ['<gazebo reference="j"/>',
                                   '<gazebo reference="j"> <!-- nothing --> </gazebo>'])
def test_an_empty_joint_block_gives_the_joint_libsdformats_physics(block):
    # As every block on a joint does (libsdformat 12.3 and current): <axis><dynamics> and
    # <physics><ode><limit>, with the schema's defaults.
    result = convert(robot(link('base'), link('a'), joint('j', 'base', 'a'), block))
    j = model_of(result).find("joint[@name='j']")
    assert [j.findtext(f'axis/dynamics/{k}') for k in ('spring_reference', 'spring_stiffness')] \
        == ['0', '0']
    assert [j.findtext(f'physics/ode/limit/{k}') for k in ('cfm', 'erp')] == ['0', '0.2']
    assert result.warnings == ()


def test_an_empty_link_block_reaches_no_collision():
    # libsdformat matches blocks to collisions by the link name it records from the block's
    # children, so an empty block writes no <surface>, unlike any other block.
    body = '<collision><geometry><box size="1 1 1"/></geometry></collision>'
    empty = model_of(convert(robot(link('base', body), '<gazebo reference="base"></gazebo>')))
    assert empty.find('link/collision/surface') is None
    other = model_of(convert(robot(link('base', body), '<gazebo reference="base">'
                                   '<canonicalBody>x</canonicalBody></gazebo>')))
    assert other.find('link/collision/surface/friction/ode') is not None


def test_text_around_blobs_stays_in_the_block():
    result = convert(robot(link('base'), '<gazebo>stray<plugin name="p" filename="p.so"/>'
                           'words</gazebo>'))
    assert 'stray' not in result.sdf and 'words' not in result.sdf
    assert model_of(result).find('plugin').tail.strip() == ''


def test_a_processing_instruction_in_a_blob_is_left_out_with_a_warning(tmp_path):
    text = urdf(link('base'), '<gazebo reference="base">',
                '<plugin name="p" filename="libp.so">a<?ros-args -p x:=1 ?>b</plugin>',
                '</gazebo>')
    robot = parse_urdf(text, 'test.urdf')
    assert [(w.location.line, w.code) for w in robot.warnings] == [(4, 'dropped')]
    assert 'processing instruction <?ros-args ...?> inside <plugin>' in robot.warnings[0].message
    sdf = urdf_to_sdf(robot).sdf
    assert '<plugin name="p" filename="libp.so">ab</plugin>' in sdf and '<?' not in sdf
    if support.oracle_path() is not None:  # what the warning says: libsdformat refuses it
        (tmp_path / 'r.urdf').write_text(text)
        assert support.run_oracle('convert', tmp_path / 'r.urdf').returncode != 0


def test_static_is_written_only_when_given():
    no_static = model_of(convert(robot(link('base'), '<gazebo><plugin name="p" '
                                       'filename="p.so"/></gazebo><gazebo/>')))
    assert no_static.find('static') is None
    kept = model_of(convert(robot(link('base'), '<gazebo><static>true</static></gazebo>'
                                  '<gazebo><plugin name="p" filename="p.so"/></gazebo>')))
    assert kept.findtext('static') == 'true'


# --- moved from the cross-reader tests of invalid descriptions ---------------------------

def test_gazebo_reference_naming_nothing_is_a_converter_warning():
    doc = urdf('<link name="a">', f'<inertial><mass value="1"/>{INERTIA}</inertial>',
               '</link>', '<gazebo reference="ghost">', '<mu1>0.5</mu1>', '</gazebo>')
    robot = parse_urdf(doc, 'robot.urdf')
    assert robot.warnings == ()
    result = urdf_to_sdf(robot)
    assert [(w.code, str(w.location), w.message) for w in result.warnings] == [
        ('unknown-reference', 'robot.urdf:5',
         "reference 'ghost' names no link or joint; the block is ignored")]
    assert '0.5' not in result.sdf
