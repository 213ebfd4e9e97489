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
Helpers of the export tests: packages with real mesh files, and Gazebo's view of a model folder.

:func:`make_package` writes a package (``package.xml`` and files); :func:`mesh_bytes` is a
small mesh of the format a file name says (trimesh writes it). :func:`packages_for` lays out,
for a URDF, every package its ``package://`` URIs name with every file they name.

:func:`gazebo_view` is what libsdformat makes of ``model://NAME`` with the model folder's
parent on ``SDF_PATH`` and ``GZ_SIM_RESOURCE_PATH``, as Gazebo loads it: a world including
it, checked by the oracle (``sdf::Root::Load``) and expanded by it (``gz sdf -p``), every
mesh URI of the expansion, and the file in the folder each names.
"""

import os
from pathlib import Path
import re

from lxml import etree
import support
from workspaces import manifest

WORLD = ('<?xml version="1.0"?>\n<sdf version="1.9"><world name="w"><include>'
         '<uri>model://{name}</uri></include></world></sdf>\n')


def mesh_bytes(name: str) -> bytes:
    """Return a 1 cm box in the mesh format ``name``'s suffix says (STL for unknown ones)."""
    import trimesh
    suffix = os.path.splitext(name)[1].lower().lstrip('.')
    box = trimesh.creation.box((0.01, 0.01, 0.01))
    data = box.export(file_type=suffix if suffix in ('stl', 'dae', 'obj', 'ply') else 'stl')
    return data.encode() if isinstance(data, str) else data


def textured_dae(image: str) -> str:
    """Return a one-triangle COLLADA file whose material's diffuse texture is ``image``."""
    return f"""<?xml version="1.0" encoding="utf-8"?>
<COLLADA xmlns="http://www.collada.org/2005/11/COLLADASchema" version="1.4.1">
  <asset><unit meter="1"/><up_axis>Z_UP</up_axis></asset>
  <library_images><image id="img"><init_from>{image}</init_from></image></library_images>
  <library_effects><effect id="fx"><profile_COMMON>
    <newparam sid="surf"><surface type="2D"><init_from>img</init_from></surface></newparam>
    <newparam sid="samp"><sampler2D><source>surf</source></sampler2D></newparam>
    <technique sid="common"><lambert><diffuse><texture texture="samp" texcoord="uv"/>
    </diffuse></lambert></technique>
  </profile_COMMON></effect></library_effects>
  <library_materials><material id="mat"><instance_effect url="#fx"/></material>
  </library_materials>
  <library_geometries><geometry id="g"><mesh>
    <source id="p"><float_array id="pa" count="9">0 0 0 1 0 0 0 1 0</float_array>
      <technique_common><accessor source="#pa" count="3" stride="3"><param name="X"
        type="float"/><param name="Y" type="float"/><param name="Z" type="float"/>
      </accessor></technique_common></source>
    <vertices id="v"><input semantic="POSITION" source="#p"/></vertices>
    <triangles material="m" count="1"><input semantic="VERTEX" source="#v" offset="0"/>
      <p>0 1 2</p></triangles>
  </mesh></geometry></library_geometries>
  <library_visual_scenes><visual_scene id="s"><node><instance_geometry url="#g">
    <bind_material><technique_common><instance_material symbol="m" target="#mat"/>
    </technique_common></bind_material></instance_geometry></node></visual_scene>
  </library_visual_scenes>
  <scene><instance_visual_scene url="#s"/></scene>
</COLLADA>
"""


def textured_obj(library: str = 'arm.mtl', image: str = 'arm.png') -> dict:
    """Return an OBJ triangle using material library ``library``, whose texture is ``image``."""
    return {'obj': f'mtllib {library}\nusemtl skin\nv 0 0 0\nv 1 0 0\nv 0 1 0\nvt 0 0\n'
                   'vt 1 0\nvt 0 1\nf 1/1 2/2 3/3\n',
            'mtl': f'newmtl skin\nKd 1 1 1\nmap_Kd {image}\n',
            'png': PNG}


#: A 1x1 PNG image.
PNG = bytes.fromhex('89504e470d0a1a0a0000000d4948445200000001000000010802000000907753de0000000c'
                    '4944415478da63f8cfc000000301010018dd8db00000000049454e44ae426082')


def make_package(folder: Path, name: str, files: dict | None = None,
                 package_xml: str | None = None) -> Path:
    """Write package ``name`` in ``folder``: its package.xml and ``files`` (path -> content)."""
    folder.mkdir(parents=True, exist_ok=True)
    (folder / 'package.xml').write_text(package_xml or manifest(name))
    for relative, content in (files or {}).items():
        path = folder / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content)
    return folder


def packages_for(text: str, src: Path) -> dict:
    """Lay out under ``src`` each package ``text``'s package:// URIs name; return them."""
    uris = sorted(set(re.findall(r'package://([^/"]+)/([^"]+)"', text)))
    packages = {}
    for package, relative in uris:
        files = packages.setdefault(package, {})
        files[relative] = mesh_bytes(relative)
    for package, files in packages.items():
        make_package(src / package, package, files)
    return packages


def gazebo_env(parent: Path) -> dict:
    """Return the environment in which Gazebo (libsdformat) looks in ``parent`` for models."""
    env = dict(os.environ)
    env['SDF_PATH'] = env['GZ_SIM_RESOURCE_PATH'] = str(parent)
    env['IGN_GAZEBO_RESOURCE_PATH'] = str(parent)
    return env


def gazebo_view(folder: Path, scratch: Path) -> dict:
    """
    Return what libsdformat makes of ``model://<folder name>`` (module docstring).

    Keys: ``check`` (the oracle's output, ``oracle: OK`` when it loads), ``world`` (the
    world file), ``meshes`` (every ``<mesh><uri>`` of the expansion) and ``files`` (each
    URI -> the file it names in ``folder``, when it is a ``model://NAME/...`` URI).
    """
    import subprocess
    scratch.mkdir(parents=True, exist_ok=True)
    world = scratch / 'world.sdf'
    world.write_text(WORLD.format(name=folder.name))
    env = gazebo_env(folder.parent)
    run = [str(support.oracle_path())]
    check = subprocess.run(run + ['check', str(world)], capture_output=True, text=True,
                           env=env, timeout=300)
    expanded = subprocess.run(run + ['convert', str(world)], capture_output=True, text=True,
                              env=env, timeout=300)
    meshes = [e.text.strip() for e in
              etree.fromstring(expanded.stdout.encode()).iter('uri')
              if e.getparent().tag == 'mesh'] if expanded.returncode == 0 else []
    prefix = f'model://{folder.name}/'
    files = {uri: folder.parent / uri[len('model://'):] for uri in meshes
             if uri.startswith(prefix)}
    return {'check': check.stdout + check.stderr, 'world': world, 'meshes': meshes,
            'files': files, 'env': env}


def probe_world(world: Path, env: dict) -> str:
    """Return the physics probe's ``poses`` output for ``world`` in ``env``."""
    import subprocess
    done = subprocess.run([str(support.PROBE_PATH), 'poses', str(world)], capture_output=True,
                          text=True, env=env, timeout=300)
    return done.stdout + done.stderr


def model_config(name: str, *entries) -> str:
    """Return a model.config for ``name`` whose ``<sdf>`` entries are ``(version, file)``."""
    sdf = ''.join(f'<sdf version="{v}">{f}</sdf>' if v else f'<sdf>{f}</sdf>'
                  for v, f in entries)
    return f'<?xml version="1.0"?>\n<model><name>{name}</name>{sdf}</model>\n'


def make_model(parent: Path, name: str, body: str, version: str = '1.9',
               config: str | None = None) -> Path:
    """
    Write the Gazebo model folder ``parent/name``: model.config and model.sdf.

    ``body`` is what the ``<sdf>`` of model.sdf holds (its first line is line 2 of the
    file); ``config`` replaces the model.config, which otherwise names model.sdf.
    """
    folder = parent / name
    folder.mkdir(parents=True, exist_ok=True)
    (folder / 'model.config').write_text(
        config if config is not None else model_config(name, (version, 'model.sdf')))
    (folder / 'model.sdf').write_text(f'<sdf version="{version}">\n{body}\n</sdf>\n')
    return folder
