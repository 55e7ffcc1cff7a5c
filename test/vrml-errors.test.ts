// Bad and hostile VRML input: always a ModelLoadError with file, node path and line:column (or a
// warning when harmless), never another exception, never a hang.
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, test } from 'vitest';
import { ModelLoadError } from '../src/model/errors.js';
import { loadVrmlModel, loadVrmlShapes } from '../src/vrml/index.js';
import { MAX_PROTO_INSTANCES } from '../src/vrml/parser.js';
import { loadError, openHrpProtos, vrmlModelsDir, writeModel } from './support/vrml-models.js';

const HEADER = '#VRML V2.0 utf8\n';

/** Loads `body` (after the header line) and checks the error is at the first `marker` of the body. */
function expectErrorAt(body: string, marker: string, message: RegExp, nth = 0): void {
  const file = writeModel(HEADER + body);
  const error = loadError(() => loadVrmlShapes(file, {}));
  let offset = -1;
  for (let i = 0; i <= nth; i++) offset = body.indexOf(marker, offset + 1);
  expect(offset).toBeGreaterThanOrEqual(0);
  const before = body.slice(0, offset).split('\n');
  expect(error).toMatchObject({ severity: 'error', file, line: before.length + 1, column: before.at(-1)!.length + 1 });
  expect(error.message).toMatch(message);
}

describe('syntax errors are located', () => {
  test('unknown node type', () => expectErrorAt('Transform { children [ Foo { } ] }', 'Foo', /unknown node type 'Foo'/));
  test('unknown field, with the node path to it', () => {
    expectErrorAt('Group { children Shape { geometry Box {\n  sise 1 2 3 } } }', 'sise', /Box has no field 'sise'/);
    const error = loadError(() => loadVrmlShapes(writeModel(`${HEADER}DEF G Group { children [ Shape { } Shape { geometry Box { sise 1 } } ] }`), {}));
    expect(error.path).toBe('Group(G).children[1]/Shape.geometry/Box');
  });
  test('a string where a number belongs', () => expectErrorAt('Transform { translation 1 "2" 3 }', '"2"', /expected a number, found '"2"'/));
  test('a bad SFBool', () => expectErrorAt('Shape { geometry Cylinder { top yes } }', 'yes', /expected TRUE or FALSE/));
  test('a fraction where an integer belongs', () => expectErrorAt('Switch { whichChoice 1.5 }', '1.5', /expected an integer/));
  test('a fraction in an integer list', () => expectErrorAt('IndexedFaceSet { coordIndex [ 0 1 2.5 -1 ] }', '[', /expected integers in the MFInt32 list, but value 3 is 2.5/));
  test('a word in an integer list', () => expectErrorAt('IndexedFaceSet { coordIndex [ 0 1 two -1 ] }', 'two', /expected a number or '\]' in the MFInt32 list, found 'two'/));
  test('an unclosed integer list', () => expectErrorAt('IndexedFaceSet { coordIndex [ 0 1 2\n', '[', /unterminated MFInt32 list/));
  test('MFVec3f with a partial vector', () => expectErrorAt('Coordinate { point [ 1 2 3, 4 5 ] }', '[', /groups of 3 numbers, but the list has 5/));
  test('USE of an undefined name', () => expectErrorAt('Shape { geometry USE NOPE }', 'USE', /USE of 'NOPE'/));
  test('USE before its DEF', () => expectErrorAt('Group { children [ USE B DEF B Group { } ] }', 'USE B', /USE of 'B'/));
  test('unterminated string', () => expectErrorAt('WorldInfo { title "abc }\n', '"abc', /unterminated string/));
  test('unterminated node', () => expectErrorAt('Group { children Shape { geometry Box { size 1 1 1 }\n', 'Shape {', /unterminated Shape node/));
  test('unterminated list', () => expectErrorAt('Group { children [ Shape { }\n', '[', /unterminated node list/));
  test('unterminated number list', () => expectErrorAt('Coordinate { point [ 1 2 3\n', '[', /unterminated MFVec3f list/));
  test('an extra closing brace', () => expectErrorAt('Group { }\n}', '}', /unexpected '\}'/, 1));
  test('a node where it cannot stand', () => expectErrorAt('Transform { children [ Box { } ] }', 'Box', /a Box node cannot stand here \(expected a child node\)/));
  test('a material as geometry', () => expectErrorAt('Shape { geometry Material { } }', 'Material', /expected a geometry node/));
  test('an unknown field type in a PROTO', () => expectErrorAt('PROTO P [ field SFFoo x 1 ] { Group { } }', 'SFFoo', /unknown field type 'SFFoo'/));
  test('a zero rotation axis with an angle', () => expectErrorAt('Transform { rotation 0 0 0 1 children Shape { geometry Box { } } }', '0 0 0 1', /zero vector/));
  test('coordIndex beyond the coordinates', () =>
    expectErrorAt('Shape { geometry IndexedFaceSet { coord Coordinate { point [ 0 0 0, 1 0 0, 0 1 0 ] } coordIndex [ 0 1 3 ] } }', '[ 0 1 3', /coordIndex\[2\] = 3, but there are only 3 coordinates/));
});

describe('PROTO errors', () => {
  test('IS outside a PROTO body', () => expectErrorAt('Shape { geometry Box { size IS s } }', 'IS', /outside a PROTO body/));
  test('IS of a field the PROTO lacks', () => expectErrorAt('PROTO P [ ] { Box { size IS s } }\nShape { geometry P { } }', 'IS', /has no field 's'/));
  test('IS of a field of another type', () =>
    expectErrorAt('PROTO P [ field SFFloat s 1 ] { Box { size IS s } }\nShape { geometry P { } }', 'IS', /Box.size is SFVec3f but the PROTO field s is SFFloat/));
  test('a PROTO that instantiates itself', () =>
    expectErrorAt('PROTO A [ ] { Group { children A { } } }\nA { }', 'A { }', /PROTO A instantiates itself/));
  test('mutually recursive PROTOs', () =>
    expectErrorAt('PROTO A [ ] { Group { children B { } } }\nPROTO B [ ] { Group { children A { } } }\nA { }', 'A { }', /PROTO A instantiates itself/));

  test('exponentially nested PROTOs stop at the instance budget, quickly', () => {
    let body = 'PROTO P0 [ ] { Group { } }\n';
    for (let i = 1; i <= 30; i++) body += `PROTO P${i} [ ] { Group { children [ P${i - 1} { } P${i - 1} { } ] } }\n`;
    body += 'P30 { }\n';
    const started = performance.now();
    const error = loadError(() => loadVrmlShapes(writeModel(HEADER + body), {}));
    expect(error.message).toMatch(new RegExp(`more than ${MAX_PROTO_INSTANCES} PROTO instances`));
    expect(performance.now() - started).toBeLessThan(20_000);
  });

  test('an EXTERNPROTO no url resolves is a warning and renders nothing', () => {
    const file = writeModel(`${HEADER}EXTERNPROTO X [ field SFFloat r ] "nowhere.wrl#X"\nShape { geometry Box { } }\nX { r 2 }`);
    expect(loadVrmlShapes(file, {}).map((s) => s.geometry.kind)).toEqual(['box']);
  });
});

describe('files and limits', () => {
  test('a missing Inline file', () => expectErrorAt('Group { children Inline { url "nope.wrl" } }', 'Inline', /Inline: no file found for 'nope.wrl'/));
  test('a malformed file: url', () => expectErrorAt('Group { children Inline { url "file://%E0%A4%A.wrl" } }', 'Inline', /no file found/));

  test('an Inline cycle names the file and the Inline that closes it', () => {
    const error = loadError(() => loadVrmlShapes(join(vrmlModelsDir, 'parts/cycle-a.wrl'), {}));
    expect(error).toMatchObject({ file: join(vrmlModelsDir, 'parts/cycle-b.wrl'), line: 3, column: 12 });
    expect(error.message).toMatch(/include cycle/);
  });

  test('a file over the size limit', () => {
    const file = writeModel(`${HEADER}Shape { geometry Box { } }`);
    expect(loadError(() => loadVrmlShapes(file, { limits: { maxFileBytes: 10 } })).message).toMatch(/more than the limit of 10/);
  });

  test('more included files than allowed', () => {
    const error = loadError(() => loadVrmlShapes(join(vrmlModelsDir, 'inline-main.wrl'), { limits: { maxIncludedFiles: 0 } }));
    expect(error).toMatchObject({ file: join(vrmlModelsDir, 'inline-main.wrl'), line: 5 });
    expect(error.message).toMatch(/more than 0 included files/);
  });

  test('nesting deeper than the depth limit is an error, not a stack overflow', () => {
    const depth = 20_000;
    const body = 'Group { children '.repeat(depth) + 'Shape { }' + ' }'.repeat(depth);
    const error = loadError(() => loadVrmlShapes(writeModel(HEADER + body), {}));
    // Either the limit or, before it, the JavaScript stack: both located in the file.
    expect(error.message).toMatch(/nested deeper than 1000|nested too deeply to read/);
    expect(error.line).toBe(2);
  });

  test('a file that does not exist', () => {
    expect(loadError(() => loadVrmlModel('/nonexistent/robot.wrl')).message).toMatch(/cannot read/);
  });
});

describe('hostile input never escapes as another exception', () => {
  const robot = `${openHrpProtos()}
DEF R Humanoid { humanoidBody DEF W Joint { jointType "free" children [
  DEF S Segment { mass 1 momentsOfInertia [ 1 0 0 0 1 0 0 0 1 ] children Shape { geometry Box { } } }
  DEF J Joint { jointType "rotate" jointAxis 0 1 0 jointId 0 children DEF G Gyro { } }
] } }
DEF X ExtraJoint { link1Name "W" link2Name "J" }`;

  test('the unmutated robot loads', () => {
    expect(loadVrmlModel(writeModel(robot)).links.map((l) => l.name)).toEqual(['W', 'J']);
  });

  test('random edits of a valid model load or fail with a located ModelLoadError', () => {
    const tail = robot.indexOf('DEF R Humanoid');
    const edit = fc.record({
      at: fc.integer({ min: tail, max: robot.length }),
      cut: fc.integer({ min: 0, max: 12 }),
      insert: fc.constantFrom('', '{', '}', '[', ']', '"', '#', 'IS', 'USE R', 'DEF', '-1', '1e999', 'Joint', 'NULL', ',', 'nan'),
    });
    fc.assert(
      fc.property(fc.array(edit, { minLength: 1, maxLength: 3 }), (edits) => {
        let text = robot;
        for (const e of edits) text = text.slice(0, e.at) + e.insert + text.slice(e.at + e.cut);
        try {
          loadVrmlModel(writeModel(text));
        } catch (e) {
          expect(e).toBeInstanceOf(ModelLoadError);
          const [d] = (e as ModelLoadError).diagnostics;
          expect(d!.file).toMatch(/model\.wrl$/);
          if (!/nothing can be loaded|cannot read/.test(d!.message)) expect(d!.line).toBeGreaterThan(0);
        }
      }),
      { numRuns: 300 },
    );
  });
});
