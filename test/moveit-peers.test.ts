// The MoveIt configuration of corpus robots checked against peers:
// - FCL (the checker MoveIt uses), reading the URDF we write with urdfdom and doing its own forward
//   kinematics: on sampled configurations its verdict for every pair of links brackets ours — FCL with
//   every primitive grown by 2% collides whenever we do, FCL with every primitive shrunk by 2% only when
//   we do. The band covers our tessellated spheres and cylinders (32 segments: within 1% of the true
//   surface) and surfaces that touch exactly (links modelled face to face, which we count as contact and
//   FCL does not). Meshes are the same triangles on both sides and get no tolerance;
// - FCL over an independent random sample: no pair we disable as "never in collision" collides;
// - planning ranges: where joint_limits.yaml stops a joint short of its limits, FCL too finds every sampled
//   state in collision there and some free a degree before (the UR elbows are the corpus's cases);
// - the SRDF read back by an independent XML reader names only links and joints of the URDF, its
//   chains are chains of the URDF's tree, its home state lies within the URDF's limits, and every
//   adjacent pair of links with geometry is disabled.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadRobotModel } from '../src/load.js';
import { applyRosConventions } from '../src/model/ros-conventions.js';
import { adjacentPairs, selfCollisionChecker, stateSampler } from '../src/moveit/collision-matrix.js';
import { moveItConfig } from '../src/moveit/config.js';
import { linksBelow } from '../src/moveit/srdf.js';
import { toUrdf, writeUrdfSync } from '../src/urdf/index.js';
import { type FclRun, fclCollisions, fclPeers, MOVEIT_ROBOTS, pairKey } from './support/moveit-peers.js';
import { skipWithout } from './support/peer-skip.js';
import { corpusDir } from './support/oracle.js';
import { scratchDir } from './support/temp-dir.js';
import { child, childrenNamed, kdlChains, kdlPeers, parseXml } from './support/urdf-peers.js';

const work = scratchDir('bb-moveit-peers-');
const withoutFcl = skipWithout(...fclPeers());
const withoutKdl = skipWithout(...kdlPeers());

/** FCL sees the same links we do, minus shapes it cannot read (which we cannot read either). */
function prepare(file: string) {
  const ros = applyRosConventions(loadRobotModel(join(corpusDir, file)));
  const name = file.split('/').pop()!.replace(/\W/g, '_');
  const urdfFile = join(work, `${name}.urdf`);
  // OBJ meshes become STL so the harness (which reads STL) sees every mesh.
  writeUrdfSync(toUrdf(ros.model, { meshDir: join(work, `${name}_meshes`), meshFormat: 'stl' }), urdfFile);
  return { ros, urdfFile };
}

const pairs = (s: Set<string>): string[] => [...s].map((k) => k.replace('\u0000', ' | ')).sort();

describe.each(MOVEIT_ROBOTS)('%s against FCL', (file) => {
  // Built on first use, inside the tests (a failure is then the test's, not the collection's).
  let prepared: ReturnType<typeof prepare> | undefined;
  let made: ReturnType<typeof moveItConfig> | undefined;
  const get = () => (prepared ??= prepare(file));
  const configOf = () => (made ??= moveItConfig(get().ros, { samples: 10000, seed: 0 }));

  it.skipIf(withoutFcl)('our collision verdicts lie between FCL with primitives grown and shrunk by 2%, on 150 sampled configurations', () => {
    const { ros, urdfFile } = get();
    const model = ros.model;
    const sample = stateSampler(model, 4242);
    const configurations = [new Map<string, number>(), ...Array.from({ length: 149 }, sample)];
    const exact: FclRun = fclCollisions(urdfFile, configurations, 1.02);
    const shrunk: FclRun = fclCollisions(urdfFile, configurations, 0.98);
    const checker = selfCollisionChecker(model);
    const ours = new Set(checker.links);
    const incomplete = new Set(checker.incomplete.map((x) => x.link));
    // FCL reads exactly the links we read (a shape unreadable to one is unreadable to the other).
    expect(new Set(exact.links.filter((l) => !exact.skipped.has(l) || ours.has(l)))).toEqual(ours);
    let hits = 0;
    let bracketed = 0;
    let bracketedApart = 0;
    const adjacent = adjacentPairs(model, (l) => ours.has(l));
    configurations.forEach((q, c) => {
      checker.place(q);
      const mine = new Set<string>();
      for (let i = 0; i < checker.links.length; i++) {
        for (let j = i + 1; j < checker.links.length; j++) {
          const a = checker.links[i]!, b = checker.links[j]!;
          if (incomplete.has(a) || incomplete.has(b) || exact.skipped.has(a) || exact.skipped.has(b)) continue;
          if (checker.collide(i, j)) mine.add(pairKey(a, b));
        }
      }
      const usable = (k: string): boolean => k.split('\u0000').every((l) => !incomplete.has(l) && !exact.skipped.has(l));
      const fclExact = new Set([...exact.hits[c]!].filter(usable));
      const fclShrunk = new Set([...shrunk.hits[c]!].filter(usable));
      expect({ configuration: c, weFindFclDoesNot: pairs(new Set([...mine].filter((k) => !fclExact.has(k)))) }).toEqual({ configuration: c, weFindFclDoesNot: [] });
      expect({ configuration: c, fclFindsWeDoNot: pairs(new Set([...fclShrunk].filter((k) => !mine.has(k)))) }).toEqual({ configuration: c, fclFindsWeDoNot: [] });
      hits += mine.size;
      const band = [...fclExact].filter((k) => !fclShrunk.has(k));
      bracketed += band.length;
      bracketedApart += band.filter((k) => !adjacent.has(k)).length;
    });
    console.log(`${file}: ${checker.links.length} links with geometry, ${hits} colliding pairs over ${configurations.length} configurations agree with FCL; ${bracketed} pair verdicts in the ±2% band, ${bracketedApart} of them between links that are not adjacent`);
    // The check must have had something to agree on.
    expect(hits).toBeGreaterThan(0);
  });

  it.skipIf(withoutFcl)('no pair disabled as "never in collision" collides in FCL over 1000 independent random configurations', () => {
    const { ros, urdfFile } = get();
    const model = ros.model;
    const config = configOf();
    const sample = stateSampler(model, 987654321);
    const configurations = Array.from({ length: 1000 }, sample);
    const run = fclCollisions(urdfFile, configurations, 0.98);
    const never = new Set(config.semantic.disabled.filter((d) => d.reason === 'Never').map((d) => pairKey(d.link1, d.link2)));
    const colliding = new Set<string>();
    for (const h of run.hits) for (const k of h) if (never.has(k)) colliding.add(k);
    console.log(`${file}: ${never.size} "never" pairs, collision matrix ${(config.matrix.millis / 1000).toFixed(2)} s for ${config.matrix.neverSamples} samples`);
    expect(pairs(colliding)).toEqual([]);
  });

  it.skipIf(withoutFcl)('planning ranges: at each cut FCL finds the joint\'s part of the robot in collision with the rest in every one of 500 independent states, and free ones a degree towards home', () => {
    const { ros, urdfFile } = get();
    const model = ros.model;
    const config = configOf();
    const disabled = new Set(config.semantic.disabled.map((d) => pairKey(d.link1, d.link2)));
    const sample = stateSampler(model, 24680);
    for (const r of config.ranges) {
      const below = new Set(linksBelow(model, model.links.find((l) => l.joint.name === r.joint)!.name).map((l) => l.name));
      // Pairs MoveIt checks across the joint: one link moved by it, the other not.
      const across = (hits: Set<string>): boolean => [...hits].some((k) => !disabled.has(k) && k.split('\u0000').filter((l) => below.has(l)).length === 1);
      const at = (angle: number, scale: number): FclRun => {
        const configurations = Array.from({ length: 500 }, () => sample().set(r.joint, angle));
        return fclCollisions(urdfFile, configurations, scale);
      };
      const DEG = Math.PI / 180;
      for (const [cut, towardsHome, limit] of [[r.upper, -DEG, r.model[1]], [r.lower, DEG, r.model[0]]] as const) {
        if (cut === limit) continue;
        // Within the band where FCL's verdicts bracket ours (above): FCL with primitives grown by 2% finds every
        // state at the cut in collision, FCL with them shrunk by 2% some free a degree before. Exact FCL is logged.
        const blocked = at(cut, 1.02).hits.filter(across).length;
        const free = at(cut + towardsHome, 0.98).hits.filter((h) => !across(h)).length;
        const exactBlocked = at(cut, 1).hits.filter(across).length;
        const exactFree = at(cut + towardsHome, 1).hits.filter((h) => !across(h)).length;
        console.log(
          `${file}: ${r.joint} cut at ${(cut / DEG).toFixed(1)}°: FCL finds ${blocked}/500 states in collision there (primitives +2%; exact: ${exactBlocked}/500), ` +
            `${free}/500 free at ${((cut + towardsHome) / DEG).toFixed(1)}° (primitives −2%; exact: ${exactFree}/500)`,
        );
        expect({ joint: r.joint, cut, blocked }).toEqual({ joint: r.joint, cut, blocked: 500 });
        expect(free, `${r.joint} a degree before ${cut}`).toBeGreaterThan(0);
      }
    }
    if (/UniversalRobots\/UR\d+/.test(file)) {
      // Universal Robots' own ROS description limits the elbow to ±180° for MoveIt, "the shoulder lift joint gets in the way".
      expect(config.ranges.map((r) => r.joint)).toEqual(['FOREARM']);
      for (const r of config.ranges) expect(Math.abs(r.upper) < Math.PI && Math.abs(r.lower) < Math.PI && r.upper > 0.8 * Math.PI && r.lower < -0.8 * Math.PI).toBe(true);
    } else {
      expect(config.ranges).toEqual([]);
    }
  });

  it('the SRDF names only what the URDF has; chains follow its tree; home lies within its limits; adjacent pairs are disabled', () => {
    const model = get().ros.model;
    const config = configOf();
    const urdf = parseXml(toUrdf(model, { meshDir: join(work, 'unused') }).xml);
    const srdf = parseXml(config.srdf);
    const links = new Set(childrenNamed(urdf, 'link').map((l) => l.attributes.name!));
    const joints = new Map(childrenNamed(urdf, 'joint').map((j) => [j.attributes.name!, j]));
    const parentOf = new Map([...joints.values()].map((j) => [child(j, 'child')!.attributes.link!, child(j, 'parent')!.attributes.link!]));
    expect(srdf.attributes.name).toBe(urdf.attributes.name);
    const groups = childrenNamed(srdf, 'group');
    expect(groups.length).toBeGreaterThan(0);
    for (const g of groups) {
      for (const j of childrenNamed(g, 'joint')) expect(joints.has(j.attributes.name!), `group ${g.attributes.name} joint ${j.attributes.name}`).toBe(true);
      for (const l of childrenNamed(g, 'link')) expect(links.has(l.attributes.name!)).toBe(true);
      for (const c of childrenNamed(g, 'chain')) {
        let l: string | undefined = c.attributes.tip_link!;
        while (l !== undefined && l !== c.attributes.base_link) l = parentOf.get(l);
        expect(l, `chain ${c.attributes.base_link} → ${c.attributes.tip_link}`).toBe(c.attributes.base_link);
      }
    }
    for (const s of childrenNamed(srdf, 'group_state')) {
      for (const j of childrenNamed(s, 'joint')) {
        const urdfJoint = joints.get(j.attributes.name!);
        expect(urdfJoint).toBeDefined();
        const limit = child(urdfJoint!, 'limit');
        const v = Number(j.attributes.value);
        if (limit?.attributes.lower !== undefined) expect(v).toBeGreaterThanOrEqual(Number(limit.attributes.lower));
        if (limit?.attributes.upper !== undefined) expect(v).toBeLessThanOrEqual(Number(limit.attributes.upper));
      }
    }
    for (const e of childrenNamed(srdf, 'end_effector')) expect(links.has(e.attributes.parent_link!)).toBe(true);
    for (const v of childrenNamed(srdf, 'virtual_joint')) expect(links.has(v.attributes.child_link!)).toBe(true);
    const disabled = new Set(childrenNamed(srdf, 'disable_collisions').map((d) => pairKey(d.attributes.link1!, d.attributes.link2!)));
    for (const d of childrenNamed(srdf, 'disable_collisions')) {
      expect(links.has(d.attributes.link1!) && links.has(d.attributes.link2!)).toBe(true);
      expect(['Adjacent', 'Default', 'Always', 'Never']).toContain(d.attributes.reason);
    }
    // Every parent/child pair of URDF links that both have collision geometry.
    const withGeometry = new Set(childrenNamed(urdf, 'link').filter((l) => childrenNamed(l, 'collision').length > 0).map((l) => l.attributes.name!));
    for (const [c, p] of parentOf) if (withGeometry.has(c) && withGeometry.has(p)) expect(disabled.has(pairKey(c, p)), `${p} | ${c}`).toBe(true);
    writeFileSync(join(work, `${srdf.attributes.name}.srdf`), config.srdf);
  });

  it.skipIf(withoutKdl)('every chain group is a KDL chain (Tree::getChain on the URDF) with the joints the group means', () => {
    const { ros, urdfFile } = get();
    const config = configOf();
    const chains = config.semantic.groups.filter((g) => g.chain);
    expect(chains.length).toBeGreaterThan(0);
    const kdl = kdlChains(urdfFile, chains.map((g) => g.chain!));
    chains.forEach((g, i) => {
      // The group's joints, walked up the model from tip to base.
      const byName = new Map(ros.model.links.map((l) => [l.name, l]));
      const mine: string[] = [];
      for (let l = byName.get(g.chain!.tip); l && l.name !== g.chain!.base; l = byName.get(l.parent!)) {
        if (l.joint.type === 'revolute' || l.joint.type === 'prismatic') mine.unshift(l.joint.name);
      }
      expect({ group: g.name, joints: kdl[i] }).toEqual({ group: g.name, joints: mine });
    });
  });
});

describe.skipIf(withoutFcl)('the FCL harness with obstacles (what test/ros-live-world.test.ts checks trajectories with)', () => {
  it('reports a link touching a box of the world, in the root frame, turned by its quaternion, as the joints move the link', () => {
    const urdf = join(work, 'obstacle-check.urdf');
    writeFileSync(
      urdf,
      `<robot name="t">
  <link name="base"><collision><geometry><box size="0.2 0.2 0.2"/></geometry></collision></link>
  <joint name="j" type="revolute"><parent link="base"/><child link="arm"/><origin xyz="0 0 0.1"/><axis xyz="0 0 1"/><limit lower="-3" upper="3" effort="1" velocity="1"/></joint>
  <link name="arm"><collision><origin xyz="0.5 0 0.05"/><geometry><box size="1 0.05 0.05"/></geometry></collision></link>
</robot>
`,
    );
    const S = Math.SQRT1_2;
    // A post at (0, 0.6): the arm (1 m along its +x, 0.125–0.175 m up) meets it turned a quarter, not at 0.
    const post = { name: 'post', centre: [0, 0.6, 0.15], size: [0.1, 0.1, 0.3] } as const;
    // A slab across the arm at x = 0.5 (0.5 m along y), and the same slab turned a quarter: then along x, beside the arm.
    const slab = { name: 'slab', centre: [0.5, 0.2, 0.15], size: [0.05, 0.5, 0.05] } as const;
    const turned = { ...slab, name: 'turned', quaternion: [0, 0, S, S] } as const;
    const run = fclCollisions(urdf, [new Map([['j', 0]]), new Map([['j', Math.PI / 2]])], 1, [post, slab]);
    expect(run.hits.map(pairs)).toEqual([['@slab | arm'], ['@post | arm']]);
    const alone = fclCollisions(urdf, [new Map([['j', 0]])], 1, [turned]);
    expect(alone.hits.map(pairs)).toEqual([[]]);
  });
});
