import { Comparison } from "./comparison";

export class LessThan extends Comparison {
  holds(value: number): boolean {
    return value < this.limit;
  }
}
