// Ten-pin scoring for the lane kiosk: turns the flat list of rolls reported by the pinsetter
// into frames with running totals, and renders them the way the overhead screen shows them.

const PINS = 10;
const FRAMES = 10;

function validateRolls(rolls) {
  if (!Array.isArray(rolls)) throw new TypeError('rolls must be an array');
  rolls.forEach((r, idx) => {
    if (!Number.isInteger(r) || r < 0 || r > PINS) {
      throw new RangeError(`roll ${idx + 1} is not a pin count: ${r}`);
    }
  });
}

function sumOrNull(...values) {
  if (values.some((v) => v === undefined)) return null;
  return values.reduce((a, b) => a + b, 0);
}

function frameScores(rolls) {
  validateRolls(rolls);
  const frames = [];
  let i = 0;
  for (let f = 1; f <= FRAMES && i < rolls.length; f++) {
    const first = rolls[i];
    const second = rolls[i + 1];
    if (first === PINS) {
      frames.push({ frame: f, kind: 'strike', rolls: [first], score: sumOrNull(PINS, rolls[i + 1], rolls[i + 2]) });
      i += 1;
      continue;
    }
    if (second === undefined) {
      frames.push({ frame: f, kind: 'open', rolls: [first], score: null });
      break;
    }
    if (first + second > PINS) {
      throw new RangeError(`frame ${f} knocks down ${first + second} pins`);
    }
    if (first + second === PINS) {
      const next = rolls[i + 1];
      frames.push({ frame: f, kind: 'spare', rolls: [first, second], score: sumOrNull(PINS, next) });
    } else {
      frames.push({ frame: f, kind: 'open', rolls: [first, second], score: first + second });
    }
    i += 2;
  }
  return frames;
}

function runningTotals(rolls) {
  let total = 0;
  return frameScores(rolls).map((fr) => {
    if (fr.score === null || total === null) {
      total = null;
    } else {
      total += fr.score;
    }
    return { ...fr, total };
  });
}

function gameTotal(rolls) {
  const frames = runningTotals(rolls);
  if (frames.length === 0) return 0;
  return frames[frames.length - 1].total;
}

function renderFrame(fr) {
  if (fr.kind === 'strike') return 'X';
  const [a, b] = fr.rolls.map((r) => (r === 0 ? '-' : String(r)));
  if (fr.kind === 'spare') return `${a} /`;
  return b === undefined ? a : `${a} ${b}`;
}

function renderLane(bowler, rolls) {
  const frames = runningTotals(rolls);
  const marks = frames.map(renderFrame).join(' | ');
  const last = frames.length ? frames[frames.length - 1].total : 0;
  return `${bowler.padEnd(12)} ${marks}  ${last === null ? '...' : last}`;
}

module.exports = { frameScores, runningTotals, gameTotal, renderFrame, renderLane };
