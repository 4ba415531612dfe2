/**
 * Pathological source files, generated on demand (some are megabytes): the inputs a
 * build must index without crashing or stalling. Used by the indexer's tests and by the
 * bench (bench/robustness.ts, bench/pathological-parse.ts): test-support/ stands outside
 * lib/, so neither shipped code nor the bench's measured code carries it, and both the
 * tests and the bench may import it.
 */

/** About 1 MiB of minified JavaScript on a single line. */
export function minifiedLine(bytes = 1024 * 1024): string {
  const parts: string[] = ["!function(w){"];
  let size = parts[0]!.length;
  for (let i = 0; size < bytes - 40; i++) {
    const part = `function f${i}(a,b){return g${i % 97}(a)+b}`;
    parts.push(part);
    size += part.length;
  }
  parts.push("}(window);");
  return parts.join("");
}

/** A Python file of `lines` lines (under 1 MiB): three-line functions, each calling the one before. */
export function functionsFile(lines = 50_000): string {
  const out: string[] = [];
  for (let i = 0; out.length < lines; i++)
    out.push(`def s${i}(v):`, `    return s${Math.max(0, i - 1)}(v)+1`, "");
  return `${out.slice(0, lines).join("\n")}\n`;
}

/** An expression nested `depth` deep: parentheses in Python, arrays in JavaScript. */
export function nestedPython(depth = 100_000): string {
  return `x = ${"(".repeat(depth)}1${")".repeat(depth)}\n`;
}

export function nestedJavaScript(depth = 100_000): string {
  return `export const x = ${"[".repeat(depth)}1${"]".repeat(depth)};\n`;
}

/** One method chain `length` calls long (a builder gone wild): deep, left-recursive trees. */
export function callChain(length = 20_000): string {
  const calls = Array.from({ length }, (_, i) => `.m${i % 10}()`).join("");
  return `function build() {\n  return start()${calls};\n}\n`;
}

/** A string concatenation `length` terms long inside a raised error's message. */
export function concatenation(length = 50_000): string {
  const terms = Array.from({ length }, (_, i) => `"s${i}"`).join(" + ");
  return `def fail():\n    raise ValueError(${terms})\n`;
}

/** Latin-1 text and binary bytes behind code extensions. */
export function latin1Source(): Buffer {
  return Buffer.from("# caf\xe9\ndef f():\n    return 0\n", "latin1");
}

export function binarySource(): Buffer {
  return Buffer.concat([Buffer.from("int main() {"), Buffer.from([0, 0xff, 0xfe, 0]), Buffer.from("}\n")]);
}
