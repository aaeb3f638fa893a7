namespace Geometry {
  export interface Rect {
    w: number;
    h: number;
  }

  export function area(r: Rect): number {
    const a = r.w * r.h;
    return a;
  }

  export function perimeter(r: Rect): number {
    return 2 * (r.w + r.h);
  }
}

export abstract class Shape {
  abstract area(): number;

  describe(): string {
    const a = this.area();
    return `${this.constructor.name} with area ${a}`;
  }
}

export class Square extends Shape {
  constructor(private side: number) {
    super();
  }

  area(): number {
    return this.side ** 2;
  }
}
