"""A burst of processes started at once, for test/ros-live-shutdown.test.ts: a Ctrl-C sent while launch starts
them lands inside launch's own tasks (asyncio starting a process), where a KeyboardInterrupt ends the task and
launch waits for it for ever. body_bridge's launch files call body_bridge_tools.leave_ctrl_c_to_launch(), as this
one does; with BB_LEAVE_CTRL_C=0 it does not, for the comparison. BB_BURST: how many processes (default 150).
"""

import os
import sys

from ament_index_python.packages import get_package_share_directory
from launch import LaunchDescription
from launch.actions import ExecuteProcess, TimerAction

sys.path.insert(0, os.path.join(get_package_share_directory('body_bridge'), 'launch'))
import body_bridge_tools as tools  # noqa: E402


def generate_launch_description():
    if os.environ.get('BB_LEAVE_CTRL_C', '1') == '1':
        tools.leave_ctrl_c_to_launch()
    burst = int(os.environ.get('BB_BURST', '150'))
    return LaunchDescription([TimerAction(period=1.0, actions=[ExecuteProcess(cmd=['sleep', '60'], name='burst') for _ in range(burst)])])
