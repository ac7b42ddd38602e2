import { useId } from 'react';
import { CURRENCIES, MORE_CURRENCIES } from '@receipts/common';

export function CurrencySelect({ value, onChange, label = 'Currency' }: { value: string; onChange: (code: string) => void; label?: string }) {
  const id = useId();
  return (
    <div className="field-inline">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        {CURRENCIES.map((c) => (
          <option key={c.value} value={c.value}>
            {c.value} — {c.label}
          </option>
        ))}
        <optgroup label="More currencies">
          {MORE_CURRENCIES.map((c) => (
            <option key={c.value} value={c.value}>
              {c.value} — {c.label}
            </option>
          ))}
        </optgroup>
      </select>
    </div>
  );
}
