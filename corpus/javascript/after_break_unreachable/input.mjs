import { freeze } from './util.mjs';

export function reducer(state, action) {
  switch (action.type) {
    case 'add': {
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
