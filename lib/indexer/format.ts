/** The index format: one number for what the indexing library stores per file. */

/**
 * Bumped whenever extraction or chunking changes what is stored for a file: rows of
 * a generation built with another version are never reused, every file is re-parsed.
 */
export const INDEX_FORMAT_VERSION = 16; // 3: imports record aliases; 4: entry points in file facts; 5: module-level lines in file chunks; 6: secrets redacted; 7: C, C++, C#, Ruby and PHP extracted; 8: rows shared between generations, name filters on files; 9: no guessed calls on external modules; 10: private keys of every armour and credential assignments redacted, key files judged by content; 11: file classes, minified files as text, capped chunks; 12: declaration macros blanked, preprocessor rereads, factory-made definitions, numbered overloads; 13: error strings of error-reporting calls and of errors built outside a throw; 14: whole-file word counts; 15: Go errors logged through logging packages and loggers; 16: JavaScript methods assigned to prototypes and objects, C/C++ annotation macros after the parameters blanked, Rust macro_rules definitions and items inside braced macro calls, C# destructors, operators, indexers and event accessors, .NET test projects as tests, Rust imports resolved inside their crate, Go messages printed to standard error
