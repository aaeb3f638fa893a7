import { configDefaults, defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    environment: 'node',
    include: ['test/**/*.test.ts'],
    exclude: [...configDefaults.exclude, 'test/connections.test.ts'],
    coverage: { provider: 'v8', include: ['src/**'] },
  },
});
