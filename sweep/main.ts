// npm run sweep [-- --only PATTERN] [--rerun] [--render] [--seed N] [--start-timeout S] [--model-timeout S]:
// every articulated corpus model simulated in Choreonoid and judged (docs/corpus-sweep.md says how), the results
// written after each model to docs/corpus-sweep.json and the document regenerated from them.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { closeObserver, installedPackage, liveRos, observerNode, ownRosDomain, processGroup } from '../test/support/live-rig.js';
import { corpusDir, projectRoot, requireShared } from '../test/support/oracle.js';
import { describeMissing } from '../test/support/peer-skip.js';
import { findChoreonoidShare } from '../test/support/peers.js';
import { renderDocument } from './document.js';
import { fileHash, selectModels, sweepModels } from './models.js';
import { REASONS, reasonFor } from './reasons.js';
import { merge, type ModelResult, passed, type SweepFile } from './report.js';
import { simulateModel } from './simulate.js';

const JSON_FILE = join(projectRoot, 'docs/corpus-sweep.json');
const DOC_FILE = join(projectRoot, 'docs/corpus-sweep.md');

const USAGE = 'usage: npm run sweep -- [--only PATTERN] [--rerun] [--render] [--seed N] [--start-timeout S] [--model-timeout S]';

function readResults(): SweepFile {
  return existsSync(JSON_FILE) ? (JSON.parse(readFileSync(JSON_FILE, 'utf8')) as SweepFile) : { about: {}, results: [] };
}

/** Both files, each replaced whole (a sweep stopped mid-write leaves the previous ones). */
function write(file: SweepFile, total: number): void {
  const put = (path: string, text: string): void => {
    writeFileSync(`${path}.tmp`, text);
    renameSync(`${path}.tmp`, path);
  };
  put(JSON_FILE, `${JSON.stringify(file, null, 1)}\n`);
  // Rows of models this run does not list (the share's, where no Choreonoid is installed) still count.
  put(DOC_FILE, renderDocument(file, Math.max(total, file.results.length), (model) => reasonFor(REASONS, model)));
}

/** One line of progress: the outcome and every failed check's figure. */
function line(r: ModelResult): string {
  if (r.outcome !== 'ran') return `${r.outcome}: ${r.message ?? ''}`;
  const failed = [
    r.rest && !r.rest.pass ? 'rest' : '',
    ...r.trajectories.filter((t) => !(t.probe.pass && t.jointStates.pass)).map((t) => t.controller),
    r.drive && !r.drive.pass ? `drive ${r.drive.distance.toFixed(3)} m` : '',
    r.explosion && !r.explosion.pass ? `explosion ${r.explosion.worst?.what}` : '',
  ].filter(Boolean);
  return passed(r) ? 'passed' : `failed: ${failed.join(', ')}`;
}

async function main(): Promise<number> {
  const { values } = parseArgs({
    options: {
      only: { type: 'string' },
      rerun: { type: 'boolean', default: false },
      render: { type: 'boolean', default: false },
      seed: { type: 'string', default: '1' },
      'start-timeout': { type: 'string', default: '180' },
      'model-timeout': { type: 'string', default: '300' },
      help: { type: 'boolean', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  requireShared();
  const share = findChoreonoidShare();
  if (!share.ok) console.log(`the share's models are left out: ${describeMissing(share)}`);
  const models = sweepModels(corpusDir, projectRoot, share.ok ? share.dir : null);
  const order = models.map((m) => m.model);
  let file = readResults();
  if (values.render) {
    write({ ...file, results: merge(file.results, [], order) }, models.length);
    console.log(`wrote ${DOC_FILE} from ${file.results.length} results`);
    return 0;
  }
  const hashes = new Map(models.map((m) => [m.model, fileHash(m.file)]));
  const done = new Map(file.results.map((r) => [r.model, r.hash]));
  const todo = selectModels(models, { ...(values.only ? { only: values.only } : {}), rerun: values.rerun }, done, (m) => hashes.get(m.model)!);
  console.log(`${todo.length} of ${models.length} models to run (${file.results.length} in ${JSON_FILE})`);
  if (todo.length === 0) return 0;

  const ros = await liveRos();
  if (ros.skip !== null) {
    console.error(`corpus sweep: no ROS 2 to run Choreonoid with: ${ros.skip}`);
    return 1;
  }
  const domain = ownRosDomain('corpus-sweep');
  const setup = await installedPackage();
  const node = await observerNode(ros.rcl, 'corpus-sweep');
  node.spin();
  const scratch = mkdtempSync(join(tmpdir(), 'bb-sweep-'));
  const logs = join(projectRoot, 'build/sweep/logs');
  mkdirSync(logs, { recursive: true });
  const procs = processGroup();
  const stop = async (): Promise<void> => {
    await procs.stopAll();
    closeObserver(ros.rcl, node);
    rmSync(scratch, { recursive: true, force: true });
  };
  // Ctrl-C: stop the launch in progress (its whole process group) before leaving.
  process.once('SIGINT', () => void stop().then(() => process.exit(130)));
  try {
    for (const [i, m] of todo.entries()) {
      const r = await simulateModel({ procs, setup, scratch, logs, node }, m, hashes.get(m.model)!, {
        start: Number(values['start-timeout']) * 1000,
        model: Number(values['model-timeout']) * 1000,
        seed: Number(values.seed),
      });
      console.log(`[${i + 1}/${todo.length}] ${m.model} (${r.wallSeconds} s): ${line(r)}`);
      file = readResults();
      file = {
        about: { command: 'npm run sweep', ros: process.env.ROS_DISTRO ?? '?', domain: String(domain), seed: values.seed!, last: r.date.slice(0, 16).replace('T', ' ') + ' UTC' },
        results: merge(file.results, [r], order),
      };
      write(file, models.length);
    }
  } finally {
    await stop();
  }
  return 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(1);
  },
);
