// The direct YAML reader (src/body/yaml-reader.ts) against its reference, the `yaml` package route
// (parseWithYamlPackage): on every YAML file of the corpus and of the test models, and on mutated
// copies of them, whatever the direct reader accepts must be node for node what the `yaml` route
// gives — values, YAML paths, lines, columns, anchors and warnings — and whatever the `yaml` route
// rejects, the direct reader must leave to it (return null).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { defaultLimits } from '../src/model/options.js';
import type { Diagnostic } from '../src/model/types.js';
import { FLOW_UNDERINDENTED, readYamlSubset } from '../src/body/yaml-reader.js';
import { indentFlowContinuations, parseWithYamlPackage, type YNode, type YamlFile } from '../src/body/yaml-tree.js';
import { loadBodyFile } from '../src/body/index.js';
import { corpusDir, projectRoot, requireShared } from './support/oracle.js';
import { seededRandom } from '../src/moveit/collision-matrix.js';

function yamlFiles(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name);
    if (statSync(p).isDirectory()) yamlFiles(p, out);
    else if (/\.(body|ya?ml)$/.test(name)) out.push(p);
  }
  return out;
}

/** Every observable property of a node (locations of copies are getters, so they are read explicitly). */
function plain(n: YNode): unknown {
  const loc = { ...n.loc };
  if (n.kind === 'scalar') return { kind: n.kind, value: n.value, sink: n.sink !== undefined, loc };
  if (n.kind === 'seq') return { kind: n.kind, loc, items: n.items.map(plain) };
  return { kind: n.kind, loc, entries: [...n.entries].map(([k, v]) => [k, plain(v)]) };
}

const view = (f: YamlFile, warnings: Diagnostic[]): unknown => ({
  root: plain(f.root),
  anchors: [...f.anchors].map(([k, v]) => [k, plain(v)]),
  warnings,
});

/** The direct reader as parseYamlText uses it (relaxed flow indentation retried); null = left to `yaml`. */
function direct(file: string, text: string, warnings: Diagnostic[]): YamlFile | null {
  let got = readYamlSubset(file, text, defaultLimits, warnings, new Map());
  if (got === FLOW_UNDERINDENTED) got = readYamlSubset(file, indentFlowContinuations(text), defaultLimits, warnings, new Map());
  return got === FLOW_UNDERINDENTED ? null : got;
}

/** Compares both routes on one text; returns whether the direct reader took it. */
function compare(file: string, text: string): boolean {
  const refWarnings: Diagnostic[] = [];
  let ref: YamlFile | undefined;
  try {
    ref = parseWithYamlPackage(file, text, defaultLimits, refWarnings);
  } catch {
    ref = undefined;
  }
  const warnings: Diagnostic[] = [];
  const got = direct(file, text, warnings);
  if (got === null) return false;
  expect(ref, `${file}: the direct reader accepted what the yaml route rejects`).toBeDefined();
  expect(view(got, warnings), file).toEqual(view(ref!, refWarnings));
  return true;
}

/** A deterministic pseudo-random sequence (the collision matrix's seeded generator). */
const random = seededRandom;

/** One small edit of the kind that breaks YAML structure: a character removed, doubled or replaced, a line shifted. */
function mutate(text: string, next: () => number): string {
  const at = Math.floor(next() * text.length);
  const pick = Math.floor(next() * 6);
  const chars = [' ', ':', '-', '[', ']', '{', '}', ',', '&a', '*a', '#', '"', "'", '\n', '<<: ', '|', '-,', '? ', '!', '\t', '  - ', ': '];
  switch (pick) {
    case 0:
      return text.slice(0, at) + text.slice(at + 1);
    case 1:
      return text.slice(0, at) + text[at] + text.slice(at);
    case 2:
      return text.slice(0, at) + chars[Math.floor(next() * chars.length)]! + text.slice(at + 1);
    case 3:
      return text.slice(0, at) + chars[Math.floor(next() * chars.length)]! + text.slice(at);
    case 4: {
      const start = text.lastIndexOf('\n', at) + 1;
      return `${text.slice(0, start)}  ${text.slice(start)}`;
    }
    default: {
      const start = text.lastIndexOf('\n', at) + 1;
      return text.slice(0, start) + text.slice(start).replace(/^ {1,2}/, '');
    }
  }
}

describe('the direct YAML reader gives what the yaml package route gives', () => {
  requireShared();
  const files = [...yamlFiles(corpusDir), ...yamlFiles(join(projectRoot, 'test'))];

  test('on every corpus and test YAML file it takes nearly all of them, node for node equal', () => {
    let taken = 0;
    for (const f of files) if (compare(f, readFileSync(f, 'utf8'))) taken++;
    // Nearly every real model is plain YAML; the few left to `yaml` use what the reader leaves out.
    expect(taken / files.length).toBeGreaterThan(0.9);
  });

  test('on 3,000 mutated copies: equal where it takes them, never taking what the yaml route rejects', () => {
    const next = random(15);
    const sources = files.filter((f) => statSync(f).size < 40_000).map((f) => [f, readFileSync(f, 'utf8')] as const);
    let taken = 0;
    for (let i = 0; i < 3000; i++) {
      const [file, text] = sources[Math.floor(next() * sources.length)]!;
      let mutated = mutate(text, next);
      if (next() < 0.5) mutated = mutate(mutated, next);
      if (compare(file, mutated)) taken++;
    }
    expect(taken).toBeGreaterThan(500);
  });

  test('an anchor on an alias (`&a *b`, which YAML forbids) is left to the yaml route, which rejects it', () => {
    // Found by the mutation test above: `<<: [&a *MAIN_BELT_SPEC, ...]` in a copy of AizuSpiderNA.body was taken.
    const file = join(corpusDir, 'x.body');
    for (const text of ['b: &x 1\na: [&a *x]\n', 'b: &x 1\na: &a *x\n', 'b: &x 1\na: &a\n  *x\n', 'b: &x 1\nc:\n  - &a *x\n', 'b: &x 1\na: { k: &a *x }\n']) {
      expect(direct(file, text, []), text).toBeNull();
      expect(() => parseWithYamlPackage(file, text, defaultLimits, []), text).toThrow(/alias node must not specify any properties/);
    }
  });

  test('an anchor not followed by white space (`&a[ 0 ]`) is left to the yaml route, which rejects it', () => {
    // Found by the mutation test above (28 Nov 2026): `translation: &a[ 0, 0, 0.7135 ]` in a copy of SR1-floor-box.body.
    const file = join(corpusDir, 'x.body');
    for (const text of ['a: &x[ 0, 0 ]\n', 'a: &x{ b: 1 }\n', 'a:\n  &x[ 1 ]\n']) {
      expect(direct(file, text, []), text).toBeNull();
      expect(() => parseWithYamlPackage(file, text, defaultLimits, []), text).toThrow(/separated from the next token by white space/);
    }
  });

  test('limits and cycles are left to the yaml route, which reports them located', () => {
    const file = join(corpusDir, 'x.body');
    const w: Diagnostic[] = [];
    expect(direct(file, 'a: &c [ 0, 0, *c ]\n', w)).toBeNull();
    expect(direct(file, 'a: *nowhere\n', w)).toBeNull();
    const bomb = ['a: &a [x, x, x, x, x, x, x, x, x, x]', ...Array.from({ length: 9 }, (_, i) => `${String.fromCharCode(98 + i)}: &${String.fromCharCode(98 + i)} [${Array(10).fill(`*${String.fromCharCode(97 + i)}`).join(', ')}]`)].join('\n');
    expect(readYamlSubset(file, `${bomb}\n`, defaultLimits, w, new Map())).toBeNull();
    expect(w).toEqual([]);
  });
});

describe('merge keys (issue 17 item 4)', () => {
  test('a key that overrides a merged one is not a duplicate; a key written twice in one mapping is', () => {
    const text = [
      'format: ChoreonoidBody',
      'format_version: 2.0',
      'BOX: &BOX { type: Shape, translation: [ 0, 0, 0 ], geometry: { type: Box, size: [ 1, 1, 1 ] } }',
      'links:',
      '  - name: base',
      '    joint_type: free',
      '    elements:',
      '      - { <<: *BOX, translation: [ 1, 0, 0 ] }',
      '      - <<: *BOX',
      '        translation: [ 2, 0, 0 ]',
      '        translation: [ 3, 0, 0 ]',
      '',
    ].join('\n');
    for (const route of ['direct', 'yaml'] as const) {
      const warnings: Diagnostic[] = [];
      const file = join(corpusDir, 'merge.body');
      const f = route === 'direct' ? direct(file, text, warnings) : parseWithYamlPackage(file, text, defaultLimits, warnings);
      expect(f, route).not.toBeNull();
      expect(warnings.map((w) => [w.line, w.path, w.message]), route).toEqual([
        [11, 'links[0].elements[1].translation', 'duplicate key "translation" in a mapping: the later value is used'],
      ]);
    }
  });

  test('loading such a body warns only about the key written twice', () => {
    const model = loadBodyFile(join(projectRoot, 'test', 'models', 'merge-override.body'));
    expect(model.warnings.filter((w) => /duplicate key/.test(w.message)).map((w) => w.line)).toEqual([13]);
  });
});
