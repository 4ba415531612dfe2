/**
 * Items written inside a braced macro call (`feature! { … }`, `pin_project! { … }`,
 * `lazy_static! { … }`): the grammar reads a macro's argument as a token tree, so the
 * functions, structs and impls in it would be no symbols. When the argument starts
 * like items (an attribute, a doc comment, `pub`, `fn`, `impl` …) and holds no
 * `quote!`-style interpolation (`#name`, `#(…)*`), the call's head and its closing
 * brace are blanked so the items parse where they stand. Offsets and lines are kept.
 */

/** `name! {` alone on its line (not `macro_rules! name {`). */
const HEAD = /^(\s*)([a-z_][a-z0-9_]*)!\s*\{\s*$/;
/** How an argument made of items starts. */
const ITEM_START =
  /^\s*(?:#!?\[|\/\/\/|\/\/!|pub\b|fn\b|struct\b|enum\b|impl\b|trait\b|type\b|const\b|static\b|mod\b|use\b|unsafe\b|async\b|extern\b)/;
/** Interpolation of a code-generating macro: not Rust the grammar can read. */
const INTERPOLATION = /#[A-Za-z_(]/;

/** The source with the heads and closing braces of item-holding macro calls blanked. */
export function unwrapItemMacros(source: string): string {
  if (!/!\s*\{/.test(source)) return source;
  const lines = source.split("\n");
  let changed = false;
  for (let i = 0; i < lines.length; i++) {
    const head = HEAD.exec(lines[i] as string);
    if (!head || head[2] === "macro_rules" || head[2] === "quote") continue;
    const close = closingLine(lines, i);
    if (close < 0) continue;
    const body = lines.slice(i + 1, close);
    const first = body.find((line) => line.trim() !== "");
    if (!first || !ITEM_START.test(first)) continue;
    if (body.some((line) => INTERPOLATION.test(line.replace(/#!?\[/g, "")))) continue;
    lines[i] = (lines[i] as string).replace(/[^\s]/g, " ");
    const last = lines[close] as string;
    const brace = last.lastIndexOf("}");
    lines[close] = `${last.slice(0, brace)} ${last.slice(brace + 1)}`;
    changed = true;
  }
  return changed ? lines.join("\n") : source;
}

/**
 * The line holding the `}` that closes the brace opened at the end of line `open`, when
 * that brace is the last code of its line (`}` or `};`); -1 otherwise. Strings and
 * comments are skipped roughly: a brace inside them is rare in item code.
 */
function closingLine(lines: string[], open: number): number {
  let depth = 1;
  for (let i = open + 1; i < lines.length; i++) {
    const code = (lines[i] as string).replace(/\/\/.*$/, "").replace(/"(?:[^"\\]|\\.)*"/g, '""');
    for (let c = 0; c < code.length; c++) {
      if (code[c] === "{") depth++;
      else if (code[c] === "}" && --depth === 0) return /^\s*\}\s*;?\s*$/.test(code) ? i : -1;
    }
  }
  return -1;
}
