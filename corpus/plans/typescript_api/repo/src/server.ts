import { Command } from 'commander';
import { OrderService } from './orders';
import { registerRoutes } from './routes';

export interface ServerOptions {
  port: number;
  host?: string;
}

export class HttpServer {
  private readonly routes = new Map<string, Function>();

  constructor(private readonly opts: ServerOptions) {}

  listen(): Promise<void> {
    return Promise.resolve();
  }

  use(path: string, handler: Function): this {
    this.routes.set(path, handler);
    return this;
  }
}

export function createServer(opts: ServerOptions): HttpServer {
  const server = new HttpServer(opts);
  registerRoutes(server, new OrderService());
  return server;
}

const program = new Command();
program
  .option('-p, --port <number>', 'port to listen on', '8080')
  .option('--log-level <level>', 'log verbosity', 'info');
