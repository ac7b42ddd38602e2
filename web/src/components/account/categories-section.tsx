import { CATEGORY_NAME_MAX, type CategoryList, type CategoryView } from '@receipts/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { accountKeys, addCategory, deleteCategory, updateCategory } from '../../lib/account-api.js';
import { messageOf } from '../../lib/api.js';
import { isReceiptsQuery } from '../../lib/receipts-api.js';
import { toast } from '../../lib/toast.js';
import { DataTable, type TableColumn } from '../data-table.js';

/** After a change: the list, the rules (a rename or delete carries them) and every read of the receipts. */
function useRefresh() {
  const client = useQueryClient();
  return () =>
    Promise.all([
      client.invalidateQueries({ queryKey: accountKeys.categories }),
      client.invalidateQueries({ queryKey: accountKeys.rules }),
      client.invalidateQueries({ predicate: (q) => isReceiptsQuery(q.queryKey) }),
    ]);
}

/** One own category's name and DATEV account, changed in place. */
function OwnCategory({ category }: { category: CategoryView }) {
  const refresh = useRefresh();
  const [name, setName] = useState(category.name);
  const [account, setAccount] = useState(category.datevAccount ?? '');
  const save = useMutation({
    mutationFn: () => {
      const change: { name?: string; datevAccount?: string | null } = {};
      if (name.trim() !== category.name) change.name = name.trim();
      if (account.trim() !== (category.datevAccount ?? '')) change.datevAccount = account.trim() || null;
      return updateCategory(category.name, change);
    },
    onSuccess: () => {
      toast({ title: 'Category saved' });
      void refresh();
    },
    onError: (err) => toast({ title: 'Could not save the category', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });
  const changed = name.trim() !== category.name || account.trim() !== (category.datevAccount ?? '');
  return (
    <form
      className="field-inline"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      <input aria-label={`Name of ${category.name}`} value={name} maxLength={CATEGORY_NAME_MAX} onChange={(e) => setName(e.target.value)} />
      <input
        aria-label={`DATEV account of ${category.name}`}
        placeholder="DATEV account"
        inputMode="numeric"
        value={account}
        maxLength={8}
        onChange={(e) => setAccount(e.target.value)}
      />
      <button type="submit" className="btn btn-outline btn-sm" disabled={save.isPending || name.trim() === '' || !changed}>
        Save
      </button>
    </form>
  );
}

/**
 * The user's categories: the six built in, and their own, added, renamed (their receipts and
 * rules follow) or deleted (their receipts go to `other`), each with the DATEV account it is
 * booked to.
 */
export function CategoriesSection() {
  const refresh = useRefresh();
  const categories = useQuery<CategoryList>({ queryKey: accountKeys.categories });
  const [problem, setProblem] = useState<string | null>(null);
  const add = useMutation({
    mutationFn: ({ name, account }: { name: string; account: string }) => addCategory(name, account || null),
    onSuccess: (added) => {
      setProblem(null);
      toast({ title: `Category ${added.name} added` });
      void refresh();
    },
    onError: (err) => setProblem(messageOf(err, 'The category could not be added.')),
  });
  const remove = useMutation({
    mutationFn: (name: string) => deleteCategory(name),
    onSuccess: () => {
      toast({ title: 'Category deleted', description: 'Its receipts are in other now.' });
      void refresh();
    },
    onError: (err) => toast({ title: 'Could not delete the category', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const name = String(data.get('name') ?? '').trim();
    if (!name) {
      setProblem('Name the category.');
      return;
    }
    add.mutate({ name, account: String(data.get('account') ?? '').trim() }, { onSuccess: () => form.reset() });
  };
  const list = categories.data?.categories ?? [];
  const columns: ReadonlyArray<TableColumn<CategoryView>> = [
    { header: 'Category', rowHeader: true, cell: (c) => (c.builtIn ? c.name : <OwnCategory key={`${c.name}:${c.datevAccount}`} category={c} />) },
    { header: 'Receipts', numeric: true, cell: (c) => c.receipts },
    {
      header: 'Delete',
      hideHeader: true,
      cell: (c) =>
        c.builtIn ? (
          <span className="muted small">Built in</span>
        ) : (
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            disabled={remove.isPending}
            onClick={() => {
              if (window.confirm(`Delete ${c.name}? Its ${c.receipts} receipts go to other.`)) remove.mutate(c.name);
            }}
            aria-label={`Delete the category ${c.name}`}
          >
            Delete
          </button>
        ),
    },
  ];
  return (
    <section className="card account-section account-wide" aria-labelledby="categories-title">
      <h2 id="categories-title">Categories</h2>
      <p className="muted">
        Receipts are sorted into the six built-in categories; add your own and file receipts under them when you correct one (the merchant's next receipts
        follow). A category of your own is booked to its DATEV account, or to other's when it has none.
      </p>
      {categories.isError ? (
        <p className="error-text" role="alert">
          {messageOf(categories.error, 'Your categories could not be loaded.')}
        </p>
      ) : categories.isPending ? (
        <p className="muted">Loading...</p>
      ) : (
        <div className="table-scroll">
          <DataTable columns={columns} rows={list} rowKey={(c) => c.name} />
        </div>
      )}
      <form className="field-inline" onSubmit={submit} aria-label="Add a category">
        <div className="form-field">
          <label htmlFor="new-category">New category</label>
          <input id="new-category" name="name" maxLength={CATEGORY_NAME_MAX} placeholder="e.g. Office supplies" />
        </div>
        <div className="form-field">
          <label htmlFor="new-category-account">DATEV account (optional)</label>
          <input id="new-category-account" name="account" inputMode="numeric" maxLength={8} />
        </div>
        <button type="submit" className="btn btn-primary btn-sm" disabled={add.isPending}>
          Add
        </button>
      </form>
      {problem && (
        <p className="error-text" role="alert">
          {problem}
        </p>
      )}
    </section>
  );
}
