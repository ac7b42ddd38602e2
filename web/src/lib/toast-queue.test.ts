import { describe, expect, it } from 'vitest';
import { toastReducer, type Toast } from './toast-queue.js';

const t = (id: string): Toast => ({ id, title: id, variant: 'default', open: true });

describe('toast queue (spec §4)', () => {
  it('keeps only the newest toast visible', () => {
    let state = toastReducer([], { type: 'add', toast: t('a') });
    state = toastReducer(state, { type: 'add', toast: t('b') });
    expect(state.map((x) => x.id)).toEqual(['b']);
  });

  it('dismisses one toast or all of them, then removes them', () => {
    const state = [t('a')];
    expect(toastReducer(state, { type: 'dismiss', id: 'a' })[0]!.open).toBe(false);
    expect(toastReducer(state, { type: 'dismiss', id: 'other' })[0]!.open).toBe(true);
    expect(toastReducer(state, { type: 'dismiss' })[0]!.open).toBe(false);
    expect(toastReducer(state, { type: 'remove', id: 'a' })).toEqual([]);
    expect(toastReducer(state, { type: 'remove' })).toEqual([]);
  });
});
