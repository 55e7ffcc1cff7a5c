// VRML97 semantics of the parser and the shape conversion, on small hand-written files whose
// expected values follow from the VRML97 specification (ISO/IEC 14772-1) by hand.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { resolveLimits } from '../src/model/options.js';
import type { Shape } from '../src/model/types.js';
import { isNode } from '../src/vrml/ast.js';
import { loadVrmlShapes } from '../src/vrml/index.js';
import { createSession, parseVrmlFile, parseVrmlText } from '../src/vrml/parser.js';
import { createScanner, readNumberOrNone, scanNumberList } from '../src/vrml/scanner.js';
import { apply, expectClose, loadError, vrmlModelsDir, writeFiles, writeModel } from './support/vrml-models.js';

const HEADER = '#VRML V2.0 utf8\n';
const shapesOf = (body: string): Shape[] => loadVrmlShapes(writeModel(HEADER + body), {});
const parse = (body: string) => {
  const session = createSession(resolveLimits({}));
  return { nodes: parseVrmlText('/virtual/test.wrl', HEADER + body, session), session };
};
const triangle = (points: string) =>
  `Shape { geometry IndexedFaceSet { coord Coordinate { point [ ${points} ] } coordIndex [ 0 1 2 -1 ] } }`;

describe('lexical rules', () => {
  test('comments, commas as white space, escapes in strings, hexadecimal integers', () => {
    const { nodes } = parse(`
      # a comment { [ "
      WorldInfo { title "say \\"hi\\" \\\\ back" info [ "a", "b" ] } # trailing
      Switch { whichChoice 0x1 }`);
    expect(nodes.map((n) => n.type)).toEqual(['WorldInfo', 'Switch']);
    expect(nodes[0]!.fields.get('title')!.value).toBe('say "hi" \\ back');
    expect(nodes[0]!.fields.get('info')!.value).toEqual(['a', 'b']);
    expect(nodes[1]!.fields.get('whichChoice')!.value).toBe(1);
  });

  test('every double written in JavaScript notation reads back exactly', () => {
    fc.assert(
      // String(-0) is "0", so -0 is checked on its own below.
      fc.property(fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0)), fc.integer({ min: 0, max: 2 }), (x, style) => {
        const text = style === 0 ? String(x) : style === 1 ? x.toExponential() : x.toPrecision(17);
        const s = createScanner('n', `${text} `);
        expect(readNumberOrNone(s)).toBe(x);
        expect(s.pos).toBe(text.length);
      }),
      { numRuns: 3000 },
    );
    expect(readNumberOrNone(createScanner('n', '-0.0'))).toBe(-0);
  });

  test('integer lists (coordIndex) read exactly whatever the separators, comments and number forms', () => {
    const token = fc.oneof(
      fc.integer({ min: -2_000_000_000, max: 2_000_000_000 }).map((v) => ({ v, text: String(v) })),
      fc.integer({ min: 0, max: 255 }).map((v) => ({ v, text: `0x${v.toString(16)}` })),
      fc.integer({ min: -99, max: 99 }).map((v) => ({ v, text: `${v}.0` })),
      fc.integer({ min: 1, max: 9 }).map((v) => ({ v: v * 100, text: `${v}e2` })),
      fc.constant({ v: 12345678901234567, text: '12345678901234567' }),
    );
    const sep = fc.constantFrom(' ', ',', ' , ', '\n', '\t', ' # comment ]\n');
    fc.assert(
      fc.property(fc.array(fc.tuple(token, sep), { maxLength: 40 }), (items) => {
        const list = items.map(([t, s]) => t.text + s).join('');
        const { nodes } = parse(`IndexedFaceSet { coordIndex [ ${list} ] ccw FALSE }`);
        expect(nodes[0]!.fields.get('coordIndex')!.value).toEqual(items.map(([t]) => t.v));
        expect(nodes[0]!.fields.get('ccw')!.value).toBe(false);
      }),
      { numRuns: 500 },
    );
  });

  test('float lists (point) read every double exactly, in any notation', () => {
    const value = fc.double({ noNaN: true, noDefaultInfinity: true }).filter((x) => !Object.is(x, -0));
    const token = fc.tuple(value, fc.integer({ min: 0, max: 3 })).map(([x, style]) => ({
      v: style === 3 ? Number(x.toFixed(6)) : x,
      text: style === 0 ? String(x) : style === 1 ? x.toExponential() : style === 2 ? x.toPrecision(17) : x.toFixed(6),
    }));
    fc.assert(
      fc.property(fc.array(token, { maxLength: 30 }), (items) => {
        const { nodes } = parse(`ElevationGrid { height [ ${items.map((t) => t.text).join(', ')} ] }`);
        expect(nodes[0]!.fields.get('height')!.value).toEqual(items.map((t) => (Object.is(t.v, -0) ? -0 : t.v)));
      }),
      { numRuns: 1000 },
    );
  });

  test('VRML float forms: leading dot, trailing dot, exponent signs, nan from exporters', () => {
    const s = createScanner('n', '.5 5. -0.25E+2 1e-3 +7 -nan 12abc');
    expect([0, 1, 2, 3, 4].map(() => readNumberOrNone(s))).toEqual([0.5, 5, -25, 0.001, 7]);
    expect(readNumberOrNone(s)).toBeNaN();
    expect(readNumberOrNone(s)).toBe(12);
    expect(readNumberOrNone(s)).toBeUndefined();
  });
});

describe('DEF / USE / PROTO', () => {
  test('USE shares the DEF node instead of copying it', () => {
    const { nodes } = parse('DEF B Box { size 1 2 3 } Shape { geometry USE B } Shape { geometry USE B }');
    const [box, s1, s2] = nodes;
    expect(s1!.fields.get('geometry')!.value).toBe(box);
    expect(s2!.fields.get('geometry')!.value).toBe(box);
  });

  test('a doubling DEF/USE chain parses in linear time and its expansion is bounded by the triangle limit', () => {
    let text = 'DEF L0 Shape { geometry Box {} }\n';
    for (let i = 1; i <= 40; i++) text += `DEF L${i} Group { children [ USE L${i - 1} USE L${i - 1} ] }\n`;
    const file = writeModel(HEADER + text);
    const session = createSession(resolveLimits({}));
    expect(parseVrmlFile(file, session)).toHaveLength(41);
    expect(session.nodeCount).toBe(42);
    const error = loadError(() => loadVrmlShapes(file, { limits: { maxTriangles: 1000 } }));
    expect(error.message).toMatch(/limit of 1000 triangles/);
  });

  test('PROTO fields take their defaults unless the instance sets them; IS binds them in the body', () => {
    const shapes = shapesOf(`
      PROTO Thing [ field SFVec3f size 1 2 3 exposedField SFColor color 1 0 0 ] {
        Shape { appearance Appearance { material Material { diffuseColor IS color } } geometry Box { size IS size } }
      }
      Thing { }
      Thing { size 4 5 6 }`);
    expect(shapes.map((s) => s.geometry)).toEqual([{ kind: 'box', size: [1, 2, 3] }, { kind: 'box', size: [4, 5, 6] }]);
    expect(shapes.map((s) => s.material!.diffuseColor)).toEqual([[1, 0, 0], [1, 0, 0]]);
  });

  test('a PROTO instance placed in a geometry field stands for its first body node', () => {
    const shapes = shapesOf('PROTO Ball [ field SFFloat r 0.5 ] { Sphere { radius IS r } } Shape { geometry Ball { r 2 } }');
    expect(shapes.map((s) => s.geometry)).toEqual([{ kind: 'sphere', radius: 2 }]);
  });

  test('EXTERNPROTO takes the PROTO and its defaults from the first url that resolves', () => {
    const shapes = loadVrmlShapes(join(vrmlModelsDir, 'extern-main.wrl'), {});
    expect(shapes.map((s) => s.geometry)).toEqual([{ kind: 'box', size: [1, 2, 3] }, { kind: 'box', size: [4, 5, 6] }]);
    expect(shapes.map((s) => s.material!.diffuseColor)).toEqual([[0, 0, 1], [0, 0, 1]]);
    // `offset` is only in the PROTO, not in the EXTERNPROTO interface: its default 0 0 7 applies.
    expect(shapes.map((s) => s.transform.translation)).toEqual([[0, 0, 7], [0, 5, 7]]);
  });

  test('ROUTE statements are read and dropped; Script nodes are skipped with a warning', () => {
    const { nodes, session } = parse(`
      DEF T Transform { children [ Shape { geometry Box {} } ROUTE A.b TO C.d ] }
      Script { url "javascript: function f() { return '}'; }" field SFBool x TRUE }
      ROUTE T.translation TO T.set_translation`);
    expect(nodes.map((n) => n.type)).toEqual(['Transform']);
    expect(session.warnings.map((w) => [w.message, w.line])).toEqual([['Script node skipped (scripts are not run)', 4]]);
  });
});

describe('grouping and transforms', () => {
  test('Transform: p → T + C + R·(p − C)', () => {
    const [shape] = shapesOf(`Transform { translation 0 0 5 center 1 0 0 rotation 0 0 1 1.5707963267948966
      children ${triangle('2 0 0, 0 0 0, 0 1 0')} }`);
    expectClose(apply(shape!.transform, [2, 0, 0]), [1, 1, 5]);
    expectClose(apply(shape!.transform, [0, 0, 0]), [1, -1, 5]);
  });

  test('Transform: scale along the axes of scaleOrientation', () => {
    // Scaling x by 2 in a frame turned 90° about z scales the parent's y axis.
    const [shape] = shapesOf(`Transform { scale 2 1 1 scaleOrientation 0 0 1 1.5707963267948966 children ${triangle('0 1 0, 1 0 0, 1 1 0')} }`);
    expectClose(apply(shape!.transform, [0, 1, 0]), [0, 2, 0]);
    expectClose(apply(shape!.transform, [1, 0, 0]), [1, 0, 0]);
    expectClose(apply(shape!.transform, [1, 1, 0]), [1, 2, 0]);
  });

  test('nested Transforms compose outer · inner; rotation axes are normalised', () => {
    const [shape] = shapesOf(`Transform { translation 1 0 0 rotation 0 0 7 3.141592653589793
      children Transform { translation 1 0 0 children ${triangle('1 0 0, 0 0 0, 0 1 0')} } }`);
    expectClose(apply(shape!.transform, [1, 0, 0]), [-1, 0, 0]);
  });

  test('Switch renders only whichChoice; LOD its first level; Group and Collision their children', () => {
    const kinds = (body: string) => shapesOf(body).map((s) => s.geometry.kind);
    expect(kinds('Switch { whichChoice 1 choice [ Shape { geometry Box {} } Shape { geometry Sphere {} } ] }')).toEqual(['sphere']);
    expect(kinds('Switch { choice [ Shape { geometry Box {} } ] }')).toEqual([]);
    expect(kinds('LOD { level [ Shape { geometry Cone {} } Shape { geometry Box {} } ] }')).toEqual(['cone']);
    expect(kinds('Group { children [ Collision { children Shape { geometry Box {} } } Shape { geometry Cylinder {} } ] }')).toEqual(['box', 'cylinder']);
  });

  test('Inline: relative urls, the first existing url of a list, nested placement', () => {
    const file = join(vrmlModelsDir, 'inline-main.wrl');
    const shapes = loadVrmlShapes(file, {});
    expect(shapes).toHaveLength(2);
    for (const s of shapes) {
      expect(s.transform.translation).toEqual([10, 0, 1]);
      expect(s.geometry).toEqual({
        kind: 'mesh',
        vertices: [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0], [0, 0, 1]],
        faces: [[0, 1, 2, 3], [0, 1, 4]],
        ccw: true,
        creaseAngle: 0,
      });
      expect(s.name).toBe('ARM_MESH');
    }
    const session = createSession(resolveLimits({}));
    parseVrmlFile(file, session);
    expect(session.files.size).toBe(2);
  });

  test('Inline of a mesh file becomes a mesh file reference', () => {
    const dir = writeFiles({ 'm.wrl': `${HEADER}Transform { translation 1 0 0 children Inline { url "part.stl" } }`, 'part.stl': 'solid x\nendsolid x\n' });
    const [shape] = loadVrmlShapes(join(dir, 'm.wrl'), {});
    // `at` is the url field's value: line 2, column 53 of the file (where messages about the mesh point).
    expect(shape!.geometry).toEqual({
      kind: 'meshFile',
      path: join(dir, 'part.stl'),
      uri: 'part.stl',
      format: 'stl',
      at: { file: join(dir, 'm.wrl'), path: expect.stringMatching(/Inline\.url$/), line: 2, column: 53 },
    });
    expect(shape!.transform.translation).toEqual([1, 0, 0]);
  });
});

describe('geometry and appearance', () => {
  test('primitive defaults of VRML97', () => {
    expect(shapesOf('Shape { geometry Box {} } Shape { geometry Sphere {} } Shape { geometry Cylinder {} } Shape { geometry Cone {} }').map((s) => s.geometry)).toEqual([
      { kind: 'box', size: [2, 2, 2] },
      { kind: 'sphere', radius: 1 },
      { kind: 'cylinder', radius: 1, height: 2, top: true, bottom: true, side: true },
      { kind: 'cone', radius: 1, height: 2, bottom: true, side: true },
    ]);
    expect(shapesOf('Shape { geometry Cylinder { radius 0.5 height 3 top FALSE side FALSE } }')[0]!.geometry)
      .toEqual({ kind: 'cylinder', radius: 0.5, height: 3, top: false, bottom: true, side: false });
  });

  test('IndexedFaceSet: polygons as given, ccw, creaseAngle, per-face colours through colorIndex', () => {
    const [shape] = shapesOf(`Shape { geometry IndexedFaceSet {
      coord Coordinate { point [ 0 0 0, 1 0 0, 1 1 0, 0 1 0 ] }
      coordIndex [ 0 1 2 3 -1 0 2 3 ]
      ccw FALSE creaseAngle 0.5
      color Color { color [ 1 0 0, 0 1 0 ] } colorPerVertex FALSE colorIndex [ 1 0 ] } }`);
    expect(shape!.geometry).toEqual({
      kind: 'mesh',
      vertices: [[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]],
      faces: [[0, 1, 2, 3], [0, 2, 3]],
      ccw: false,
      creaseAngle: 0.5,
      colors: [[0, 1, 0], [1, 0, 0]],
    });
  });

  test('IndexedFaceSet: per-vertex colours without colorIndex follow the coordinates', () => {
    const [shape] = shapesOf(`Shape { geometry IndexedFaceSet { coord Coordinate { point [ 0 0 0, 1 0 0, 0 1 0 ] }
      coordIndex [ 0 1 2 ] color Color { color [ 1 0 0, 0 1 0, 0 0 1 ] } } }`);
    expect(shape!.geometry.kind === 'mesh' && shape!.geometry.colors).toEqual([[1, 0, 0], [0, 1, 0], [0, 0, 1]]);
  });

  test('an index below -1 ends a face with a warning; an Extrusion that sweeps nothing is dropped with a warning', () => {
    const { session } = parse('');
    const file = writeModel(`${HEADER}Shape { geometry IndexedFaceSet { coord Coordinate { point [ 0 0 0, 1 0 0, 0 1 0, 1 1 0 ] }
      coordIndex [ 0 1 2 -2 1 3 2 ] } }
      Shape { geometry Extrusion { spine [ 0 0 0 ] } }`);
    const warnings = session.warnings;
    const shapes = loadVrmlShapes(file, {}, undefined, warnings);
    expect(shapes.map((s) => s.geometry.kind === 'mesh' && s.geometry.faces)).toEqual([[[0, 1, 2], [1, 3, 2]]]);
    expect(warnings.map((w) => [w.message, w.line])).toEqual([
      ['coordIndex[3] = -2 is not a vertex index or -1; read as the end of a face', 3],
      ['Extrusion with 1 spine and 5 cross-section points sweeps no solid; the shape is dropped', 4],
    ]);
  });

  test('ElevationGrid and Extrusion keep their fields (Extrusion with the VRML97 defaults)', () => {
    const [grid, extrusion] = shapesOf(`
      Shape { geometry ElevationGrid { xDimension 2 zDimension 3 xSpacing 0.5 height [ 0 1 2 3 4 5 ] ccw FALSE } }
      Shape { geometry Extrusion { } }`);
    expect(grid!.geometry).toEqual({ kind: 'elevationGrid', xDimension: 2, zDimension: 3, xSpacing: 0.5, zSpacing: 1, height: [0, 1, 2, 3, 4, 5], ccw: false, creaseAngle: 0 });
    expect(extrusion!.geometry).toEqual({
      kind: 'extrusion',
      crossSection: [[1, 1], [1, -1], [-1, -1], [-1, 1], [1, 1]],
      spine: [[0, 0, 0], [0, 1, 0]],
      scale: [[1, 1]],
      orientation: [[0, 0, 1, 0]],
      beginCap: true,
      endCap: true,
      ccw: true,
      convex: true,
      creaseAngle: 0,
    });
  });

  test('Material defaults of VRML97, texture file resolved next to the model', () => {
    const dir = writeFiles({
      'm.wrl': `${HEADER}Shape { appearance Appearance { material Material { transparency 0.25 } texture ImageTexture { url [ "nope.png" "tex/skin.png" ] } } geometry Box {} }
        Shape { geometry Box {} }`,
      'tex/skin.png': 'not really a png',
    });
    const [textured, bare] = loadVrmlShapes(join(dir, 'm.wrl'), {});
    expect(textured!.material).toEqual({
      diffuseColor: [0.8, 0.8, 0.8], transparency: 0.25, ambientIntensity: 0.2, specularColor: [0, 0, 0], emissiveColor: [0, 0, 0], shininess: 0.2,
    });
    expect(textured!.texture).toBe(join(dir, 'tex/skin.png'));
    expect(bare!.material).toBeNull();
  });

  test('shape sources point at the Shape node', () => {
    const [shape] = shapesOf('\n\n   Shape { geometry Box {} }');
    expect(shape!.source).toMatchObject({ line: 4, column: 4 });
  });
});

describe('node selection (Resource node:)', () => {
  const file = join(vrmlModelsDir, 'tank-parts.wrl');
  const rz90 = [[0, -1, 0], [1, 0, 0], [0, 0, 1]];
  const rz90x2 = [[0, -2, 0], [2, 0, 0], [0, 0, 2]];

  test('without a node: every shape in the file frame', () => {
    const shapes = loadVrmlShapes(file, {});
    expect(shapes.map((s) => s.geometry.kind)).toEqual(['cylinder', 'box']);
    expectClose(shapes[0]!.transform.translation, [1, 2.5, 3]);
    expectClose(shapes[0]!.transform.linear, rz90x2);
    expectClose(shapes[1]!.transform.translation, [1, 2, 3]);
  });

  test('a DEF Transform keeps its own and its ancestors\' rotation and scale, not their translations', () => {
    const wheel = loadVrmlShapes(file, {}, 'WHEEL');
    expect(wheel).toHaveLength(1);
    expectClose(wheel[0]!.transform.translation, [0, 0, 0]);
    expectClose(wheel[0]!.transform.linear, rz90x2);
    const body = loadVrmlShapes(file, {}, 'BODY');
    expect(body.map((s) => s.geometry.kind)).toEqual(['cylinder', 'box']);
    expectClose(body[0]!.transform.translation, [0, 0.5, 0]);
    expectClose(body[1]!.transform.translation, [0, 0, 0]);
    expectClose(body[1]!.transform.linear, rz90);
  });

  test('a DEF Shape is placed by the linear part of the Transforms above it', () => {
    const [shape] = loadVrmlShapes(file, {}, 'WHEEL_SHAPE');
    expectClose(shape!.transform.translation, [0, 0, 0]);
    expectClose(shape!.transform.linear, rz90x2);
  });

  test('an unknown node name is a located error', () => {
    expect(loadError(() => loadVrmlShapes(file, {}, 'TURRET')).message).toMatch(/no node is DEF'd as "TURRET"/);
  });
});

describe('the AST keeps positions and types', () => {
  test('fields record where their values were written', () => {
    const { nodes } = parse('Transform {\n  translation 1 2 3\n}');
    const f = nodes[0]!.fields.get('translation')!;
    expect(f).toEqual({ type: 'SFVec3f', value: [1, 2, 3], line: 3, column: 15 });
    expect(isNode(nodes[0])).toBe(true);
  });

  test('a file without the header still parses', () => {
    const file = writeModel('Shape { geometry Box {} }');
    expect(loadVrmlShapes(file, {})).toHaveLength(1);
    writeFileSync(file, '#VRML V1.0 ascii\nSeparator { }');
    expect(loadError(() => loadVrmlShapes(file, {}))).toMatchObject({ line: 1, column: 1 });
  });
});

describe('number lists read as correctly rounded doubles (the 16-digit fast path)', () => {
  test('decimals of 1–19 digits, leading zeros, around 2^53, give what Number() gives', () => {
    const decimal = fc
      .tuple(fc.boolean(), fc.stringMatching(/^0{0,4}[0-9]{1,19}$/), fc.nat(20))
      .map(([neg, digits, at]) => {
        const point = Math.min(at, digits.length);
        const text = point === 0 || point >= digits.length ? digits : `${digits.slice(0, point)}.${digits.slice(point)}`;
        return `${neg ? '-' : ''}${text}`;
      });
    const edges = ['9007199254740991', '9007199254740992', '9007199254740993', '0.9007199254740993', '0.1084999963641167', '-0.01056756917387247'];
    fc.assert(
      fc.property(fc.array(decimal, { minLength: 1, maxLength: 50 }), (tokens) => {
        const all = [...tokens, ...edges];
        const s = createScanner('x.wrl', `[${all.join(', ')}]`);
        s.pos = 1;
        const out: number[] = [];
        expect(scanNumberList(s, out)).toBe(-1);
        expect(out).toEqual(all.map(Number));
      }),
      { numRuns: 300, seed: 15 },
    );
  });
});
