import { describe, expect, it } from 'vitest';
import { dateCandidates, findDate, findDateWithSource, findTime, findTimeWithSource, isDayFirst, normalizeDayMonth, parseDate } from './date.rule.js';

describe('parseDate', () => {
  it.each([
    ['14/08/2017 10:42:15 AM', true, '2017-08-14'],
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
    // PaddleOCR drops spaces: a date glued to a number before it and a time after it.
    ['8807123411/05/202309:15 AM', false, '2023-11-05'],
    // A month word beside an item's size is no date ("MAYO" is May in Spanish).
    ['BEST MAYO 500 004412345678 F 2.89', false, null],
    ['Mayo 3, 2000', false, '2000-05-03'],
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
    [['14/08/2017 10:42:15 AM'], '10:42:15'],
    [['Time: 2:05 pm'], '14:05'],
    [['Order Time : 12:47:53'], '12:47:53'],
    [['12:00 AM'], '00:00'],
    [['TOTAL 12.50'], null],
  ])('%j → %s', (lines, time) => {
    expect(findTime(lines)).toBe(time);
  });
});

describe('dates in every layout and language', () => {
  it.each<[string, boolean, string | null]>([
    ['August 3 , 2014', false, '2014-08-03'],
    ['Jun 29,2022 18:42:07', false, '2022-06-29'],
    ['Mar. 17 2026', false, '2026-03-17'],
    ['26-03-18', true, '2018-03-26'],
    ['Order Time : 12:47:53 Date :27/04/18', true, '2018-04-27'],
    ['12 September 2019', true, '2019-09-12'],
    ['FRIDAY 14 FEBRUARY 2025 11:52', true, '2025-02-14'],
    ['20-Jun-2021', false, '2021-06-20'],
    ['3. März 2020', true, '2020-03-03'],
    ['Lundi 15 janvier 2024', true, '2024-01-15'],
    ['12 de marzo de 2024', true, '2024-03-12'],
    ['5 mei 2023', true, '2023-05-05'],
    ['7 luglio 2022', true, '2022-07-07'],
    ['10 outubro 2025', true, '2025-10-10'],
    ['2026年05月10日(日) 15:27', true, '2026-05-10'],
    ['令和8年6月13日', true, '2026-06-13'],
    ['2026/ 6/13(土)', true, '2026-06-13'],
    ['2012.06.28', true, '2012-06-28'],
    ['27.10.2025 17:15', true, '2025-10-27'],
    ['12 06 2011', true, '2011-06-12'],
    // Tills that print "Mon DD'YY" with the time glued on, and OCR's quote and O for the apostrophe and 0.
    ["Chk 3318 Feb17'0809:41PM Gst 2", false, '2008-02-17'],
    ["Apr04' 12 11:20AM", false, '2012-04-04'],
    ["chk 6620 Sep19' 1511:02A", false, '2015-09-19'],
    ['MAYO7" 13 6:15PM', false, '2013-05-07'],
    ['Fri Jul 1420184:05 PM', false, '2018-07-14'],
    // The two-digit year glued to the day and the time, a prime for the apostrophe, and OCR's zero for a month's O.
    ['Nov141906:12PM', false, '2019-11-14'],
    ['Nov14′1906:12PM', false, '2019-11-14'],
    ['0ct021811:05AM', false, '2018-10-02'],
    ['Nov1412:30', false, null],
    // A month word and digits with no separator and no time after them are no date ("MAYO 300", "JUN 2017 SALE").
    ['MAYO 300', false, null],
    ['MAY 2017', false, null],
    // Mixed separators are not a date; nor is a price or a phone number.
    ['12-09/19', true, null],
    ['1,99 2,49', true, null],
    ['Tel. 0221 5550123', true, null],
  ])('%j (day first %s) → %s', (line, dayFirst, date) => {
    expect(parseDate(line, dayFirst)).toBe(date);
  });
});

describe('the purchase date among the receipt’s dates', () => {
  const NOW = new Date('2026-11-23T12:00:00Z');

  it.each<[string[], boolean, string]>([
    // A card's expiry and a future date lose to the dated transaction line.
    [['VISA **** 1234 EXP 12/28', 'Date: 03/02/2026 14:22'], false, '2026-03-02'],
    [['Punkte gültig bis 31.12.2026', 'SUMME EUR 9,99', '15.05.2026 09:52'], true, '2026-05-15'],
    [['Billing period', '01/09/2026 - 30/09/2026', 'Datum: 02.10.2026'], true, '2026-10-02'],
    [['Valable jusqu’au 30/06/2027', 'Le 12/05/2026 à 18:40'], true, '2026-05-12'],
    [['Points expire 01/01/2027', '11/20/2026 3:15 PM'], false, '2026-11-20'],
    // A register or terminal number printed like a date is not the purchase date.
    [['TID 12-06-11', '28.10.2025'], true, '2025-10-28'],
    // The same date twice (header and card slip) beats a lone one.
    [['21.03.2026', 'Reg 04.07.2025', 'Kartenzahlung 21.03.2026'], true, '2026-03-21'],
  ])('%j → %s', (lines, dayFirst, date) => {
    expect(findDate(lines, dayFirst, NOW)).toBe(date);
  });

  it('settles day and month from the receipt’s other dates', () => {
    // 13/02 can only be day first, so 01/02 is the 1st of February too, whatever the currency says.
    expect(findDate(['01/02/2026 10:00', 'Return by 13/02/2026'], false, NOW)).toBe('2026-02-01');
    expect(dateCandidates(['01/02/2026', '13/02/2026'], false, NOW).map((c) => c.date)).toEqual(['2026-02-01', '2026-02-13']);
  });

  it('says when the order of day and month came from the preference alone', () => {
    expect(findDateWithSource(['Date 05/07/2026'], false, NOW)?.eitherWay).toBe(true);
    expect(findDateWithSource(['Date 05/17/2026'], false, NOW)?.eitherWay).toBe(false);
    expect(findDateWithSource(['Date 05/07/2026', 'Return by 17/07/2026'], false, NOW)).toMatchObject({ date: '2026-07-05', eitherWay: false });
    expect(findDateWithSource(['12 Jul 2026'], false, NOW)?.eitherWay).toBe(false);
  });

  it('says when the date stands far from every other date printed', () => {
    // A misread year: the card slip below says 2025.
    expect(findDateWithSource(['Date 12.03.2015 10:12', 'Beleg 12.03.2025'], true, NOW)).toMatchObject({ date: '2015-03-12', farFromOthers: true });
    expect(findDateWithSource(['Date 12.03.2025 10:12', 'Valid until 30.03.2025'], true, NOW)?.farFromOthers).toBe(false);
    expect(findDateWithSource(['Date 12.03.2025 10:12'], true, NOW)?.farFromOthers).toBe(false);
  });

  it('says which line it read', () => {
    expect(findDateWithSource(['SHOP', 'Datum 02.01.2026'], true, NOW)).toEqual({ date: '2026-01-02', line: 1, eitherWay: true, farFromOthers: false });
    expect(findTimeWithSource(['SHOP', 'Uhrzeit 15:42:08 Uhr'])).toEqual({ time: '15:42:08', line: 1 });
    // Opening hours at the top are times too; the one beside the date is the purchase's.
    expect(findTimeWithSource(['Mo - Sa 8:00 bis 21:00 Uhr', 'SUMME 5,00', '14.02.2020', '18:05 Bon 4172'], 2)).toEqual({ time: '18:05', line: 3 });
  });
});
