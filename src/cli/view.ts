// `body-bridge view <model> [--port N] [--host ADDRESS]`: the model as ROS will see it, in a browser, with
// nothing but Node.js. Serves until interrupted; the page follows edits of the model.
import { ModelLoadError } from '../model/errors.js';
import { startViewServer, type ViewServer } from '../view/server.js';
import { CONVENTION_USAGE, type Command, type CommandIo, conventionOptions, conventionsOf, parseModelCommand } from './command.js';

export const VIEW_USAGE = `usage: body-bridge view <model> [--port N] [--host ADDRESS] [--package-path DIR]...
  --port N             port to serve on (default 8080; 0 = any free port)
  --host ADDRESS       address to listen on (default 127.0.0.1: this machine only)
${CONVENTION_USAGE}  Open the printed address in a browser. The page reloads when the model or a mesh it uses changes; a
  broken edit shows the located error and keeps the last good model drawn. Ctrl-C stops the server.
`;

/** Starts the server and resolves with it (tests stop it); exit codes as the other commands on failure. */
export async function startView(argv: string[], io: CommandIo): Promise<ViewServer | number> {
  const args = parseModelCommand('view', VIEW_USAGE, argv, io, {
    port: { type: 'string', default: '8080' },
    host: { type: 'string', default: '127.0.0.1' },
    ...conventionOptions,
  });
  if (typeof args === 'number') return args;
  const port = Number(args.values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    io.stderr(`body-bridge view: --port ${args.values.port}: expected a port number 0-65535\n`);
    return 2;
  }
  let conventions;
  try {
    conventions = conventionsOf(args.values);
  } catch (e) {
    io.stderr(`body-bridge view: ${(e as Error).message}\n${VIEW_USAGE}`);
    return 2;
  }
  try {
    const server = await startViewServer({ file: args.file, port, host: args.values.host, load: { packagePath: args.packagePath }, conventions });
    io.stdout(`body-bridge view: ${args.file} at ${server.url}\n`);
    return server;
  } catch (e) {
    io.stderr(e instanceof ModelLoadError ? `${e.message}\n` : `body-bridge view: ${(e as Error).message}\n`);
    return 1;
  }
}

export const viewCommand: Command = {
  name: 'view',
  summary: 'show the model as ROS will see it in a browser (frames, sensors, joints), live while you edit',
  run: async (argv, io) => {
    const started = await startView(argv, io);
    if (typeof started === 'number') return started;
    await new Promise<void>((done) => {
      const stop = (): void => void started.close().then(done);
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });
    return 0;
  },
};
