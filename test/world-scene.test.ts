// The world project kept in the repository (test/live/world/World.cnoid, README's screenshot) is the scene
// test/ros-live-world.test.ts runs, but for the motion: its arm holds the live test's last pose from the start
// (ArmPose.seq, one frame). Both files are what scene.ts writes, so README shows what the live suite checks; and
// body_bridge reads the kept project to the scene's bodies at the scene's poses, with ${SHARE} from the corpus.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readProject, type LoadedProjectBody } from '../src/project/index.js';
import { corpusDir } from './support/oracle.js';
import { ARM_BODY, motionSeq, OBSTACLES, PROJECT_FILE, projectText, ROVER_BODY, SCENE_DIR, SHOWCASE_MOTION_FILE, yaw } from './live/world/scene.js';

describe('the world project kept for README', () => {
  it('is what scene.ts writes, its arm holding the last pose of the live test', () => {
    expect(readFileSync(join(SCENE_DIR, PROJECT_FILE), 'utf8')).toBe(projectText({ motionFile: SHOWCASE_MOTION_FILE }));
    expect(readFileSync(join(SCENE_DIR, SHOWCASE_MOTION_FILE), 'utf8')).toBe(motionSeq({ held: true }));
    expect(motionSeq({ held: true }).split('\n').filter((l) => l.startsWith('      - ['))).toHaveLength(1);
  });

  it('reads to the six bodies of the scene, where the scene puts them', () => {
    const project = readProject(join(SCENE_DIR, PROJECT_FILE), { share: join(corpusDir, 'choreonoid/share'), env: {} });
    const failed = project.bodies.filter((b) => b.kind !== 'loaded');
    expect(failed, JSON.stringify(failed)).toEqual([]);
    const bodies = project.bodies as LoadedProjectBody[];
    const expected = [ARM_BODY, ROVER_BODY, ...OBSTACLES];
    expect(bodies.map((b) => b.itemName)).toEqual(expected.map((b) => b.name));
    for (const [i, b] of bodies.entries()) {
      const scene = expected[i]!;
      expect(b.initialRootPose.translation, b.itemName).toEqual(scene.translation);
      const r = yaw(scene.yawDeg);
      const worst = Math.max(...[0, 1, 2].flatMap((row) => [0, 1, 2].map((col) => Math.abs(b.initialRootPose.rotation[row]![col]! - r[row]![col]!))));
      expect(worst, b.itemName).toBeLessThan(1e-12);
      expect(b.fixedRoot, b.itemName).toBe(b.itemName !== ROVER_BODY.name);
    }
  });
});
