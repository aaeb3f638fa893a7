export interface LineItem {
  sku: string;
  cents: number;
}

export class Cart {
  private items: LineItem[] = [];

  addItem(item: LineItem): void {
    this.items.push(item);
  }

  total(): number {
    return this.items.reduce((sum, i) => sum + i.cents, 0);
  }
}
