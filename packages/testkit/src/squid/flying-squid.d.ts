// flying-squid ships no types; its surface is typed where it is used (./types.ts).
declare module 'flying-squid' {
  export function createMCServer(options: Record<string, unknown>): unknown;
}
