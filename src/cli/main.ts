#!/usr/bin/env node
// `body-bridge <command> ...`: the dispatcher. A command is one entry in COMMANDS (one file each).
import { readFileSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { checkCommand } from './check.js';
import { controlCommand } from './control.js';
import { processIo, type Command, type CommandIo } from './command.js';
import { infoCommand } from './info.js';
import { moveitCommand } from './moveit.js';
import { projectCommand } from './project.js';
import { rvizCommand } from './rviz.js';
import { runTf } from './tf.js';
import { runUrdf } from './urdf.js';
import { viewCommand } from './view.js';

export const COMMANDS: readonly Command[] = [
  infoCommand,
  checkCommand,
  { name: 'urdf', summary: 'print (or write) the equivalent URDF and its meshes', run: runUrdf },
  { name: 'tf', summary: 'the pose of every frame for given joint values', run: runTf },
  viewCommand,
  moveitCommand,
  controlCommand,
  rvizCommand,
  projectCommand,
];

/** The version in package.json, two folders up from this file in src/ and in dist/ alike. */
export function packageVersion(): string {
  return (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
}

export function usage(commands: readonly Command[] = COMMANDS): string {
  const width = Math.max(...commands.map((c) => c.name.length));
  return (
    'usage: body-bridge <command> [options]   (body-bridge <command> --help for its options; --version)\n' +
    commands.map((c) => `  ${c.name.padEnd(width)}  ${c.summary}`).join('\n') +
    '\n'
  );
}

/** Runs one command line; returns the exit status (2 for usage errors). */
export async function runCli(argv: string[], io: CommandIo, commands: readonly Command[] = COMMANDS): Promise<number> {
  const [name, ...rest] = argv;
  if (name === undefined) {
    io.stderr(usage(commands));
    return 2;
  }
  if (name === '--version' || name === '-V') {
    io.stdout(`body-bridge ${packageVersion()}\n`);
    return 0;
  }
  if (name === '--help' || name === '-h' || name === 'help') {
    io.stdout(usage(commands));
    return 0;
  }
  const command = commands.find((c) => c.name === name);
  if (!command) {
    io.stderr(`body-bridge: unknown command "${name}"\n${usage(commands)}`);
    return 2;
  }
  return command.run(rest, io);
}

// Run only when executed (also through npm's bin symlink), not when imported by tests.
function isMain(): boolean {
  try {
    return process.argv[1] !== undefined && realpathSync(process.argv[1]) === realpathSync(fileURLToPath(import.meta.url));
  } catch {
    return false;
  }
}

if (isMain()) {
  runCli(process.argv.slice(2), processIo()).then(
    (code) => {
      process.exitCode = code;
    },
    (e: unknown) => {
      process.stderr.write(`body-bridge: internal error: ${(e as Error)?.stack ?? String(e)}\n`);
      process.exitCode = 1;
    },
  );
}
