// The few Node.js APIs the test uses, declared here so that compiling it needs no @types/node.
declare const process: {
  env: Record<string, string | undefined>;
  cwd(): string;
};
declare function require(id: string): unknown;

declare module "node:test" {
  export function test(name: string, fn: () => Promise<void> | void): void;
}

declare module "node:assert/strict" {
  interface Assert {
    (value: unknown, message?: string): asserts value;
    equal<T>(actual: unknown, expected: T, message?: string): asserts actual is T;
    deepEqual(actual: unknown, expected: unknown, message?: string): void;
    match(value: string, re: RegExp, message?: string): void;
    doesNotMatch(value: string, re: RegExp, message?: string): void;
    ok(value: unknown, message?: string): asserts value;
    rejects(
      block: Promise<unknown>,
      check: (e: unknown) => boolean,
      message?: string,
    ): Promise<void>;
  }
  const assert: Assert;
  export default assert;
}

declare module "node:child_process" {
  export function spawnSync(
    command: string,
    args: string[],
    options: { cwd?: string; env?: Record<string, string | undefined>; encoding: "utf8" },
  ): { status: number | null; stdout: string; stderr: string };
}

declare module "node:fs" {
  export function mkdirSync(path: string): void;
  export function readFileSync(path: string, encoding: "utf8"): string;
  export function writeFileSync(path: string, data: string): void;
  export function appendFileSync(path: string, data: string): void;
}

declare module "node:path" {
  export function join(...parts: string[]): string;
}
