import { APPROVAL_LABELS, APPROVAL_STATUSES, currencyOption } from '@receipts/common';
import type { FormEvent } from 'react';
import type { LibraryQuery } from '../lib/receipts-api.js';
import { CategorySelect } from './category-select.js';
import './library-filters.css';

export type LibraryFilter = Omit<LibraryQuery, 'page' | 'pageSize'>;

/**
 * The library's search form; applying it hands the filled-in filters over (blank ones left out).
 * The currency filter offers the currencies the owner's receipts are in (and the one chosen); a
 * team workspace's (`approvals`) filters by approval too.
 */
export function LibraryFilters({
  query,
  currencies,
  approvals = false,
  onApply,
}: {
  query: LibraryFilter;
  currencies: readonly string[];
  approvals?: boolean;
  onApply: (filter: LibraryFilter) => void;
}) {
  const choices = [...new Set([...currencies, ...(query.currency ? [query.currency] : [])])].sort();
  const apply = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const f = new FormData(e.currentTarget);
    const text = (k: string) => String(f.get(k) ?? '').trim() || undefined;
    onApply({
      q: text('q'),
      from: text('from'),
      to: text('to'),
      category: text('category'),
      tag: text('tag'),
      currency: text('currency'),
      valid: text('valid') as LibraryQuery['valid'],
      approval: text('approval') as LibraryQuery['approval'],
    });
  };
  return (
    <form className="card filters" onSubmit={apply} role="search" aria-label="Filter receipts">
      <div className="form-field">
        <label htmlFor="lib-q">Search</label>
        <input id="lib-q" name="q" type="search" placeholder="Merchant or text" defaultValue={query.q} />
      </div>
      <div className="form-field">
        <label htmlFor="lib-from">From</label>
        <input id="lib-from" name="from" type="date" defaultValue={query.from} />
      </div>
      <div className="form-field">
        <label htmlFor="lib-to">To</label>
        <input id="lib-to" name="to" type="date" defaultValue={query.to} />
      </div>
      <CategorySelect id="lib-category" defaultValue={query.category ?? ''} anyLabel="All" />
      <div className="form-field">
        <label htmlFor="lib-tag">Tag</label>
        <input id="lib-tag" name="tag" type="search" placeholder="Any" defaultValue={query.tag} />
      </div>
      <div className="form-field">
        <label htmlFor="lib-currency">Currency</label>
        <select id="lib-currency" name="currency" defaultValue={query.currency ?? ''}>
          <option value="">All</option>
          {choices.map((code) => (
            <option key={code} value={code}>
              {currencyOption(code) ? `${code} — ${currencyOption(code)!.label}` : code}
            </option>
          ))}
        </select>
      </div>
      <div className="form-field">
        <label htmlFor="lib-valid">Validity</label>
        <select id="lib-valid" name="valid" defaultValue={query.valid ?? ''}>
          <option value="">All</option>
          <option value="true">Ready for export</option>
          <option value="false">Needs review</option>
        </select>
      </div>
      {approvals && (
        <div className="form-field">
          <label htmlFor="lib-approval">Approval</label>
          <select id="lib-approval" name="approval" defaultValue={query.approval ?? ''}>
            <option value="">All</option>
            {APPROVAL_STATUSES.map((status) => (
              <option key={status} value={status}>
                {APPROVAL_LABELS[status]}
              </option>
            ))}
          </select>
        </div>
      )}
      <button type="submit" className="btn btn-primary">
        Apply
      </button>
    </form>
  );
}
