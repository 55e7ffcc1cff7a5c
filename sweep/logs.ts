// What the sweep reads in a launch's log: Choreonoid's own lines, the lines that complain, and what a trajectory
// controller said when it gave a trajectory up.

/**
 * What a joint_trajectory_controller said when it gave a trajectory up (held position past a tolerance), with the
 * tolerance lines just before it: `Holding position due to state tolerance violation (Position Error: …)`.
 */
export function controllerAbort(log: string, controller: string): string | null {
  const lines = log.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  const at = lines.findIndex((l) => l.includes(`[${controller}]: `) && /holding position/i.test(l));
  if (at < 0) return null;
  const said = lines[at]!.slice(lines[at]!.indexOf(`[${controller}]: `) + controller.length + 4).trim();
  // The tolerance lines printed just before it (another controller's come with their own message).
  const tolerances: string[] = [];
  for (let i = at - 1; i >= 0; i--) {
    const m = /\[tolerances\]: (.*)$/.exec(lines[i]!);
    if (!m) break;
    tolerances.unshift(m[1]!.trim());
  }
  const error = tolerances.join(' ');
  return error ? `${said} (${error})` : said;
}

/** Choreonoid's own lines in the launch log, without their colours. */
export const choreonoidLines = (log: string): string[] =>
  log
    .split('\n')
    .filter((l) => /^\[choreonoid-\d+\] /.test(l))
    .map((l) => l.replace(/^\[choreonoid-\d+\] /, '').replace(/\x1b\[[0-9;]*m/g, '').trim());

/** Lines that warn or err, Choreonoid's bare ones included. */
export const complaintLines = (log: string): string[] =>
  log.replace(/\x1b\[[0-9;]*m/g, '').split('\n').filter((l) => /\[(WARN|ERROR|FATAL)\]/.test(l) || (/^\[choreonoid-\d+\] /.test(l) && /\b(error|warning|failed|cannot)\b/i.test(l)));
