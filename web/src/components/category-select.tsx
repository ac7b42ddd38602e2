import { CATEGORIES } from '@receipts/common';

/** The spec §3 categories in a labelled select; `anyLabel` adds a first option for no category (value ''). */
export function CategorySelect({ id, name = 'category', defaultValue, anyLabel }: { id: string; name?: string; defaultValue: string; anyLabel?: string }) {
  return (
    <div className="form-field">
      <label htmlFor={id}>Category</label>
      <select id={id} name={name} defaultValue={defaultValue}>
        {anyLabel && <option value="">{anyLabel}</option>}
        {CATEGORIES.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </div>
  );
}
