export * from './button';
export { Modal as Dialog } from './modal';
