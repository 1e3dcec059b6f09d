import type { ExtensionContext } from './context.js';
import { installPlayers } from './players.js';

/** Installs every testkit extension on a freshly created flying-squid server. */
export function installExtensions(ctx: ExtensionContext): void {
  installPlayers(ctx);
}
