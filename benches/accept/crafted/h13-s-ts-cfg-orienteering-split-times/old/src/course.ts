/**
 * Course definitions.
 *
 * A course is an ordered list of control codes, e.g. "S1-31-47-52-F1".
 * The start (S...) and finish (F...) are not punched on the card as
 * controls: the start time comes from the start box and the finish is the
 * card's finish punch.
 */

export interface Course {
  name: string;
  controls: number[];
}

export function parseCourse(name: string, spec: string): Course {
  const parts = spec.split('-').map((p) => p.trim());
  if (parts.length < 3 || !/^S\d*$/.test(parts[0]) || !/^F\d*$/.test(parts[parts.length - 1])) {
    throw new SyntaxError(`course ${name}: expected S...-controls-...F, got "${spec}"`);
  }
  const controls = parts.slice(1, -1).map((p) => {
    const code = Number(p);
    if (!Number.isInteger(code) || code < 31 || code > 255) {
      throw new SyntaxError(`course ${name}: bad control code "${p}"`);
    }
    return code;
  });
  return { name, controls };
}
