const HELP: string = `Probe blocks are fenced by two comments:
// gsd-debug-probe:start demo-run p7
// gsd-debug-probe:end demo-run p7
`;

export function printHelp(out: { write(s: string): void }): number {
  const text = HELP.trim();
  out.write(text);
  return text.length;
}
