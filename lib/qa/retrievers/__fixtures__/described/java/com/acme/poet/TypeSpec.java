package com.acme.poet;

/** A generated type. */
public final class TypeSpec {
  private final String name;

  TypeSpec(String name) {
    this.name = name;
  }

  void emitInto(CodeWriter writer) {
    writer.indent().emit("class " + name + " {}\n");
  }
}
