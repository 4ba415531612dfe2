/**
 * What the store keeps about a file beside its text, declared where it is stored: its
 * class (vendored, generated, minified, documentation; decided by
 * lib/indexer/file-class.ts) and its facts (stated purpose, swallowed errors, TODO
 * markers, type-only and local imports, module state; read from the parse tree by
 * lib/indexer/extract/facts.ts). The indexer writes them, the wiki reads them back.
 */

export const FILE_CLASSES = ["vendored", "generated", "minified", "documentation"] as const;
export type FileClass = (typeof FILE_CLASSES)[number];

/** How an error is dropped on the floor. */
export type SwallowKind =
  /** `except …: pass` (or `...`): the handler does nothing */
  | "except-pass"
  /** bare `except:` that handles something but never re-raises */
  | "bare-except"
  /** `catch (e) {}`: an empty block */
  | "empty-catch"
  /** a catch block holding only a comment (deliberate, but still silent) */
  | "commented-catch"
  /** `.catch(() => {})` / `.catch(() => undefined)` on a promise */
  | "promise-catch"
  /** Go `_ = err` */
  | "blank-error"
  /** Go `if err != nil {}` */
  | "empty-error-check"
  /** Rust `Err(_) => {}` */
  | "ignored-error";

export interface SwallowedError {
  line: number;
  endLine: number;
  kind: SwallowKind;
  /** the caught type(s) as written; null when everything is caught */
  caught: string | null;
  /** qualified name of the innermost symbol around it; null at module level */
  symbol?: string | null;
}

export interface FileFacts {
  /** the module docstring or leading comment: what the file says it is for */
  doc: string;
  swallowed: SwallowedError[];
  /** TODO/FIXME/XXX/HACK markers in comments (first MAX_TODOS), and how many there are */
  todos: { line: number; tag: string }[];
  todoCount: number;
  /** lines of imports used only for type checking (`if TYPE_CHECKING:`, `import type`) */
  typeOnlyImports: number[];
  /** lines of imports made inside a function body (run late, when it is called) */
  localImports: number[];
  /** module-level names and the line of their first top-level assignment */
  state: Record<string, number>;
  /** Go: the name the file's `package` clause gives its package (what an import binds by default) */
  goPackage?: string;
  /** go.mod: the module path its `module` line declares (imports under it are the repository's own) */
  goModule?: string;
}

export const EMPTY_FACTS: FileFacts = {
  doc: "",
  swallowed: [],
  todos: [],
  todoCount: 0,
  typeOnlyImports: [],
  localImports: [],
  state: {},
};
