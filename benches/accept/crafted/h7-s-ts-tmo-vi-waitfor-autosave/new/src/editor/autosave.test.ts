import { describe, expect, it, vi } from 'vitest';
import { Autosave, type DraftStore } from './autosave';

function memoryStore() {
  const saved: string[] = [];
  const store: DraftStore = {
    async save(_id, content, version) {
      saved.push(content);
      return { version: version + 1 };
    },
  };
  return { store, saved };
}

describe('Autosave', () => {
  it('debounces bursts of changes into one save', async () => {
    const { store, saved } = memoryStore();
    const autosave = new Autosave('doc-1', store, { debounceMs: 50 });
    autosave.change('a');
    autosave.change('ab');
    autosave.change('abc');
    await vi.waitFor(() => expect(saved).toEqual(['abc']), { timeout: 1000 });
    expect(autosave.state).toBe('saved');
  });

  it('saves at the latest after maxWaitMs while typing continues', async () => {
    const { store, saved } = memoryStore();
    const autosave = new Autosave('doc-2', store, { debounceMs: 200, maxWaitMs: 300 });
    const typing = setInterval(() => autosave.change(`t${Date.now()}`), 50);
    await vi.waitFor(() => expect(saved.length).toBeGreaterThan(0), { timeout: 120_000 });
    clearInterval(typing);
  });

  it('keeps the content after a failed save', async () => {
    const store: DraftStore = { save: async () => { throw new Error('offline'); } };
    const autosave = new Autosave('doc-3', store);
    autosave.change('draft');
    await autosave.flush();
    expect(autosave.state).toBe('error');
  });
});
