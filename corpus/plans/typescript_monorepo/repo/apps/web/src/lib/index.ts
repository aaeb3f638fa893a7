export { formatPrice } from '@/lib/format';
export * from '@/lib/cart';
