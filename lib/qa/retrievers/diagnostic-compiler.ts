/**
 * Diagnostic retrieval's compiler step: a compiler or type checker's error (rustc
 * `error[E0599]`, tsc, javac, Go) is raised by no code of the repository; its subject is
 * the member it names on a type, and the trait or interface declaring that member, whose
 * bounds or shape the user's code does not meet. Those definitions are looked up.
 */
import "server-only";
import { symbolsByName, symbolsByQualifiedIds, symbolsByQualifiedNameLoose } from "../../db/code-graph.ts";
import { symbolCandidate, type Candidate, type RetrievalInput, type SignalList } from "./shared.ts";

/** What a compiler error is about: a member on a type, or a trait a type does not implement. */
export interface CompilerSubject {
  member: string | null;
  type: string | null;
  trait: string | null;
}

/** A path's last segment without generics: `std::result::Result<T, E>` → `Result`. */
function lastSegment(path: string): string {
  return path.replace(/<.*$/, "").split(/::|\./).pop() ?? path;
}

/** Member-on-type wordings, each with the member first and the type second. */
const MEMBER_ON_TYPE = [
  // rustc E0599
  /the method `(\w+)` exists for \w+ `&?(?:mut )?([A-Za-z_][\w:]*)/,
  /no (?:method|function|associated item) named `(\w+)` found for \w+ `&?(?:mut )?([A-Za-z_][\w:]*)/,
  // tsc TS2339 / TS2551
  /Property '(\w+)' does not exist on type '([A-Za-z_][\w.]*)/,
  // Go: x.Foo undefined (type *T has no field or method Foo)
  /\.(\w+) undefined \(type \*?([A-Za-z_][\w.]*) has no field or method/,
  // javac: symbol: method foo(…) location: class Bar
  /symbol:\s+method (\w+)\(.*?\)\s+location:\s+(?:class|interface|variable \w+ of type) ([A-Za-z_][\w.]*)/,
];

/** A trait or interface a type fails to implement. */
const UNMET_TRAIT = [
  /the trait bound `[^`]*?: ([A-Za-z_][\w:]*)/,
  /the trait `([A-Za-z_][\w:]*)` is not implemented for/,
];

/** A compiler's error line: rustc's code, tsc's, or a compiler's `error:` before a place. */
const COMPILER_ERROR =
  /\berror\[E\d{4}\]|\berror TS\d{4}\b|\.(?:java|go|rs|ts|tsx):\d+(?::\d+)?:? error\b|^\s*-->\s/m;

/** The subject of a compiler error the question quotes, or null when it quotes none. */
export function compilerSubject(question: string): CompilerSubject | null {
  if (
    !COMPILER_ERROR.test(question) &&
    !/\bTS\d{4}\b|cannot find symbol|has no field or method/.test(question)
  )
    return null;
  for (const pattern of MEMBER_ON_TYPE) {
    const m = pattern.exec(question);
    if (m?.[1] && m[2]) return { member: m[1], type: lastSegment(m[2]), trait: null };
  }
  for (const pattern of UNMET_TRAIT) {
    const m = pattern.exec(question);
    if (m?.[1]) return { member: null, type: null, trait: lastSegment(m[1]) };
  }
  return null;
}

const TRAIT_KINDS = new Set(["trait", "interface"]);

/**
 * 2d. The definitions a compiler error is about: the member on the type it names
 * (`Result.context`), then the traits or interfaces declaring that member, or the trait
 * it names as unmet, with their declarations of it.
 */
export async function compilerSignal(input: RetrievalInput): Promise<SignalList> {
  const subject = compilerSubject(input.question);
  const candidates: Candidate[] = [];
  if (subject) {
    const { generationId } = input;
    const { member, type, trait } = subject;
    if (member && type)
      for (const s of await symbolsByQualifiedNameLoose(generationId, `${type}.${member}`, 3))
        candidates.push(symbolCandidate(s, `the compiler error's ${type}.${member}`));
    if (member) {
      const declared = await symbolsByName(generationId, member, 30);
      const parents = await symbolsByQualifiedIds(
        generationId,
        declared.flatMap((s) => (s.parentId ? [s.parentId] : [])),
      );
      for (const p of parents.filter((p) => TRAIT_KINDS.has(p.kind)))
        candidates.push(symbolCandidate(p, `declares ${member}, which the compiler error names`));
    }
    if (trait)
      for (const s of (await symbolsByName(generationId, trait, 5)).filter((s) => TRAIT_KINDS.has(s.kind)))
        candidates.push(symbolCandidate(s, `the trait the compiler error finds unmet`));
  }
  return { name: "compiler", weight: 4, candidates };
}
