#!/usr/bin/env python3
"""MoveIt 2's move_group among a project's obstacles (test/ros-live-world.test.ts): asks a running move_group what
its planning scene holds, whether states are valid, and for a plan between two joint states; prints what it
answered. It decides nothing: the test holds the answers against the scene and FCL.

Reads one JSON request on stdin, prints one JSON result on stdout (logs go to stderr):
  {"timeout": 120, "scene_timeout": 120, "planning_time": 10.0, "group": GROUP,
   "present": [ID...], "absent": [ID...],           wait until the scene's world holds these and not those
   "start": {JOINT: VALUE}, "goal": {JOINT: VALUE},
   "straight_steps": N}                             states checked along the straight joint-space line
Result:
  {"objects": [{"id", "frame", "pose": [x y z qx qy qz qw], "primitives": [[TYPE, DIMS...]], "meshes": N}],
   "waited": SECONDS, "start_valid", "goal_valid",
   "straight": [{"i", "valid", "contacts": [[A, B]...]}],
   "plan": {"error_code", "planning_time", "joint_names", "points": [{"t", "p"}]}}

Services and action: /get_planning_scene, /check_state_validity, /move_action (plan_only).
"""

import json
import sys
import time

import rclpy
from moveit_msgs.action import MoveGroup
from moveit_msgs.msg import Constraints, JointConstraint, PlanningSceneComponents, RobotState
from moveit_msgs.srv import GetPlanningScene, GetStateValidity
from rclpy.action import ActionClient
from sensor_msgs.msg import JointState

JOINT_TOLERANCE = 1e-3


def log(*args):
    print('moveit_scene_probe:', *args, file=sys.stderr, flush=True)


class Probe:
    def __init__(self, node, timeout):
        self.node = node
        self.timeout = timeout
        self.scene = node.create_client(GetPlanningScene, '/get_planning_scene')
        self.validity = node.create_client(GetStateValidity, '/check_state_validity')
        self.move = ActionClient(node, MoveGroup, '/move_action')
        for client, name in ((self.scene, '/get_planning_scene'), (self.validity, '/check_state_validity')):
            if not client.wait_for_service(timeout_sec=timeout):
                raise RuntimeError('move_group: no %s within %.0f s' % (name, timeout))
        if not self.move.wait_for_server(timeout_sec=timeout):
            raise RuntimeError('move_group: no /move_action within %.0f s' % timeout)

    def wait(self, future, what):
        rclpy.spin_until_future_complete(self.node, future, timeout_sec=self.timeout)
        if not future.done():
            raise RuntimeError('%s: no answer in %.0f s' % (what, self.timeout))
        return future.result()

    def objects(self):
        req = GetPlanningScene.Request()
        req.components.components = PlanningSceneComponents.WORLD_OBJECT_GEOMETRY | PlanningSceneComponents.WORLD_OBJECT_NAMES
        res = self.wait(self.scene.call_async(req), 'get_planning_scene')
        out = []
        for o in res.scene.world.collision_objects:
            p, q = o.pose.position, o.pose.orientation
            out.append({'id': o.id, 'frame': o.header.frame_id, 'pose': [p.x, p.y, p.z, q.x, q.y, q.z, q.w],
                        'primitives': [[s.type] + list(s.dimensions) for s in o.primitives], 'meshes': len(o.meshes)})
        return out

    @staticmethod
    def state(joints):
        s = RobotState()
        s.is_diff = True
        s.joint_state = JointState(name=list(joints.keys()), position=[float(v) for v in joints.values()])
        return s

    def check(self, joints):
        req = GetStateValidity.Request()
        req.robot_state = self.state(joints)
        res = self.wait(self.validity.call_async(req), 'check_state_validity')
        pairs = sorted({tuple(sorted((c.contact_body_1, c.contact_body_2))) for c in res.contacts})
        return {'valid': bool(res.valid), 'contacts': [list(p) for p in pairs]}

    def plan(self, group, start, goal, planning_time):
        g = MoveGroup.Goal()
        r = g.request
        r.group_name = group
        c = Constraints()
        for name, value in goal.items():
            c.joint_constraints.append(JointConstraint(joint_name=name, position=float(value), tolerance_above=JOINT_TOLERANCE,
                                                       tolerance_below=JOINT_TOLERANCE, weight=1.0))
        r.goal_constraints = [c]
        # From the given state, whatever the current one is.
        r.start_state = self.state(start)
        r.num_planning_attempts = 1
        r.allowed_planning_time = float(planning_time)
        r.pipeline_id = 'ompl'
        r.planner_id = 'RRTConnectkConfigDefault'
        r.workspace_parameters.min_corner.x = r.workspace_parameters.min_corner.y = r.workspace_parameters.min_corner.z = -5.0
        r.workspace_parameters.max_corner.x = r.workspace_parameters.max_corner.y = r.workspace_parameters.max_corner.z = 5.0
        r.max_velocity_scaling_factor = 1.0
        r.max_acceleration_scaling_factor = 1.0
        g.planning_options.plan_only = True
        handle = self.wait(self.move.send_goal_async(g), 'move_action goal')
        if not handle.accepted:
            raise RuntimeError('move_action refused the goal for %s' % group)
        res = self.wait(handle.get_result_async(), 'move_action result').result
        jt = res.planned_trajectory.joint_trajectory
        return {'error_code': res.error_code.val, 'planning_time': res.planning_time, 'joint_names': list(jt.joint_names),
                'points': [{'t': p.time_from_start.sec + p.time_from_start.nanosec * 1e-9, 'p': list(p.positions)} for p in jt.points]}


def run(probe, request):
    present, absent = set(request.get('present', [])), set(request.get('absent', []))
    started = time.monotonic()
    deadline = started + request.get('scene_timeout', 120)
    while True:
        objects = probe.objects()
        ids = {o['id'] for o in objects}
        if present <= ids and not (absent & ids):
            break
        if time.monotonic() > deadline:
            raise RuntimeError('move_group\'s planning scene holds %s after %.0f s, waiting for %s present and %s absent'
                               % (sorted(ids), request.get('scene_timeout', 120), sorted(present), sorted(absent)))
        time.sleep(0.5)
    out = {'objects': objects, 'waited': time.monotonic() - started}
    start, goal = request['start'], request['goal']
    out['start_valid'] = probe.check(start)
    out['goal_valid'] = probe.check(goal)
    n = request.get('straight_steps', 50)
    straight = []
    for i in range(n + 1):
        q = {j: start[j] + (goal[j] - start[j]) * i / n for j in start}
        straight.append(dict(i=i, **probe.check(q)))
    out['straight'] = straight
    out['plan'] = probe.plan(request['group'], start, goal, request.get('planning_time', 10.0))
    log('plan: error code', out['plan']['error_code'], 'points', len(out['plan']['points']))
    return out


def main():
    request = json.load(sys.stdin)
    rclpy.init()
    node = rclpy.create_node('body_bridge_moveit_scene_probe')
    try:
        result = run(Probe(node, request.get('timeout', 120)), request)
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    json.dump(result, sys.stdout)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
