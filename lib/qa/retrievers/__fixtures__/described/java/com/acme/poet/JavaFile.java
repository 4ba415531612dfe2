package com.acme.poet;

/** A source file with one type. */
public final class JavaFile {
  private final TypeSpec type;

  JavaFile(TypeSpec type) {
    this.type = type;
  }

  public String writeTo(StringBuilder out) {
    CodeWriter writer = new CodeWriter(out);
    writer.emit("package com.acme;\n");
    type.emitInto(writer);
    return out.toString();
  }
}
