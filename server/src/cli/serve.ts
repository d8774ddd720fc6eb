import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../app.js';
import type { Config } from '../config.js';
import { adminBanner, bootstrapAdmin } from './accounts.js';
import type { CliIO } from './io.js';

export interface RunningServer {
  app: FastifyInstance;
  port: number;
  /** Stops accepting requests, finishes those under way, closes the database. */
  close(): Promise<void>;
}

/** `pim serve`: the app and API on config.host:config.port, with the first admin on first start. */
export async function serve(config: Config, io: CliIO): Promise<RunningServer> {
  const app = await buildApp(config);
  try {
    const admin = await bootstrapAdmin(app.services, config);
    if (admin) io.out(adminBanner(admin, config));
    await app.listen({ host: config.host, port: config.port });
  } catch (err) {
    await app.close();
    if ((err as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(`Port ${config.port} is in use by another program. Stop it, or set PORT to another port.`);
    }
    throw err;
  }
  const { port } = app.server.address() as AddressInfo;
  const local = `http://localhost:${port}/pim/`;
  const publicApp = config.publicUrl && `${config.publicUrl}/pim/`;
  io.out(`PIM is running at ${local}${!publicApp || publicApp === local ? '' : ` (public address ${publicApp})`}`);
  return { app, port, close: () => app.close() };
}

/** `pim serve`: runs until SIGINT or SIGTERM, then closes the server and the database. */
export async function serveUntilStopped(config: Config, io: CliIO): Promise<number> {
  const server = await serve(config, io);
  return new Promise((resolve) => {
    const stop = (signal: NodeJS.Signals) => {
      io.out(`${signal} received: finishing open requests and closing the database...`);
      // A second Ctrl-C while closing means "now", even if a request or the database hangs.
      process.once(signal, () => process.exit(130));
      server.close().then(
        () => resolve(0),
        (err: unknown) => {
          io.err(`Error while shutting down: ${err instanceof Error ? err.message : String(err)}`);
          resolve(1);
        },
      );
    };
    process.once('SIGINT', stop);
    process.once('SIGTERM', stop);
  });
}
