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
Tests of sdf_tools.resources.meshes on archives: what a mesh may decompress to, and what not.

trimesh decompresses an archive whole in memory before reading it (a 1.5 MB ``.zae`` holding
a 1.5 GB comment took 3.2 GB), and reads a COLLADA file inside one with pycollada, whose XML
parser expands entities. The archives here are made by the test: a zipped COLLADA cube, the
same with a long comment (spaces: a thousand to one in a ZIP file), with a DOCTYPE.
"""

import bz2
import io
import re
import tarfile
import tracemalloc
import zipfile

import pytest
from sdf_tools import cli
from sdf_tools.resources import meshes

trimesh = pytest.importorskip('trimesh', reason='trimesh is not installed')
pytest.importorskip('collada', reason='pycollada (for DAE) is not installed')

MIB = 1 << 20
LAUGHS = ('<!DOCTYPE COLLADA [<!ENTITY a "aaaaaaaaaa">'
          + ''.join(f'<!ENTITY {b} "{("&" + a + ";") * 10}">' for a, b in zip('abcdef', 'bcdefg'))
          + ']>\n')


def cube_dae(comment_mib: int = 0, doctype: str = '') -> bytes:
    """Return a COLLADA unit cube, with a comment of ``comment_mib`` MiB of spaces inside."""
    from mesh_robot import cube_stl
    cube = trimesh.load(io.BytesIO(cube_stl().encode()), file_type='stl')
    dae = trimesh.exchange.dae.export_collada(cube)
    head, rest = dae.split(b'<asset>', 1)
    if not comment_mib:
        return doctype.encode() + head + b'<asset>' + rest
    return b''.join([doctype.encode(), head, b'<!--', b' ' * (comment_mib * MIB), b'-->',
                     b'<asset>', rest])


def zipped(path, members: dict, level: int = 1):
    """Write the ZIP file ``path`` holding ``members`` (name -> bytes); return its name."""
    with zipfile.ZipFile(path, 'w', zipfile.ZIP_DEFLATED, compresslevel=level) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return str(path)


def tarred(path, members: dict):
    """Write the gzipped tar file ``path`` holding ``members``; return its name."""
    with tarfile.open(path, 'w:gz') as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return str(path)


def bzipped(path, data: bytes):
    path.write_bytes(bz2.compress(data))
    return str(path)


def readers(folder):
    """Return the three ways a mesh is read: --auto-inertials, view, export."""
    return (meshes.load_solid, meshes.load_triangles,
            lambda path: meshes.referenced_files(path, str(folder)))


def test_archives_within_the_limit_are_read_as_the_mesh_they_hold(tmp_path):
    dae = cube_dae(comment_mib=1)
    for path in (zipped(tmp_path / 'cube.zae', {'cube.dae': dae}),
                 zipped(tmp_path / 'cube.zip', {'cube.dae': dae, 'notes.txt': b'hi'}),
                 tarred(tmp_path / 'cube.tar.gz', {'cube.dae': dae}),
                 bzipped(tmp_path / 'cube.dae.bz2', dae)):
        solid = meshes.load_solid(path)
        assert solid.closed and len(solid.faces) == 12, path
        assert len(meshes.load_triangles(path).faces) == 12, path


def test_a_zip_bomb_is_refused_before_it_is_decompressed(tmp_path):
    # A 0.4 MB .zae whose COLLADA file holds a 80 MiB comment, over the 64 MiB a mesh may
    # decompress to: refused from the sizes the ZIP file declares, before trimesh reads it
    # (it read it whole, then pycollada made a copy: 3.2 GB for a 1.5 GB comment).
    bomb = zipped(tmp_path / 'bomb.zae', {'bomb.dae': cube_dae(comment_mib=80)})
    assert meshes.MESH_BYTES_LIMIT == 64 * MIB
    for read in readers(tmp_path):
        tracemalloc.start()
        try:
            with pytest.raises(ValueError, match=r'bomb\.zae: decompresses to more than 64 MiB '
                               r'\(83,\d{3},\d{3} bytes or more\), the most a mesh may '
                               'decompress to; not read'):
                read(bomb)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 4 * MIB, f'{peak / MIB:.1f} MiB traced to refuse an 80 MiB member'


@pytest.mark.parametrize('kind', ['tar.gz', 'bz2', 'zip'])
def test_streams_are_decompressed_only_up_to_the_limit(tmp_path, monkeypatch, kind):
    # A stream's size is known only by decompressing it: it is decompressed piece by piece
    # and given up past the limit (here 2 MiB, so the test stays small); four times the
    # content costs no more memory.
    monkeypatch.setattr(meshes, 'MESH_BYTES_LIMIT', 2 * MIB)

    def peak_of_refusal(mib):
        dae = cube_dae(comment_mib=mib)
        path = {'tar.gz': lambda: tarred(tmp_path / f'{mib}.tar.gz', {'cube.dae': dae}),
                'bz2': lambda: bzipped(tmp_path / f'{mib}.dae.bz2', dae),
                'zip': lambda: zipped(tmp_path / f'{mib}.zip', {'cube.dae': dae})}[kind]()
        tracemalloc.start()
        try:
            with pytest.raises(ValueError, match=f'{mib}.*: decompresses to more than 2 MiB'):
                meshes.load_triangles(path)
            return tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()

    small, large = peak_of_refusal(4), peak_of_refusal(16)
    assert large < 1.5 * small + MIB, (small, large)
    assert large < 4 * MIB, large


@pytest.mark.parametrize('kind', ['zae', 'zip', 'tar.gz', 'bz2'])
def test_a_doctype_inside_an_archive_is_refused_before_pycollada(tmp_path, kind):
    laughs = cube_dae(doctype=LAUGHS).replace(b'<asset>', b'<asset><title>&g;</title>', 1)
    path = {'zae': lambda: zipped(tmp_path / 'laughs.zae', {'laughs.dae': laughs}),
            'zip': lambda: zipped(tmp_path / 'laughs.zip', {'a/laughs.dae': laughs}),
            'tar.gz': lambda: tarred(tmp_path / 'laughs.tar.gz', {'laughs.dae': laughs}),
            'bz2': lambda: bzipped(tmp_path / 'laughs.dae.bz2', laughs)}[kind]()
    for read in readers(tmp_path):
        with pytest.raises(ValueError, match=r"laughs\.[a-z.2]+: '[a/]*laughs\.dae': a mesh "
                                             'with a DOCTYPE is not read'):
            read(path)


def test_an_archive_inside_an_archive_and_a_broken_archive_are_refused(tmp_path):
    # The inner archive's declared sizes are not the outer one's: it is not opened at all.
    inner = io.BytesIO()
    zipped(inner, {'cube.dae': cube_dae()})
    outer = zipped(tmp_path / 'outer.zip', {'inner.zae': inner.getvalue()})
    (tmp_path / 'broken.zae').write_bytes(b'PK\x03\x04 not a zip file')
    for read in readers(tmp_path):
        with pytest.raises(ValueError, match=r"outer\.zip: 'inner\.zae': an archive inside an "
                                             'archive is not read'):
            read(outer)
        with pytest.raises(ValueError, match=r'broken\.zae: not a readable zae archive'):
            read(str(tmp_path / 'broken.zae'))


def test_auto_inertials_and_view_name_the_refused_mesh_at_its_line(tmp_path, capsys,
                                                                   monkeypatch):
    monkeypatch.setattr(meshes, 'MESH_BYTES_LIMIT', 2 * MIB)
    zipped(tmp_path / 'bomb.zae', {'bomb.dae': cube_dae(comment_mib=4)})
    (tmp_path / 'robot.urdf').write_text(
        '<robot name="r">\n  <link name="base">\n'
        '    <visual><geometry><mesh filename="bomb.zae"/></geometry></visual>\n'
        '    <collision><geometry><mesh filename="bomb.zae"/></geometry></collision>\n'
        '  </link>\n</robot>\n')
    urdf = str(tmp_path / 'robot.urdf')
    refused = r'bomb\.zae: decompresses to more than 2 MiB'
    assert cli.urdf2sdf_main(['--auto-inertials', '1000', urdf, '-o',
                              str(tmp_path / 'robot.sdf')]) == 0
    err = capsys.readouterr().err
    assert 'Traceback' not in err
    assert re.search(rf"robot\.urdf:2: warning: link 'base': .*mass properties cannot be "
                     f'computed .*{refused}', err), err
    pytest.importorskip('matplotlib', reason="pip install 'sdf_tools[view]'")
    assert cli.main(['view', urdf, '-o', str(tmp_path / 'robot.png')]) == 0
    err = capsys.readouterr().err
    assert 'Traceback' not in err
    assert re.search(rf"robot\.urdf:3: warning: link 'base': bomb\.zae: .*{refused}.*; "
                     'not drawn', err), err


TETRAHEDRON_OBJ = ('mtllib {mtl}\nv 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\nusemtl skin\n'
                   'f 1 3 2\nf 1 2 4\nf 1 4 3\nf 2 3 4\n')


@pytest.mark.parametrize('mtl, served', [('m.mtl', True), ('../secret/m.mtl', False),
                                         ('/dev/zero', False), ('.hidden.mtl', False)])
def test_a_mesh_reads_only_files_inside_its_folder_and_says_which(tmp_path, mtl, served):
    """
    The files a mesh names are read from its folder only, regular and not hidden.

    trimesh's own resolver reads any path an OBJ names (``mtllib /dev/zero`` never ends);
    those served are returned as inputs of the run.
    """
    folder = tmp_path / 'meshes'
    (tmp_path / 'secret').mkdir()
    folder.mkdir()
    for where in (folder / 'm.mtl', tmp_path / 'secret' / 'm.mtl', folder / '.hidden.mtl'):
        where.write_text('newmtl skin\nKd 1 0 0\n')
    mesh = folder / 'tetra.obj'
    mesh.write_text(TETRAHEDRON_OBJ.format(mtl=mtl))
    solid = meshes.load_solid(str(mesh))
    assert solid.closed and len(solid.faces) == 4
    assert solid.files == ((str(folder / 'm.mtl'),) if served else ())


def test_auto_inertials_never_writes_over_a_file_a_mesh_named(tmp_path, capsys):
    folder = tmp_path / 'meshes'
    folder.mkdir()
    (folder / 'm.mtl').write_text('newmtl skin\nKd 1 0 0\n')
    (folder / 'tetra.obj').write_text(TETRAHEDRON_OBJ.format(mtl='m.mtl'))
    robot = tmp_path / 'r.urdf'
    robot.write_text('<robot name="r"><link name="a"><collision><geometry>'
                     '<mesh filename="meshes/tetra.obj"/></geometry></collision></link></robot>')
    code = cli.urdf2sdf_main([str(robot), '--auto-inertials', '1000',
                              '-o', str(folder / 'm.mtl')])
    assert code == 2 and 'm.mtl' in capsys.readouterr().err
    assert (folder / 'm.mtl').read_text() == 'newmtl skin\nKd 1 0 0\n'
