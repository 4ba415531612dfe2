/**
 * Quoted inputs and the patterns that accept them: the values a report quotes, the
 * regular expressions each language writes, the place an accepting file takes among the
 * first files, and diagnostic retrieval bringing up a date library's constants module
 * for a misread date.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexSources, type IndexedFixture } from "../../../test-support/qa-env.ts";
import { retrieveReport } from "../retrieve.ts";
import { acceptedInputs, codePatterns, quotedInputs, withAcceptingFiles } from "./accepted-inputs.ts";

describe("quotedInputs", () => {
  it("keeps quoted values with digits and punctuation, not words or sentences", () => {
    const report = [
      "dayjs.utc('2020-12-01T09:00:00+0900') is off by nine hours",
      'the "options" tag and "sex,options=0|1" in `json:"sex"`; see "this is a whole sentence 1."',
      "version `v1.2.3-rc.1`, and 'abc'; works in '1.9.7', see 'https://day.js.org/docs/1'",
    ].join("\n");
    expect(quotedInputs(report)).toEqual(["2020-12-01T09:00:00+0900", "sex,options=0|1", "v1.2.3-rc.1"]);
  });
});

describe("codePatterns", () => {
  const date = "2020-12-01T09:00:00";
  it("reads JavaScript regex literals and RegExp calls, not divisions or comments", () => {
    const text = [
      "// a comment / with / slashes 2020-12-01",
      "export const REGEX_PARSE = /^(\\d{4})-(\\d{2})-(\\d{2})T(\\d{2}):(\\d{2}):(\\d{2})$/",
      "const half = total / 2 / 1",
      "const VERSION = new RegExp('^v?\\\\d+\\\\.\\\\d+\\\\.\\\\d+$')",
    ].join("\n");
    const patterns = codePatterns("src/constant.js", text);
    expect(patterns).toHaveLength(2);
    expect(acceptedInputs(patterns, [date, "1.2.3", "2020-12-01"])).toEqual([date, "1.2.3"]);
  });

  it("reads Go, Rust, Java, Python and PHP patterns in their own quoting", () => {
    const go = "var versionRe = regexp.MustCompile(`^v(?P<major>\\d+)\\.(\\d+)\\.(\\d+)$`)";
    const rust = 'let re = Regex::new(r"(?i)^\\d+(ms|s|m|h)$").unwrap();';
    const java = 'static final Pattern SIZE = Pattern.compile("^(\\\\d+)\\\\s*(KB|MB|GB)$");';
    const python = "DURATION = re.compile(r'^(\\d+):(\\d{2})$')";
    const php = "if (preg_match('/^\\d{4}-\\d{2}$/i', $value)) {}";
    expect(acceptedInputs(codePatterns("internal/version.go", go), ["v1.20.3"])).toEqual(["v1.20.3"]);
    expect(acceptedInputs(codePatterns("src/duration.rs", rust), ["150MS", "150 ms"])).toEqual(["150MS"]);
    expect(acceptedInputs(codePatterns("src/Size.java", java), ["10 MB", "10 TB"])).toEqual(["10 MB"]);
    expect(acceptedInputs(codePatterns("app/time.py", python), ["12:30", "12:3"])).toEqual(["12:30"]);
    expect(acceptedInputs(codePatterns("src/Month.php", php), ["2020-12"])).toEqual(["2020-12"]);
  });

  it("drops patterns that accept plain strings, and ones that could backtrack without end", () => {
    const text = "const ANY = /^.*$/\nconst WORD = /\\w+/\nconst BAD = /^(\\d+)+$/";
    expect(codePatterns("src/x.js", text)).toEqual([]);
  });
});

describe("withAcceptingFiles", () => {
  const ranked = ["a.js", "b.js", "c.js", "b.d.ts", "x.js", "y.js", "const.js"];
  it("takes the place of the lowest first file that is neither leading nor a partner", () => {
    const kept = new Set(["a.js", "b.js", "c.js", "b.d.ts"]);
    expect(withAcceptingFiles(ranked, ["const.js"], kept, 5)).toEqual([
      "a.js",
      "b.js",
      "c.js",
      "b.d.ts",
      "const.js",
      "x.js",
      "y.js",
    ]);
    const pairFourth = new Set(["a.js", "b.js", "c.js", "x.js"]);
    expect(withAcceptingFiles(ranked, ["const.js"], pairFourth, 5).slice(0, 6)).toEqual([
      "a.js",
      "b.js",
      "c.js",
      "const.js",
      "x.js",
      "b.d.ts",
    ]);
  });

  it("leaves the ranking when every first place is held, or the file is already there", () => {
    expect(withAcceptingFiles(ranked, ["const.js"], new Set(ranked.slice(0, 5)), 5)).toEqual(ranked);
    expect(withAcceptingFiles(ranked, ["c.js"], new Set(), 5)).toEqual(ranked);
  });
});

/** A small date library: the parsing pattern lives in a constants module the report never names. */
const DATES: Record<string, string> = {
  "src/constant.js": `export const SECONDS_A_MINUTE = 60
export const SECONDS_A_HOUR = SECONDS_A_MINUTE * 60
export const SECONDS_A_DAY = SECONDS_A_HOUR * 24
export const SECONDS_A_WEEK = SECONDS_A_DAY * 7
export const MILLISECONDS_A_SECOND = 1e3
export const MILLISECONDS_A_MINUTE = SECONDS_A_MINUTE * MILLISECONDS_A_SECOND
export const MILLISECONDS_A_HOUR = SECONDS_A_HOUR * MILLISECONDS_A_SECOND
export const MILLISECONDS_A_DAY = SECONDS_A_DAY * MILLISECONDS_A_SECOND
export const MILLISECONDS_A_WEEK = SECONDS_A_WEEK * MILLISECONDS_A_SECOND
export const MS = 'millisecond'
export const S = 'second'
export const MIN = 'minute'
export const H = 'hour'
export const D = 'day'
export const W = 'week'
export const M = 'month'
export const Q = 'quarter'
export const Y = 'year'
export const DATE = 'date'
export const INVALID_DATE_STRING = 'Invalid Date'
export const FORMAT_DEFAULT = 'YYYY-MM-DDTHH:mm:ssZ'
export const REGEX_PARSE = /^(\\d{4})[-/]?(\\d{1,2})?[-/]?(\\d{0,2})[^0-9]*(\\d{1,2})?:?(\\d{1,2})?:?(\\d{1,2})?.?(\\d+)?$/
`,
  "src/utils.js": `const padStart = (string, length, pad) => {
  const s = String(string)
  if (!s || s.length >= length) return string
  return \`\${Array((length + 1) - s.length).join(pad)}\${string}\`
}

const padZoneStr = (instance) => {
  const negMinutes = -instance.utcOffset()
  const minutes = Math.abs(negMinutes)
  const hourOffset = Math.floor(minutes / 60)
  const minuteOffset = minutes % 60
  return \`\${negMinutes <= 0 ? '+' : '-'}\${padStart(hourOffset, 2, '0')}:\${padStart(minuteOffset, 2, '0')}\`
}

const isUndefined = s => s === undefined

export default { s: padStart, z: padZoneStr, u: isUndefined }
`,
  "src/index.js": `import * as C from './constant'
import U from './utils'

const wrapper = (date, instance) => new Dayjs({ date, utc: instance.$u, x: instance.$x })

const parseDate = (cfg) => {
  const { date, utc } = cfg
  if (typeof date === 'string' && !/Z$/i.test(date)) {
    const d = date.match(C.REGEX_PARSE)
    if (d) {
      const ms = (d[7] || '0').substring(0, 3)
      if (utc) {
        return new Date(Date.UTC(d[1], d[2] - 1, d[3] || 1, d[4] || 0, d[5] || 0, d[6] || 0, ms))
      }
      return new Date(d[1], d[2] - 1, d[3] || 1, d[4] || 0, d[5] || 0, d[6] || 0, ms)
    }
  }
  return new Date(date)
}

class Dayjs {
  constructor(cfg) {
    this.parse(cfg)
  }

  parse(cfg) {
    this.$d = parseDate(cfg)
    this.$u = cfg.utc
  }

  utcOffset() {
    return -Math.round(this.$d.getTimezoneOffset() / 15) * 15
  }

  isValid() {
    return !(this.$d.toString() === C.INVALID_DATE_STRING)
  }

  format(formatStr) {
    const str = formatStr || C.FORMAT_DEFAULT
    const zoneStr = U.z(this)
    if (U.u(this.$offset)) return str.replace('Z', zoneStr)
    return str.replace('Z', U.s(this.$offset, 2, '0'))
  }

  clone() {
    return wrapper(this.$d, this)
  }
}

const dayjs = (date, c) => new Dayjs({ date, ...c })
export default dayjs
`,
  "src/plugin/utc/index.js": `export default (option, Dayjs, dayjs) => {
  const proto = Dayjs.prototype
  dayjs.utc = function (date) {
    const cfg = { date, utc: true, args: arguments }
    return new Dayjs(cfg)
  }
  proto.utc = function (keepLocalTime) {
    const ins = dayjs(this.toDate(), { locale: this.$L, utc: true })
    if (keepLocalTime) return ins.add(this.utcOffset(), 'minute')
    return ins
  }
  proto.utcOffset = function (input, keepLocalTime) {
    if (input === undefined) return this.$u ? 0 : this.$offset
    const offset = typeof input === 'string' ? parseOffset(input) : input
    const ins = this.utc()
    ins.$offset = offset
    ins.$x.$localOffset = keepLocalTime ? offset : 0
    return ins
  }
}

function parseOffset(input) {
  const sign = input[0] === '-' ? -1 : 1
  const [hours, minutes] = input.slice(1).split(':')
  return sign * (Number(hours) * 60 + Number(minutes || 0))
}
`,
  "src/plugin/timezone/index.js": `export default (o, c, d) => {
  const proto = c.prototype
  proto.tz = function (timezone, keepLocalTime) {
    const target = this.toDate().toLocaleString('en-US', { timeZone: timezone })
    const diff = Math.round((this.toDate() - new Date(target)) / 1000 / 60)
    const ins = d(target).$set('millisecond', this.$ms).utcOffset(-diff, true)
    return ins
  }
  d.tz = function (input, timezone) {
    const previousOffset = d.utc(input).utcOffset()
    const localTs = d.utc(input).valueOf()
    return d(localTs).utcOffset(previousOffset).tz(timezone)
  }
  d.tz.guess = function () {
    return Intl.DateTimeFormat().resolvedOptions().timeZone
  }
}
`,
  "src/plugin/objectSupport/index.js": `export default (o, c, dayjs) => {
  const proto = c.prototype
  const parseDate = (cfg) => {
    const { date, utc } = cfg
    if (date && typeof date === 'object' && !(date instanceof Date)) {
      const { year, month, day, hour, minute, second } = date
      if (utc) return new Date(Date.UTC(year, month, day || 1, hour || 0, minute || 0, second || 0))
      return new Date(year, month, day || 1, hour || 0, minute || 0, second || 0)
    }
    return date
  }
  const oldParse = proto.parse
  proto.parse = function (cfg) {
    cfg.date = parseDate.bind(this)(cfg)
    oldParse.bind(this)(cfg)
  }
}
`,
  "src/plugin/arraySupport/index.js": `export default (o, c, dayjs) => {
  const proto = c.prototype
  const parseDate = (cfg) => {
    const { date, utc } = cfg
    if (Array.isArray(date)) {
      if (utc) return new Date(Date.UTC.apply(null, date))
      return new Date(...date)
    }
    return date
  }
  const oldParse = proto.parse
  proto.parse = function (cfg) {
    cfg.date = parseDate.bind(this)(cfg)
    oldParse.bind(this)(cfg)
  }
}
`,
  "src/plugin/customParseFormat/index.js": `const formattingTokens = /(\\[[^[]*\\])|([-:/.()\\s]+)|(A|a|YYYY|YY?|MM?M?M?|Do|DD?|hh?|HH?|mm?|ss?|S{1,3}|z|ZZ?)/g
const match2 = /\\d\\d/
const matchOffset = /[+-]\\d\\d:?(\\d\\d)?|Z/

function offsetFromString(string) {
  const parts = string.match(/([+-]|\\d\\d)/g)
  const minutes = +(parts[1] * 60) + (+parts[2] || 0)
  return minutes === 0 ? 0 : parts[0] === '+' ? -minutes : minutes
}

const parseFormattedInput = (input, format, utc) => {
  const tokens = format.match(formattingTokens)
  const zone = input.match(matchOffset)
  const offset = zone ? offsetFromString(zone[0]) : 0
  if (utc) return new Date(Date.UTC(input.slice(0, 4), 0, 1, 0, offset))
  return new Date(input.slice(0, 4), tokens.length, 1, 0, offset)
}

export default (o, C) => {
  const proto = C.prototype
  const oldParse = proto.parse
  proto.parse = function (cfg) {
    const { date, utc, args } = cfg
    const format = args[1]
    if (typeof format === 'string') {
      this.$d = parseFormattedInput(date, format, utc)
      this.init()
    } else {
      oldParse.call(this, cfg)
    }
  }
}
`,
  "src/plugin/badMutable/index.js": `export default (o, c) => {
  const proto = c.prototype
  const oldUtcOffset = proto.utcOffset
  proto.utcOffset = function (input, keepLocalTime) {
    const ins = oldUtcOffset.bind(this)(input, keepLocalTime)
    this.$d = ins.toDate()
    this.$offset = ins.$offset
    return this
  }
  const oldTz = proto.tz
  proto.tz = function (timezone, keepLocalTime) {
    const ins = oldTz.bind(this)(timezone, keepLocalTime)
    this.$d = ins.toDate()
    return this
  }
}
`,
  "src/plugin/advancedFormat/index.js": `export default (o, c) => {
  const proto = c.prototype
  const oldFormat = proto.format
  proto.format = function (formatStr) {
    const str = formatStr || 'YYYY-MM-DDTHH:mm:ssZ'
    const offset = this.utcOffset()
    const zone = this.$x && this.$x.$timezone
    return oldFormat.bind(this)(str.replace(/z/g, zone || 'UTC').replace(/X/g, String(offset)))
  }
}
`,
  "types/plugin/utc.d.ts": `import { PluginFunc, ConfigType } from 'dayjs'
declare const plugin: PluginFunc
export = plugin
declare module 'dayjs' {
  interface Dayjs {
    utc(keepLocalTime?: boolean): Dayjs
    utcOffset(offset: number | string, keepLocalTime?: boolean): Dayjs
  }
  export function utc(config?: ConfigType, format?: string, strict?: boolean): Dayjs
}
`,
  "types/plugin/timezone.d.ts": `import { PluginFunc, ConfigType } from 'dayjs'
declare const plugin: PluginFunc
export = plugin
declare module 'dayjs' {
  interface Dayjs {
    tz(timezone?: string, keepLocalTime?: boolean): Dayjs
  }
}
`,
};

describe("diagnostic retrieval of a misread value", () => {
  let fx: IndexedFixture & { close: () => Promise<void> };
  beforeAll(async () => {
    fx = await indexSources("accepted-inputs", DATES);
  });
  afterAll(async () => {
    await fx.close();
  });

  it("brings up the constants module whose pattern parses the quoted date", async () => {
    const report =
      "dayjs.utc() dropped timezone offset support\n" +
      "`dayjs.utc('2020-12-01T09:00:00+0900').toDate().getTime() === new Date('2020-12-01T09:00:00+0900').getTime()`\n" +
      "The above evaluates to true in 1.8.33; now toDate() gives 2020-12-01T09:00:00.090Z";
    const { files } = await retrieveReport(fx.repositoryId, report, { mode: "diagnostic" });
    expect(files.slice(0, 5)).toContain("src/constant.js");
    // The utc plugin's declarations, a partner of the leading file, keep their place.
    expect(files.slice(0, 5)).toContain("types/plugin/utc.d.ts");
  });
});
