import type { ReceiptDetail, ReceiptView } from '@receipts/common';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useImperativeHandle, useMemo, useState, type ReactNode, type Ref } from 'react';
import { messageOf } from '../lib/api.js';
import { checkDraft, draftOf, fieldsReadFrom, linesOf, patchOf, valueFromLine, type FieldTarget, type ReceiptDraft } from '../lib/receipt-draft.js';
import { acceptIssue, receiptKey, reopenIssue, saveReceipt } from '../lib/receipts-api.js';
import { toast } from '../lib/toast.js';
import { ReceiptChecks } from './receipt-checks.js';
import { ReceiptCorrectionForm } from './receipt-correction-form.js';
import { ReceiptDetailsView } from './receipt-details-view.js';
import { ReceiptPicture } from './receipt-picture.js';
import './receipt-review.css';

const LABELS: Record<string, string> = {
  merchantName: 'Merchant',
  date: 'Date',
  time: 'Time',
  paymentMethod: 'Payment method',
  receiptNumber: 'Receipt number',
  tin: 'TIN',
  subtotal: 'Subtotal',
  tax: 'Tax',
  tip: 'Tip',
  discount: 'Discount',
  total: 'Total',
  description: 'description',
  qty: 'quantity',
  unitPrice: 'price',
  amount: 'amount',
};
const labelOf = (target: FieldTarget) => ('field' in target ? LABELS[target.field] : `item ${target.item + 1}'s ${LABELS[target.part]}`);

/** The lines a draft's field or item points at (a field filled from a line points there). */
function draftLines(draft: ReceiptDraft, target: FieldTarget): number[] {
  const line = 'field' in target ? draft.sources[target.field] : draft.items[target.item]?.line;
  return typeof line === 'number' ? [line] : [];
}

/** A line picked on the picture fills the target field (its value read from the line), which then points there. */
function filled(draft: ReceiptDraft, target: FieldTarget, value: string, line: number): ReceiptDraft {
  if ('field' in target) return { ...draft, values: { ...draft.values, [target.field]: value }, sources: { ...draft.sources, [target.field]: line } };
  return { ...draft, items: draft.items.map((item, i) => (i === target.item ? { ...item, [target.part]: value, line } : item)) };
}

/** What a screen around the review may ask of it: to start correcting, or to stop and drop what was typed. */
export interface ReceiptReviewHandle {
  startEditing(): void;
  stopEditing(): void;
}

/**
 * A receipt under review: its picture beside its fields. A field shows where it was read; the
 * flags can be accepted after looking; Correct fields (offered with `onSaved`) edits every field
 * and item, checked again as it is typed, filled from a line picked on the picture. The Receipt
 * Details dialog and the review inbox both show a receipt this way.
 */
export function ReceiptReview({
  receipt,
  onSaved,
  actions,
  onEditingChange,
  ref,
}: {
  receipt: ReceiptView;
  onSaved?: (receipt: ReceiptView) => void;
  /** Shown after Correct fields while not correcting (Export, Close, Next…). */
  actions?: ReactNode;
  onEditingChange?: (editing: boolean) => void;
  ref?: Ref<ReceiptReviewHandle>;
}) {
  const client = useQueryClient();
  const detailQuery = useQuery<ReceiptDetail>({ queryKey: receiptKey(receipt.id), refetchOnMount: 'always' });
  const detail = detailQuery.data;
  const current: ReceiptView = detail ?? receipt;
  const fieldLines = detail?.fieldLines ?? {};
  const lines = detail?.lines ?? [];

  const [draft, setDraftState] = useState<ReceiptDraft | null>(null);
  const [target, setTarget] = useState<FieldTarget | null>(null);
  const [picked, setPicked] = useState<number | null>(null);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const check = useMemo(() => (draft ? checkDraft(draft, current) : null), [draft, current]);
  const setDraft = (next: ReceiptDraft | null) => {
    if ((next === null) !== (draft === null)) onEditingChange?.(next !== null);
    setDraftState(next);
  };

  const stored = (next: ReceiptDetail) => {
    client.setQueryData(receiptKey(next.id), next);
    onSaved?.(next);
  };
  const run = async (work: () => Promise<ReceiptDetail>, failure: string) => {
    setBusy(true);
    setError(null);
    try {
      stored(await work());
      return true;
    } catch (err) {
      const message = messageOf(err, failure);
      if (draft) setError(message);
      else toast({ title: failure, description: message, variant: 'destructive' });
      return false;
    } finally {
      setBusy(false);
    }
  };

  const startEditing = () => {
    setDraft(draftOf(current, fieldLines));
    setPicked(null);
    setError(null);
  };
  const stopEditing = () => {
    setDraft(null);
    setTarget(null);
    setError(null);
  };
  useImperativeHandle(ref, () => ({ startEditing, stopEditing }));
  const save = async () => {
    if (!draft || !check) return;
    if (Object.keys(check.errors).length > 0) {
      setError('Correct the values marked in red first.');
      return;
    }
    if (await run(() => saveReceipt(current.id, patchOf(draft, check.record)), 'Could not save the changes. Please try again.')) {
      toast({ title: 'Receipt updated' });
      stopEditing();
    }
  };

  const pickLine = (index: number) => {
    if (draft && target) {
      const value = valueFromLine(target, lines[index]!.text, draft.values.currency);
      if (value === null) {
        toast({ title: `Nothing for the ${labelOf(target)} on that line`, description: `“${lines[index]!.text}”` });
        return;
      }
      setDraft(filled(draft, target, value, index));
      return;
    }
    setTarget(null);
    setPicked(index);
  };

  const highlight = picked !== null ? [picked] : target ? (draft ? draftLines(draft, target) : linesOf(fieldLines, target)) : [];
  const hint = draft
    ? target
      ? `Click a line to fill ${labelOf(target)}.`
      : 'Click a field of the form, then a line here to fill it.'
    : picked !== null
      ? `“${lines[picked]?.text}”${fieldsReadFrom(fieldLines, picked).length > 0 ? ` — read for ${fieldsReadFrom(fieldLines, picked).join(', ')}` : ''}`
      : lines.length > 0
        ? 'Click a field to see where it was read.'
        : undefined;

  const missing = detailQuery.isPending
    ? 'Loading the picture...'
    : detail && !detail.originalAvailable
      ? 'The picture of this receipt was deleted after 90 days; its data stays.'
      : 'There is no picture of this receipt.';

  return (
    <div className="review-layout">
      <ReceiptPicture
        receiptId={current.id}
        pages={detail?.pages ?? 0}
        lines={lines}
        highlight={highlight}
        onPickLine={pickLine}
        hint={hint}
        missing={missing}
        pending={detailQuery.isPending}
        turn={detail?.pageTurns?.[0] ?? 0}
      />
      <div className="review-panel">
        {draft && check ? (
          <ReceiptCorrectionForm
            draft={draft}
            check={check}
            onChange={setDraft}
            onTarget={(t) => {
              setTarget(t);
              setPicked(null);
            }}
            target={target}
            saving={busy}
            error={error}
            onCancel={stopEditing}
            onSave={() => void save()}
            accepted={new Set((current.acceptedIssues ?? []).map((a) => a.issue))}
          />
        ) : (
          <>
            <ReceiptDetailsView
              receipt={detail ? { ...current, rawText: detail.fullText } : current}
              locator={{
                has: (t) => linesOf(fieldLines, t).length > 0,
                active: target,
                show: (t) => {
                  setPicked(null);
                  setTarget(t);
                },
              }}
              checks={
                <ReceiptChecks
                  receipt={current}
                  busy={busy}
                  onAccept={(flag) => void run(() => acceptIssue(current.id, flag), 'Could not accept the flag')}
                  onReopen={(flag) => void run(() => reopenIssue(current.id, flag), 'Could not take the acceptance back')}
                />
              }
            />
            <div className="dialog-actions">
              {onSaved && (
                <button type="button" className="btn btn-outline" onClick={startEditing}>
                  Correct fields
                </button>
              )}
              {actions}
            </div>
          </>
        )}
      </div>
    </div>
  );
}
