const HELP = `Probe blocks are fenced by two comments:
// gsd-debug-probe:start demo-run p7
// gsd-debug-probe:end demo-run p7
`;

const EXAMPLE = '// gsd-debug-probe:start <slug> <probe-id>';

function printHelp(out) {
  const text = HELP + EXAMPLE;
  out.write(text);
  return text.length;
}

module.exports = { printHelp };
