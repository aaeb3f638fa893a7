const HELP = `Probe blocks are fenced by two comments:
// gsd-debug-probe:start golden-run p1
// gsd-debug-probe:end golden-run p1
`;

const EXAMPLE = '// gsd-debug-probe:start <slug> <probe-id>';

function printHelp(out) {
  const text = HELP + EXAMPLE;
  out.write(text);
  return text.length;
}

module.exports = { printHelp };
