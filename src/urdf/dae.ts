// A COLLADA (.dae) file's triangles, as far as a wheel's radius or a collision check needs them: every
// <instance_geometry> of the visual scene the file instantiates, placed by its nodes' transforms, scaled to
// metres by <unit meter>. Coordinates stay the file's own (no up-axis rotation): that is how rviz shows a
// COLLADA mesh in ROS's z-up frames, and how the files of ROS robot descriptions are written.
import type { TriangleMesh } from '../model/tessellate.js';
import { onDemand } from '../model/on-demand.js';

// Loaded when a COLLADA mesh is first read (src/model/on-demand.ts).
const xmlbuilder2 = onDemand<typeof import('xmlbuilder2')>('xmlbuilder2');

/** A 4×4 transform, row-major as COLLADA's <matrix> writes it. */
type Mat4 = number[];

/** The part of the DOM xmlbuilder2's parser gives that is read here (the project compiles without DOM types). */
interface Element {
  readonly localName: string;
  readonly children: ArrayLike<Element>;
  readonly textContent: string | null;
  getAttribute(name: string): string | null;
  getElementsByTagName(name: string): ArrayLike<Element>;
}
interface Document {
  readonly documentElement: Element | null;
  getElementsByTagName(name: string): ArrayLike<Element>;
}

const IDENTITY: Mat4 = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1];

const mul = (a: Mat4, b: Mat4): Mat4 => {
  const out = new Array<number>(16).fill(0);
  for (let r = 0; r < 4; r++) for (let c = 0; c < 4; c++) for (let k = 0; k < 4; k++) out[r * 4 + c]! += a[r * 4 + k]! * b[k * 4 + c]!;
  return out;
};

const numbers = (text: string | null): number[] => (text ?? '').trim().split(/\s+/).filter((s) => s !== '').map(Number);

/** A node's own transform: its <matrix>, <translate>, <rotate>, <scale> children in document order. */
function nodeTransform(node: Element): Mat4 {
  let m = IDENTITY;
  for (const child of Array.from(node.children)) {
    const v = numbers(child.textContent);
    let t: Mat4 | null = null;
    if (child.localName === 'matrix' && v.length === 16) t = v;
    else if (child.localName === 'translate' && v.length === 3) t = [1, 0, 0, v[0]!, 0, 1, 0, v[1]!, 0, 0, 1, v[2]!, 0, 0, 0, 1];
    else if (child.localName === 'scale' && v.length === 3) t = [v[0]!, 0, 0, 0, 0, v[1]!, 0, 0, 0, 0, v[2]!, 0, 0, 0, 0, 1];
    else if (child.localName === 'rotate' && v.length === 4) {
      const n = Math.hypot(v[0]!, v[1]!, v[2]!) || 1;
      const [x, y, z] = [v[0]! / n, v[1]! / n, v[2]! / n];
      const a = (v[3]! * Math.PI) / 180;
      const c = Math.cos(a);
      const s = Math.sin(a);
      const C = 1 - c;
      t = [x * x * C + c, x * y * C - z * s, x * z * C + y * s, 0, y * x * C + z * s, y * y * C + c, y * z * C - x * s, 0, z * x * C - y * s, z * y * C + x * s, z * z * C + c, 0, 0, 0, 0, 1];
    }
    if (t) m = mul(m, t);
  }
  return m;
}

const childrenNamed = (el: Element, name: string): Element[] => Array.from(el.children).filter((c) => c.localName === name);
const ref = (url: string | null): string => (url ?? '').replace(/^#/, '');

/** The triangles of a COLLADA document. Throws on what is not COLLADA. */
export function readDae(text: string): TriangleMesh {
  const doc = xmlbuilder2().create(text).node as unknown as Document;
  const root = doc.documentElement;
  if (!root || root.localName !== 'COLLADA') throw new Error(`not COLLADA: its root element is <${root?.localName ?? '?'}>`);
  const byId = new Map<string, Element>();
  for (const el of Array.from(doc.getElementsByTagName('*'))) {
    const id = el.getAttribute('id');
    if (id) byId.set(id, el);
  }
  const unit = Array.from(doc.getElementsByTagName('unit'))[0];
  const meter = unit ? Number(unit.getAttribute('meter') ?? '1') : 1;
  const positions: number[] = [];
  const indices: number[] = [];
  const sourcePositions = (sourceId: string): number[] => {
    const source = byId.get(sourceId);
    if (!source) throw new Error(`no source "${sourceId}"`);
    if (source.localName === 'vertices') {
      const input = childrenNamed(source, 'input').find((i) => i.getAttribute('semantic') === 'POSITION');
      return sourcePositions(ref(input?.getAttribute('source') ?? null));
    }
    const array = childrenNamed(source, 'float_array')[0];
    const accessor = Array.from(source.getElementsByTagName('accessor'))[0];
    const stride = Number(accessor?.getAttribute('stride') ?? '3');
    const values = numbers(array?.textContent ?? '');
    const out: number[] = [];
    for (let i = 0; i + 2 < values.length; i += stride) out.push(values[i]!, values[i + 1]!, values[i + 2]!);
    return out;
  };
  const addGeometry = (geometry: Element, m: Mat4): void => {
    for (const mesh of childrenNamed(geometry, 'mesh')) {
      for (const prim of Array.from(mesh.children)) {
        if (!['triangles', 'polylist', 'polygons'].includes(prim.localName)) continue;
        const inputs = childrenNamed(prim, 'input');
        const vertexInput = inputs.find((i) => i.getAttribute('semantic') === 'VERTEX');
        if (!vertexInput) continue;
        const offset = Number(vertexInput.getAttribute('offset') ?? '0');
        const width = Math.max(...inputs.map((i) => Number(i.getAttribute('offset') ?? '0'))) + 1;
        const local = sourcePositions(ref(vertexInput.getAttribute('source')));
        const base = positions.length / 3;
        for (let i = 0; i < local.length; i += 3) {
          const [x, y, z] = [local[i]!, local[i + 1]!, local[i + 2]!];
          positions.push(
            meter * (m[0]! * x + m[1]! * y + m[2]! * z + m[3]!),
            meter * (m[4]! * x + m[5]! * y + m[6]! * z + m[7]!),
            meter * (m[8]! * x + m[9]! * y + m[10]! * z + m[11]!),
          );
        }
        const polygon = (ps: number[], counts: number[]): void => {
          let at = 0;
          for (const n of counts) {
            const corner = (k: number): number => base + ps[(at + k) * width + offset]!;
            for (let k = 1; k + 1 < n; k++) indices.push(corner(0), corner(k), corner(k + 1));
            at += n;
          }
        };
        const ps = childrenNamed(prim, 'p').map((p) => numbers(p.textContent));
        if (prim.localName === 'triangles') {
          const p = ps[0] ?? [];
          polygon(p, new Array<number>(Math.floor(p.length / width / 3)).fill(3));
        } else if (prim.localName === 'polylist') {
          polygon(ps[0] ?? [], numbers(childrenNamed(prim, 'vcount')[0]?.textContent ?? ''));
        } else {
          for (const p of ps) polygon(p, [p.length / width]);
        }
      }
    }
  };
  const visit = (node: Element, parent: Mat4, depth: number): void => {
    if (depth > 64) throw new Error('nodes nested deeper than 64');
    const m = mul(parent, nodeTransform(node));
    for (const child of Array.from(node.children)) {
      if (child.localName === 'instance_geometry') {
        const g = byId.get(ref(child.getAttribute('url')));
        if (g) addGeometry(g, m);
      } else if (child.localName === 'node') visit(child, m, depth + 1);
      else if (child.localName === 'instance_node') {
        const n = byId.get(ref(child.getAttribute('url')));
        if (n) visit(n, m, depth + 1);
      }
    }
  };
  const sceneRef = Array.from(doc.getElementsByTagName('instance_visual_scene'))[0];
  const scene = sceneRef ? byId.get(ref(sceneRef.getAttribute('url'))) : Array.from(doc.getElementsByTagName('visual_scene'))[0];
  if (scene) for (const n of childrenNamed(scene, 'node')) visit(n, IDENTITY, 0);
  else for (const g of Array.from(doc.getElementsByTagName('geometry'))) addGeometry(g, IDENTITY);
  for (const v of positions) if (!Number.isFinite(v)) throw new Error('a vertex is not a finite number');
  for (const i of indices) if (!(i < positions.length / 3)) throw new Error('a triangle names a vertex the file does not have');
  return { positions: Float64Array.from(positions), indices: Uint32Array.from(indices) };
}
