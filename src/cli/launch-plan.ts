// `body-bridge project X.cnoid --launch-plan`: what project.launch.py (and moveit.launch.py project_file:=)
// start, as JSON the launch files read without computing anything themselves, and with --rviz FILE the one
// rviz2 view of every body.
import { formatDiagnostic } from '../model/errors.js';
import { applyRosConventions } from '../model/ros-conventions.js';
import { withRootJoint } from '../model/root-joint.js';
import type { Diagnostic } from '../model/types.js';
import { type BodyLaunch, type LaunchPlan, POSE_SOURCE_TYPES, type PoseSource, type PoseSourceType, type Project } from '../project/index.js';
import { projectRvizConfig, type ProjectBodyView, type RvizConfig } from '../rviz/config.js';

const texts = (ds: readonly Diagnostic[]): string[] => ds.map(formatDiagnostic);

/** The JSON the launch files read: names in snake_case, diagnostics as located lines. */
export function launchPlanJson(plan: LaunchPlan, rviz: string | null): unknown {
  return {
    project: plan.project,
    world_frame: plan.worldFrame,
    clock: plan.clock ? { node: plan.clock.node, world_item: plan.clock.worldItem } : null,
    bodies: plan.bodies.map((b) => ({
      item_name: b.itemName,
      item_path: b.itemPath,
      world: b.world,
      namespace: b.namespace,
      node_name: b.nodeName,
      joint_states_topic: b.jointStatesTopic,
      choreonoid_ros: b.choreonoidRos,
      fixed_root: b.fixedRoot,
      static: b.staticModel,
      parameters: b.parameters,
      warnings: texts(b.warnings),
    })),
    left_out: plan.leftOut.map((b) => ({ item_name: b.itemName, item_path: b.itemPath, errors: texts(b.errors) })),
    planning: plan.planning
      ? {
          item_name: plan.planning.itemName,
          namespace: plan.planning.namespace,
          node_name: plan.planning.nodeName,
          joint_states_topic: plan.planning.jointStatesTopic,
          parameters: plan.planning.parameters,
        }
      : null,
    rviz,
    diagnostics: texts(plan.diagnostics),
  };
}

/** The rviz2 view of every served body, as its node serves it (its namespace, its frame prefix, where it stands). */
export function planRviz(project: Project, plan: LaunchPlan): RvizConfig {
  const views: ProjectBodyView[] = [];
  for (const b of plan.bodies) {
    const body = project.bodies[b.index];
    if (!body || body.kind !== 'loaded') continue;
    const rootJoint = b.parameters.root_joint;
    const model = rootJoint === 'fixed' || rootJoint === 'free' ? withRootJoint(body.model, rootJoint) : body.model;
    views.push({
      label: b.itemName,
      model: applyRosConventions(model).model,
      pose: body.initialRootPose,
      options: { framePrefix: b.parameters.frame_prefix, namespace: b.namespace, inputNamespace: b.parameters.device_input_namespace },
    });
  }
  return projectRvizConfig(views, plan.worldFrame, project.file);
}

/**
 * `BODY=TOPIC` entries (--placement-topic) with `BODY=TYPE` entries (--placement-topic-type) as pose sources;
 * a reason string for a malformed entry.
 */
export function poseSourcesOf(topics: readonly string[], types: readonly string[]): Record<string, PoseSource> | string {
  const split = (entry: string, option: string): [string, string] | string => {
    const eq = entry.indexOf('=');
    if (eq <= 0 || eq === entry.length - 1) return `--${option} ${entry}: expected BODY=${option === 'placement-topic' ? 'TOPIC' : 'TYPE'}`;
    return [entry.slice(0, eq), entry.slice(eq + 1)];
  };
  const out: Record<string, PoseSource> = {};
  for (const entry of topics) {
    const s = split(entry, 'placement-topic');
    if (typeof s === 'string') return s;
    out[s[0]] = { topic: s[1], type: 'odometry' };
  }
  for (const entry of types) {
    const s = split(entry, 'placement-topic-type');
    if (typeof s === 'string') return s;
    if (!(POSE_SOURCE_TYPES as readonly string[]).includes(s[1])) return `--placement-topic-type ${entry}: the type is one of ${POSE_SOURCE_TYPES.join(', ')}`;
    const source = out[s[0]];
    if (!source) return `--placement-topic-type ${entry}: no --placement-topic names body ${s[0]}`;
    source.type = s[1] as PoseSourceType;
  }
  return out;
}

/** Every located line of the plan, body by body, for stderr. */
export function planDiagnostics(plan: LaunchPlan): Diagnostic[] {
  return [...plan.diagnostics, ...plan.leftOut.flatMap((b) => b.errors), ...plan.bodies.flatMap((b: BodyLaunch) => b.warnings)];
}
