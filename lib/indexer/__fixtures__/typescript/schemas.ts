// Schema classes made by a constructor factory, the way a validation library declares them.
import * as core from "./core";

export const ZodString: core.$constructor<ZodString> = /*@__PURE__*/ core.$constructor(
  "ZodString",
  (inst, def) => {
    core.$ZodString.init(inst, def);
    inst.min = (length) => inst.check(core.minLength(length));
  },
);

const helpers = core.$constructor("helpers", { lazy: true });
