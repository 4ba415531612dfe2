import { Comparison } from "./comparison";

export class GreaterThan extends Comparison {
  holds(value: number): boolean {
    return value > this.limit;
  }
}

export class GreaterOrEqual extends GreaterThan {
  holds(value: number): boolean {
    return value >= this.limit;
  }
}
