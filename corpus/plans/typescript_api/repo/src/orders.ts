export type OrderId = string;

export interface Order {
  id: OrderId;
  total: number;
  status: 'open' | 'paid';
}

export class BaseRepository<T> {
  protected items: T[] = [];
  findAll(): T[] {
    return this.items;
  }
}

export class OrderService extends BaseRepository<Order> {
  createOrder(total: number): Order {
    const o: Order = { id: String(this.items.length), total, status: 'open' };
    this.items.push(o);
    return o;
  }

  cancelOrder(id: OrderId): boolean {
    return this.items.some((o) => o.id === id);
  }
}

export function formatTotal(total: number): string {
  return total.toFixed(2);
}
