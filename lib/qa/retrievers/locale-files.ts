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

/** English names of languages and their ISO 639-1 codes. */
const LANGUAGES: Record<string, string> = {
  arabic: "ar",
  bengali: "bn",
  bulgarian: "bg",
  catalan: "ca",
  chinese: "zh",
  croatian: "hr",
  czech: "cs",
  danish: "da",
  dutch: "nl",
  english: "en",
  estonian: "et",
  finnish: "fi",
  french: "fr",
  georgian: "ka",
  german: "de",
  greek: "el",
  hebrew: "he",
  hindi: "hi",
  hungarian: "hu",
  indonesian: "id",
  italian: "it",
  japanese: "ja",
  kazakh: "kk",
  korean: "ko",
  latvian: "lv",
  lithuanian: "lt",
  malay: "ms",
  norwegian: "nb",
  persian: "fa",
  polish: "pl",
  portuguese: "pt",
  romanian: "ro",
  russian: "ru",
  serbian: "sr",
  slovak: "sk",
  slovenian: "sl",
  spanish: "es",
  swedish: "sv",
  thai: "th",
  turkish: "tr",
  ukrainian: "uk",
  vietnamese: "vi",
};

const LOCALE_FOLDER = /(?:^|\/)(?:locales?|i18n|l10n|langs?|languages|translations|messages)\//i;
/** More files than this for one language (every English variant): the name narrows nothing. */
const MAX_FILES = 6;

/** The language codes a report names in English ("Spanish", "in German"). */
export function namedLanguages(report: string): string[] {
  const out = new Set<string>();
  // A time zone's name ("Korean Standard Time") is where the reporter is, not a language.
  for (const m of report.matchAll(/\b([A-Z][a-z]+)\b(?!\s+(?:(?:Standard|Summer|Daylight)\s+)?Time\b)/g)) {
    const code = LANGUAGES[(m[1] as string).toLowerCase()];
    if (code) out.add(code);
  }
  return [...out];
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
  const codes = namedLanguages(input.question).filter((c) => !new RegExp(`\\b${c}\\b`).test(written));
  const candidates: Candidate[] = [];
  if (codes.length > 0 && codes.length <= 2) {
    const index = await pathIndex(input.generationId);
    for (const code of codes)
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
