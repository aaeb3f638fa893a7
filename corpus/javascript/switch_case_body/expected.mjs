import { freeze } from './util.mjs';

export function reducer(state, action) {
  switch (action.type) {
    case 'add': {
      const items = [...state.items, action.item];
      return freeze({ ...state, items });
    }
    case 'remove':
      // gsd-debug-probe:start golden-run p1
      // prettier-ignore
      try {
        let gsd$p = globalThis, gsd$m = gsd$p.__GSDDBG1_rt1, gsd$f;
        if (!gsd$m) gsd$p = Object.defineProperty(gsd$p, "__GSDDBG1_rt1", { configurable: true, value:
          gsd$m = new gsd$p.Map() }).process, (gsd$f = gsd$p.env.GSD_DEBUG_PROBE_RUNTIME) && (gsd$p
          .getBuiltinModule || require)("module").createRequire("/")(gsd$f + ".cjs").into(gsd$m);
        if (gsd$m.size && (gsd$f = gsd$m.get("gsd-debug-probe/golden-run/p1"))) gsd$f(() => [
        ]);
      } catch (e) {}
      // gsd-debug-probe:end golden-run p1
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
