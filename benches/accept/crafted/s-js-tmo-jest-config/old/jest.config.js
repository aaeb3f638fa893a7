'use strict';

/** @type {import('jest').Config} */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/src', '<rootDir>/test'],
  testMatch: ['**/test/**/*.test.js'],
  testPathIgnorePatterns: ['/node_modules/', '/fixtures/'],
  collectCoverageFrom: ['src/**/*.js', '!src/**/index.js'],
  coverageThreshold: {
    global: { branches: 80, functions: 85, lines: 90 },
  },
  setupFiles: ['<rootDir>/test/setup-env.js'],
  clearMocks: true,
  testTimeout: 5000,
};
