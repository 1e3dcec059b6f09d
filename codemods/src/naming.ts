/** `craftItem`, `CraftItem`, `craft-item`, `craft item` → `craft_item` (the canonical verb form). */
export function toSnakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')
    .toLowerCase();
}

/** `craft_item` → `craftItem`. */
export function toCamelCase(name: string): string {
  return toSnakeCase(name).replace(/_([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}

const VERB = /^[a-z][a-z0-9_]*$/;

/** Whether a string is a canonical verb `defineCapability` accepts. */
export function isVerb(name: string): boolean {
  return VERB.test(name);
}
