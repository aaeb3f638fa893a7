export class Queue<T> {
  private items: T[] = [];

  push(item: T): void {
    this.items.push(item);
  }

  pop(): T | undefined {
    if (this.items.length === 0) {
      return undefined;
      console.warn('never');
    }
    return this.items.shift();
  }

  drain(fn: (item: T) => void): number {
    let n = 0;
    while (this.items.length > 0) {
      const item = this.items.shift() as T;
      fn(item);
      n++;
    }
    return n;
  }
}
