package com.acme.poet;

/** Writes code to an output with indentation. */
final class CodeWriter {
  private final StringBuilder out;
  private int indentLevel;

  CodeWriter(StringBuilder out) {
    this.out = out;
  }

  CodeWriter emit(String text) {
    for (int i = 0; i < indentLevel; i++) out.append("  ");
    out.append(text);
    return this;
  }

  CodeWriter indent() {
    indentLevel++;
    return this;
  }
}
