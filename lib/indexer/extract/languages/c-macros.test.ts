/** The text C, C++ and C# grammars parse: declaration macros and unread preprocessor branches blanked, offsets kept. */
import { describe, expect, it } from "vitest";
import { blankDeclarationMacros, firstPreprocessorBranches } from "./c-macros";

/** The words left after blanking, line by line. */
const words = (text: string) => text.split("\n").map((line) => line.trim().replace(/\s+/g, " "));

describe("blankDeclarationMacros", () => {
  it("blanks macros beside a head's type, after `class` and after the parameters, keeping offsets", () => {
    const source = [
      "SPDLOG_INLINE std::shared_ptr<logger> registry::get(const std::string &name) {",
      "static void * CJSON_CDECL internal_malloc(size_t size)",
      "class SPDLOG_API logger {",
      "SPDLOG_INLINE logger::logger(logger &&other) SPDLOG_NOEXCEPT",
      "FMT_CONSTEXPR specs_setter(const specs_setter &other) : specs_(other.specs_) {}",
      "struct specs_setter {",
    ].join("\n");
    const blanked = blankDeclarationMacros(source);
    expect(blanked.length).toBe(source.length);
    expect(words(blanked)).toEqual([
      "std::shared_ptr<logger> registry::get(const std::string &name) {",
      "static void * internal_malloc(size_t size)",
      "class logger {",
      "logger::logger(logger &&other)",
      "specs_setter(const specs_setter &other) : specs_(other.specs_) {}",
      "struct specs_setter {",
    ]);
  });

  it("blanks annotation macros with their arguments after the parameters, and `__attribute__`s", () => {
    const source = [
      "void LogMessage::SendToLog() EXCLUSIVE_LOCKS_REQUIRED(log_mutex) {",
      "void Sink::Flush() const LOCKS_EXCLUDED(mu) __attribute__((noinline, cold)) {",
      "size_t Sink::Pending() const noexcept(true) ABSL_MUST_USE_RESULT;",
      "int f(int a) GUARDED(a) + 1;",
    ].join("\n");
    expect(words(blankDeclarationMacros(source))).toEqual([
      "void LogMessage::SendToLog() {",
      "void Sink::Flush() const {",
      "size_t Sink::Pending() const noexcept(true) ;",
      "int f(int a) GUARDED(a) + 1;",
    ]);
  });

  it("blanks a line of macros before a definition, not before a statement", () => {
    expect(words(blankDeclarationMacros("FMT_BEGIN_EXPORT\ntemplate <typename T> class view {};"))).toEqual([
      "",
      "template <typename T> class view {};",
    ]);
    expect(
      words(
        blankDeclarationMacros(
          "FMT_MODULE_EXPORT_BEGIN\n\n/**\n  Local time.\n */\ninline std::tm localtime(long t) {",
        ),
      ),
    ).toEqual(["", "", "/**", "Local time.", "*/", "inline std::tm localtime(long t) {"]);
    expect(words(blankDeclarationMacros("  BEGIN_BLOCK\n  x = 1;"))).toEqual(["BEGIN_BLOCK", "x = 1;"]);
  });

  it("blanks a macro ending a head's first line when the declarator is on the next", () => {
    const source =
      "void SPDLOG_INLINE\nbase_sink<Mutex>::set_formatter(formatter f) {\nHRESULT\nWidget::Paint(HDC dc) {";
    expect(words(blankDeclarationMacros(source))).toEqual([
      "void",
      "base_sink<Mutex>::set_formatter(formatter f) {",
      "HRESULT",
      "Widget::Paint(HDC dc) {",
    ]);
  });

  it("leaves types, calls, statements, directives and comments alone", () => {
    const source = [
      "HRESULT Widget::Paint(HDC dc) {",
      "  return CHECK_RESULT(paint(dc));",
      "  FILE *out = fopen(path, MODE_WRITE);",
      "#define API_CALL __stdcall",
      "// SPDLOG_INLINE void commented(int x)",
      "  DWORD count;",
    ].join("\n");
    expect(blankDeclarationMacros(source)).toBe(source);
  });
});

describe("firstPreprocessorBranches", () => {
  it("reads the first branch, or the next when the first is `#if 0` or Windows-only", () => {
    const source = [
      "#if HAVE_OFFSET",
      "a();",
      "#else",
      "b();",
      "#endif",
      "#if 0",
      "c();",
      "#elif defined(FAST)",
      "d();",
      "#else",
      "e();",
      "#endif",
      "#ifdef _WIN32",
      "int wmain() {",
      "#else",
      "int main() {",
      "#endif",
    ].join("\n");
    const read = firstPreprocessorBranches(source);
    expect(read.length).toBe(source.length);
    expect(words(read).filter(Boolean)).toEqual(["a();", "d();", "int main() {"]);
  });

  it("follows nesting: an inner conditional of an unread branch stays unread", () => {
    const source = ["#if A", "#if B", "x();", "#endif", "#else", "#if C", "y();", "#endif", "#endif"].join(
      "\n",
    );
    expect(words(firstPreprocessorBranches(source)).filter(Boolean)).toEqual(["x();"]);
  });
});
