import { strykerTarget } from './base.mjs';

export default strykerTarget({
  name: 'bt-runtime-executor',
  mutate: ['packages/bt-runtime/src/executor/**/*.ts'],
  vitestConfig: 'stryker/vitest.executor.config.ts',
});
