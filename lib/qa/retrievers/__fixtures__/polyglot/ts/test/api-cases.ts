import { handleLookup } from "../src/app/api.ts";
import { Store } from "../src/core/store.ts";

export function testLookupMissing(): boolean {
  new Store().save({ name: "x" });
  return handleLookup({ name: "y" }) === undefined;
}
