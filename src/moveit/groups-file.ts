// `--groups FILE`: planning groups and end effectors a user states, replacing inferred groups of the
// same name (or all of them with `replace: true`). Every name is checked against the URDF's links and
// joints, and a bad one is reported at its line and column in FILE.
//
//   replace: false            # optional; true drops every inferred group and end effector
//   groups:
//     - name: arm
//       chain: {base: BASE, tip: J7_link}
//     - name: gripper
//       joints: [HAND_L, HAND_R]
//       links: [HAND_L_link]       # optional, as are subgroups
//       subgroups: [arm]
//   end_effectors:
//     - {name: gripper, parent_link: J7_link, group: gripper, parent_group: arm}
import { LineCounter, type Node, isMap, isScalar, isSeq, parseDocument } from 'yaml';
import { ModelLoadError } from '../model/errors.js';
import type { Diagnostic, RobotModel } from '../model/types.js';
import type { EndEffector, InferredGroups, PlanningGroup } from './groups.js';

export interface GroupsFile {
  replace: boolean;
  groups: PlanningGroup[];
  endEffectors: EndEffector[];
  /** Every group name the file refers to (subgroups, end effectors' groups), where, so a dangling one is reported there. */
  groupReferences: { name: string; where: Diagnostic }[];
}

/** Parses and checks a groups file against the model as ROS sees it. Throws ModelLoadError (every problem, located). */
export function readGroupsFile(text: string, file: string, model: RobotModel): GroupsFile {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines, prettyErrors: false });
  const problems: Diagnostic[] = [];
  const locate = (node: Node | null | undefined, path: string, message: string): Diagnostic => {
    const { line, col } = lines.linePos(node?.range?.[0] ?? 0);
    return { file, line, column: col, path, severity: 'error', message };
  };
  const at = (node: Node | null | undefined, path: string, message: string): void => {
    problems.push(locate(node, path, message));
  };
  const reference = (node: unknown, path: string, name: string): void => {
    out.groupReferences.push({ name, where: locate(node as Node, path, `no group "${name}" (neither inferred nor in this file)`) });
  };
  for (const e of doc.errors) {
    const { line, col } = lines.linePos(e.pos[0]);
    problems.push({ file, line, column: col, severity: 'error', message: e.message.split('\n')[0]! });
  }
  if (problems.length > 0) throw new ModelLoadError(problems);

  const links = new Set(model.links.map((l) => l.name));
  const joints = new Set(model.links.filter((l) => l.parent !== null).map((l) => l.joint.name));
  const parentOf = new Map(model.links.map((l) => [l.name, l.parent]));
  const root = doc.contents;
  const out: GroupsFile = { replace: false, groups: [], endEffectors: [], groupReferences: [] };
  if (root === null) return out;
  if (!isMap(root)) {
    at(root, '', 'expected a mapping with groups and end_effectors');
    throw new ModelLoadError(problems);
  }
  const str = (node: unknown, path: string): string | null => {
    if (isScalar(node) && typeof node.value === 'string' && node.value !== '') return node.value;
    at(node as Node, path, 'expected a name');
    return null;
  };
  const names = (node: unknown, path: string, known: Set<string> | null, kind: string): string[] => {
    if (node === undefined) return [];
    if (!isSeq(node)) {
      at(node as Node, path, `expected a list of ${kind} names`);
      return [];
    }
    return node.items.flatMap((item, i) => {
      const n = str(item, `${path}[${i}]`);
      if (n !== null && known !== null && !known.has(n)) at(item as Node, `${path}[${i}]`, `no ${kind} "${n}" in the URDF`);
      return n === null ? [] : [n];
    });
  };
  for (const pair of root.items) {
    const key = isScalar(pair.key) ? String(pair.key.value) : '';
    if (!['replace', 'groups', 'end_effectors'].includes(key)) at(pair.key as Node, key, `unknown key "${key}" (expected replace, groups, end_effectors)`);
  }
  const replace = root.get('replace', true);
  if (replace !== undefined) {
    if (isScalar(replace) && typeof replace.value === 'boolean') out.replace = replace.value;
    else at(replace as Node, 'replace', 'expected true or false');
  }
  const groups = root.get('groups', true);
  const groupNames = new Set<string>();
  if (groups !== undefined && !isSeq(groups)) at(groups as Node, 'groups', 'expected a list of groups');
  if (isSeq(groups)) {
    groups.items.forEach((item, i) => {
      const path = `groups[${i}]`;
      if (!isMap(item)) return at(item as Node, path, 'expected a group: name and chain, joints, links or subgroups');
      for (const pair of item.items) {
        const key = isScalar(pair.key) ? String(pair.key.value) : '';
        if (!['name', 'chain', 'joints', 'links', 'subgroups'].includes(key)) at(pair.key as Node, `${path}.${key}`, `unknown key "${key}" (expected name, chain, joints, links, subgroups)`);
      }
      const name = str(item.get('name', true), `${path}.name`);
      const group: PlanningGroup = {
        name: name ?? '',
        joints: names(item.get('joints', true), `${path}.joints`, joints, 'joint'),
        links: names(item.get('links', true), `${path}.links`, links, 'link'),
        subgroups: names(item.get('subgroups', true), `${path}.subgroups`, null, 'group'),
      };
      const subgroups = item.get('subgroups', true);
      if (isSeq(subgroups)) group.subgroups.forEach((n, k) => reference(subgroups.items[k], `${path}.subgroups[${k}]`, n));
      const chain = item.get('chain', true);
      if (chain !== undefined) {
        if (!isMap(chain)) at(chain as Node, `${path}.chain`, 'expected {base: LINK, tip: LINK}');
        else {
          const base = str(chain.get('base', true), `${path}.chain.base`);
          const tip = str(chain.get('tip', true), `${path}.chain.tip`);
          if (base !== null && !links.has(base)) at(chain.get('base', true) as Node, `${path}.chain.base`, `no link "${base}" in the URDF`);
          if (tip !== null && !links.has(tip)) at(chain.get('tip', true) as Node, `${path}.chain.tip`, `no link "${tip}" in the URDF`);
          if (base !== null && tip !== null && links.has(base) && links.has(tip)) {
            let l: string | null | undefined = tip;
            while (l != null && l !== base) l = parentOf.get(l);
            if (l !== base) at(chain.get('tip', true) as Node, `${path}.chain`, `"${base}" is not an ancestor of "${tip}": not a chain`);
            group.chain = { base, tip };
          }
        }
      }
      if (chain === undefined && group.joints.length + group.links.length + group.subgroups.length === 0) {
        at(item, path, 'a group needs a chain, joints, links or subgroups');
      }
      if (name !== null) {
        if (groupNames.has(name)) at(item.get('name', true) as Node, `${path}.name`, `group "${name}" is defined twice`);
        groupNames.add(name);
      }
      out.groups.push(group);
    });
  }
  const ees = root.get('end_effectors', true);
  if (ees !== undefined && !isSeq(ees)) at(ees as Node, 'end_effectors', 'expected a list of end effectors');
  if (isSeq(ees)) {
    ees.items.forEach((item, i) => {
      const path = `end_effectors[${i}]`;
      if (!isMap(item)) return at(item as Node, path, 'expected {name, parent_link, group, parent_group}');
      const name = str(item.get('name', true), `${path}.name`);
      const parentLink = str(item.get('parent_link', true), `${path}.parent_link`);
      const group = str(item.get('group', true), `${path}.group`);
      if (parentLink !== null && !links.has(parentLink)) at(item.get('parent_link', true) as Node, `${path}.parent_link`, `no link "${parentLink}" in the URDF`);
      const pg = item.get('parent_group', true);
      const parentGroup = pg === undefined ? undefined : str(pg, `${path}.parent_group`);
      if (group !== null) reference(item.get('group', true), `${path}.group`, group);
      if (parentGroup) reference(pg, `${path}.parent_group`, parentGroup);
      if (name !== null && parentLink !== null && group !== null) {
        out.endEffectors.push({ name, parentLink, group, ...(parentGroup ? { parentGroup } : {}) });
      }
    });
  }
  if (problems.length > 0) throw new ModelLoadError(problems);
  return out;
}

/** Inferred groups with the file's applied: same-named groups and end effectors replaced, new ones added; then every group reference checked. */
export function mergeGroups(inferred: InferredGroups, file: GroupsFile, fileName: string): InferredGroups {
  const userGroups = new Set(file.groups.map((g) => g.name));
  const userEes = new Set(file.endEffectors.map((e) => e.name));
  const kept = file.replace ? [] : inferred.groups.filter((g) => !userGroups.has(g.name));
  const groups = [...kept, ...file.groups];
  const names = new Set(groups.map((g) => g.name));
  const endEffectors = [
    ...(file.replace ? [] : inferred.endEffectors.filter((e) => !userEes.has(e.name) && names.has(e.group) && (!e.parentGroup || names.has(e.parentGroup)))),
    ...file.endEffectors,
  ];
  const problems = file.groupReferences.filter((r) => !names.has(r.name)).map((r) => r.where);
  if (problems.length > 0) throw new ModelLoadError(problems);
  return {
    groups,
    endEffectors,
    notes: [
      ...inferred.notes.filter((n) => !file.replace),
      `${fileName}: ${file.replace ? 'replaced every inferred group with' : 'applied'} ${file.groups.length} group(s) and ${file.endEffectors.length} end effector(s)`,
    ],
  };
}
