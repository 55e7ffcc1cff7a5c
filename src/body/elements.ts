// A link's `elements`: Transform/Group nesting, RigidBody mass nodes, Visual/Collision split, shapes,
// resources and devices, walked the way StdBodyLoader walks them (transform stack, name stack).
import { failAt } from '../model/errors.js';
import { composeAffine, mulMat, transpose, transformPoint } from '../model/math.js';
import type { Affine, Mat3, Shape, Vec3 } from '../model/types.js';
import { createSession, loadVrmlShapes } from '../vrml/index.js';
import { readRotation, readTranslation, warn, type BodyContext } from './context.js';
import { DEVICE_NODE_TYPES, readDeviceBody } from './devices.js';
import type { DeviceDraft, LinkDraft, RigidBody } from './draft.js';
import { readInertiaValue, readMass } from './mass.js';
import { resolveResourcePath } from './resources.js';
import { meshFileGeometry, readAppearance, readGeometry } from './shapes.js';
import { asInt, asMap, asString, get, optionalMap, stringAt, vec3At } from './values.js';
import { readYamlFile, sortedEntries, type YamlFile, type YMap, type YNode } from './yaml-tree.js';

type ModelType = 'both' | 'visual' | 'collision';

/** What one element sees of its surroundings; nested nodes get a modified copy. */
export interface ElementScope {
  ctx: BodyContext;
  link: LinkDraft;
  /** Choreonoid's transformStack.back(): the pose (with scale) of this node's frame in the link frame. */
  transform: Affine;
  mode: ModelType;
  /** Name of the nearest enclosing named node, for shape names. */
  name: string;
  rigidBodies: RigidBody[];
  devices: DeviceDraft[];
  depth: number;
}

// Scene node types Choreonoid reads that carry no link geometry (lights and cameras of the scene, text, ...).
const SCENE_ONLY_TYPES = new Set(['Node', 'LineSet', 'DirectionalLight', 'PerspectiveCamera', 'OrthographicCamera', 'Fog', 'Text']);

const shapesEnabled = (s: ElementScope): boolean => s.ctx.options.shapes !== false;

function addShape(s: ElementScope, shape: Shape): void {
  if (s.mode !== 'collision') s.link.visuals.push(shape);
  if (s.mode !== 'visual') s.link.collisions.push(shape);
}

/** translation / rotation / scale of a node, as T·S (Choreonoid puts the scale inside the pose). */
function ownTransform(s: ElementScope, map: YMap): Affine | undefined {
  const p = readTranslation(map);
  const r = readRotation(s.ctx, map);
  const scaleNode = get(map, 'scale');
  if (!p && !r && !scaleNode) return undefined;
  let linear: Mat3 = r ?? [
    [1, 0, 0],
    [0, 1, 0],
    [0, 0, 1],
  ];
  if (scaleNode) {
    const k = vec3At(map, 'scale')!;
    linear = linear.map((row) => [row[0] * k[0], row[1] * k[1], row[2] * k[2]]) as Mat3;
  }
  return { linear, translation: p ?? [0, 0, 0] };
}

export function readElementContents(s: ElementScope, node: YNode): void {
  if (s.depth > s.ctx.limits.maxDepth) failAt(node.loc, `elements nested deeper than the limit of ${s.ctx.limits.maxDepth}`);
  if (node.kind === 'seq') {
    node.items.forEach((item) => {
      const map = asMap(item, 'an element mapping with a "type"');
      const typeNode = get(map, 'type');
      if (!typeNode) failAt(map.loc, 'an element needs a "type" (Shape, Transform, RigidBody, Visual, Collision, Resource, a device, ...)');
      readNode(s, map, asString(typeNode));
    });
  } else if (node.kind === 'map') {
    const typeNode = get(node, 'type');
    if (typeNode) {
      readNode(s, node, asString(typeNode));
      return;
    }
    for (const [type, value] of sortedEntries(node)) {
      const map = asMap(value, `a mapping for the ${type} node`);
      const inner = stringAt(map, 'type');
      if (inner !== undefined && inner !== type) {
        failAt(get(map, 'type')!.loc, `the node type "${inner}" differs from the type "${type}" given by its key`);
      }
      readNode(s, map, type);
    }
  } else {
    failAt(node.loc, 'expected "elements" to be a list or a mapping of nodes');
  }
}

function readNode(parent: ElementScope, map: YMap, type: string): void {
  const nameNode = get(map, 'name');
  const s: ElementScope = { ...parent, depth: parent.depth + 1, name: nameNode ? asString(nameNode) : parent.name };
  const ownName = nameNode ? asString(nameNode) : '';
  switch (type) {
    case 'Skip':
      return;
    case 'Group':
      return readChildren(s, map);
    case 'Transform':
      return withTransform(s, map, (t) => readChildren(t, map));
    case 'RigidBody':
      return withTransform(s, map, (t) => {
        readRigidBody(t, map);
        readChildren(t, map);
      });
    case 'Visual':
    case 'Collision':
      return readVisualOrCollision(s, map, type === 'Visual');
    case 'Resource':
      return readResource(s, map);
    case 'Shape':
      if (shapesEnabled(s)) readShape(s, map);
      return;
  }
  if (DEVICE_NODE_TYPES.has(type)) {
    return withTransform(s, map, (t) => {
      readDevice(t, map, type, ownName);
      readChildren(t, map);
    });
  }
  if (SCENE_ONLY_TYPES.has(type)) return;
  warn(s.ctx, map.loc, `node type "${type}" is not supported by Choreonoid's core loader (a plugin type?); the node is skipped`);
  s.link.pluginNodes = [...(s.link.pluginNodes ?? []), type];
}

function readChildren(s: ElementScope, map: YMap): void {
  const elements = get(map, 'elements');
  if (elements) readElementContents(s, elements);
}

function withTransform(s: ElementScope, map: YMap, body: (scope: ElementScope) => void): void {
  const own = ownTransform(s, map);
  body(own ? { ...s, transform: composeAffine(s.transform, own) } : s);
}

function readRigidBody(s: ElementScope, map: YMap): void {
  const T = s.transform;
  const c = vec3At(map, ['center_of_mass', 'centerOfMass']) ?? [0, 0, 0];
  const massNode = get(map, 'mass');
  const inertiaNode = get(map, 'inertia');
  s.rigidBodies.push({
    c: transformPoint(T, c),
    m: massNode ? readMass(massNode) : 0,
    I: inertiaNode ? mulMat(mulMat(T.linear, readInertiaValue(s.ctx, inertiaNode)), transpose(T.linear)) : [[0, 0, 0], [0, 0, 0], [0, 0, 0]],
  });
}


function readVisualOrCollision(s: ElementScope, map: YMap, visual: boolean): void {
  if (visual && s.mode === 'collision') failAt(map.loc, 'a Visual node inside a Collision node');
  if (!visual && s.mode === 'visual') failAt(map.loc, 'a Collision node inside a Visual node');
  const scope: ElementScope = { ...s, mode: visual ? 'visual' : 'collision' };
  withTransform(scope, map, (t) => {
    if (shapesEnabled(t)) {
      const resource = optionalMap(map, 'resource');
      if (resource) readResource(t, resource);
      const shape = optionalMap(map, 'shape');
      if (shape) readShape(t, shape);
    }
    readChildren(t, map);
  });
}

function readShape(s: ElementScope, map: YMap): void {
  const geometryNode = optionalMap(map, 'geometry');
  const appearance = readAppearance(s.ctx, optionalMap(map, 'appearance'));
  if (!geometryNode) {
    warn(s.ctx, map.loc, 'a Shape without "geometry" has nothing to draw; it is skipped');
    return;
  }
  const geometry = readGeometry(s.ctx, geometryNode);
  const own = ownTransform(s, map);
  const shape: Shape = {
    geometry,
    transform: own ? composeAffine(s.transform, own) : s.transform,
    material: appearance.material,
    source: map.loc,
  };
  if (appearance.texture) shape.texture = appearance.texture;
  if (s.name) shape.name = s.name;
  addShape(s, shape);
}

function countInclude(s: ElementScope, where: YMap): void {
  s.ctx.budget.count += 1;
  if (s.ctx.budget.count > s.ctx.limits.maxIncludedFiles) {
    failAt(where.loc, `more than ${s.ctx.limits.maxIncludedFiles} files included by one model`);
  }
}

function readResource(s: ElementScope, map: YMap): void {
  const uriNode = get(map, 'uri');
  if (!uriNode) failAt(map.loc, 'a Resource needs a "uri"');
  const uri = asString(uriNode);
  const fragment = stringAt(map, ['fragment', 'node']);
  const isYaml = /\.(ya?ml|body)$/i.test(uri);
  if (!isYaml && !shapesEnabled(s)) return;
  const path = resolveResourcePath(s.ctx, uri, uriNode.loc, { mustExist: true })!;
  if (isYaml) return readYamlResource(s, map, uriNode, path, fragment);
  countInclude(s, map);
  const own = ownTransform(s, map);
  const frame = own ? composeAffine(s.transform, own) : s.transform;
  const name = s.name || fragment || uri;
  if (/\.wrl$/i.test(path)) {
    const budget = s.ctx.budget;
    budget.vrmlSession ??= createSession(s.ctx.limits);
    const raw = loadVrmlShapes(path, s.ctx.options, fragment, s.ctx.warnings, budget.vrmlSession);
    const added = raw.map((shape) => ({ ...shape, transform: composeAffine(frame, shape.transform), name: shape.name ?? name }));
    for (const shape of added) addShape(s, shape);
    s.ctx.vrmlExtractions.push({ uri, path, node: fragment, raw, added });
    return;
  }
  const geometry = meshFileGeometry(path, uri, uriNode.loc, fragment);
  if (!geometry) failAt(uriNode.loc, `unsupported resource type "${uri}" (expected .yaml/.body, .wrl, .stl, .dae or .obj)`);
  addShape(s, { geometry, transform: frame, material: null, name, source: map.loc });
}

/** The parsed resource file, parsed on its first use in this load (a read-only tree, safe to share). */
function readYamlResourceFile(ctx: BodyContext, path: string): YamlFile {
  const imported = ctx.yaml.anchors;
  let byPath = ctx.budget.parsedYaml.get(imported);
  if (!byPath) ctx.budget.parsedYaml.set(imported, (byPath = new Map()));
  let yaml = byPath.get(path);
  if (!yaml) byPath.set(path, (yaml = readYamlFile(path, ctx.limits, ctx.warnings, imported)));
  return yaml;
}

function readYamlResource(s: ElementScope, map: YMap, uriNode: YNode, path: string, fragment: string | undefined): void {
  countInclude(s, map);
  if (s.ctx.budget.stack.includes(path)) failAt(uriNode.loc, `resource "${asString(uriNode)}" includes itself (directly or through other files)`);
  const yaml = readYamlResourceFile(s.ctx, path);
  let content: YNode = yaml.root;
  if (fragment !== undefined) {
    const anchored = yaml.anchors.get(fragment);
    if (!anchored) failAt((get(map, ['fragment', 'node']) ?? map).loc, `node "${fragment}" (a YAML anchor &${fragment}) is not found in "${path}"`);
    content = anchored;
  }
  const dir = path.replace(/[/\\][^/\\]*$/, '');
  const ctx: BodyContext = { ...s.ctx, baseDir: dir };
  s.ctx.budget.stack.push(path);
  try {
    withTransform({ ...s, ctx }, map, (t) => readElementContents(t, content));
  } finally {
    s.ctx.budget.stack.pop();
  }
}

function readDevice(s: ElementScope, map: YMap, type: string, name: string): void {
  const body = readDeviceBody(s.ctx, type, map);
  if (!body) {
    warn(s.ctx, map.loc, `Camera "${name}" has no valid "format" (COLOR, DEPTH, COLOR_DEPTH, POINT_CLOUD or COLOR_POINT_CLOUD); no device is created (Choreonoid drops it silently)`);
    return;
  }
  const idNode = get(map, 'id');
  const device = {
    ...body,
    name,
    id: idNode ? asInt(idNode) : null,
    linkDraft: s.link,
    pose: { translation: [...s.transform.translation] as Vec3, rotation: s.transform.linear },
    source: map.loc,
  } as DeviceDraft;
  if (device.id !== null && device.id < 0) device.id = null;
  s.devices.push(device);
}
