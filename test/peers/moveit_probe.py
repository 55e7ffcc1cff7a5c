#!/usr/bin/env python3
"""MoveIt 2's move_group as the peer for body_bridge's MoveIt configuration: asks a running move_group,
through its own services and action, what a MoveIt user would ask, and prints what it answered.

Reads one JSON request on stdin, prints one JSON result on stdout (logs go to stderr). It decides
nothing: test/ros-live-moveit.test.ts compares the answers with the URDF and joint_limits.yaml.

Request:
  {"seed": 1, "timeout": 120, "planning_time": 10.0,
   "home": {JOINT: VALUE}, "limits": {JOINT: [LOWER, UPPER]},
   "chains": [{"name": GROUP, "joints": [JOINT...], "tip": LINK}],
   "checks": ["interfaces", "home", "joint", "pose", "self_collision"], "collision_tries": 3000}

Result:
  {"planning_frame": FRAME, "interfaces": [{"name", "pipeline_id", "planner_ids"}],
   "home": {"current": VALIDITY, "srdf": VALIDITY},                     VALIDITY = {"valid", "contacts": [[A, B]...]}
   "plans": [{"group", "kind": "joint"|"pose", "goal", "error_code", "planning_time", "joint_names",
              "points": [{"t", "p", "v", "a"}], "end": {"joint_error"} | {"position_error", "angle_error"}}],
   "self_collision": {"group", "tries", "state", "contacts", "error_code", "planning_time"} | {"group": null, "tries"}}

Services and action used: /query_planner_interface, /check_state_validity, /compute_fk, /move_action (plan_only).
"""

import json
import math
import random
import sys
import time

import rclpy
from geometry_msgs.msg import Pose
from moveit_msgs.action import MoveGroup
from moveit_msgs.msg import (BoundingVolume, Constraints, JointConstraint, MoveItErrorCodes, OrientationConstraint,
                             PositionConstraint, RobotState)
from moveit_msgs.srv import GetPositionFK, GetStateValidity, QueryPlannerInterfaces
from rclpy.action import ActionClient
from sensor_msgs.msg import JointState
from shape_msgs.msg import SolidPrimitive

JOINT_TOLERANCE = 1e-3
POSITION_TOLERANCE = 1e-3  # m: radius of the goal sphere
ANGLE_TOLERANCE = 1e-2  # rad: per axis


def log(*args):
    print('moveit_probe:', *args, file=sys.stderr, flush=True)


class Probe:
    def __init__(self, node, timeout):
        self.node = node
        self.timeout = timeout
        self.validity = node.create_client(GetStateValidity, '/check_state_validity')
        self.fk = node.create_client(GetPositionFK, '/compute_fk')
        self.planners = node.create_client(QueryPlannerInterfaces, '/query_planner_interface')
        self.move = ActionClient(node, MoveGroup, '/move_action')
        deadline = time.monotonic() + timeout
        for client in (self.validity, self.fk, self.planners):
            while not client.wait_for_service(timeout_sec=1.0):
                if time.monotonic() > deadline:
                    raise RuntimeError('service %s did not come up in %.0f s' % (client.srv_name, timeout))
        if not self.move.wait_for_server(timeout_sec=max(1.0, deadline - time.monotonic())):
            raise RuntimeError('action /move_action did not come up in %.0f s' % timeout)

    def wait(self, future, what):
        rclpy.spin_until_future_complete(self.node, future, timeout_sec=self.timeout)
        if not future.done():
            raise RuntimeError('%s: no answer in %.0f s' % (what, self.timeout))
        return future.result()

    def call(self, client, request, what):
        return self.wait(client.call_async(request), what)

    @staticmethod
    def state(joints):
        """A diff on move_group's current state: only the given joints change."""
        s = RobotState()
        s.is_diff = True
        s.joint_state = JointState(name=list(joints.keys()), position=[float(v) for v in joints.values()])
        return s

    def check(self, joints):
        req = GetStateValidity.Request()
        req.robot_state = self.state(joints)
        res = self.call(self.validity, req, 'check_state_validity')
        pairs = sorted({tuple(sorted((c.contact_body_1, c.contact_body_2))) for c in res.contacts})
        return {'valid': bool(res.valid), 'contacts': [list(p) for p in pairs]}

    def pose_of(self, joints, link):
        req = GetPositionFK.Request()
        req.fk_link_names = [link]
        req.robot_state = self.state(joints)
        res = self.call(self.fk, req, 'compute_fk')
        if res.error_code.val != MoveItErrorCodes.SUCCESS or not res.pose_stamped:
            raise RuntimeError('compute_fk of %s failed: error code %d' % (link, res.error_code.val))
        return res.pose_stamped[0]

    def interfaces(self):
        res = self.call(self.planners, QueryPlannerInterfaces.Request(), 'query_planner_interface')
        return [{'name': p.name, 'pipeline_id': p.pipeline_id, 'planner_ids': list(p.planner_ids)}
                for p in res.planner_interfaces]

    def plan(self, group, goal, planning_time):
        g = MoveGroup.Goal()
        r = g.request
        r.group_name = group
        r.goal_constraints = [goal]
        r.start_state.is_diff = True  # move_group's current state: the node's joint_states and /tf_static
        r.num_planning_attempts = 1
        r.allowed_planning_time = float(planning_time)
        # Full speed: the trajectory must then meet the limits themselves (0 would also mean 1.0 here).
        r.max_velocity_scaling_factor = 1.0
        r.max_acceleration_scaling_factor = 1.0
        g.planning_options.plan_only = True
        handle = self.wait(self.move.send_goal_async(g), 'move_action goal')
        if not handle.accepted:
            raise RuntimeError('move_action refused the goal for %s' % group)
        res = self.wait(handle.get_result_async(), 'move_action result').result
        jt = res.planned_trajectory.joint_trajectory
        points = [{'t': p.time_from_start.sec + p.time_from_start.nanosec * 1e-9,
                   'p': list(p.positions), 'v': list(p.velocities), 'a': list(p.accelerations)} for p in jt.points]
        return {'error_code': res.error_code.val, 'planning_time': res.planning_time,
                'joint_names': list(jt.joint_names), 'points': points}


def joint_goal(joints):
    c = Constraints()
    for name, value in joints.items():
        c.joint_constraints.append(JointConstraint(joint_name=name, position=float(value), tolerance_above=JOINT_TOLERANCE,
                                                   tolerance_below=JOINT_TOLERANCE, weight=1.0))
    return c


def pose_goal(link, pose_stamped):
    """The tip within 1 mm and 0.01 rad of the pose: MoveIt samples goal states by IK (the group's KDL solver)."""
    c = Constraints()
    region = BoundingVolume()
    region.primitives = [SolidPrimitive(type=SolidPrimitive.SPHERE, dimensions=[POSITION_TOLERANCE])]
    centre = Pose()
    centre.position = pose_stamped.pose.position
    centre.orientation.w = 1.0
    region.primitive_poses = [centre]
    c.position_constraints = [PositionConstraint(header=pose_stamped.header, link_name=link, constraint_region=region, weight=1.0)]
    c.orientation_constraints = [OrientationConstraint(
        header=pose_stamped.header, link_name=link, orientation=pose_stamped.pose.orientation,
        absolute_x_axis_tolerance=ANGLE_TOLERANCE, absolute_y_axis_tolerance=ANGLE_TOLERANCE,
        absolute_z_axis_tolerance=ANGLE_TOLERANCE, weight=1.0)]
    return c


def quaternion_angle(a, b):
    dot = abs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w)
    return 2.0 * math.acos(min(1.0, dot))


def random_state(rng, joints, limits):
    out = {}
    for j in joints:
        lo, hi = limits[j]
        out[j] = rng.uniform(lo, hi)
    return out


def valid_random_state(probe, rng, joints, limits, tries=500):
    for _ in range(tries):
        q = random_state(rng, joints, limits)
        if probe.check(q)['valid']:
            return q
    raise RuntimeError('no collision-free random state of %s in %d tries' % (joints, tries))


def final_point(plan):
    last = plan['points'][-1]
    return dict(zip(plan['joint_names'], last['p']))


def run(probe, request):
    rng = random.Random(request.get('seed', 1))
    limits = {j: tuple(v) for j, v in request['limits'].items()}
    planning_time = request.get('planning_time', 10.0)
    checks = set(request['checks'])
    out = {}
    if 'interfaces' in checks:
        out['interfaces'] = probe.interfaces()
    if 'home' in checks:
        out['home'] = {'current': probe.check({}), 'srdf': probe.check(request['home'])}
    plans = []
    for chain in request['chains']:
        group, joints, tip = chain['name'], chain['joints'], chain['tip']
        if 'joint' in checks:
            goal = valid_random_state(probe, rng, joints, limits)
            started = time.monotonic()
            plan = probe.plan(group, joint_goal(goal), planning_time)
            plan.update(group=group, kind='joint', goal=goal, seconds=time.monotonic() - started)
            if plan['points']:
                end = final_point(plan)
                plan['end'] = {'joint_error': max(abs(end[j] - goal[j]) for j in joints)}
            plans.append(plan)
            log(group, 'joint goal: error code', plan['error_code'], 'planning time %.3f s' % plan['planning_time'])
        if 'pose' in checks:
            q = valid_random_state(probe, rng, joints, limits)
            target = probe.pose_of(q, tip)
            out['planning_frame'] = target.header.frame_id
            started = time.monotonic()
            plan = probe.plan(group, pose_goal(tip, target), planning_time)
            p, o = target.pose.position, target.pose.orientation
            plan.update(group=group, kind='pose', seconds=time.monotonic() - started,
                        goal={'link': tip, 'frame': target.header.frame_id, 'position': [p.x, p.y, p.z],
                              'orientation': [o.x, o.y, o.z, o.w], 'from': q})
            if plan['points']:
                reached = probe.pose_of(final_point(plan), tip)
                rp = reached.pose.position
                plan['end'] = {'position_error': math.dist([rp.x, rp.y, rp.z], [p.x, p.y, p.z]),
                               'angle_error': quaternion_angle(reached.pose.orientation, o)}
            plans.append(plan)
            log(group, 'pose goal: error code', plan['error_code'], 'planning time %.3f s' % plan['planning_time'])
    if plans:
        out['plans'] = plans
    if 'self_collision' in checks:
        budget = request.get('collision_tries', 3000)
        tries = 0
        found = None
        for chain in request['chains']:
            for _ in range(budget):
                tries += 1
                q = random_state(rng, chain['joints'], limits)
                verdict = probe.check(q)
                if not verdict['valid']:
                    found = {'group': chain['name'], 'state': q, 'contacts': verdict['contacts']}
                    break
            if found:
                break
        if found is None:
            out['self_collision'] = {'group': None, 'tries': tries}
        else:
            plan = probe.plan(found['group'], joint_goal(found['state']), min(planning_time, 5.0))
            found.update(tries=tries, error_code=plan['error_code'], planning_time=plan['planning_time'],
                         points=len(plan['points']))
            out['self_collision'] = found
            log(found['group'], 'goal in collision', found['contacts'], 'error code', plan['error_code'])
    return out


def main():
    request = json.load(sys.stdin)
    rclpy.init()
    node = rclpy.create_node('body_bridge_moveit_probe')
    try:
        probe = Probe(node, request.get('timeout', 120))
        result = run(probe, request)
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    json.dump(result, sys.stdout)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
