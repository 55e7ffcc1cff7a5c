#!/usr/bin/env node
// Puts rclnodejs's own TypeScript declarations under build/rclnodejs/types without running its
// install step (which compiles against a sourced ROS 2), so tsconfig.ros.json can type-check
// src/ros/rclnodejs-transport.ts anywhere.
//
// The published package ships types/*.d.ts but not types/interfaces.d.ts: rclnodejs generates that
// file at install time from the message packages of the sourced ROS. Here it is generated instead
// from the ROS 2 Jazzy .msg definitions in @foxglove/rosmsg-msgs-common, in the same shape
// (namespaces pkg.msg.Name, a NameConstructor with the constants, MessagesMap keyed 'pkg/msg/Name').
// moveit_msgs and the two packages it needs, which that package lacks, come from the definitions kept
// under test/fixtures/msg (their sources: SOURCES.md there).
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const version = pkg.optionalDependencies?.rclnodejs;
if (!version || !/^\d+\.\d+\.\d+$/.test(version)) {
  console.error('package.json must pin optionalDependencies.rclnodejs to an exact version');
  process.exit(1);
}
const outDir = join(root, 'build', 'rclnodejs');
const typesDir = join(outDir, 'types');
const stampFile = join(outDir, 'VERSION');

// Message packages the rclnodejs declarations and body_bridge refer to (closure checked below).
const PACKAGES = [
  'builtin_interfaces',
  'std_msgs',
  'geometry_msgs',
  'sensor_msgs',
  'tf2_msgs',
  'nav_msgs',
  'shape_msgs',
  'trajectory_msgs',
  'octomap_msgs',
  'object_recognition_msgs',
  'moveit_msgs',
  'rcl_interfaces',
  'unique_identifier_msgs',
  'action_msgs',
  'lifecycle_msgs',
];

function fetchDeclarations() {
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8').trim() === version && existsSync(join(typesDir, 'index.d.ts'))) return;
  const work = mkdtempSync(join(tmpdir(), 'rclnodejs-types-'));
  try {
    // `npm pack` only downloads the tarball (from the npm cache when npm ci already fetched it); no scripts run.
    const tarball = execFileSync('npm', ['pack', `rclnodejs@${version}`, '--silent', '--prefer-offline', '--pack-destination', work], {
      cwd: work,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
    })
      .trim()
      .split('\n')
      .pop();
    execFileSync('tar', ['-xzf', join(work, tarball), '-C', work, 'package/types', 'package/LICENSE']);
    rmSync(outDir, { recursive: true, force: true });
    mkdirSync(typesDir, { recursive: true });
    for (const name of readdirSync(join(work, 'package', 'types'))) {
      if (name.endsWith('.d.ts')) copyFileSync(join(work, 'package', 'types', name), join(typesDir, name));
    }
    copyFileSync(join(work, 'package', 'LICENSE'), join(outDir, 'LICENSE'));
    writeFileSync(stampFile, `${version}\n`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const NUMBER_TYPES = new Set(['byte', 'char', 'int8', 'uint8', 'int16', 'uint16', 'int32', 'uint32', 'float32', 'float64']);
const TYPED_ARRAY = {
  byte: 'Uint8Array',
  uint8: 'Uint8Array',
  char: 'Int8Array',
  int8: 'Int8Array',
  int16: 'Int16Array',
  uint16: 'Uint16Array',
  int32: 'Int32Array',
  uint32: 'Uint32Array',
  float32: 'Float32Array',
  float64: 'Float64Array',
};

function primitive(type) {
  if (type === 'bool') return 'boolean';
  if (type === 'string' || type === 'wstring') return 'string';
  if (type === 'int64' || type === 'uint64') return 'bigint';
  // @foxglove/rosmsg spells builtin_interfaces/Time and Duration as the ROS 1 primitives.
  if (type === 'time') return 'builtin_interfaces.msg.Time';
  if (type === 'duration') return 'builtin_interfaces.msg.Duration';
  if (NUMBER_TYPES.has(type)) return 'number';
  throw new Error(`unknown primitive type ${type}`);
}

const tsName = (rosName) => {
  const [p, n] = rosName.split('/');
  return `${p}.msg.${n}`;
};

/** The fixture definitions, as @foxglove/rosmsg-msgs-common spells its own (a type without package is the file's). */
async function fixtureDefinitions() {
  const { parse } = await import('@foxglove/rosmsg');
  const dir = join(root, 'test', 'fixtures', 'msg');
  const out = {};
  for (const pkg of readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name)) {
    for (const file of readdirSync(join(dir, pkg)).filter((f) => f.endsWith('.msg'))) {
      const name = `${pkg}/${file.slice(0, -'.msg'.length)}`;
      const [def] = parse(readFileSync(join(dir, pkg, file), 'utf8'), { ros2: true, skipTypeFixup: true });
      const definitions = def.definitions.map((f) => (f.isComplex && !f.type.includes('/') ? { ...f, type: `${pkg}/${f.type}` } : f));
      out[name] = { name, definitions };
    }
  }
  return out;
}

async function generateInterfaces() {
  const { ros2jazzy } = await import('@foxglove/rosmsg-msgs-common');
  const byPackage = new Map();
  for (const [name, def] of Object.entries({ ...ros2jazzy, ...(await fixtureDefinitions()) })) {
    const [p] = name.split('/');
    if (!PACKAGES.includes(p)) continue;
    if (!byPackage.has(p)) byPackage.set(p, []);
    byPackage.get(p).push(def);
  }
  const lines = [
    '// Generated by scripts/rclnodejs-types.mjs from the ROS 2 Jazzy message definitions',
    '// (@foxglove/rosmsg-msgs-common), in the shape rclnodejs generates at install time. Do not edit.',
    "declare module 'rclnodejs' {",
  ];
  const messages = [];
  for (const p of PACKAGES) {
    const defs = byPackage.get(p) ?? [];
    lines.push(`  namespace ${p} {`, '    namespace msg {');
    for (const def of defs) {
      const name = def.name.split('/')[1];
      lines.push(`      export interface ${name} {`);
      for (const f of def.definitions) {
        if (f.isConstant) continue;
        if (f.isComplex && !PACKAGES.includes(f.type.split('/')[0])) throw new Error(`${def.name}.${f.name}: ${f.type} is outside the generated set`);
        const base = f.isComplex ? tsName(f.type) : primitive(f.type);
        let type = base;
        if (f.isArray) {
          type = `${base}[]`;
          if (!f.isComplex && TYPED_ARRAY[f.type]) type += ` | ${TYPED_ARRAY[f.type]}`;
        }
        lines.push(`        ${f.name}: ${type};`);
      }
      lines.push('      }');
      lines.push(`      export interface ${name}Constructor {`);
      for (const f of def.definitions) if (f.isConstant) lines.push(`        readonly ${f.name}: ${primitive(f.type)};`);
      lines.push(`        new (other?: ${name}): ${name};`, '      }');
      messages.push(`${p}/msg/${name}`);
    }
    lines.push('    }');
    if (p === 'action_msgs') {
      // Services are not in the message set; rclnodejs's declarations name this one (action_msgs/srv/CancelGoal).
      lines.push(
        '    namespace srv {',
        '      export interface CancelGoal_Response {',
        '        return_code: number;',
        '        goals_canceling: action_msgs.msg.GoalInfo[];',
        '      }',
        '    }',
      );
    }
    lines.push('  }');
  }
  lines.push('  type MessagesMap = {', "    'string': string;");
  for (const m of messages) lines.push(`    '${m}': ${tsName(m.replace('/msg/', '/'))};`);
  lines.push('  };');
  lines.push(
    '  type MessageTypeClassName = keyof MessagesMap;',
    '  type Message = MessagesMap[MessageTypeClassName];',
    '  type MessageType<T> = T extends MessageTypeClassName ? MessagesMap[T] : T extends new (...args: any[]) => infer R ? R : object;',
    '  type MessageTypeClassConstructorMap = {',
    "    'string': never;",
  );
  for (const m of messages) lines.push(`    '${m}': ${tsName(m.replace('/msg/', '/'))}Constructor;`);
  lines.push(
    '  };',
    '  type MessageConstructorType<T> = T extends MessageTypeClassName ? MessageTypeClassConstructorMap[T] : object;',
    '  type ServicesMap = {};',
    '  type ServiceTypeClassName = keyof ServicesMap;',
    '  type Service = ServicesMap[ServiceTypeClassName];',
    '  type ServiceType<T> = T extends ServiceTypeClassName ? ServicesMap[T] : T extends { Request: any; Response: any } ? T : object;',
    '  type ActionsMap = {};',
    '  type ActionTypeClassName = keyof ActionsMap;',
    '  type Action = ActionsMap[ActionTypeClassName];',
    '  type ActionType<T> = T extends ActionTypeClassName ? ActionsMap[T] : T extends { Goal: any; Feedback: any; Result: any } ? T : object;',
    '  type TypeClassName = MessageTypeClassName | ServiceTypeClassName | ActionTypeClassName;',
    '  type InterfaceType<T> = T extends TypeClassName ? (MessageTypeClassConstructorMap & ServicesMap & ActionsMap)[T] : object;',
    '}',
    '',
  );
  writeFileSync(join(typesDir, 'interfaces.d.ts'), lines.join('\n'));
}

fetchDeclarations();
await generateInterfaces();
console.log(`rclnodejs ${version} declarations in ${typesDir}`);
