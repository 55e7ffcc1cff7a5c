// Freeing a message's bytes once its callback is done (src/ros/lent-bytes.ts): what is released and what is not,
// the launcher that gives Node 20 the flag it needs, and the transports that release what they took.
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { canReleaseBytes, RELEASE_FROM_BYTES, releaseBytes, TRANSFER_FLAG } from '../src/ros/lent-bytes.js';
import { createMemoryTransport } from '../src/ros/memory-transport.js';
import { sensorDataQoS } from '../src/ros/transport.js';
import { peerCodec } from './support/cdr-peer.js';
import { launcherNodeFlags } from './support/node-flags.js';

const scratch = mkdtempSync(join(tmpdir(), 'bb-lent-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('releaseBytes', () => {
  it('this test process can release (vitest runs it with the launcher’s flags)', () => {
    expect(launcherNodeFlags()).toEqual(spawnSync(process.execPath, [TRANSFER_FLAG, '-e', '']).status === 0 ? [TRANSFER_FLAG] : []);
    expect(canReleaseBytes()).toBe(true);
  });

  const big = RELEASE_FROM_BYTES;
  const cases: [string, () => Uint8Array, boolean][] = [
    ['a Buffer of its own, as rclnodejs takes a message into', () => Buffer.alloc(big, 7), true],
    ['a Uint8Array of its own', () => new Uint8Array(big + 1), true],
    ['one byte below the threshold', () => Buffer.alloc(big - 1), false],
    ['a view into a larger ArrayBuffer (another view may share it)', () => new Uint8Array(new ArrayBuffer(big * 2), 0, big), false],
    ['a view at an offset', () => new Uint8Array(new ArrayBuffer(big + 8), 8), false],
    ['a small Buffer from Node’s pool', () => Buffer.from('joint_states'), false],
  ];
  for (const [what, make, released] of cases) {
    it(`${released ? 'releases' : 'leaves'} ${what}`, () => {
      const bytes = make();
      const length = bytes.byteLength;
      expect(releaseBytes(bytes)).toBe(released);
      // Released: the memory is gone and every view reads as empty; left: untouched.
      expect(bytes.byteLength).toBe(released ? 0 : length);
      expect(bytes.buffer.byteLength === 0).toBe(released);
    });
  }

  it('without ArrayBuffer.prototype.transfer it releases nothing', () => {
    const bytes = Buffer.alloc(big);
    expect(releaseBytes(bytes, null)).toBe(false);
    expect(bytes.byteLength).toBe(big);
  });
});

describe('the memory transport', () => {
  it('frees the bytes it encoded for a raw subscription after the callback, not a caller’s own bytes', () => {
    const t = createMemoryTransport({ codec: peerCodec });
    const seen: { during: number; view: Uint8Array; copy: Buffer }[] = [];
    t.subscribeRaw('image', 'sensor_msgs/msg/Image', sensorDataQoS, (bytes) => seen.push({ during: bytes.byteLength, view: bytes, copy: Buffer.from(bytes) }));
    const image = { header: { stamp: { sec: 1, nanosec: 2 }, frame_id: 'c' }, height: 480, width: 640, encoding: 'rgb8', is_bigendian: 0, step: 1920, data: new Uint8Array(921600) };
    expect(t.inject('image', image)).toBe(1);
    const own = seen[0]!.copy;
    expect(seen[0]!.during).toBeGreaterThan(921600);
    expect(seen[0]!.view.byteLength).toBe(0);
    expect(t.inject('image', own)).toBe(1);
    expect(seen[1]!.view).toBe(own);
    expect(own.byteLength).toBe(seen[0]!.during);
  });
});

describe('the installed launcher', () => {
  /** The launcher under a fake prefix, run with a stand-in for node that accepts the flag or not; what it was given. */
  function launched(acceptsFlag: boolean): string[] {
    const bin = join(scratch, 'lib', 'body_bridge');
    mkdirSync(bin, { recursive: true });
    const launcher = join(bin, 'body_bridge');
    writeFileSync(launcher, readFileSync(join(import.meta.dirname, '..', 'cmake', 'body_bridge.in'), 'utf8').replaceAll('@PROJECT_NAME@', 'body_bridge'));
    chmodSync(launcher, 0o755);
    const fakeNode = join(scratch, `fake-node-${acceptsFlag}`);
    // The probe is `node FLAG -e ''`; a Node that does not know the flag exits with an error ("bad option").
    const refuse = acceptsFlag ? '' : `if [ "$1" = "${TRANSFER_FLAG}" ]; then exit 9; fi\n`;
    writeFileSync(fakeNode, `#!/bin/sh\n${refuse}for a in "$@"; do printf '%s\\n' "$a"; done\n`);
    chmodSync(fakeNode, 0o755);
    const out = execFileSync('sh', [launcher, 'a b.body', '--ros-args', '-p', 'frame_prefix:=r 1/'], { env: { ...process.env, BODY_BRIDGE_NODE: fakeNode }, encoding: 'utf8' });
    return out.trimEnd().split('\n');
  }

  it('passes the flag where node accepts it, and every argument as it was', () => {
    const main = join(scratch, 'lib', 'body_bridge_app', 'dist', 'ros', 'main.js');
    const args = ['a b.body', '--ros-args', '-p', 'frame_prefix:=r 1/'];
    expect(launched(true)).toEqual([TRANSFER_FLAG, main, ...args]);
    expect(launched(false)).toEqual([main, ...args]);
  });

  it('the flag gives this Node ArrayBuffer.prototype.transfer', () => {
    const out = execFileSync(process.execPath, [...launcherNodeFlags(), '-e', 'process.stdout.write(typeof ArrayBuffer.prototype.transfer)'], { encoding: 'utf8' });
    expect(out).toBe('function');
  });
});
