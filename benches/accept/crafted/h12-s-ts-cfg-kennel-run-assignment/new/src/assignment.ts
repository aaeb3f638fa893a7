// Assigns boarding dogs to kennel runs for the night. Runs are sized small / medium / large;
// a dog goes to the run for its size band (small up to and including 10 kg, medium up to
// and including 25 kg). Reactive dogs always get a run to themselves; dogs from the same
// household may share a run if the run's size allows it.

export type SizeBand = 'small' | 'medium' | 'large';
export type Temperament = 'calm' | 'social' | 'reactive';

export interface Dog {
  name: string;
  householdId: string;
  weightKg: number;
  temperament: Temperament;
}

export interface Run {
  id: string;
  size: SizeBand;
  /** dogs of one household that fit together */
  capacity: number;
}

export interface Assignment {
  runId: string;
  dogs: string[];
}

export const SMALL_MAX_KG = 10;
export const MEDIUM_MAX_KG = 25;

export function sizeBand(weightKg: number): SizeBand {
  if (!(weightKg > 0)) throw new RangeError(`weight must be positive, got ${weightKg}`);
  if (weightKg < SMALL_MAX_KG) return 'small';
  if (weightKg < MEDIUM_MAX_KG) return 'medium';
  return 'large';
}

function groupsFor(dogs: Dog[]): Dog[][] {
  const groups = new Map<string, Dog[]>();
  const solo: Dog[][] = [];
  for (const dog of dogs) {
    if (dog.temperament === 'reactive') {
      solo.push([dog]);
      continue;
    }
    const key = `${dog.householdId}:${sizeBand(dog.weightKg)}`;
    groups.set(key, [...(groups.get(key) ?? []), dog]);
  }
  return [...solo, ...groups.values()];
}

export function assignRuns(dogs: Dog[], runs: Run[]): { assignments: Assignment[]; unplaced: string[] } {
  const free = [...runs].sort((a, b) => a.capacity - b.capacity);
  const assignments: Assignment[] = [];
  const unplaced: string[] = [];
  for (const group of groupsFor(dogs)) {
    const band = sizeBand(group[0].weightKg);
    let remaining = group;
    while (remaining.length) {
      // smallest run of the band that holds the whole group, else any run of the band
      const fits = free.findIndex((r) => r.size === band && r.capacity >= remaining.length);
      const idx = fits !== -1 ? fits : free.findIndex((r) => r.size === band);
      if (idx === -1) {
        unplaced.push(...remaining.map((d) => d.name));
        break;
      }
      const [run] = free.splice(idx, 1);
      const take = remaining.slice(0, run.capacity);
      assignments.push({ runId: run.id, dogs: take.map((d) => d.name) });
      remaining = remaining.slice(take.length);
    }
  }
  return { assignments, unplaced };
}

export function occupancyReport(dogs: Dog[], runs: Run[]): string {
  const { assignments, unplaced } = assignRuns(dogs, runs);
  const lines = assignments
    .sort((a, b) => a.runId.localeCompare(b.runId))
    .map((a) => `${a.runId}: ${a.dogs.join(', ')}`);
  if (unplaced.length) lines.push(`NO RUN: ${unplaced.join(', ')}`);
  return lines.join('\n');
}
