import { describe, expect, it } from 'vitest';
import { laterTwin } from './duplicate.rules.js';

describe('laterTwin', () => {
  const at = (iso: string) => new Date(iso);
  it.each([
    ['the later arrival', { id: 'b', createdAt: at('2026-11-22T10:00:00Z') }, { id: 'a', createdAt: at('2026-11-22T10:00:01Z') }, 'a'],
    ['the later arrival, given second', { id: 'a', createdAt: at('2026-11-22T10:00:01Z') }, { id: 'b', createdAt: at('2026-11-22T10:00:00Z') }, 'a'],
    ['a millisecond later', { id: 'z', createdAt: at('2026-11-22T10:00:00.000Z') }, { id: 'a', createdAt: at('2026-11-22T10:00:00.001Z') }, 'a'],
    ['the greater id at the same instant', { id: '0f', createdAt: at('2026-11-22T10:00:00Z') }, { id: '1a', createdAt: at('2026-11-22T10:00:00Z') }, '1a'],
    ['the greater id at the same instant, given first', { id: '1a', createdAt: at('2026-11-22T10:00:00Z') }, { id: '0f', createdAt: at('2026-11-22T10:00:00Z') }, '1a'],
  ])('%s', (_case, a, b, later) => {
    expect(laterTwin(a, b).id).toBe(later);
    // The rule is the same whichever twin asks.
    expect(laterTwin(b, a).id).toBe(later);
  });
});
