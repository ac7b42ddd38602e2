import { useCategoryNames } from '../hooks/use-account.js';

/**
 * The categories as options: the built-in six and a signed-in user's own; `anyLabel` adds a first
 * option for no category (value ''). A `current` value that is none of them (a category deleted
 * since) is kept as an option so a form does not change it unasked.
 */
export function CategoryOptions({ anyLabel, current }: { anyLabel?: string; current?: string }) {
  const names = useCategoryNames();
  const shown = current && !names.includes(current) ? [...names, current] : names;
  return (
    <>
      {anyLabel && <option value="">{anyLabel}</option>}
      {shown.map((c) => (
        <option key={c} value={c}>
          {c}
        </option>
      ))}
    </>
  );
}

type SelectState = { defaultValue: string; value?: never; onChange?: never } | { value: string; onChange: (category: string) => void; defaultValue?: never };

/** The categories in a labelled select: a form field read on submit (`defaultValue`) or a controlled one (`value`, `onChange`). */
export function CategorySelect({ id, name = 'category', anyLabel, ...state }: { id: string; name?: string; anyLabel?: string } & SelectState) {
  return (
    <div className="form-field">
      <label htmlFor={id}>Category</label>
      <select
        id={id}
        name={name}
        {...(state.onChange ? { value: state.value, onChange: (e) => state.onChange(e.target.value) } : { defaultValue: state.defaultValue })}
      >
        <CategoryOptions anyLabel={anyLabel} current={state.onChange ? state.value : state.defaultValue} />
      </select>
    </div>
  );
}
