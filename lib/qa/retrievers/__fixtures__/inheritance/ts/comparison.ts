export abstract class Comparison {
  constructor(readonly limit: number) {}

  abstract holds(value: number): boolean;

  check(value: number): string | null {
    return this.holds(value) ? null : `must compare to ${this.limit}`;
  }
}
