#!/usr/bin/env python3
"""MoveIt 2's move_group as the peer for body_bridge's MoveIt configuration: asks a running move_group,
through its own services and action, what a MoveIt user would ask, and prints what it answered.

Reads one JSON request on stdin, prints one JSON result on stdout (logs go to stderr). It decides
nothing: test/ros-live-moveit.test.ts compares the answers with the URDF and joint_limits.yaml.

Request:
  {"seed": 1, "timeout": 120, "planning_time": 10.0,
   "home": {JOINT: VALUE}, "limits": {JOINT: [LOWER, UPPER]},
   "chains": [{"name": GROUP, "joints": [JOINT...], "tip": LINK}],
   "ranges": {JOINT: {"planning": [LOWER, UPPER], "model": [LOWER, UPPER]}},
   "checks": ["interfaces", "home", "joint", "pose", "self_collision", "beyond_range", "start_past_limits", "execute", "world"],
   "collision_tries": 3000, "start_past": [M...], "bounded": [JOINT...],
   "executions": {"joint": 5, "pose": 3}, "settle": 1.5}

Result:
  {"planning_frame": FRAME, "interfaces": [{"name", "pipeline_id", "planner_ids"}],
   "home": {"current": VALIDITY, "srdf": VALIDITY},                     VALIDITY = {"valid", "contacts": [[A, B]...]}
   "plans": [{"group", "kind": "joint"|"pose"|"position"|"orientation", "goal", "error_code", "planning_time",
              "joint_names", "points": [{"t", "p", "v", "a"}], "end": {"joint_error"} | {"position_error", "angle_error"}}],
   "self_collision": {"group", "tries", "state", "contacts", "error_code", "planning_time"} | {"group": null, "tries"},
   "beyond_range": [{"joint", "group", "goal", "valid", "error_code", "planning_time", "points"}],
   "start_past_limits": {"group", "joint", "bound", "goal", "starts": [{"past", "start", "error_code", "first", "points"}]},
   "executions": [{"group", "kind": "joint"|"pose"|"position"|"orientation", "goal", "error_code", "joint_names",
                   "points", "sent", "done", "settled", "goal_fk"}],
   "world": {"objects": [{"id", "frame"}], "allowed": [[A, B]...], "current": VALIDITY,
             "object_contact": {"state", "contacts", "tries"} | {"state": null, "tries"}}}

World ("world", before anything moves): the collision objects of move_group's planning scene with their header
frames, the pairs its allowed collision matrix allows that name one of them, the current state's validity, and
a random state of the first chain in contact with one of the objects (up to collision_tries).

Executions ("execute"): for every chain, executions["joint"] joint goals and executions["pose"] Cartesian goals
(for the "joint_groups", [{"name", "joints"}], groups that are no chain, joint goals only)
(chosen as above, each from where the last one left the robot), planned and executed by move_group through its
controllers (/move_action, plan_only false) at full speed; "sent", "done" and "settled" are wall times (time.time())
when the goal was sent, when its result came and "settle" seconds after that (the robot at rest, for the test to
read Choreonoid's joint angles and body_bridge's /tf there); "goal_fk" is the tip's pose at the trajectory's last
point by /compute_fk. The probe judges nothing.

Beyond a planning range. For each joint whose range joint_limits.yaml narrows ("ranges"; "limits" holds the
narrowed ranges): a collision-free state of its first chain (/check_state_validity, which does not look at
bounds) with that joint halfway between the planning range and the URDF's limit, the others random, asked
for as a joint goal. move_group warns when a goal lies beyond a joint's bounds; the test reads its log.

Start past a limit ("start_past_limits"): see start_past_limits().

Goals. A joint goal, and the state a Cartesian goal is taken from, are random collision-free states within
GOAL_REACH of the current state in every joint that it reaches along a straight line in joint space without
collision (checked every STRAIGHT_STEP rad or m with /check_state_validity): a random state alone may lie where the start cannot get to, such as a UR
elbow beyond its folded position (±π collides, ±2π is within its limits), which no planner can reach. The
Cartesian goal asks what the chain can meet (MoveIt samples it by IK with the group's solver):
- "pose", the tip's position and orientation, for a chain of six or more joints;
- "position", the tip's position only, for a shorter chain whose joints move the tip's origin (a 3-joint arm);
- "orientation", the tip's orientation only, for a shorter chain whose joints only turn the tip about its
  origin (a neck or waist whose axes meet there, a single joint): /compute_fk finds the origin in the same
  place at every one of TIP_SAMPLES random states.
The reached pose is compared with the whole target pose, whatever the goal asked.

Services and action used: query_planner_interface, check_state_validity, compute_fk, get_planning_scene,
move_action (plan_only, or executing), relative: the probe's own namespace (--ros-args -r __ns:=/robot1) is
move_group's.
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
from moveit_msgs.msg import PlanningSceneComponents
from moveit_msgs.srv import GetPlanningScene, GetPositionFK, GetStateValidity, QueryPlannerInterfaces
from rclpy.action import ActionClient
from sensor_msgs.msg import JointState
from shape_msgs.msg import SolidPrimitive

JOINT_TOLERANCE = 1e-3
GOAL_STATE_INVALID = -27  # moveit_msgs/MoveItErrorCodes
POSITION_TOLERANCE = 1e-3  # m: radius of the goal sphere
ANGLE_TOLERANCE = 1e-2  # rad: per axis
FULL_POSE_JOINTS = 6  # fewer joints cannot place a tip at an arbitrary pose
STRAIGHT_STEP = 0.02  # rad or m: largest joint change between the straight line's checked states
# rad or m: how far a goal's joints lie from where they stand at most. Over a UR10's whole ±2π ranges, random goals
# mostly folded the arm into itself, and a straight line to one took up to 600 validity checks: 16–129 s to find
# each goal (Jazzy, 30 Nov 2026, 548 s for the UR10 case); within this, the goals still turn each joint up to 86°.
GOAL_REACH = 1.5
TIP_SAMPLES = 8  # random states at which a tip that stays put must be found in the same place
TIP_STILL = 1e-9  # m


def log(*args):
    print('moveit_probe:', *args, file=sys.stderr, flush=True)


class Probe:
    def __init__(self, node, timeout):
        self.node = node
        self.timeout = timeout
        self.validity = node.create_client(GetStateValidity, 'check_state_validity')
        self.fk = node.create_client(GetPositionFK, 'compute_fk')
        self.planners = node.create_client(QueryPlannerInterfaces, 'query_planner_interface')
        self.scene = node.create_client(GetPlanningScene, 'get_planning_scene')
        self.move = ActionClient(node, MoveGroup, 'move_action')
        deadline = time.monotonic() + timeout
        for client in (self.validity, self.fk, self.planners, self.scene):
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

    def current(self, joints):
        """move_group's current positions of the given joints (its planning scene's robot state)."""
        req = GetPlanningScene.Request()
        req.components.components = PlanningSceneComponents.ROBOT_STATE
        res = self.call(self.scene, req, 'get_planning_scene')
        js = res.scene.robot_state.joint_state
        known = dict(zip(js.name, js.position))
        missing = [j for j in joints if j not in known]
        if missing:
            raise RuntimeError('move_group\'s current state lacks %s' % missing)
        return {j: known[j] for j in joints}

    def world(self):
        """The collision objects of move_group's planning scene, and the allowed pairs that name one."""
        req = GetPlanningScene.Request()
        req.components.components = (PlanningSceneComponents.WORLD_OBJECT_NAMES | PlanningSceneComponents.WORLD_OBJECT_GEOMETRY
                                     | PlanningSceneComponents.ALLOWED_COLLISION_MATRIX)
        res = self.call(self.scene, req, 'get_planning_scene')
        objects = [{'id': o.id, 'frame': o.header.frame_id} for o in res.scene.world.collision_objects]
        ids = {o['id'] for o in objects}
        acm = res.scene.allowed_collision_matrix
        allowed = sorted({tuple(sorted((a, b))) for i, a in enumerate(acm.entry_names) for j, b in enumerate(acm.entry_names)
                          if i < j and acm.entry_values[i].enabled[j] and (a in ids or b in ids)})
        return {'objects': objects, 'allowed': [list(p) for p in allowed]}

    def interfaces(self):
        res = self.call(self.planners, QueryPlannerInterfaces.Request(), 'query_planner_interface')
        return [{'name': p.name, 'pipeline_id': p.pipeline_id, 'planner_ids': list(p.planner_ids)}
                for p in res.planner_interfaces]

    def plan(self, group, goal, planning_time, execute=False, start=None):
        g = MoveGroup.Goal()
        r = g.request
        r.group_name = group
        r.goal_constraints = [goal]
        r.start_state.is_diff = True  # move_group's current state: the node's joint_states and /tf_static
        if start:  # joints that differ from it
            r.start_state.joint_state.name = list(start)
            r.start_state.joint_state.position = [float(v) for v in start.values()]
        r.num_planning_attempts = 1
        r.allowed_planning_time = float(planning_time)
        # What rviz's MotionPlanning panel sends too: a planner and a workspace (MoveIt's default, 10 m across).
        # Left out, Jazzy's MoveIt warns on every plan (ValidateWorkspaceBounds; the pipeline's planner_id check).
        r.pipeline_id = 'ompl'
        r.planner_id = 'RRTConnectkConfigDefault'
        r.workspace_parameters.min_corner.x = r.workspace_parameters.min_corner.y = r.workspace_parameters.min_corner.z = -5.0
        r.workspace_parameters.max_corner.x = r.workspace_parameters.max_corner.y = r.workspace_parameters.max_corner.z = 5.0
        # Full speed: the trajectory must then meet the limits themselves (0 would also mean 1.0 here).
        r.max_velocity_scaling_factor = 1.0
        r.max_acceleration_scaling_factor = 1.0
        g.planning_options.plan_only = not execute
        # An empty scene diff, as MoveGroupInterface sends: anything else, even an empty robot state that is no diff,
        # makes move_group warn that execution ignores it.
        g.planning_options.planning_scene_diff.is_diff = True
        g.planning_options.planning_scene_diff.robot_state.is_diff = True
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


def cartesian_goal(kind, link, pose_stamped):
    """The tip within 1 mm ("pose", "position") and 0.01 rad ("pose", "orientation") of the pose: MoveIt
    samples goal states by IK (the group's KDL solver)."""
    c = Constraints()
    if kind in ('pose', 'position'):
        region = BoundingVolume()
        region.primitives = [SolidPrimitive(type=SolidPrimitive.SPHERE, dimensions=[POSITION_TOLERANCE])]
        centre = Pose()
        centre.position = pose_stamped.pose.position
        centre.orientation.w = 1.0
        region.primitive_poses = [centre]
        c.position_constraints = [PositionConstraint(header=pose_stamped.header, link_name=link, constraint_region=region, weight=1.0)]
    if kind in ('pose', 'orientation'):
        c.orientation_constraints = [OrientationConstraint(
            header=pose_stamped.header, link_name=link, orientation=pose_stamped.pose.orientation,
            absolute_x_axis_tolerance=ANGLE_TOLERANCE, absolute_y_axis_tolerance=ANGLE_TOLERANCE,
            absolute_z_axis_tolerance=ANGLE_TOLERANCE, weight=1.0)]
    return c


def cartesian_kind(probe, rng, joints, limits, tip):
    """What a user can ask of this chain's tip: see the module's docstring."""
    if len(joints) >= FULL_POSE_JOINTS:
        return 'pose'
    origins = []
    for _ in range(TIP_SAMPLES):
        p = probe.pose_of(random_state(rng, joints, limits), tip).pose.position
        origins.append([p.x, p.y, p.z])
    still = all(math.dist(o, origins[0]) <= TIP_STILL for o in origins)
    return 'orientation' if still else 'position'


def quaternion_angle(a, b):
    dot = abs(a.x * b.x + a.y * b.y + a.z * b.z + a.w * b.w)
    return 2.0 * math.acos(min(1.0, dot))


def random_state(rng, joints, limits):
    out = {}
    for j in joints:
        lo, hi = limits[j]
        out[j] = rng.uniform(lo, hi)
    return out


def straight_line_free(probe, start, goal):
    """True when every state on the joint-space line from start to goal is collision-free (coarse first)."""
    steps = max(1, math.ceil(max(abs(goal[j] - start[j]) for j in goal) / STRAIGHT_STEP))
    order = []
    stride = 1
    while stride * 2 <= steps:
        stride *= 2
    seen = set()
    while stride >= 1:
        for i in range(0, steps + 1, stride):
            if i not in seen:
                seen.add(i)
                order.append(i)
        stride //= 2
    for i in order:
        if not probe.check({j: start[j] + (goal[j] - start[j]) * i / steps for j in goal})['valid']:
            return False
    return True


def near_random_state(rng, joints, limits, start):
    """A random state within GOAL_REACH of start in every joint, inside the limits."""
    out = {}
    for j in joints:
        lo, hi = limits[j]
        out[j] = rng.uniform(max(lo, start[j] - GOAL_REACH), min(hi, start[j] + GOAL_REACH))
    return out


def reachable_random_state(probe, rng, joints, limits, start, tries=500):
    """A random collision-free state near the start that it reaches along a collision-free straight line."""
    for _ in range(tries):
        q = near_random_state(rng, joints, limits, start)
        if probe.check(q)['valid'] and straight_line_free(probe, start, q):
            return q
    raise RuntimeError('no random state of %s reachable in a straight line in %d tries' % (joints, tries))


def final_point(plan):
    last = plan['points'][-1]
    return dict(zip(plan['joint_names'], last['p']))


def pose_json(pose_stamped):
    p, o = pose_stamped.pose.position, pose_stamped.pose.orientation
    return {'frame': pose_stamped.header.frame_id, 'position': [p.x, p.y, p.z], 'orientation': [o.x, o.y, o.z, o.w]}


def execute(probe, rng, request, limits, planning_time):
    """Joint and Cartesian goals per chain, planned and executed: see the module's docstring."""
    counts = request.get('executions', {'joint': 5, 'pose': 3})
    settle = request.get('settle', 1.5)
    out = []
    # Chains get joint and Cartesian goals; groups that are no chain (a gripper's fingers) joint goals only.
    for chain in request['chains'] + request.get('joint_groups', []):
        group, joints, tip = chain['name'], chain['joints'], chain.get('tip')
        kinds = ['joint'] * counts.get('joint', 0)
        if tip:
            kinds += [cartesian_kind(probe, rng, joints, limits, tip)] * counts.get('pose', 0)
        for goal_kind in kinds:
            start = probe.current(joints)
            q = reachable_random_state(probe, rng, joints, limits, start)
            if goal_kind == 'joint':
                constraints, goal = joint_goal(q), q
            else:
                target = probe.pose_of(q, tip)
                constraints, goal = cartesian_goal(goal_kind, tip, target), dict(pose_json(target), link=tip, **{'from': q})
            sent = time.time()
            result = probe.plan(group, constraints, planning_time, execute=True)
            refused = None
            if goal_kind == 'joint' and result['error_code'] == GOAL_STATE_INVALID:
                # The state was found valid just before (/check_state_validity) and lies within the limits, yet
                # Humble's move_group once refused it so, 0.6 ms into planning ("Insufficient states in sampleable
                # goal region": its goal sampler gave up at once; .ci/run, 29 Nov 2026, a PA10 hand goal that
                # FCL finds collision-free and that planned in every other run). Asked once more; the entry says so.
                refused = result['error_code']
                log(group, 'joint goal refused as GOAL_STATE_INVALID though valid: asked again')
                sent = time.time()
                result = probe.plan(group, constraints, planning_time, execute=True)
            done = time.time()
            entry = dict(result, group=group, kind=goal_kind, goal=goal, sent=sent, done=done, refused_once=refused)
            if result['points'] and tip:
                entry['goal_fk'] = pose_json(probe.pose_of(final_point(result), tip))
            time.sleep(settle)
            entry['settled'] = time.time()
            out.append(entry)
            log(group, goal_kind, 'goal executed: error code', result['error_code'], 'in %.2f s' % (done - sent))
    return out


def run(probe, request):
    rng = random.Random(request.get('seed', 1))
    limits = {j: tuple(v) for j, v in request['limits'].items()}
    planning_time = request.get('planning_time', 10.0)
    checks = set(request['checks'])
    out = {}
    if 'interfaces' in checks:
        out['interfaces'] = probe.interfaces()
    if 'world' in checks:
        world = probe.world()
        world['current'] = probe.check({})
        ids = {o['id'] for o in world['objects']}
        contact = {'state': None, 'tries': 0}
        chain = request['chains'][0] if request['chains'] else None
        # A generator of its own: the goals of the other checks stay the ones the seed gives without this one.
        world_rng = random.Random(request.get('seed', 1) + 1)
        for _ in range(request.get('collision_tries', 3000) if chain and ids else 0):
            contact['tries'] += 1
            q = random_state(world_rng, chain['joints'], limits)
            verdict = probe.check(q)
            touching = [c for c in verdict['contacts'] if c[0] in ids or c[1] in ids]
            if touching:
                contact.update(state=q, contacts=touching)
                break
        world['object_contact'] = contact
        out['world'] = world
    if 'home' in checks:
        out['home'] = {'current': probe.check({}), 'srdf': probe.check(request['home'])}
    plans = []
    for chain in request['chains']:
        group, joints, tip = chain['name'], chain['joints'], chain['tip']
        start = probe.current(joints) if checks & {'joint', 'pose'} else {}
        if 'joint' in checks:
            goal = reachable_random_state(probe, rng, joints, limits, start)
            started = time.monotonic()
            plan = probe.plan(group, joint_goal(goal), planning_time)
            plan.update(group=group, kind='joint', goal=goal, seconds=time.monotonic() - started)
            if plan['points']:
                end = final_point(plan)
                plan['end'] = {'joint_error': max(abs(end[j] - goal[j]) for j in joints)}
            plans.append(plan)
            log(group, 'joint goal: error code', plan['error_code'], 'planning time %.3f s' % plan['planning_time'])
        if 'pose' in checks:
            kind = cartesian_kind(probe, rng, joints, limits, tip)
            q = reachable_random_state(probe, rng, joints, limits, start)
            target = probe.pose_of(q, tip)
            out['planning_frame'] = target.header.frame_id
            started = time.monotonic()
            plan = probe.plan(group, cartesian_goal(kind, tip, target), planning_time)
            p, o = target.pose.position, target.pose.orientation
            plan.update(group=group, kind=kind, seconds=time.monotonic() - started,
                        goal={'link': tip, 'frame': target.header.frame_id, 'position': [p.x, p.y, p.z],
                              'orientation': [o.x, o.y, o.z, o.w], 'from': q})
            if plan['points']:
                reached = probe.pose_of(final_point(plan), tip)
                rp = reached.pose.position
                plan['end'] = {'position_error': math.dist([rp.x, rp.y, rp.z], [p.x, p.y, p.z]),
                               'angle_error': quaternion_angle(reached.pose.orientation, o)}
            plans.append(plan)
            log(group, kind, 'goal: error code', plan['error_code'], 'planning time %.3f s' % plan['planning_time'])
    if plans:
        out['plans'] = plans
    if 'execute' in checks:
        out['executions'] = execute(probe, rng, request, limits, planning_time)
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
    if 'start_past_limits' in checks:
        out['start_past_limits'] = start_past_limits(probe, request, limits, planning_time)
    if 'beyond_range' in checks:
        beyond = []
        for joint, r in sorted(request.get('ranges', {}).items()):
            chain = next((c for c in request['chains'] if joint in c['joints']), None)
            if chain is None:
                continue
            (lo, hi), (model_lo, model_hi) = r['planning'], r['model']
            value = (hi + model_hi) / 2 if model_hi > hi else (lo + model_lo) / 2
            state = None
            for _ in range(500):
                q = random_state(rng, chain['joints'], limits)
                q[joint] = value
                if probe.check(q)['valid']:
                    state = q
                    break
            entry = {'joint': joint, 'group': chain['name'], 'goal': state, 'valid': state is not None}
            if state is not None:
                plan = probe.plan(chain['name'], joint_goal(state), planning_time)
                entry.update(error_code=plan['error_code'], planning_time=plan['planning_time'], points=len(plan['points']))
                log(chain['name'], 'joint goal beyond the planning range of', joint, 'error code', plan['error_code'])
            beyond.append(entry)
        out['beyond_range'] = beyond
    return out


def start_past_limits(probe, request, limits, planning_time):
    """Plans from a start state whose joint lies past its limit: the first joint, chain by chain, that has limits
    (request["bounded"]: a continuous joint wraps instead) and can stand at its upper (else lower) limit and 0.2
    inside it without collision, started request["start_past"] beyond that limit (each amount in turn) with its
    chain's other joints where they are, aimed 0.2 inside it."""
    bounded = set(request.get('bounded', limits))
    for chain in request['chains']:
        current = probe.current(chain['joints'])
        for joint in chain['joints']:
            lo, hi = limits[joint]
            if joint not in bounded or not (math.isfinite(lo) and math.isfinite(hi)) or hi - lo < 0.4:
                continue
            for bound, inward in ((hi, -1.0), (lo, 1.0)):
                at_bound = dict(current, **{joint: bound})
                goal = dict(current, **{joint: bound + 0.2 * inward})
                if not (probe.check(at_bound)['valid'] and probe.check(goal)['valid']):
                    continue
                out = {'group': chain['name'], 'joint': joint, 'bound': bound, 'goal': goal, 'starts': []}
                for past in request.get('start_past', []):
                    start = {joint: bound - past * inward}
                    plan = probe.plan(chain['name'], joint_goal(goal), planning_time, start=start)
                    first = dict(zip(plan['joint_names'], plan['points'][0]['p'])) if plan['points'] else None
                    out['starts'].append({'past': past, 'start': start[joint], 'error_code': plan['error_code'],
                                          'first': first[joint] if first else None, 'points': len(plan['points'])})
                    log(chain['name'], joint, 'started', past, 'past its limit: error code', plan['error_code'])
                return out
    return {'group': None, 'joint': None, 'starts': []}


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
