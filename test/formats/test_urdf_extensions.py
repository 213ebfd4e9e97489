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
Tests of SDFormat-only content as ``<gazebo>`` blocks (:mod:`sdf_tools.formats.urdf.extensions`).

Model, link, visual, collision and joint content, a joint ``<physics>`` as special tags, and
what URDF cannot carry.
"""

from sdf_tools.errors import SourceLocation
from sdf_tools.formats.sdf.reader import parse_sdf
from sdf_tools.formats.urdf.reader import parse_urdf
from sdf_tools.formats.urdf.writer import write_urdf
from sdf_tools.model import Collision
from sdf_tools.model import Dynamics
from sdf_tools.model import Joint
from sdf_tools.model import JointType
from sdf_tools.model import Limit
from sdf_tools.model import Link
from sdf_tools.model import Material
from sdf_tools.model import Robot
from sdf_tools.model import Sphere
from sdf_tools.model import Visual
from sdf_tools.records import replace
from sdf_tools.xmlio.element import parse_element
from test_urdf_writer import arm
from test_urdf_writer import canonical
from test_urdf_writer import error_of
from test_urdf_writer import rewrite
from test_urdf_writer import SCRIPT


def values(*texts):
    """Return kept SDFormat content written as text: :class:`Element` values."""
    return tuple(map(parse_element, texts))


def test_sdformat_content_becomes_gazebo_extensions():
    robot = Robot(
        'sdf', static=True, extras=values('<self_collide>true</self_collide>',),
        links=(Link('base', extras=values('<gravity>false</gravity>',),
                    collisions=(Collision(geometry=Sphere(1.0),
                                          extras=values('<laser_retro>2</laser_retro>')),
                                Collision(geometry=Sphere(2.0),
                                          extras=values('<laser_retro>2</laser_retro>')))),
               Link('tip')),
        joints=(Joint('j', JointType.REVOLUTE, 'base', 'tip', limit=Limit(-1.0, 1.0, 1.0, 1.0),
                      dynamics=Dynamics(0.1, 0.0, 0.25, 3.0),
                      extras=values('<physics><provide_feedback>true</provide_feedback>'
                                    '</physics>')),))
    text, again = rewrite(robot)
    blocks = [(g.reference, [canonical(e).decode() for e in g.elements]) for g in again.gazebo]
    assert blocks == [
        (None, ['<static>true</static>', '<self_collide>true</self_collide>']),
        ('base', ['<gravity>false</gravity>',
                  '<collision><laser_retro>2</laser_retro></collision>']),
        ('j', ['<provideFeedback>true</provideFeedback>',
               '<springReference>0.25</springReference>',
               '<springStiffness>3</springStiffness>']),
    ]
    assert again.joint('j').dynamics == Dynamics(0.1, 0.0)


def test_differing_visual_extras():
    robot = replace(arm(), links=(Link('base', visuals=(
        Visual(geometry=Sphere(1.0), extras=values('<transparency>0.5</transparency>',)),
        Visual(geometry=Sphere(1.0)))), Link('tip')))
    error_of(robot, "link 'base': its <visual> elements carry different SDFormat-only content "
             '\\(<transparency>\\); URDF can only add the same content to every <visual>')
    # The same content, laid out differently, is the same content.
    robot = replace(arm(), links=(Link('base', visuals=(
        Visual(geometry=Sphere(1.0), extras=values('<material>\n  <diffuse>1 0 0 1</diffuse>\n'
                                                   '</material>')),
        Visual(geometry=Sphere(2.0), extras=values('<material><diffuse>1 0 0 1</diffuse>'
                                                   '</material>')))), Link('tip')))
    _, again = rewrite(robot)
    assert [canonical(e) for e in again.gazebo[0].elements] == [
        b'<visual><material><diffuse>1 0 0 1</diffuse></material></visual>']


def test_lossy_keeps_the_extras_every_visual_carries_and_names_each_one_left_out():
    surface = '<surface><friction><ode><mu>0.5</mu></ode></friction></surface>'
    robot = replace(arm(), links=(Link('base', collisions=(
        Collision(geometry=Sphere(1.0), name='c1', location=SourceLocation('m.sdf', 7),
                  extras=values('<laser_retro>2</laser_retro>', surface)),
        Collision(geometry=Sphere(2.0), location=SourceLocation('m.sdf', 9),
                  extras=values('<laser_retro>2</laser_retro>',)))), Link('tip')))
    error = error_of(robot, "link 'base': its <collision> elements carry different "
                     'SDFormat-only content')
    assert error.diagnostic.message.endswith('; --lossy writes the nearest URDF '
                                             'without it')
    text, dropped = write_urdf(robot, lossy=True)
    assert [str(d) for d in dropped] == [
        "m.sdf:7: warning: link 'base': <collision> 'c1': <surface> is left out: URDF can "
        'only add the same SDFormat-only content to every <collision> of a link']
    again = parse_urdf(text)
    assert [canonical(e) for e in again.gazebo[0].elements] == [
        b'<collision><laser_retro>2</laser_retro></collision>']


def test_lossy_says_what_it_leaves_of_a_visual_material_and_does_it():
    sdf = f"""<sdf version="1.9"><model name="m"><link name="a">
  <visual name="v1"><geometry><sphere><radius>1</radius></sphere></geometry>
    <material>{SCRIPT}</material></visual>
  <visual name="v2"><geometry><sphere><radius>1</radius></sphere></geometry>
    <material>{SCRIPT.replace('Blue', 'Red')}<diffuse>1 0 0 1</diffuse></material></visual>
</link></model></sdf>"""
    text, dropped = write_urdf(parse_sdf(sdf, 'm.sdf'), lossy=True)
    assert [str(d) for d in dropped] == [
        "m.sdf:2: warning: link 'a': <visual> 'v1': <material> is left out: URDF can only add "
        'the same SDFormat-only content to every <visual> of a link',
        "m.sdf:4: warning: link 'a': <visual> 'v2': <material> is left out but for its colour "
        '(the URDF <color>): URDF can only add the same SDFormat-only content to every '
        '<visual> of a link']
    again = parse_urdf(text, 'm.urdf')
    assert again.warnings == () and again.gazebo == ()
    assert [v.material and v.material.rgba for v in again.link('a').visuals] == [
        None, (1.0, 0.0, 0.0, 1.0)]


def test_visuals_of_different_colours_keep_their_own_colour():
    # What libsdformat writes for two URDF colours on one link (e.g. after lumping): each
    # <material> holds only that visual's colour, which the URDF <color> carries.
    def coloured(rgba, extra=''):
        text = ' '.join(map(str, rgba))
        return Visual(geometry=Sphere(1.0), material=Material(None, rgba), extras=values(
            f'<material><ambient>{text}</ambient><diffuse>{text}</diffuse>{extra}</material>',))

    robot = replace(arm(), links=(Link('base', visuals=(
        coloured((1.0, 0.0, 0.0, 1.0)), coloured((0.0, 0.0, 1.0, 0.5)))), Link('tip')))
    text, again = rewrite(robot)
    assert [v.material.rgba for v in again.link('base').visuals] == [(1.0, 0.0, 0.0, 1.0),
                                                                     (0.0, 0.0, 1.0, 0.5)]
    assert again.gazebo == ()
    # A specular colour is SDFormat-only: it cannot differ between the visuals.
    robot = replace(arm(), links=(Link('base', visuals=(
        coloured((1.0, 0.0, 0.0, 1.0), '<specular>1 1 1 1</specular>'),
        coloured((0.0, 0.0, 1.0, 1.0)))), Link('tip')))
    error_of(robot, "link 'base': its <visual> elements carry different SDFormat-only content "
             '\\(<material>\\)')


def test_joint_physics_becomes_special_tags_where_they_say_it():
    # A <physics> blob would land after the one the converter makes, unread by simulators.
    physics = ('<physics><ode><limit><cfm>0.1</cfm><erp>0.3</erp></limit>'
               '<provide_feedback>true</provide_feedback></ode>'
               '<provide_feedback>true</provide_feedback></physics>')
    _, again = rewrite(arm(extras=values(physics,)))
    assert [(e.tag, e.text) for e in again.gazebo[0].elements] == [
        ('stopCfm', '0.1'), ('stopErp', '0.3'), ('provideFeedback', 'true')]
    # What no special tag says stays a blob.
    other = '<physics><ode><cfm>0.1</cfm></ode></physics>'
    _, again = rewrite(arm(extras=values(other,)))
    assert [canonical(e) for e in again.gazebo[0].elements] == [
        b'<physics><ode><cfm>0.1</cfm></ode></physics>']
