// Markdown for a run: the headline table (every figure next to its same-run peer) and the details.
import type { ModelLoadResult } from './load.js';
import type { BenchResults, Item } from './results.js';
import type { Stats } from './stats.js';

const n = (x: number, digits = 3): string => {
  if (!Number.isFinite(x)) return String(x);
  const abs = Math.abs(x);
  if (abs >= 1000) return Math.round(x).toLocaleString('en-US');
  return x.toPrecision(digits).replace(/\.?0+$/, (m) => (m.includes('.') ? '' : m));
};
const ms = (s: Stats): string => `${n(s.median)} ms`;
const spread = (s: Stats): string => `${n(s.q1)}–${n(s.q3)} (min ${n(s.min)}, max ${n(s.max)}, n=${s.n})`;
const ratio = (r: number | null): string => (r === null ? '—' : `${n(r)}×`);
const mib = (bytes: number): string => `${n(bytes / 2 ** 20)} MiB`;
const target = (r: number | null, limit: number): string =>
  r === null ? '—' : r <= limit ? `≤ ${limit}× ✔` : `≤ ${limit}× ✘`;

const row = (cells: readonly string[]): string => `| ${cells.map((c) => c.replace(/\|/g, '\\|')).join(' | ')} |`;
const table = (head: readonly string[], rows: readonly (readonly string[])[]): string =>
  [row(head), row(head.map(() => '---')), ...rows.map(row)].join('\n');

function na<T extends object>(item: Item<T> | null): string | null {
  if (item === null) return 'not run (--only)';
  return item.status === 'ok' ? null : `not available: ${item.reason}`;
}

function headline(r: BenchResults): string {
  const rows: string[][] = [];
  const load = r.load;
  if (load?.status === 'ok') {
    for (const g of load.groups) {
      const kind = g.group === 'yaml' ? 'YAML-only' : 'VRML (.wrl or YAML pulling in .wrl)';
      const what = `Load + URDF, ${g.models} ${kind} model${g.models === 1 ? '' : 's'} (total)`;
      rows.push([
        what,
        g.oursTotalMs ? ms(g.oursTotalMs) : '—',
        g.group === 'yaml' ? 'libyaml C loader, same YAML bytes' : 'TextDecoder + byte scan (limit)',
        g.peerTotalMs ? ms(g.peerTotalMs) : '—',
        ratio(g.ratio),
        g.group === 'yaml' ? target(g.ratio, 3) : 'physical limit (no target)',
      ]);
    }
    const big = load.bigWrl;
    if ('error' in big) rows.push(['Generated .wrl', `not available: ${big.error}`, '', '', '', '']);
    else {
      rows.push([
        `Generated .wrl, ${big.triangles.toLocaleString('en-US')} triangles`,
        ms(big.totalMs),
        'TextDecoder + byte scan (limit)',
        ms(big.limitMs),
        ratio(big.ratio),
        big.totalMs.median < 1000 ? '< 1 s ✔' : '< 1 s ✘',
      ]);
    }
  } else rows.push(['Load + URDF', na(load) ?? '', '', '', '', '']);

  const cn = r.choreonoid;
  if (cn === undefined) {
    // A run from before the comparison existed.
  } else if (cn?.status === 'ok') {
    const models = `${cn.models.length} models both load`;
    const peer = `Choreonoid ${cn.version} cnoid::BodyLoader (C++, shapes on)`;
    const best = `best of ${cn.reps.reps}`;
    rows.push([`Load vs Choreonoid, ${models} (total, ${best})`, `${n(cn.total.oursLoadMs)} ms`, peer, `${n(cn.total.choreonoidMs)} ms`, ratio(cn.total.loadRatio), target(cn.total.loadRatio, 1)]);
    rows.push([`Load + URDF vs Choreonoid's load, same models (total)`, `${n(cn.total.oursLoadUrdfMs)} ms`, peer, `${n(cn.total.choreonoidMs)} ms`, ratio(cn.total.loadUrdfRatio), target(cn.total.loadUrdfRatio, 1.3)]);
    const w = cn.worst[0];
    if (w) rows.push([`Load vs Choreonoid, slowest model by ratio: ${w.file}`, `${n(w.oursLoadMs)} ms`, peer, `${n(w.choreonoidMs)} ms`, ratio(w.loadRatio), `every model ≤ 3× ${cn.modelsAbove3x === 0 ? '✔' : `✘ (${cn.modelsAbove3x} above)`}`]);
  } else rows.push(["Load vs Choreonoid's BodyLoader", na(cn ?? null) ?? '', '', '', '', '']);

  const tf = r.tf;
  if (tf?.status === 'ok') {
    for (const c of tf.cases) {
      if (c.status !== 'ok') rows.push([`TF: ${c.name}`, `not available: ${c.reason}`, '', '', '', '']);
      else {
        rows.push([
          `TF: ${c.name} (${c.movingJoints} moving joints)`,
          `${n(c.oursUpdatesPerSec.median)} msg/s`,
          'robot_state_publisher work on KDL (C++)',
          `${n(c.peerUpdatesPerSec.median)} msg/s`,
          ratio(c.ratio),
          target(c.ratio, 2),
        ]);
      }
    }
  } else rows.push(['TF throughput', na(tf) ?? '', '', '', '', '']);

  const sensors = r.sensors;
  if (sensors?.status === 'ok') {
    for (const c of sensors.cases) {
      if (c.status !== 'ok') rows.push([c.name, `not available: ${c.reason}`, '', '', '', '']);
      else {
        rows.push([
          c.name,
          `${n(c.oursOutputMBps)} MB/s (${ms(c.oursMs)})`,
          `TypedArray.set of ${n(c.copyBytes / 1e6)} MB`,
          `${n(c.copyMBps)} MB/s (${ms(c.copyMs)})`,
          ratio(c.ratio),
          // The target covers the relays that move images and clouds; the others are a few microseconds of
          // fixed cost per message against a copy of a few hundred bytes.
          c.outputBytes >= 100_000 ? target(c.ratio, 3) : 'no target',
        ]);
      }
    }
  } else rows.push(['Sensor conversions', na(sensors) ?? '', '', '', '', '']);

  const mem = r.memory;
  if (mem?.status === 'ok') {
    rows.push([
      `Memory: peak RSS serving ${mem.model}`,
      mib(mem.peakRssAfterLoadBytes),
      'node baseline before loading',
      mib(mem.baselineRssBytes),
      '',
      '',
    ]);
    rows.push([
      `Memory: growth over ${mem.messages.toLocaleString('en-US')} joint states`,
      `heap ${mib(mem.heapGrowthBytes)}, RSS ${mib(mem.rssGrowthBytes)}`,
      'no growth',
      '0',
      '',
      `${n(mem.heapGrowthPerMessageBytes)} B/message`,
    ]);
  } else rows.push(['Memory', na(mem) ?? '', '', '', '', '']);

  return table(['measurement', 'body_bridge', 'peer / limit (same run)', 'peer', 'ratio', 'target'], rows);
}

function loadDetails(r: BenchResults): string {
  const load = r.load;
  if (load?.status !== 'ok') return '';
  const m = (x: ModelLoadResult): string[] => [
    x.file,
    x.group,
    String(x.links),
    x.triangles.toLocaleString('en-US'),
    `${n(x.bytesRead / 1024)} KiB`,
    `${ms(x.loadMs)} + ${ms(x.urdfMs)}`,
    spread(x.totalMs),
    x.peerMs ? ms(x.peerMs) : (x.peerError ?? '—'),
    ratio(x.ratio),
  ];
  const head = ['model', 'group', 'links', 'triangles', 'read', 'load + URDF (median)', 'total IQR', 'peer', 'ratio'];
  const parts = [
    '### Load + URDF: groups',
    table(
      ['group', 'models', 'body_bridge total (Σ medians)', 'of which load / URDF', 'spread (Σ per-model quartiles, extremes)', 'peer', 'peer total (Σ medians)', 'ratio of totals', 'per-model ratios (median, IQR)'],
      load.groups.map((g) => [
        g.group,
        String(g.models),
        g.oursTotalMs ? ms(g.oursTotalMs) : '—',
        g.oursLoadMs && g.oursUrdfMs ? `${ms(g.oursLoadMs)} / ${ms(g.oursUrdfMs)}` : '—',
        g.oursTotalMs ? spread(g.oursTotalMs) : '—',
        g.peer,
        g.peerTotalMs ? ms(g.peerTotalMs) : '—',
        ratio(g.ratio),
        g.perModelRatio ? `${n(g.perModelRatio.median)}× (${n(g.perModelRatio.q1)}–${n(g.perModelRatio.q3)})` : '—',
      ]),
    ),
    '',
    '### Ten slowest models',
    table(head, load.slowest.map(m)),
    '',
    '### Largest models',
    table(
      ['which', ...head],
      [
        ...(load.mostLinks ? [['most links', ...m(load.mostLinks)]] : []),
        ...(load.mostTriangles ? [['most triangles', ...m(load.mostTriangles)]] : []),
      ],
    ),
  ];
  if (!('error' in load.bigWrl)) {
    const b = load.bigWrl;
    parts.push(
      '',
      `Generated .wrl (${b.triangles.toLocaleString('en-US')} triangles, ${n(b.bytes / 2 ** 20)} MiB): load ${ms(b.loadMs)} + URDF ${ms(b.urdfMs)} = ${ms(b.totalMs)} (${spread(b.totalMs)}).`,
    );
  }
  if (load.failed.length > 0) {
    parts.push('', `Models Choreonoid loads but body_bridge did not (${load.failed.length}), excluded from the totals:`, '');
    for (const f of load.failed) parts.push(`- \`${f.file}\`: ${f.error}`);
  }
  return parts.join('\n');
}

function choreonoidDetails(r: BenchResults): string {
  const cn = r.choreonoid;
  if (cn?.status !== 'ok') return '';
  const row = (m: (typeof cn.models)[number]): string[] => [m.file, `${n(m.choreonoidMs)} ms`, `${n(m.oursLoadMs)} ms`, ratio(m.loadRatio), `${n(m.oursLoadUrdfMs)} ms`, ratio(m.loadUrdfRatio)];
  const head = ['model', 'Choreonoid load', 'body_bridge load', 'ratio', 'body_bridge load + URDF', 'ratio'];
  const bySide = (side: 'choreonoid' | 'body_bridge'): string[] => cn.skipped.filter((s) => s.side === side).map((s) => s.file);
  const skippedCn = bySide('choreonoid');
  const skippedOurs = bySide('body_bridge');
  return [
    "### Load against Choreonoid's BodyLoader",
    '',
    `Choreonoid ${cn.version} from ${cn.prefix} (bench/choreonoid_load.cpp, a fresh \`cnoid::BodyLoader\` per load, shapes on); ` +
      `each side best of ${cn.reps.reps} after ${cn.reps.warmup} warm-up load(s), the two sides alternating every few models. ` +
      `${cn.models.length} models both load; per-model load ratio median ${ratio(cn.medianLoadRatio)} (load + URDF ${ratio(cn.medianLoadUrdfRatio)}), ` +
      `${cn.modelsAbove3x} above 3×.`,
    '',
    table(head, [['**total**', `${n(cn.total.choreonoidMs)} ms`, `${n(cn.total.oursLoadMs)} ms`, ratio(cn.total.loadRatio), `${n(cn.total.oursLoadUrdfMs)} ms`, ratio(cn.total.loadUrdfRatio)], ...cn.worst.map(row)]),
    '',
    `The ten highest load ratios are listed below the total; every model's figures are in the JSON (\`choreonoid.models\`).`,
    ...(skippedCn.length > 0 ? ['', `Left out because Choreonoid's loader (built without Assimp) did not load them (${skippedCn.length}): ${skippedCn.map((f) => `\`${f}\``).join(', ')}.`] : []),
    ...(skippedOurs.length > 0 ? ['', `Left out because body_bridge did not load them (${skippedOurs.length}): ${skippedOurs.map((f) => `\`${f}\``).join(', ')}.`] : []),
  ].join('\n');
}

function tfDetails(r: BenchResults): string {
  const tf = r.tf;
  if (tf?.status !== 'ok') return '';
  const rows = tf.cases.flatMap((c) =>
    c.status !== 'ok'
      ? []
      : [
          [
            c.name,
            String(c.movingJoints),
            String(c.messages),
            `${n(c.oursUpdatesPerSec.median)} (${n(c.oursUpdatesPerSec.q1)}–${n(c.oursUpdatesPerSec.q3)})`,
            `${n(c.peerUpdatesPerSec.median)} (${n(c.peerUpdatesPerSec.q1)}–${n(c.peerUpdatesPerSec.q3)})`,
            `${n(c.oursTransformsPerMessage)} / ${n(c.peerTransformsPerMessage)}`,
            `${c.agreement.compared} frames, ${c.agreement.missing} missing, Δt ≤ ${c.agreement.maxTranslationError.toExponential(1)} m, |Δq| ≤ ${c.agreement.maxQuaternionError.toExponential(1)}`,
          ],
        ],
  );
  return [
    '### TF throughput',
    table(['case', 'moving joints', 'messages/rep', 'body_bridge msg/s (IQR)', 'KDL msg/s (IQR)', 'transforms/msg (ours / KDL)', 'last message, ours vs KDL'], rows),
  ].join('\n');
}

function sensorDetails(r: BenchResults): string {
  const s = r.sensors;
  if (s?.status !== 'ok') return '';
  const rows = s.cases.flatMap((c) =>
    c.status !== 'ok'
      ? []
      : [[c.name, `${n(c.inputBytes / 1e6)} MB`, `${n(c.outputBytes / 1e6)} MB`, `${ms(c.oursMs)} (${spread(c.oursMs)})`, `${ms(c.copyMs)} (${spread(c.copyMs)})`, ratio(c.ratio), `${ms(c.copyFreshMs)} (${ratio(c.oursMs.median / c.copyFreshMs.median)})`]],
  );
  return ['### Device relays (CDR in → CDR out)', table(['conversion', 'in', 'out', 'body_bridge', 'TypedArray.set copy (limit)', 'ratio', 'copy into a new buffer (ratio)'], rows)].join('\n');
}

function memoryDetails(r: BenchResults): string {
  const mem = r.memory;
  if (mem?.status !== 'ok') return '';
  return [
    '### Memory',
    `Model: \`${mem.model}\` (${mem.links} links, ${mem.movingJoints} moving joints). Baseline RSS ${mib(mem.baselineRssBytes)}; peak RSS while loading and serving ${mib(mem.peakRssAfterLoadBytes)}; RSS serving (after GC) ${mib(mem.servingRssBytes)}; peak RSS of the whole run ${mib(mem.peakRssBytes)}.`,
    '',
    table(
      ['joint-state messages', 'RSS after GC', 'heap used after GC'],
      mem.samples.map((s) => [s.messages.toLocaleString('en-US'), mib(s.rssBytes), mib(s.heapUsedBytes)]),
    ),
  ].join('\n');
}

/** Machine and headline table of one run. */
function renderSummary(r: BenchResults): string {
  const m = r.machine;
  return [
    `## Results (${r.mode} run, ${r.finishedAt})`,
    '',
    `Machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}; Node ${m.node} (V8 ${m.v8}); ${m.gxx}; ${m.python}; ${m.kdl}. Load average at start: ${m.loadAverageAtStart}. Run took ${r.durationSec} s.`,
    '',
    'Ratio = body_bridge time / peer time (for throughputs: peer rate / body_bridge rate), so above 1 means slower than the peer.',
    '',
    headline(r),
    '',
  ].join('\n');
}

function renderDetails(r: BenchResults): string {
  return [loadDetails(r), '', choreonoidDetails(r), '', tfDetails(r), '', sensorDetails(r), '', memoryDetails(r), ''].join('\n');
}

/** The tables of one run (bench/results/latest.md). */
export function renderTables(r: BenchResults): string {
  return [renderSummary(r), renderDetails(r)].join('\n');
}

/** BENCHMARKS.md: how to read, the headline table, the hand-written notes (bench/notes.md), how to reproduce, the details. */
export function renderBenchmarksMd(r: BenchResults, notes = ''): string {
  return [
    '# Benchmarks',
    '',
    'Every figure sits next to a peer or physical limit measured **in the same run on the same machine**;',
    'read the ratios, not the absolute times (those drift with the machine and its load). Each figure is the',
    'median of several repetitions after warm-up runs, with the spread (interquartile range, min, max) beside it.',
    '',
    '- **Load + URDF**: `loadRobotModel` + `toUrdf` (URDF text and generated meshes, in memory) for every corpus',
    "  model Choreonoid loads (oracle `ok: true`). Peer for YAML models: libyaml's C loader (`yaml.load(bytes,",
    '  Loader=yaml.CSafeLoader)`, Debian python3-yaml) parsing every YAML file our load read (traced, each file once),',
    '  timed in-process. For VRML models (and YAML models that pull in .wrl files) there is no C peer: the limit is',
    '  decoding the same bytes with `TextDecoder` plus one byte scan. A generated .wrl with 100k+ triangles is reported too.',
    '  Models slower than 5 s are timed once after the first run (n = 1 in the tables).',
    "- **Load against Choreonoid**: the same model files loaded by Choreonoid's own C++ `cnoid::BodyLoader`",
    '  (`bench/choreonoid_load.cpp`, shapes on, a fresh loader per load) and by `loadRobotModel` (and',
    '  `loadRobotModel` + `toUrdf`), best of 3 after a warm-up load on each side, the sides alternating every 20',
    '  models; the models both load are compared. Choreonoid is built outside the repository (see the notes below);',
    '  without it the measurement reports "not available".',
    "- **TF throughput**: JointState CDR → TFMessage CDR through the node's complete per-message path (`startRobotPublisher`",
    '  on the in-memory transport, which carries the same bytes as rclnodejs), stamps 0.1 s apart so every message',
    '  publishes every moving joint. Peer:',
    "  `bench/kdl_tf.cpp` (Debian orocos-kdl + kdl_parser, g++ -O2) doing robot_state_publisher's per-message",
    '  work on the URDF body_bridge generates (joint map, `Segment::pose(q)`, quaternion, frame names, stamp).',
    "  The last message's transforms of both sides are compared frame by frame (same work, same answer).",
    "- **Device relays**: the CDR bytes of a message shaped as choreonoid_ros's BodyROS2Item fills it in, the CDR",
    '  bytes of everything the relay publishes for it out, through `startDeviceRelay` on the in-memory transport.',
    '  Limit: `Uint8Array.prototype.set` copying the larger of the two sizes into a preallocated buffer; the 3× target',
    '  is for the image and cloud relays. Live figures on ROS 2 (`npm run bench:live`) are in their own section below.',
    '- **Memory**: a fresh `node --expose-gc` process serving the corpus model that reads the most bytes; peak',
    '  RSS (getrusage), then RSS and heap after forced GCs every 10 % of 10^6 joint-state messages.',
    '',
    renderSummary(r),
    ...(notes.trim() === '' ? [] : [notes.trim(), '']),
    '## Reproduce',
    '',
    '```sh',
    'npm ci',
    'npm run bench                 # full run: bench/results/latest.json + latest.md',
    'npm run bench -- --publish    # also rewrites BENCHMARKS.md and BENCHMARKS.json',
    'npm run bench -- --tiny       # the small run the test suite checks',
    'npm run bench -- --only tf,sensors --models HRP4C',
    'CHOREONOID_PREFIX=<its install prefix> npm run bench -- --only choreonoid   # the Choreonoid comparison alone',
    'npm run bench -- --render BENCHMARKS.json --publish   # re-render only (after editing bench/notes.md)',
    '```',
    '',
    'Needs `../shared` (corpus + oracle), `python3-yaml` (with libyaml), `g++`, `liborocos-kdl-dev` and',
    '`libkdl-parser-dev` (all installed by `.ci/run`). The KDL peer is built into `build/kdl_tf`, the Choreonoid',
    'harness into `build/choreonoid_load` (against the Choreonoid SDK at `CHOREONOID_PREFIX`, or the one `choreonoid` on PATH or',
    'its CMake config on `CMAKE_PREFIX_PATH` leads to: test/support/peers.ts).',
    '',
    '## Details',
    '',
    renderDetails(r),
  ].join('\n');
}
