/**
 * What each quality preset makes of the current settings, for the values a preset
 * touches (a question picks its preset; balanced is the settings unchanged).
 */
import type { CgragConfig } from "@/lib/settings/config";
import { FIELD_BY_KEY, flatten, formatSettingValue, sameValue } from "@/lib/settings/fields";
import { QUALITY_LIST, type Quality } from "@/lib/qa/types";

export function PresetsTable({ presets }: { presets: Record<Quality, CgragConfig> }) {
  const flat = Object.fromEntries(QUALITY_LIST.map((q) => [q, flatten(presets[q])])) as Record<
    Quality,
    Record<string, unknown>
  >;
  const keys = Object.keys(flat.balanced).filter((k) =>
    QUALITY_LIST.some((q) => !sameValue(flat[q][k], flat.balanced[k])),
  );
  return (
    <div className="table-scroll">
      <table className="admin-table" data-testid="presets-table">
        <thead>
          <tr>
            <th scope="col">Setting</th>
            {QUALITY_LIST.map((q) => (
              <th scope="col" key={q} className="num">
                {q}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {keys.map((k) => (
            <tr key={k} data-testid={`preset-row-${k}`}>
              <th scope="row">{FIELD_BY_KEY.get(k)?.label ?? k}</th>
              {QUALITY_LIST.map((q) => (
                <td key={q} className="num" data-preset={q}>
                  {formatSettingValue(flat[q][k])}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
