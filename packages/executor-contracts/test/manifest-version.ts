import type { Manifest } from '../src/index.js';

export type ManifestVersion = Manifest['capabilities'][number]['versions'][number];

/** One version entry of a registry manifest, verified and safe unless `extra` says otherwise. */
export function manifestVersion(version: string, extra: Partial<ManifestVersion> = {}): ManifestVersion {
  return { version, description: 'd', inputSchema: {}, safetyLevel: 'safe', atomic: false, preconds: [], effects: [], acceptance: 'verified', runner: 'function', ...extra };
}
