/** The reports page's periods, by receipt date; `custom` takes the dates a person gives. */
export const REPORT_PERIODS = [
  { id: 'this-month', label: 'This month' },
  { id: 'last-month', label: 'Last month' },
  { id: 'this-year', label: 'This year' },
  { id: 'last-year', label: 'Last year' },
  { id: '12m', label: 'Last 12 months' },
  { id: 'all', label: 'All time' },
  { id: 'custom', label: 'Custom dates' },
] as const;
export type ReportPeriodId = (typeof REPORT_PERIODS)[number]['id'];

const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The first and last receipt day of a period (in the browser's calendar), or none for all time and custom dates. */
export function periodRange(id: ReportPeriodId, today = new Date()): { from?: string; to?: string } {
  const year = today.getFullYear();
  const month = today.getMonth();
  switch (id) {
    case 'this-month':
      return { from: day(new Date(year, month, 1)), to: day(today) };
    case 'last-month':
      return { from: day(new Date(year, month - 1, 1)), to: day(new Date(year, month, 0)) };
    case 'this-year':
      return { from: `${year}-01-01`, to: day(today) };
    case 'last-year':
      return { from: `${year - 1}-01-01`, to: `${year - 1}-12-31` };
    case '12m':
      return { from: day(new Date(year, month - 11, 1)), to: day(today) };
    default:
      return {};
  }
}
