/** Browser-side settings loading. */

export function readSettings(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    console.error("bad settings", error);
    return {};
  }
}
