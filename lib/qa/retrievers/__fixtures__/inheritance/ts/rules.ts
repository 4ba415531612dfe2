import { GreaterThan } from "./greater";
import { LessThan } from "./less";

export function between(low: number, high: number) {
  return [new GreaterThan(low), new LessThan(high)];
}
