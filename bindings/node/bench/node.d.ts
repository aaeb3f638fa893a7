// The few Node.js APIs the two front-ends use (no @types/node needed to compile them).
declare const process: { env: Record<string, string | undefined>; argv: string[] };
declare function require(id: string): unknown;
declare module "node:child_process" {
  export function spawnSync(
    cmd: string,
    args: string[],
    opts: { encoding: "utf8" },
  ): { status: number | null; stdout: string; stderr: string; error?: Error };
}
declare module "node:fs" {
  export function readFileSync(path: string, encoding: "utf8"): string;
  export function writeFileSync(path: string, data: string): void;
}
