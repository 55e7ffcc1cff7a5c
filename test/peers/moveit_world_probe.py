#!/usr/bin/env python3
"""MoveIt 2's move_group for a robot on a mobile base (test/ros-live-mobile.test.ts): asks a running move_group, step
by step, what a MoveIt user of a mobile manipulator asks — where it thinks the base is, what its planning scene holds,
where the tip would be, and to plan and execute joint and pose goals given in its planning frame (`world`) — and
prints what it answered. It decides nothing: the test holds the answers against Choreonoid and FCL.

Reads one JSON request on stdin, prints one JSON result on stdout (logs go to stderr):
  {"timeout": 120, "planning_time": 10.0, "group": GROUP, "tip": LINK, "scaling": 0.5 (velocity and acceleration),
   "steps": [{"kind": "scene"},                                 the world's objects, the matrix's pairs naming one,
                                                                the virtual joint's transform as MoveIt holds it
             {"kind": "fk", "joints": {JOINT: VALUE}},          the tip's pose at those joints (the base where it is)
             {"kind": "valid", "joints": {JOINT: VALUE}},       the state's validity, with its contacts
             {"kind": "joint", "goal": {JOINT: VALUE}, "execute": BOOL, "replan": N},
             {"kind": "pose", "goal": {"frame", "position": [x, y, z], "orientation": [x, y, z, w]},
              "execute": BOOL, "replan": N}]}
  "replan" (optional): up to N planning attempts, as MoveGroupInterface's allowReplanning asks (rviz's "Replanning"):
  move_group plans again when a plan it found fails its own check of the timed path (INVALID_MOTION_PLAN).
Result: {"steps": [...]} one answer per step:
  scene: {"robot", "objects": [{"id", "frame", "pose": [x y z qx qy qz qw]}], "allowed": [[A, B]...],
          "virtual": {"joint", "parent", "translation": [x, y, z], "rotation": [x, y, z, w]}}
  fk:    {"frame", "pose": [x y z qx qy qz qw]}
  valid: {"valid", "contacts": [[A, B]...]}
  joint, pose: {"error_code", "planning_time", "joint_names", "points": [{"t", "p"}], "sent", "done"}  (wall times)

Services and action: /get_planning_scene, /compute_fk, /check_state_validity, /move_action.
"""

import json
import sys
import time

import rclpy
from geometry_msgs.msg import Pose
from moveit_msgs.action import MoveGroup
from moveit_msgs.msg import (BoundingVolume, Constraints, JointConstraint, OrientationConstraint, PlanningSceneComponents,
                             PositionConstraint, RobotState)
from moveit_msgs.srv import GetPlanningScene, GetPositionFK, GetStateValidity
from rclpy.action import ActionClient
from sensor_msgs.msg import JointState
from shape_msgs.msg import SolidPrimitive

JOINT_TOLERANCE = 1e-3
# The pose goal: the tip's origin within this radius (m), its orientation within this angle about each axis (rad).
POSITION_TOLERANCE = 1e-3
ORIENTATION_TOLERANCE = 1e-2


def log(*args):
    print('moveit_world_probe:', *args, file=sys.stderr, flush=True)


def pose_list(p):
    return [p.position.x, p.position.y, p.position.z, p.orientation.x, p.orientation.y, p.orientation.z, p.orientation.w]


class Probe:
    def __init__(self, node, timeout):
        self.node = node
        self.timeout = timeout
        self.scene_client = node.create_client(GetPlanningScene, '/get_planning_scene')
        self.fk_client = node.create_client(GetPositionFK, '/compute_fk')
        self.validity = node.create_client(GetStateValidity, '/check_state_validity')
        self.move = ActionClient(node, MoveGroup, '/move_action')
        for client, name in ((self.scene_client, '/get_planning_scene'), (self.fk_client, '/compute_fk'), (self.validity, '/check_state_validity')):
            if not client.wait_for_service(timeout_sec=timeout):
                raise RuntimeError('move_group: no %s within %.0f s' % (name, timeout))
        if not self.move.wait_for_server(timeout_sec=timeout):
            raise RuntimeError('move_group: no /move_action within %.0f s' % timeout)

    def wait(self, future, what):
        rclpy.spin_until_future_complete(self.node, future, timeout_sec=self.timeout)
        if not future.done():
            raise RuntimeError('%s: no answer in %.0f s' % (what, self.timeout))
        return future.result()

    @staticmethod
    def state(joints):
        s = RobotState()
        s.is_diff = True
        s.joint_state = JointState(name=list(joints.keys()), position=[float(v) for v in joints.values()])
        return s

    def scene(self):
        req = GetPlanningScene.Request()
        req.components.components = (PlanningSceneComponents.WORLD_OBJECT_GEOMETRY | PlanningSceneComponents.WORLD_OBJECT_NAMES
                                     | PlanningSceneComponents.ROBOT_STATE | PlanningSceneComponents.ALLOWED_COLLISION_MATRIX)
        res = self.wait(self.scene_client.call_async(req), 'get_planning_scene').scene
        ids = [o.id for o in res.world.collision_objects]
        acm = res.allowed_collision_matrix
        allowed = []
        for i, a in enumerate(acm.entry_names):
            for j, b in enumerate(acm.entry_names):
                if i < j and (a in ids or b in ids) and acm.entry_values[i].enabled[j]:
                    allowed.append(sorted([a, b]))
        multi = res.robot_state.multi_dof_joint_state
        virtual = None
        if multi.joint_names:
            t = multi.transforms[0]
            virtual = {'joint': multi.joint_names[0], 'parent': multi.header.frame_id,
                       'translation': [t.translation.x, t.translation.y, t.translation.z],
                       'rotation': [t.rotation.x, t.rotation.y, t.rotation.z, t.rotation.w]}
        objects = [{'id': o.id, 'frame': o.header.frame_id, 'pose': pose_list(o.pose)} for o in res.world.collision_objects]
        return {'robot': res.robot_model_name, 'objects': objects,
                'allowed': sorted(allowed), 'virtual': virtual}

    def fk(self, joints, tip):
        req = GetPositionFK.Request()
        req.fk_link_names = [tip]
        req.robot_state = self.state(joints)
        res = self.wait(self.fk_client.call_async(req), 'compute_fk')
        if res.error_code.val != 1 or not res.pose_stamped:
            raise RuntimeError('compute_fk: error code %d' % res.error_code.val)
        return {'frame': res.pose_stamped[0].header.frame_id, 'pose': pose_list(res.pose_stamped[0].pose)}

    def valid(self, joints):
        req = GetStateValidity.Request()
        req.robot_state = self.state(joints)
        res = self.wait(self.validity.call_async(req), 'check_state_validity')
        pairs = sorted({tuple(sorted((c.contact_body_1, c.contact_body_2))) for c in res.contacts})
        return {'valid': bool(res.valid), 'contacts': [list(p) for p in pairs]}

    def run_goal(self, group, constraints, execute, planning_time, scaling, replan=0):
        g = MoveGroup.Goal()
        r = g.request
        r.group_name = group
        r.goal_constraints = [constraints]
        # From where the robot is: the base wherever it drove, the arm as it stands.
        r.start_state.is_diff = True
        r.num_planning_attempts = 1
        r.allowed_planning_time = float(planning_time)
        r.pipeline_id = 'ompl'
        r.planner_id = 'RRTConnectkConfigDefault'
        r.workspace_parameters.header.frame_id = ''
        for corner, v in ((r.workspace_parameters.min_corner, -20.0), (r.workspace_parameters.max_corner, 20.0)):
            corner.x = corner.y = corner.z = v
        r.max_velocity_scaling_factor = float(scaling)
        r.max_acceleration_scaling_factor = float(scaling)
        g.planning_options.plan_only = not execute
        if replan:
            g.planning_options.replan = True
            g.planning_options.replan_attempts = int(replan)
        # A diff that changes nothing: a non-diff (full) state here is one move_group would ignore, and says so.
        g.planning_options.planning_scene_diff.is_diff = True
        g.planning_options.planning_scene_diff.robot_state.is_diff = True
        sent = time.time()
        handle = self.wait(self.move.send_goal_async(g), 'move_action goal')
        if not handle.accepted:
            raise RuntimeError('move_action refused the goal for %s' % group)
        res = self.wait(handle.get_result_async(), 'move_action result').result
        done = time.time()
        jt = res.planned_trajectory.joint_trajectory
        return {'error_code': res.error_code.val, 'planning_time': res.planning_time, 'joint_names': list(jt.joint_names),
                'points': [{'t': p.time_from_start.sec + p.time_from_start.nanosec * 1e-9, 'p': list(p.positions)} for p in jt.points],
                'sent': sent, 'done': done}

    def joint_goal(self, group, goal, execute, planning_time, scaling, replan=0):
        c = Constraints()
        for name, value in goal.items():
            c.joint_constraints.append(JointConstraint(joint_name=name, position=float(value), tolerance_above=JOINT_TOLERANCE,
                                                       tolerance_below=JOINT_TOLERANCE, weight=1.0))
        return self.run_goal(group, c, execute, planning_time, scaling, replan)

    def pose_goal(self, group, tip, goal, execute, planning_time, scaling, replan=0):
        c = Constraints()
        pc = PositionConstraint()
        pc.header.frame_id = goal['frame']
        pc.link_name = tip
        sphere = SolidPrimitive(type=SolidPrimitive.SPHERE, dimensions=[POSITION_TOLERANCE])
        centre = Pose()
        centre.position.x, centre.position.y, centre.position.z = (float(v) for v in goal['position'])
        centre.orientation.w = 1.0
        pc.constraint_region = BoundingVolume(primitives=[sphere], primitive_poses=[centre])
        pc.weight = 1.0
        oc = OrientationConstraint()
        oc.header.frame_id = goal['frame']
        oc.link_name = tip
        q = goal['orientation']
        oc.orientation.x, oc.orientation.y, oc.orientation.z, oc.orientation.w = (float(v) for v in q)
        oc.absolute_x_axis_tolerance = oc.absolute_y_axis_tolerance = oc.absolute_z_axis_tolerance = ORIENTATION_TOLERANCE
        oc.weight = 1.0
        c.position_constraints = [pc]
        c.orientation_constraints = [oc]
        return self.run_goal(group, c, execute, planning_time, scaling, replan)


def run(probe, request):
    out = []
    group, tip, planning_time = request['group'], request['tip'], request.get('planning_time', 10.0)
    scaling = request.get('scaling', 0.5)
    for step in request['steps']:
        kind = step['kind']
        log('step', kind)
        if kind == 'scene':
            out.append(probe.scene())
        elif kind == 'fk':
            out.append(probe.fk(step['joints'], tip))
        elif kind == 'valid':
            out.append(probe.valid(step['joints']))
        elif kind == 'joint':
            out.append(probe.joint_goal(group, step['goal'], step.get('execute', False), planning_time, scaling, step.get('replan', 0)))
        elif kind == 'pose':
            out.append(probe.pose_goal(group, tip, step['goal'], step.get('execute', False), planning_time, scaling, step.get('replan', 0)))
        else:
            raise RuntimeError('unknown step %s' % kind)
        if kind in ('joint', 'pose'):
            log(kind, 'error code', out[-1]['error_code'], 'points', len(out[-1]['points']))
    return {'steps': out}


def main():
    request = json.load(sys.stdin)
    rclpy.init()
    node = rclpy.create_node('body_bridge_moveit_world_probe')
    try:
        result = run(Probe(node, request.get('timeout', 120)), request)
    finally:
        node.destroy_node()
        rclpy.try_shutdown()
    json.dump(result, sys.stdout)
    sys.stdout.write('\n')


if __name__ == '__main__':
    main()
