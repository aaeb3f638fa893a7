import type { Config } from 'jest';

const config: Config = {
  preset: 'ts-jest',
  testEnvironment: 'node',
  roots: ['<rootDir>/test'],
  testTimeout: 60_000,
  collectCoverageFrom: ['src/**/*.ts'],
  coverageThreshold: { global: { lines: 80 } },
};

export default config;
