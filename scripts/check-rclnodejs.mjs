#!/usr/bin/env node
// Run by CMakeLists.txt after `npm ci` in the app directory (the working directory): rclnodejs is an
// optional dependency, so npm carries on without it when its build against the sourced ROS 2 failed.
// This says so, with what rclnodejs needs and where its own error is, instead of a bare "not found".
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const appDir = process.cwd();
const distro = process.env.ROS_DISTRO;

/** The reason rclnodejs cannot be used from `appDir`, or null when it loads. */
async function rclnodejsProblem() {
  let entry;
  try {
    entry = createRequire(join(appDir, 'package.json')).resolve('rclnodejs');
  } catch {
    return 'rclnodejs is not installed: npm dropped it because its install step failed';
  }
  try {
    await import(pathToFileURL(entry).href);
    return null;
  } catch (error) {
    return `rclnodejs is installed but does not load: ${error instanceof Error ? error.message : String(error)}`;
  }
}

const problem = await rclnodejsProblem();
if (problem) {
  console.error(
    [
      `body_bridge: rclnodejs did not build against this ROS 2 (ROS_DISTRO=${distro ?? '(not set)'}, AMENT_PREFIX_PATH ${process.env.AMENT_PREFIX_PATH ? 'set' : 'not set'}).`,
      `  ${problem}.`,
      "  rclnodejs's own build output is above (npm ci --foreground-scripts): where no prebuilt binary matches this system",
      '  it compiles its native module with node-gyp against the sourced ROS 2. That needs a sourced ROS 2 with ROS_DISTRO set,',
      '  a C++ compiler and make, Python 3, and the Node.js headers (node-gyp finds them beside node, or under npm config nodedir).',
      "  npm runs a dependency's install scripts only where package.json's allowScripts approves them (enforced from npm 12):",
      '  `"rclnodejs": true` must stay there, or rclnodejs installs without its native module.',
      '  Fix what its output names, then run colcon build again; -DBODY_BRIDGE_REQUIRE_RCLNODEJS=OFF builds without it (dry run only).',
    ].join('\n'),
  );
  process.exit(1);
}
console.log(`body_bridge: rclnodejs loads against ROS 2 ${distro}`);
