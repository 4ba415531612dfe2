/**
 * The locale files a report names by their language. "Spanish days and months should be
 * lowercase" is fixed in `locale/es.js` and its regional variants (`es-us.js`,
 * `es_MX.json`, `esES.ts`), which a report never names by their code: the language's
 * English name is mapped to its ISO 639-1 code, and the files of that code in a locale
 * folder (`locale/`, `locales/`, `i18n/`, `lang/`, `translations/` …) are the named ones.
 */
import "server-only";
import {
  chunkCandidate,
  fileChunk,
  isTestPath,
  type Candidate,
  type RetrievalInput,
  type SignalList,
} from "./shared.ts";
import { pathIndex } from "./file-index.ts";
import ISO6391 from "iso-639-1";

/**
 * English language names (lower case) and their ISO 639-1 codes, from the maintained
 * `iso-639-1` list. A language whose written standards carry its name first ("Norwegian
 * Bokmål", "Norwegian Nynorsk") names their codes too: a report says "Norwegian".
 */
const LANGUAGES = languageCodes();

function languageCodes(): Map<string, string[]> {
  const out = new Map<string, string[]>();
  const names = ISO6391.getAllNames();
  for (const name of names) if (!name.includes(" ")) out.set(name.toLowerCase(), [ISO6391.getCode(name)]);
  for (const name of names) {
    const [first, ...rest] = name.toLowerCase().split(" ");
    const own = out.get(first as string);
    if (rest.length > 0 && own) own.push(ISO6391.getCode(name));
  }
  return out;
}

const LOCALE_FOLDER = /(?:^|\/)(?:locales?|i18n|l10n|langs?|languages|translations|messages)\//i;
/** More files than this for one language (every English variant): the name narrows nothing. */
const MAX_FILES = 6;

/** The languages a report names in English ("Spanish", "in German"), each as its codes. */
export function namedLanguages(report: string): string[][] {
  const out = new Map<string, string[]>();
  // A time zone's name ("Korean Standard Time") is where the reporter is, not a language.
  for (const m of report.matchAll(/\b([A-Z][a-z]+)\b(?!\s+(?:(?:Standard|Summer|Daylight)\s+)?Time\b)/g)) {
    const name = (m[1] as string).toLowerCase();
    const codes = LANGUAGES.get(name);
    if (codes) out.set(name, codes);
  }
  return [...out.values()];
}

/**
 * A language's files in locale folders: the code itself (`es.js`, `es/`), then its
 * regional variants (`es-us.js`, `es_MX.json`, `esES.ts`); none when there are too many
 * to tell apart.
 */
export function localeFiles(paths: Iterable<string>, code: string): string[] {
  const own = new RegExp(`(?:^|/)${code}(?:\\.[^/]+$|/)`);
  const variant = new RegExp(`(?:^|/)${code}(?:[-_][A-Za-z]{2,4}|[A-Z]{2})(?:\\.[^/]+$|/)`);
  const exact: string[] = [];
  const regional: string[] = [];
  for (const path of paths) {
    if (!LOCALE_FOLDER.test(path)) continue;
    if (own.test(path)) exact.push(path);
    else if (variant.test(path)) regional.push(path);
  }
  const all = [...exact.sort(), ...regional.sort()];
  return all.length <= MAX_FILES ? all : [];
}

/**
 * The locale files of the languages a report names, as one signal. A language whose
 * locale the report already names by path (`import 'dayjs/locale/zh-cn'`) is a setting of
 * the reproduction, not the place of the bug; tests are no locale's definition.
 */
export async function localeSignal(input: RetrievalInput): Promise<SignalList> {
  const written = input.anchors.paths.join(" ");
  const languages = namedLanguages(input.question).filter(
    (codes) => !codes.some((c) => new RegExp(`\\b${c}\\b`).test(written)),
  );
  const candidates: Candidate[] = [];
  if (languages.length > 0 && languages.length <= 2) {
    const index = await pathIndex(input.generationId);
    for (const code of languages.flat())
      for (const file of localeFiles(
        [...index.code].filter((p) => !isTestPath(p)),
        code,
      ))
        candidates.push(
          chunkCandidate(fileChunk(file), `${file}, the locale of a language the question names`),
        );
  }
  return { name: "locales", weight: 4, candidates, tied: true };
}
