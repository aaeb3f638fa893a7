export { registerRoutes } from './orders';
export * from './health';
