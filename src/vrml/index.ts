// Entry points of the VRML97 / OpenHRP loader.
import { resolve } from 'node:path';
import { failAt, ModelLoadError } from '../model/errors.js';
import { mulMat } from '../model/math.js';
import { resolveLimits, type LoadOptions } from '../model/options.js';
import type { Affine, Diagnostic, Mat3, RobotModel, Shape } from '../model/types.js';
import type { VrmlNode } from './ast.js';
import { getNodes, nodeLabel } from './fields.js';
import { buildRobotModel } from './openhrp.js';
import { createSession, parseVrmlFile, type ParseSession } from './parser.js';
import { collectShapes, createBudget } from './shapes.js';
import { identityAffine, transformAffine } from './transform.js';

export { parseVrmlFile, parseVrmlText, createSession } from './parser.js';
export type { ParseSession } from './parser.js';
export type { VrmlNode, Field, FieldType, FieldValue, ProtoDecl } from './ast.js';

/**
 * Loads an OpenHRP .wrl model (a Humanoid, or a bare top-level Joint tree) into the neutral model.
 * Throws ModelLoadError for bad input.
 */
export function loadVrmlModel(file: string, options: LoadOptions = {}): RobotModel {
  return guard(file, () => {
    const abs = resolve(file);
    const limits = resolveLimits(options);
    const session = createSession(limits);
    const nodes = parseVrmlFile(abs, session);
    return buildRobotModel({
      file: abs,
      nodes,
      warnings: session.warnings,
      budget: createBudget(limits.maxTriangles, session.warnings),
      loadShapes: options.shapes !== false,
    });
  });
}

/**
 * All shapes of a plain VRML file, in the file's root frame. With `nodeName`, only the subtree of
 * the first node DEF'd with that name, placed as Choreonoid places a `node:`-selected resource:
 * the rotation and scale of the node and its ancestors are kept, their translations dropped.
 * Warnings (skipped Script nodes, dropped faces, ...) are appended to `warnings` when given.
 */
export function loadVrmlShapes(
  file: string,
  options: LoadOptions,
  nodeName?: string,
  warnings?: Diagnostic[],
  /**
   * A session shared by the Resources of one .body load: each file is then parsed once and its
   * nodes selected as often as asked (Tank.body takes twelve nodes from one tank.wrl).
   */
  shared?: ParseSession,
): Shape[] {
  return guard(file, () => {
    const abs = resolve(file);
    const limits = resolveLimits(options);
    const session = shared ?? createSession(limits);
    // Warnings go to the caller's list when it passes one (the .body loader's model.warnings).
    if (warnings) session.warnings = warnings;
    const nodes = parseVrmlFile(abs, session);
    const budget = createBudget(limits.maxTriangles, session.warnings);
    const shapes: Shape[] = [];
    if (nodeName === undefined) {
      collectShapes(nodes, identityAffine(), '', budget, shapes);
      return shapes;
    }
    const found = findDefNode(nodes, nodeName, [[1, 0, 0], [0, 1, 0], [0, 0, 1]], '');
    if (!found) failAt({ file: abs, line: 1, column: 1 }, `no node is DEF'd as "${nodeName}" in the file`);
    const { node, linear, path } = found;
    if (node.type === 'Transform') {
      const own = transformAffine(node, path);
      const root: Affine = { linear: mulMat(linear, own.linear), translation: [0, 0, 0] };
      collectShapes(getNodes(node, path, 'children'), root, path, budget, shapes, node.defName);
    } else {
      collectShapes([node], { linear, translation: [0, 0, 0] }, path, budget, shapes);
    }
    return shapes;
  });
}

interface Found {
  node: VrmlNode;
  /** Linear part of every Transform above the node. */
  linear: Mat3;
  path: string;
}

/** Pre-order search of the scene graph, as Choreonoid's scene node map is built (first name wins). */
function findDefNode(nodes: readonly VrmlNode[], name: string, linear: Mat3, path: string, seen = new Set<VrmlNode>()): Found | undefined {
  for (const node of nodes) {
    const here = `${path}/${nodeLabel(node)}`;
    if (node.defName === name) return { node, linear, path: here };
    if (seen.has(node)) continue;
    seen.add(node);
    let inner: Found | undefined;
    if (node.proto) {
      inner = node.actual ? findDefNode([node.actual], name, linear, here, seen) : undefined;
    } else if (node.type === 'Transform') {
      inner = findDefNode(getNodes(node, here, 'children'), name, mulMat(linear, transformAffine(node, here).linear), here, seen);
    } else if (node.type === 'Inline') {
      inner = node.inlined ? findDefNode(node.inlined, name, linear, here, seen) : undefined;
    } else if (node.type === 'Shape') {
      inner = undefined;
    } else {
      const field = node.type === 'Switch' ? 'choice' : node.type === 'LOD' ? 'level' : 'children';
      const children = getNodes(node, here, field);
      inner = findDefNode(children, name, linear, here, seen);
    }
    if (inner) return inner;
  }
  return undefined;
}

/**
 * Every failure leaves as a ModelLoadError. A RangeError from a pathological input (a stack
 * overflow the depth limit did not prevent) is reported against the file rather than escaping.
 */
function guard<T>(file: string, body: () => T): T {
  try {
    return body();
  } catch (e) {
    if (e instanceof ModelLoadError) throw e;
    if (e instanceof RangeError) failAt({ file: resolve(file), line: 1, column: 1 }, 'the model is nested too deeply to read (the stack ran out)');
    throw e;
  }
}
