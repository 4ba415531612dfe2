/**
 * A rejected admin form: a 400 whose JSON body also lists every problem by field key,
 * so the page can show each message next to its input.
 */
import { WayfinderError } from "../errors.ts";

export interface FieldError {
  /** the field's key (`maxPasses`, `modeBudgets.diagnostic.source`, `llm.baseURL`, `expectedFiles`) */
  key: string;
  message: string;
}

export class InvalidFieldsError extends WayfinderError {
  constructor(
    surface: string,
    readonly fields: FieldError[],
  ) {
    super(`bad_request:${surface}`, `Not saved: ${fields.map((f) => `${f.key} — ${f.message}`).join("; ")}`);
  }

  override toJSON() {
    return { error: { code: this.code, message: this.message, fields: this.fields } };
  }
}
