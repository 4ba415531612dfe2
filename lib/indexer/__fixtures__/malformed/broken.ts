import { readFile } from "node:fs/promises";

export function good(path: string) {
  return readFile(path);
}

export function broken(a: number {
  return a +;
}

export class Survivor {
  run() {
    this.count = compute();
  }
}
