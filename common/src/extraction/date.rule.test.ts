import { describe, expect, it } from 'vitest';
import { findDate, findTime, isDayFirst, normalizeDayMonth, parseDate } from './date.rule.js';

describe('parseDate', () => {
  it.each([
    ['21/09/2017 10:20:37 AM', true, '2017-09-21'],
    ['Date: 19-03-2018', true, '2018-03-19'],
    ['01/03/18', true, '2018-03-01'],
    ['01/03/18', false, '2018-01-03'],
    ['24-03-18', true, '2018-03-24'],
    ['2018-01-05 13:00', true, '2018-01-05'],
    ['2016/05/01', true, '2016-05-01'],
    ['07 MAY 2018', true, '2018-05-07'],
    ['02/JAN/2017', true, '2017-01-02'],
    ['Jun 11, 2018', false, '2018-06-11'],
    ['7/6/2018', true, '2018-06-07'],
    ['25.07.2017', true, '2017-07-25'],
    ['13/02/2016', false, '2016-02-13'],
    ['TOTAL 10.40', true, null],
    ['31/02/2018', true, null],
    ['Tel 03-4021 0276', true, null],
  ])('%j (day first %s) → %s', (line, dayFirst, date) => {
    expect(parseDate(line, dayFirst)).toBe(date);
  });

  it('swaps day and month when the first part exceeds 12', () => {
    expect(normalizeDayMonth(25, 7, 2017, false)).toBe('2017-07-25');
    expect(normalizeDayMonth(7, 25, 2017, true)).toBe('2017-07-25');
    expect(normalizeDayMonth(13, 13, 2017, true)).toBeNull();
  });

  it('prefers a labelled date', () => {
    expect(findDate(['Printed 01/01/2019', 'Date: 02/01/2018'], true)).toBe('2018-01-02');
    expect(findDate(['nothing', '09/02/2018 12:53'], true)).toBe('2018-02-09');
  });

  it('knows who writes the day first', () => {
    expect(isDayFirst('MYR')).toBe(true);
    expect(isDayFirst('EUR')).toBe(true);
    expect(isDayFirst('USD')).toBe(false);
    expect(isDayFirst(undefined)).toBe(false);
  });
});

describe('findTime', () => {
  it.each([
    [['21/09/2017 10:20:37 AM'], '10:20:37'],
    [['Time: 2:05 pm'], '14:05'],
    [['Order Time : 13:19:29'], '13:19:29'],
    [['12:00 AM'], '00:00'],
    [['TOTAL 12.50'], null],
  ])('%j → %s', (lines, time) => {
    expect(findTime(lines)).toBe(time);
  });
});
