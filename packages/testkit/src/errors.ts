/** Codes of the errors the testkit raises; each names one way a helper can fail. */
export type TestkitErrorCode =
  | 'inventory_full'
  | 'unknown_block'
  | 'unknown_item'
  | 'unknown_mob'
  | 'unknown_scenario'
  | 'not_a_testkit_bot'
  | 'player_not_found'
  | 'server_stopped'
  | 'spawn_timeout'
  | 'sync_timeout'
  | 'teleport_failed'
  | 'unsupported_external'
  | 'external_timeout'
  | 'external_command_failed';

/** An error with a machine-readable code (helpers throw it so tests fail with a reason). */
export class TestkitError extends Error {
  readonly code: TestkitErrorCode;

  constructor(code: TestkitErrorCode, message: string) {
    super(`${code}: ${message}`);
    this.name = 'TestkitError';
    this.code = code;
  }
}
