/**
 * Type names as code writes them, reduced to the type a method call on such a value
 * reaches: pointers, references, optionals, smart pointers and collections unwrapped to
 * their element (`Arc<dyn T>`, `List<T>`, `*T`, `T[]`, `Optional<T>` → `T`), built-in
 * types to nothing. Declared receiver types and declared return types both read through it.
 */
import { splitTopLevel } from "./common";

/** Wrappers whose first type argument is what a method call reaches. */
const WRAPPERS = new Set(
  (
    "Arc Rc Box Weak Cell RefCell Mutex RwLock Option Optional Lazy OnceCell Pin Cow List IList ArrayList " +
    "LinkedList Collection ICollection IEnumerable IReadOnlyList IReadOnlyCollection Iterable Iterator Set " +
    "HashSet TreeSet ISet Vec VecDeque Array ReadonlyArray Sequence list set tuple Sequence Iterable " +
    "shared_ptr unique_ptr weak_ptr vector deque Readonly Nullable AtomicReference Supplier"
  ).split(" "),
);

/** Maps whose last type argument (the value) is what a method call reaches. */
const MAPS = new Set(
  "Map HashMap TreeMap BTreeMap IndexMap Dictionary IDictionary IReadOnlyDictionary ConcurrentHashMap ConcurrentDictionary Record dict map unordered_map".split(
    " ",
  ),
);

/** Built-in types no repository method runs on. */
const PRIMITIVES = new Set(
  (
    "int long short byte char float double boolean bool void string String str bytes object Object any " +
    "unknown never number bigint symbol undefined null var auto dynamic decimal uint usize isize u8 u16 u32 " +
    "u64 i8 i16 i32 i64 f32 f64 rune error interface mixed self Self static callable iterable"
  ).split(" "),
);

/**
 * The element type a method call on a value of this declared type reaches, as written
 * (`pkg.Foo`, `Foo`), or null for a primitive or something unreadable.
 */
export function reduceType(written: string): string | null {
  let text = written.trim().replace(/^:\s*/, "");
  for (let guard = 0; guard < 8; guard++) {
    const before = text;
    text = text
      .replace(
        /^(?:&\s*(?:'\w+\s+)?(?:mut\s+)?|\*+|\?|mut\s+|dyn\s+|impl\s+|const\s+|readonly\s+|final\s+|\.\.\.)/,
        "",
      )
      .replace(/(?:\s*[*&?]|\[\s*\d*\s*\]|\.\.\.)$/, "")
      .replace(/^\[\s*\w*\s*\]/, "")
      .replace(/^map\[[^\]]*\]/, "")
      .replace(/^chan\s+/, "")
      .trim();
    // `Foo | null`, `dyn T + Send`: the first real member.
    const union = splitTopLevel(text, "|").map((t) => t.trim());
    if (union.length > 1) text = union.find((t) => t && !/^(?:null|undefined|None|void)$/.test(t)) ?? "";
    const bounded = splitTopLevel(text, "+");
    if (bounded.length > 1) text = (bounded[0] ?? "").trim();
    if (text === before) break;
  }
  text = text.replace(/^["']|["']$/g, "");
  const generic = /^([\w$.:\\]+)\s*[<[](.*)[>\]]$/s.exec(text);
  if (generic) {
    const outer = lastSegment(generic[1] ?? "");
    const args = splitTopLevel(generic[2] ?? "", ",").map((t) => t.trim());
    if (WRAPPERS.has(outer) || outer === "Optional") return args[0] ? reduceType(args[0]) : null;
    if (MAPS.has(outer)) return args.length ? reduceType(args[args.length - 1] ?? "") : null;
    text = generic[1] ?? "";
  }
  if (!/^[\w$.:\\]+$/.test(text)) return null;
  const name = text.replace(/::|\\/g, ".").replace(/^\.+/, "");
  return PRIMITIVES.has(lastSegment(name)) ? null : name;
}

export function lastSegment(name: string): string {
  return name.split(/\.|::|\\/).pop() ?? name;
}
