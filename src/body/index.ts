// Choreonoid .body (YAML) loader: the file's meaning as Choreonoid's StdBodyLoader gives it, as a RobotModel.
import { resolve } from 'node:path';
import { ModelLoadError, failAt } from '../model/errors.js';
import { resolveLimits, type LoadOptions } from '../model/options.js';
import type { Device, Diagnostic, RobotModel } from '../model/types.js';
import { readBodyFile } from './body.js';
import { finishLink } from './draft.js';

/** A resource used several times is read several times; its warnings are reported once. */
function unique(warnings: Diagnostic[]): Diagnostic[] {
  const seen = new Set<string>();
  return warnings.filter((w) => {
    const key = JSON.stringify([w.file, w.line, w.column, w.path, w.message]);
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

/** Loads a .body / .yaml file (or a `modelFile:` wrapper around a .wrl). Throws only ModelLoadError. */
export function loadBodyFile(file: string, options: LoadOptions = {}): RobotModel {
  const path = resolve(file);
  const limits = resolveLimits(options);
  const warnings: Diagnostic[] = [];
  try {
    const result = readBodyFile(path, options, limits, { count: 0, stack: [path], parsedYaml: new Map() }, warnings, false);
    if (result.kind === 'model') {
      return { ...result.model, warnings: unique([...warnings, ...result.model.warnings]) };
    }
    const { body } = result;
    const index = new Map(body.links.map((l, i) => [l, i]));
    // Choreonoid sorts devices by link order, keeping file order within a link (a stable sort).
    const devices = body.devices
      .map((d, i) => ({ d, i, link: index.get(d.linkDraft) ?? -1 }))
      .filter(({ d, link }) => {
        if (link >= 0) return true;
        warnings.push({ severity: 'warning', message: `device "${d.name}" is on a link outside the link tree; it is dropped`, ...(d.source ?? { file: path }) });
        return false;
      })
      .sort((a, b) => a.link - b.link || a.i - b.i)
      .map(({ d }) => {
        const { linkDraft, ...rest } = d;
        return { ...rest, link: linkDraft.name } as Device;
      });
    return {
      name: body.name,
      sourceFile: path,
      format: 'body',
      root: body.root.name,
      links: body.links.map(finishLink),
      devices,
      extraJoints: body.extraJoints.map(({ link1, link2, ...x }) => ({ ...x, link1: link1.name, link2: link2.name })),
      warnings: unique(warnings),
    };
  } catch (e) {
    if (e instanceof ModelLoadError) throw e;
    // Anything else is a loader bug (or stack exhaustion); still report it as a located model error,
    // without leaking internals into the message.
    const what = e instanceof RangeError ? 'the model is nested too deeply to be read' : `internal ${e instanceof Error ? e.name : 'error'} in the .body loader; please report it with this file`;
    return failAt({ file: path, line: 1, column: 1 }, what);
  }
}
