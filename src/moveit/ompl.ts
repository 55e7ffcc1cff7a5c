// ompl_planning.yaml: the OMPL planning pipeline move_group loads (under its `ompl` parameter namespace),
// with the request adapters MoveIt's own default configuration uses and planner configurations for every
// group, as the Setup Assistant writes them. The pipeline's parameter names changed between Humble and
// Jazzy (one planning_plugin and a string of adapters → lists, response adapters split off), so the
// distro is chosen by the caller.
import { Document, Scalar } from 'yaml';
import type { PlanningGroup } from './groups.js';

export type MoveItDistro = 'humble' | 'jazzy';
export const MOVEIT_DISTROS: readonly MoveItDistro[] = ['humble', 'jazzy'];

const double = (x: number): Scalar => {
  const s = new Scalar(x);
  s.minFractionDigits = 1;
  return s;
};

/** Planner configurations offered to every group; the first is each group's default (RRTConnect: MoveIt's own default). */
const PLANNERS: Record<string, Record<string, unknown>> = {
  RRTConnectkConfigDefault: { type: 'geometric::RRTConnect', range: double(0) },
  RRTkConfigDefault: { type: 'geometric::RRT', range: double(0), goal_bias: double(0.05) },
  RRTstarkConfigDefault: { type: 'geometric::RRTstar', range: double(0), goal_bias: double(0.05), delay_collision_checking: 1 },
  PRMkConfigDefault: { type: 'geometric::PRM', max_nearest_neighbors: 10 },
  ESTkConfigDefault: { type: 'geometric::EST', range: double(0), goal_bias: double(0.05) },
  KPIECEkConfigDefault: { type: 'geometric::KPIECE', range: double(0), goal_bias: double(0.05), border_fraction: double(0.9), failed_expansion_score_factor: double(0.5), min_valid_path_fraction: double(0.5) },
};

/**
 * Humble's tolerance for a start state past a joint's limits (FixStartStateBounds plans from the limit within it):
 * a simulated joint held at a goal on its limit settles that little past it. Jazzy's own CheckStartStateBounds has
 * none, so body_bridge's plugin of the same name and parameter takes its place where installed (docs/moveit.md).
 */
export const START_STATE_MAX_BOUNDS_ERROR = 0.1;
export const FIX_START_STATE_BOUNDS_PLUGIN = 'body_bridge/FixStartStateBounds';

/**
 * The pipeline keys of each distro (moveit_configs_utils' default_configs/ompl_planning.yaml on its branch); on
 * Jazzy, `fixStartStateBounds` puts body_bridge's FixStartStateBounds in CheckStartStateBounds's place.
 */
function pipeline(distro: MoveItDistro, fixStartStateBounds: boolean): Record<string, unknown> {
  if (distro === 'humble') {
    return {
      planning_plugin: 'ompl_interface/OMPLPlanner',
      request_adapters: [
        'default_planner_request_adapters/AddTimeOptimalParameterization',
        'default_planner_request_adapters/ResolveConstraintFrames',
        'default_planner_request_adapters/FixWorkspaceBounds',
        'default_planner_request_adapters/FixStartStateBounds',
        'default_planner_request_adapters/FixStartStateCollision',
        'default_planner_request_adapters/FixStartStatePathConstraints',
      ].join(' '),
      start_state_max_bounds_error: double(START_STATE_MAX_BOUNDS_ERROR),
    };
  }
  return {
    planning_plugins: ['ompl_interface/OMPLPlanner'],
    request_adapters: [
      'default_planning_request_adapters/ResolveConstraintFrames',
      'default_planning_request_adapters/ValidateWorkspaceBounds',
      fixStartStateBounds ? FIX_START_STATE_BOUNDS_PLUGIN : 'default_planning_request_adapters/CheckStartStateBounds',
      'default_planning_request_adapters/CheckStartStateCollision',
    ],
    ...(fixStartStateBounds ? { start_state_max_bounds_error: double(START_STATE_MAX_BOUNDS_ERROR) } : {}),
    response_adapters: [
      'default_planning_response_adapters/AddTimeOptimalParameterization',
      'default_planning_response_adapters/ValidateSolution',
      'default_planning_response_adapters/DisplayMotionPath',
    ],
  };
}

/** How ompl_planning.yaml is written beyond its groups. */
export interface OmplOptions {
  /** Whose parameter names (default humble). */
  distro?: MoveItDistro;
  /** Each group's longest_valid_segment_fraction from its joints (motion-check.ts; default MoveIt's usual 0.005). */
  segmentFraction?: (joints: readonly string[]) => number;
  /** A line for the file's heading comment. */
  note?: string;
  /** Jazzy: body_bridge's FixStartStateBounds (installed with the package where MoveIt was there to build it); Humble always has MoveIt's own. */
  fixStartStateBounds?: boolean;
}

/** ompl_planning.yaml for `groups` (every group but an empty one gets the planner list). */
export function omplPlanningYaml(groups: readonly PlanningGroup[], groupJoints: (g: PlanningGroup) => readonly string[], options: OmplOptions = {}): string {
  const { distro = 'humble', segmentFraction = () => 0.005, note = '', fixStartStateBounds = false } = options;
  const perGroup: Record<string, unknown> = {};
  for (const g of groups) {
    const joints = groupJoints(g);
    if (joints.length === 0) continue;
    perGroup[g.name] = {
      default_planner_config: Object.keys(PLANNERS)[0],
      planner_configs: Object.keys(PLANNERS),
      // OMPL's KPIECE and friends need a projection; two joints of the group are MoveIt's usual choice.
      ...(joints.length >= 2 ? { projection_evaluator: `joints(${joints[0]},${joints[1]})` } : {}),
      longest_valid_segment_fraction: double(segmentFraction(joints)),
    };
  }
  const doc = new Document({ ...pipeline(distro, fixStartStateBounds), planner_configs: PLANNERS, ...perGroup });
  doc.commentBefore = ` OMPL planning pipeline for MoveIt 2 (${distro}), generated by body_bridge (docs/moveit.md). move_group reads it under "ompl".${note ? `\n ${note}` : ''}`;
  return doc.toString({ lineWidth: 0 });
}
