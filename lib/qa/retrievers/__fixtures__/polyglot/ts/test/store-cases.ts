import { handleCreate } from "../src/app/api.ts";
import { Store } from "../src/core/store.ts";
import { formatKey } from "../src/core/util.ts";

export function testSaveNormalizesKey(): boolean {
  return new Store().save({ name: " A " }) === formatKey("a");
}

export function testHandleCreate(): boolean {
  return handleCreate({ record: { name: "b" } }) === "b";
}
