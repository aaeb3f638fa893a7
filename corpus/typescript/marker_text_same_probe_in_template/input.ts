const HELP: string = `Probe blocks are fenced by two comments:
// gsd-debug-probe:start golden-run p1
// gsd-debug-probe:end golden-run p1
`;

export function printHelp(out: { write(s: string): void }): number {
  const text = HELP.trim();
  out.write(text);
  return text.length;
}
