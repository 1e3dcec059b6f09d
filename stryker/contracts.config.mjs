import { strykerTarget } from './base.mjs';

export default strykerTarget({
  name: 'executor-contracts',
  mutate: ['packages/executor-contracts/src/**/*.ts'],
  vitestConfig: 'stryker/vitest.contracts.config.ts',
});
