import { CATEGORIES, type Category } from '@receipts/common';

/** The spec §3 categories as options; `anyLabel` adds a first option for no category (value ''). */
export function CategoryOptions({ anyLabel }: { anyLabel?: string }) {
  return (
    <>
      {anyLabel && <option value="">{anyLabel}</option>}
      {CATEGORIES.map((c) => (
        <option key={c} value={c}>
          {c}
        </option>
      ))}
    </>
  );
}

type SelectState = { defaultValue: string; value?: never; onChange?: never } | { value: Category; onChange: (category: Category) => void; defaultValue?: never };

/** The categories in a labelled select: a form field read on submit (`defaultValue`) or a controlled one (`value`, `onChange`). */
export function CategorySelect({ id, name = 'category', anyLabel, ...state }: { id: string; name?: string; anyLabel?: string } & SelectState) {
  return (
    <div className="form-field">
      <label htmlFor={id}>Category</label>
      <select
        id={id}
        name={name}
        {...(state.onChange ? { value: state.value, onChange: (e) => state.onChange(e.target.value as Category) } : { defaultValue: state.defaultValue })}
      >
        <CategoryOptions anyLabel={anyLabel} />
      </select>
    </div>
  );
}
