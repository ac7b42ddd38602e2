import { CATEGORIES, datevSettingsSchema, type DatevSettings, type DatevSettingsView } from '@receipts/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { accountKeys, saveDatevSettings } from '../../lib/account-api.js';
import { messageOf } from '../../lib/api.js';
import { toast } from '../../lib/toast.js';
import './datev-section.css';

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

/** The form's values as DATEV settings (checked by the same schema as the server's). */
function datevValues(form: FormData, taxRows: number): unknown {
  const text = (k: string) => String(form.get(k) ?? '').trim();
  const int = (k: string) => (text(k) === '' ? Number.NaN : Number(text(k)));
  return {
    consultantNumber: int('consultantNumber'),
    clientNumber: int('clientNumber'),
    fiscalYearStartMonth: int('fiscalYearStartMonth'),
    accountLength: int('accountLength'),
    chartOfAccounts: text('chartOfAccounts'),
    cashAccount: text('cashAccount'),
    bankAccount: text('bankAccount'),
    expenseAccounts: Object.fromEntries(CATEGORIES.map((c) => [c, text(`expense-${c}`)])),
    taxKeys: Array.from({ length: taxRows }, (_, i) => ({ rate: text(`rate-${i}`), key: text(`key-${i}`) }))
      .filter((t) => t.rate !== '' || t.key !== '')
      .map((t) => ({ rate: Number(t.rate.replace(',', '.')), key: t.key })),
  };
}

function DatevForm({ view }: { view: DatevSettingsView }) {
  const client = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const settings = view.settings;
  // The saved tax keys and one empty row to add another.
  const taxRows = settings.taxKeys.length + 1;
  const save = useMutation({
    mutationFn: (next: DatevSettings) => saveDatevSettings(next),
    onSuccess: (saved) => {
      client.setQueryData(accountKeys.datevSettings, saved);
      toast({ title: 'DATEV settings saved' });
    },
    onError: (err) => setProblem(messageOf(err, 'The settings could not be saved. Please try again.')),
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const parsed = datevSettingsSchema.safeParse(datevValues(new FormData(e.currentTarget), taxRows));
    if (!parsed.success) {
      setProblem(parsed.error.issues[0]!.message);
      return;
    }
    setProblem(null);
    save.mutate(parsed.data);
  };
  const field = (name: string, label: string, value: string | number, inputMode: 'numeric' | 'decimal' = 'numeric') => (
    <div className="form-field" key={name}>
      <label htmlFor={`datev-${name}`}>{label}</label>
      <input id={`datev-${name}`} name={name} defaultValue={String(value)} inputMode={inputMode} />
    </div>
  );
  return (
    <form className="datev-form" onSubmit={submit} aria-describedby="datev-help">
      <p id="datev-help" className="muted">
        The DATEV Buchungsstapel books each receipt's total from Kasse (cash) or Bank (card) to its category's expense account, with the tax key of its
        VAT rate. Ask your tax adviser for these numbers.{!view.saved && ' These are the SKR03 defaults until you save your own.'}
      </p>
      <div className="form-grid">
        {field('consultantNumber', 'Beraternummer', settings.consultantNumber)}
        {field('clientNumber', 'Mandantennummer', settings.clientNumber)}
        <div className="form-field">
          <label htmlFor="datev-fiscalYearStartMonth">Fiscal year starts</label>
          <select id="datev-fiscalYearStartMonth" name="fiscalYearStartMonth" defaultValue={settings.fiscalYearStartMonth}>
            {MONTHS.map((m, i) => (
              <option key={m} value={i + 1}>
                {m}
              </option>
            ))}
          </select>
        </div>
        {field('accountLength', 'Sachkontenlänge', settings.accountLength)}
        <div className="form-field">
          <label htmlFor="datev-chartOfAccounts">Chart of accounts</label>
          <select id="datev-chartOfAccounts" name="chartOfAccounts" defaultValue={settings.chartOfAccounts}>
            <option value="SKR03">SKR03</option>
            <option value="SKR04">SKR04</option>
          </select>
        </div>
        {field('cashAccount', 'Kasse (paid in cash)', settings.cashAccount)}
        {field('bankAccount', 'Bank (paid by card)', settings.bankAccount)}
        {CATEGORIES.map((c) => field(`expense-${c}`, `Expense account: ${c}`, settings.expenseAccounts[c]))}
      </div>
      <fieldset>
        <legend>Tax keys (BU-Schlüssel) by VAT rate</legend>
        {Array.from({ length: taxRows }, (_, i) => (
          <div className="field-inline" key={i}>
            <label htmlFor={`datev-rate-${i}`}>Rate %</label>
            <input id={`datev-rate-${i}`} name={`rate-${i}`} defaultValue={settings.taxKeys[i]?.rate ?? ''} inputMode="decimal" size={5} />
            <label htmlFor={`datev-key-${i}`}>Key</label>
            <input id={`datev-key-${i}`} name={`key-${i}`} defaultValue={settings.taxKeys[i]?.key ?? ''} inputMode="numeric" size={4} />
          </div>
        ))}
      </fieldset>
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
      <div className="button-row">
        <button type="submit" className="btn btn-primary" disabled={save.isPending}>
          {save.isPending ? 'Saving...' : 'Save DATEV settings'}
        </button>
      </div>
    </form>
  );
}

/** The DATEV export's numbers and accounts, kept for every export (the SKR03 defaults until saved). */
export function DatevSection() {
  const datev = useQuery<DatevSettingsView>({ queryKey: accountKeys.datevSettings });
  return (
    <section className="card account-section account-wide" aria-labelledby="datev-title">
      <h2 id="datev-title">DATEV export</h2>
      {datev.data ? (
        // Keyed by what was saved, so the form shows the stored values after a save.
        <DatevForm key={JSON.stringify(datev.data)} view={datev.data} />
      ) : (
        <p className="muted">{datev.isError ? messageOf(datev.error, 'The DATEV settings could not be loaded.') : 'Loading...'}</p>
      )}
    </section>
  );
}
