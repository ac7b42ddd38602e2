import type { MerchantRuleList, MerchantRuleView } from '@receipts/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { accountKeys, deleteRule, updateRule } from '../../lib/account-api.js';
import { messageOf } from '../../lib/api.js';
import { toast } from '../../lib/toast.js';
import { DataTable, type TableColumn } from '../data-table.js';
import { CategoryOptions } from '../category-select.js';

const RULE_KINDS = { merchant: ['Merchant name', 'Name for'], category: ['Category', 'Category for'], tags: ['Tags', 'Tags for'] } as const;

/** One rule's value, edited in place: a name for a merchant rule, a category for a category rule, tags (comma-separated) for a tags rule. */
function RuleValue({ rule }: { rule: MerchantRuleView }) {
  const client = useQueryClient();
  const [value, setValue] = useState(rule.value);
  const refresh = () => client.invalidateQueries({ queryKey: accountKeys.rules });
  const save = useMutation({
    mutationFn: () => updateRule(rule.id, value),
    onSuccess: () => {
      toast({ title: 'Rule saved' });
      void refresh();
    },
    onError: (err) => toast({ title: 'Could not save the rule', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });
  const label = `${RULE_KINDS[rule.kind][1]} ${rule.match}`;
  return (
    <form
      className="field-inline"
      onSubmit={(e) => {
        e.preventDefault();
        save.mutate();
      }}
    >
      {rule.kind === 'category' ? (
        <select aria-label={label} value={value} onChange={(e) => setValue(e.target.value)}>
          <CategoryOptions current={rule.value} />
        </select>
      ) : (
        <input aria-label={label} value={value} maxLength={200} onChange={(e) => setValue(e.target.value)} />
      )}
      <button type="submit" className="btn btn-outline btn-sm" disabled={save.isPending || value.trim() === '' || value === rule.value}>
        Save
      </button>
    </form>
  );
}

/** What the user's corrections taught: each rule changed or deleted in place. */
export function RulesSection() {
  const client = useQueryClient();
  const rules = useQuery<MerchantRuleList>({ queryKey: accountKeys.rules });
  const remove = useMutation({
    mutationFn: (id: string) => deleteRule(id),
    onSuccess: () => {
      toast({ title: 'Rule deleted' });
      void client.invalidateQueries({ queryKey: accountKeys.rules });
    },
    onError: (err) => toast({ title: 'Could not delete the rule', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });
  const columns: ReadonlyArray<TableColumn<MerchantRuleView>> = [
    { header: 'Rule', cell: (r) => RULE_KINDS[r.kind][0] },
    { header: 'When the merchant reads', rowHeader: true, cell: (r) => r.match },
    { header: 'Use', cell: (r) => <RuleValue key={`${r.id}:${r.value}`} rule={r} /> },
    {
      header: 'Delete',
      hideHeader: true,
      cell: (r) => (
        <button type="button" className="btn btn-ghost btn-sm" disabled={remove.isPending} onClick={() => remove.mutate(r.id)} aria-label={`Delete the rule for ${r.match}`}>
          Delete
        </button>
      ),
    },
  ];
  const list = rules.data?.rules ?? [];
  return (
    <section className="card account-section account-wide" aria-labelledby="rules-title">
      <h2 id="rules-title">Rules learned from your corrections</h2>
      <p className="muted">
        When you correct a merchant's name, category or tags, your next receipts from that merchant get the same. Change or delete a rule here;
        merchants without a rule are categorised by their name and items.
      </p>
      {rules.isError ? (
        <p className="error-text" role="alert">
          {messageOf(rules.error, 'Your rules could not be loaded.')}
        </p>
      ) : list.length === 0 ? (
        <p className="muted">{rules.isPending ? 'Loading...' : 'No rules yet: correct a receipt in My Receipts and it will be remembered.'}</p>
      ) : (
        <div className="table-scroll">
          <DataTable columns={columns} rows={list} rowKey={(r) => r.id} />
        </div>
      )}
    </section>
  );
}
