import { formatMoney, memberLabel, type CurrencySpending, type ReportCurrency, type ReportMember, type Spending } from '@receipts/common';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState, type ReactNode } from 'react';
import { Bar, BarChart, CartesianGrid, Cell, LabelList, Pie, PieChart, Tooltip, XAxis, YAxis } from 'recharts';
import { messageOf } from '../lib/api.js';
import { spendingUrl, type SpendingFilter } from '../lib/spending-api.js';
import { ColumnHeads } from './column-heads.js';
import './spending-charts.css';

export interface SpendingChartsProps {
  /** The library's filters; without them (the dashboard) the panel offers ranges of its own. */
  filter?: SpendingFilter;
}

const COLORS = ['#1f6feb', '#147a3d', '#b35c00', '#8250df', '#c0262d', '#0f7b8a', '#5b6478', '#bf3989', '#6e7781'];
const OTHER_COLOR = '#9aa3b5';

/** The dashboard's ranges, by receipt date. */
const RANGES = [
  { id: '12m', label: 'Last 12 months' },
  { id: 'year', label: 'This year' },
  { id: 'last-year', label: 'Last year' },
  { id: 'all', label: 'All time' },
] as const;
type RangeId = (typeof RANGES)[number]['id'];

const day = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

function rangeFilter(id: RangeId, today = new Date()): SpendingFilter {
  const year = today.getFullYear();
  if (id === '12m') return { from: day(new Date(year, today.getMonth() - 11, 1)), to: day(today) };
  if (id === 'year') return { from: `${year}-01-01`, to: day(today) };
  if (id === 'last-year') return { from: `${year - 1}-01-01`, to: `${year - 1}-12-31` };
  return {};
}

const monthLabel = (month: string) =>
  new Date(`${month}-01T00:00:00Z`).toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' });
const categoryLabel = (category: string) => category.charAt(0).toUpperCase() + category.slice(1);
const merchantLabel = (merchant: string | null) => merchant ?? 'Other merchants';
const receiptsText = (n: number) => `${n} receipt${n === 1 ? '' : 's'}`;
const compact = new Intl.NumberFormat('en-US', { notation: 'compact', maximumFractionDigits: 1 });
const shorten = (text: string, max = 18) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** Honour a wish for less motion: the bars appear without growing. */
const animate = typeof window === 'undefined' || !window.matchMedia?.('(prefers-reduced-motion: reduce)').matches;

interface Row {
  label: string;
  total: number;
  receipts: number;
  currency: string;
}

/** One chart: its title, a sentence that says what it shows (for screen readers), the chart, and its figures as a table when asked. */
function ChartFigure({ title, column, summary, rows, showTable, children }: { title: string; column: string; summary: string; rows: Row[]; showTable: boolean; children: ReactNode }) {
  const id = useId();
  return (
    <figure className="spending-figure" aria-labelledby={id}>
      <figcaption id={id}>{title}</figcaption>
      <div className="spending-chart" role="img" aria-label={summary}>
        {children}
      </div>
      {showTable && (
        <div className="table-scroll">
          <table className="table spending-table">
            <caption className="visually-hidden">{title}</caption>
            <ColumnHeads label={column} numbers={['Receipts', 'Total']} />
            <tbody>
              {rows.map((r) => (
                <tr key={r.label}>
                  <th scope="row">{r.label}</th>
                  <td className="num">{r.receipts}</td>
                  <td className="num">{formatMoney(r.total, r.currency)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </figure>
  );
}

const list = (rows: Row[]) => rows.map((r) => `${r.label} ${formatMoney(r.total, r.currency)}`).join(', ');

/** One currency's charts: per month, category, merchant, and the receipts per currency beside it (the dashboard's and the reports page's). */
export function CurrencyCharts({ spending, all, showTable }: { spending: CurrencySpending; all: CurrencySpending[]; showTable: boolean }) {
  const { currency } = spending;
  const money = (value: unknown) => formatMoney(Number(value), currency);
  const row = (label: string, amount: { total: number; receipts: number }, code = currency): Row => ({ label, total: amount.total, receipts: amount.receipts, currency: code });
  const months = spending.months.map((m) => row(monthLabel(m.month), m));
  const categories = spending.categories.map((c) => row(categoryLabel(c.category), c));
  const merchants = spending.merchants.map((m) => row(merchantLabel(m.merchant), m));
  const currencies = all.map((c) => row(c.currency, c, c.currency));
  const highest = months.reduce((a, b) => (b.total > a.total ? b : a), months[0]!);
  const axis = { fontSize: 12 };
  const tooltip = <Tooltip formatter={(value) => money(value)} />;
  return (
    <div className="spending-grid">
      <ChartFigure
        title="Spending per month"
        column="Month"
        rows={months}
        showTable={showTable}
        summary={`Spending per month in ${currency}, ${months[0]!.label} to ${months.at(-1)!.label}: ${money(spending.total)} in all, most in ${highest.label} (${money(highest.total)}).`}
      >
        <BarChart responsive style={{ width: '100%', height: 240 }} data={months} margin={{ top: 8, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} stroke="#e4e8f0" />
          <XAxis dataKey="label" tick={axis} interval="preserveStartEnd" minTickGap={8} />
          <YAxis tick={axis} width={48} tickFormatter={(v: number) => compact.format(v)} />
          {tooltip}
          <Bar dataKey="total" name="Total" fill={COLORS[0]} radius={[4, 4, 0, 0]} isAnimationActive={animate} />
        </BarChart>
      </ChartFigure>

      <ChartFigure title="Spending per category" column="Category" rows={categories} showTable={showTable} summary={`Spending per category in ${currency}: ${list(categories)}.`}>
        <PieChart responsive style={{ width: '100%', height: 240 }} accessibilityLayer={false}>
          <Pie data={categories} dataKey="total" nameKey="label" innerRadius="45%" outerRadius="80%" paddingAngle={1} isAnimationActive={animate}>
            {categories.map((c, i) => (
              <Cell key={c.label} fill={COLORS[i % COLORS.length]} />
            ))}
          </Pie>
          {tooltip}
        </PieChart>
        <ul className="spending-legend" aria-hidden="true">
          {categories.map((c, i) => (
            <li key={c.label}>
              <span className="spending-swatch" style={{ background: COLORS[i % COLORS.length] }} />
              {c.label} <span className="muted">{money(c.total)}</span>
            </li>
          ))}
        </ul>
      </ChartFigure>

      <ChartFigure title="Spending per merchant" column="Merchant" rows={merchants} showTable={showTable} summary={`Spending per merchant in ${currency}, largest first: ${list(merchants)}.`}>
        <BarChart
          responsive
          layout="vertical"
          style={{ width: '100%', height: 40 + 34 * merchants.length }}
          data={merchants}
          margin={{ top: 0, right: 16, bottom: 0, left: 0 }}
          accessibilityLayer={false}
        >
          <CartesianGrid horizontal={false} stroke="#e4e8f0" />
          <XAxis type="number" tick={axis} tickFormatter={(v: number) => compact.format(v)} />
          <YAxis type="category" dataKey="label" tick={axis} width={112} tickFormatter={(v: string) => shorten(v)} />
          {tooltip}
          <Bar dataKey="total" name="Total" radius={[0, 4, 4, 0]} isAnimationActive={animate}>
            {spending.merchants.map((m, i) => (
              <Cell key={i} fill={m.merchant === null ? OTHER_COLOR : COLORS[1]} />
            ))}
          </Bar>
        </BarChart>
      </ChartFigure>

      <ChartFigure
        title="Receipts per currency"
        column="Currency"
        rows={currencies}
        showTable={showTable}
        summary={`Receipts per currency: ${currencies.map((c) => `${c.label} ${receiptsText(c.receipts)}, ${formatMoney(c.total, c.currency)}`).join('; ')}.`}
      >
        <BarChart responsive style={{ width: '100%', height: 240 }} data={currencies.map((c) => ({ ...c, money: formatMoney(c.total, c.currency) }))} margin={{ top: 24, right: 8, bottom: 0, left: 0 }} accessibilityLayer={false}>
          <CartesianGrid vertical={false} stroke="#e4e8f0" />
          <XAxis dataKey="label" tick={axis} />
          <YAxis tick={axis} width={48} allowDecimals={false} />
          <Tooltip formatter={(value, _name, item) => [`${receiptsText(Number(value))}, ${formatMoney((item.payload as Row).total, (item.payload as Row).currency)}`, 'Receipts']} />
          <Bar dataKey="receipts" name="Receipts" radius={[4, 4, 0, 0]} isAnimationActive={animate}>
            {currencies.map((c) => (
              <Cell key={c.label} fill={c.currency === currency ? COLORS[0] : OTHER_COLOR} />
            ))}
            {/* Each bar is labelled with its own currency's total: the heights compare receipts, never money. */}
            <LabelList dataKey="money" position="top" fontSize={12} fill="#172033" />
          </Bar>
        </BarChart>
      </ChartFigure>
    </div>
  );
}

/** A workspace report's spending per member in one currency, largest first, named as the workspace's members are (`roster`). */
export function MemberSpendingChart({ spending, roster, showTable }: { spending: ReportCurrency; roster: readonly ReportMember[]; showTable: boolean }) {
  const { currency } = spending;
  const names = new Map(roster.map((m) => [m.userId, m]));
  const members = spending.members.map((m): Row => ({
    label: memberLabel(m.userId ? (names.get(m.userId) ?? m) : m),
    total: m.total,
    receipts: m.receipts,
    currency,
  }));
  const axis = { fontSize: 12 };
  return (
    <ChartFigure title="Spending per member" column="Member" rows={members} showTable={showTable} summary={`Spending per member in ${currency}, largest first: ${list(members)}.`}>
      <BarChart
        responsive
        layout="vertical"
        style={{ width: '100%', height: 40 + 34 * members.length }}
        data={members}
        margin={{ top: 0, right: 16, bottom: 0, left: 0 }}
        accessibilityLayer={false}
      >
        <CartesianGrid horizontal={false} stroke="#e4e8f0" />
        <XAxis type="number" tick={axis} tickFormatter={(v: number) => compact.format(v)} />
        <YAxis type="category" dataKey="label" tick={axis} width={140} tickFormatter={(v: string) => shorten(v, 22)} />
        <Tooltip formatter={(value) => formatMoney(Number(value), currency)} />
        <Bar dataKey="total" name="Total" fill={COLORS[3]} radius={[0, 4, 4, 0]} isAnimationActive={animate} />
      </BarChart>
    </ChartFigure>
  );
}

/**
 * Spending at a glance: the receipts in the filter (or the chosen range) per month, category,
 * merchant and currency. Amounts are never added across currencies: the charts show one
 * currency at a time, the one with most receipts first, and the others are a click away.
 */
export default function SpendingCharts({ filter }: SpendingChartsProps) {
  const [range, setRange] = useState<RangeId>('12m');
  const [picked, setPicked] = useState<string | null>(null);
  const [showTable, setShowTable] = useState(false);
  const read = useQuery<Spending>({ queryKey: [spendingUrl(filter ?? rangeFilter(range))], placeholderData: keepPreviousData });
  const currencies = read.data?.currencies ?? [];
  const current = currencies.find((c) => c.currency === picked) ?? currencies[0];
  const notCounted = read.data?.notCounted ?? 0;

  return (
    <section className="card spending" aria-labelledby="spending-title" aria-busy={read.isFetching}>
      <div className="card-head">
        <h2 id="spending-title">Spending at a glance</h2>
        {!filter && (
          <label className="spending-range">
            Range{' '}
            <select value={range} onChange={(e) => setRange(e.target.value as RangeId)}>
              {RANGES.map((r) => (
                <option key={r.id} value={r.id}>
                  {r.label}
                </option>
              ))}
            </select>
          </label>
        )}
      </div>

      {read.isError ? (
        <p className="error-text" role="alert">
          {messageOf(read.error, 'Your spending could not be loaded.')}
        </p>
      ) : read.isPending ? (
        <p className="muted">Loading...</p>
      ) : !current ? (
        <p className="spending-empty" data-testid="spending-empty">
          No spending in this range yet: receipts with a total appear here once they are read.
        </p>
      ) : (
        <>
          <div className="spending-bar">
            <div className="spending-currencies" role="group" aria-label="Currency">
              {currencies.map((c) => (
                <button
                  key={c.currency}
                  type="button"
                  className={`btn btn-sm ${c === current ? 'btn-primary' : 'btn-outline'}`}
                  aria-pressed={c === current}
                  onClick={() => setPicked(c.currency)}
                >
                  {c.currency} {formatMoney(c.total, c.currency)}
                </button>
              ))}
            </div>
            <button type="button" className="btn btn-sm btn-ghost" aria-pressed={showTable} onClick={() => setShowTable((s) => !s)}>
              {showTable ? 'Hide tables' : 'Show as tables'}
            </button>
          </div>
          <p className="muted small" data-testid="spending-total">
            {formatMoney(current.total, current.currency)} across {receiptsText(current.receipts)} in {current.currency}
            {currencies.length > 1 && ' (currencies are never added together)'}.
          </p>
          <CurrencyCharts spending={current} all={currencies} showTable={showTable} />
        </>
      )}
      {notCounted > 0 && (
        <p className="muted small">
          {receiptsText(notCounted)} not counted: no total read, or marked as a possible duplicate.
        </p>
      )}
    </section>
  );
}
