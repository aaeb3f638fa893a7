import type { HttpServer } from '../server';
import type { OrderService } from '../orders';

export function registerRoutes(server: HttpServer, service: OrderService): void {
  server.use('/orders', () => service.findAll());
}
