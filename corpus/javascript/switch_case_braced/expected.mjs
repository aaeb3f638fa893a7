import { freeze } from './util.mjs';

export function reducer(state, action) {
  switch (action.type) {
    case 'add': {
      // gsd-debug-probe:start golden-run p1
      // prettier-ignore
      try {
        const gsd$p = globalThis.process, gsd$e = gsd$p && gsd$p.env.GSD_DEBUG_PROBE_RUNTIME;
        const gsd$rt = !gsd$e ? globalThis[Symbol.for("GSDDBG1_rt1")] : (gsd$p.getBuiltinModule
          ? gsd$p.getBuiltinModule("module").createRequire("/") : require)(gsd$e + ".cjs");
        if (gsd$rt) gsd$rt.hit("gsd-debug-probe/golden-run/p1", () => [
        ]);
      } catch (e) {}
      // gsd-debug-probe:end golden-run p1
      const items = [...state.items, action.item];
      return freeze({ ...state, items });
    }
    case 'remove':
      state = { ...state, items: state.items.filter((i) => i.id !== action.id) };
      break;
    case 'clear':
      return freeze({ ...state, items: [] });
    default:
      throw new Error(`unknown action ${action.type}`);
  }
  return freeze(state);
}

export const initialState = freeze({ items: [] });
