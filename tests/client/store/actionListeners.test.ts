import { configureStore, type UnknownAction } from '@reduxjs/toolkit';
import { type ActionListener, actionListeners, addLazyListeners, addListeners } from '../../../store/actionListeners';

function storeWith(initial: ActionListener[]) {
  const store = configureStore({
    reducer: (state: string[] = [], action: UnknownAction) => [...state, action.type],
    middleware: (getDefault) => getDefault().prepend(actionListeners(initial)),
  });
  return { store };
}

describe('action listeners', () => {
  it('run after the reducers, once per listener however often it is added, and the adding reaches no reducer', () => {
    const order: string[] = [];
    const effect = (action: UnknownAction, api: { getState: () => unknown }) =>
      void order.push(`${action.type} after ${(api.getState() as string[]).at(-1)}`);
    const { store } = storeWith([{ type: 'ping', effect }]);
    store.dispatch(addListeners([{ type: 'ping', effect }]));
    store.dispatch({ type: 'ping' });
    expect(order).toEqual(['ping after ping']);
    expect(store.getState()).not.toContain('actionListeners/add');
  });

  it('lazy listeners (a slice injected later) run in the stores made before and after, once each', () => {
    const seen: string[] = [];
    const effect = (action: UnknownAction) => void seen.push(action.type);
    const before = storeWith([]).store;
    const lazy = { type: 'lazy/ping', effect };
    addLazyListeners([lazy]);
    addLazyListeners([lazy]);
    const after = storeWith([]).store;
    before.dispatch({ type: 'lazy/ping' });
    after.dispatch({ type: 'lazy/ping' });
    expect(seen).toEqual(['lazy/ping', 'lazy/ping']);
  });

  it('a listener that throws or rejects stops no other', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {});
    const ran: string[] = [];
    const { store } = storeWith([
      {
        type: 'ping',
        effect: () => {
          throw new Error('sync');
        },
      },
      {
        type: 'ping',
        effect: async () => {
          throw new Error('async');
        },
      },
      { type: 'ping', effect: () => void ran.push('third') },
    ]);
    store.dispatch({ type: 'ping' });
    expect(ran).toEqual(['third']);
    await vi.waitFor(() => expect(errors).toHaveBeenCalledTimes(2));
    errors.mockRestore();
  });
});
