/**
 * A stored JSON object (destination metadata) read back: anything else, or text that is not
 * JSON at all, reads as an empty object, so one damaged row cannot stop a burst or a page.
 */
export function parseJsonObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}
