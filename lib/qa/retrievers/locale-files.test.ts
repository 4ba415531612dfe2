/**
 * Locale files named by their language: English language names to codes, a code's files
 * and regional variants in locale folders, and diagnostic retrieval ranking a date
 * library's Spanish locales for a report about Spanish month names.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexSources, type IndexedFixture } from "../../../test-support/qa-env.ts";
import { retrieveReport } from "../retrieve.ts";
import { localeFiles, namedLanguages } from "./locale-files.ts";

describe("namedLanguages", () => {
  it("maps capitalized language names to their codes, not time zones or other words", () => {
    expect(namedLanguages("Spanish days and months should be lowercase, as in Portuguese")).toEqual([
      ["es"],
      ["pt"],
    ]);
    expect(namedLanguages("The Icelandic ordinal is wrong")).toEqual([["is"]]);
    expect(namedLanguages("Time zone: GMT+0900 (Korean Standard Time); spanish is lowercase")).toEqual([]);
  });

  it("names a language's written standards with it", () => {
    expect(namedLanguages("Norwegian week numbers start on Sunday")).toEqual([["no", "nb", "nn"]]);
  });
});

describe("localeFiles", () => {
  const paths = [
    "src/locale/es.js",
    "src/locale/es-us.js",
    "src/locale/es-do.js",
    "src/locale/et.js",
    "src/i18n/es_MX.json",
    "src/lang/esES.ts",
    "src/plugin/es/index.js",
    "src/estimate.js",
    "src/locale/en.js",
    ...["au", "ca", "gb", "ie", "il", "in", "nz"].map((r) => `src/locale/en-${r}.js`),
  ];
  it("finds a code's own file first, then its regional variants, in locale folders only", () => {
    expect(localeFiles(paths, "es")).toEqual([
      "src/locale/es.js",
      "src/i18n/es_MX.json",
      "src/lang/esES.ts",
      "src/locale/es-do.js",
      "src/locale/es-us.js",
    ]);
  });

  it("names none when a language has too many files to tell apart", () => {
    expect(localeFiles(paths, "en")).toEqual([]);
  });
});

const LOCALE = (name: string, months: string) => `const locale = {
  name: '${name}',
  monthsShort: '${months}'.split('_'),
  weekStart: 1,
  ordinal: n => \`\${n}º\`
}

export default locale
`;

describe("diagnostic retrieval of a language's locales", () => {
  let fx: IndexedFixture & { close: () => Promise<void> };
  beforeAll(async () => {
    fx = await indexSources("locale-files", {
      "src/locale/es.js": LOCALE("es", "ene_feb_mar_abr_may_jun_jul_ago_sep_oct_nov_dic"),
      "src/locale/es-us.js": LOCALE("es-us", "ene_feb_mar_abr_may_jun_jul_ago_sep_oct_nov_dic"),
      "src/locale/es-do.js": LOCALE("es-do", "ene_feb_mar_abr_may_jun_jul_ago_sep_oct_nov_dic"),
      "src/locale/fr.js": LOCALE("fr", "janv_févr_mars_avr_mai_juin_juil_août_sept_oct_nov_déc"),
      "src/locale/de.js": LOCALE("de", "Jan_Feb_März_Apr_Mai_Juni_Juli_Aug_Sept_Okt_Nov_Dez"),
      "src/index.js": `const Ls = {}
export const months = (instance) => instance.$locale().months
export const weekdays = (instance) => instance.$locale().weekdays
export const locale = (preset, object) => {
  Ls[preset] = object
  return preset
}
`,
      "src/plugin/localeData/index.js": `export default (o, c, dayjs) => {
  const getShort = (ins, target, full, num) => (ins[target] || full(ins)).slice(0, num)
  const localeData = function () {
    return {
      months: instance => (instance ? instance.format('MMMM') : getShort(this, 'months')),
      monthsShort: instance => getShort(this, 'monthsShort', 'months', 3),
      weekdays: instance => (instance ? instance.format('dddd') : getShort(this, 'weekdays'))
    }
  }
  dayjs.localeData = localeData
}
`,
    });
  });
  afterAll(async () => {
    await fx.close();
  });

  it("ranks the Spanish locale and its regional variants first", async () => {
    const report =
      "Spanish days and months should be lowercase\nSpanish speaking people do not capitalize their months or days.";
    const { files } = await retrieveReport(fx.repositoryId, report, { mode: "diagnostic" });
    expect(new Set(files.slice(0, 3))).toEqual(
      new Set(["src/locale/es.js", "src/locale/es-us.js", "src/locale/es-do.js"]),
    );
  });
});
