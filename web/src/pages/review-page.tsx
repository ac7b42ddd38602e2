import { flagKind, openFlagsOfView, renderIssue, type LibraryReceipt, type ReceiptList, type ReceiptView } from '@receipts/common';
import * as Dialog from '@radix-ui/react-dialog';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { ReceiptReview, type ReceiptReviewHandle } from '../components/receipt-review.js';
import { usePageTitle } from '../hooks/use-page-title.js';
import { messageOf } from '../lib/api.js';
import { acceptFlagKind, acceptIssue, isReceiptsQuery, receiptKey, reviewQueueUrl } from '../lib/receipts-api.js';
import { toast } from '../lib/toast.js';

const receiptsCount = (n: number) => `${n} receipt${n === 1 ? '' : 's'}`;

/** Each kind of open flag in the queue and how many receipts carry it, the most common first. */
function flagKinds(queue: readonly ReceiptView[]): Array<{ kind: string; receipts: number }> {
  const counts = new Map<string, number>();
  for (const r of queue) for (const kind of new Set(openFlagsOfView(r).map(flagKind))) counts.set(kind, (counts.get(kind) ?? 0) + 1);
  return [...counts].map(([kind, receipts]) => ({ kind, receipts })).sort((a, b) => b.receipts - a.receipts || a.kind.localeCompare(b.kind));
}

/** A key typed into a field is the field's; the inbox's keys work everywhere else. */
const typing = (target: EventTarget | null) => target instanceof HTMLElement && (target.isContentEditable || ['INPUT', 'TEXTAREA', 'SELECT'].includes(target.tagName));

/**
 * The review inbox: the receipts that need a person, one after another — the picture beside the
 * fields, the flags first with the reason, each field's flag beside it. Keys: → or J next, ← or K
 * previous, A accepts this receipt's open flags, C corrects its fields (Escape stops), S skips to
 * the next. A kind of flag (old dates, say) can be accepted on every receipt at once, after a
 * confirmation. A receipt that becomes ready leaves the inbox and the next takes its place.
 */
export function ReviewPage() {
  usePageTitle('Review');
  const client = useQueryClient();
  const queue = useQuery<ReceiptList>({ queryKey: [reviewQueueUrl()] });
  const items: LibraryReceipt[] = queue.data?.items ?? [];
  const [currentId, setCurrentId] = useState<string | null>(null);
  const [index, setIndex] = useState(0);
  const [editing, setEditing] = useState(false);
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState<{ kind: string; receipts: number } | null>(null);
  const review = useRef<ReceiptReviewHandle>(null);

  // The receipt shown stays while it is in the queue; once it leaves, the one now at its place.
  const found = items.findIndex((r) => r.id === currentId);
  const at = found >= 0 ? found : Math.min(index, Math.max(0, items.length - 1));
  const current = items[at];
  useEffect(() => {
    if (current && current.id !== currentId) setCurrentId(current.id);
    if (at !== index) setIndex(at);
  }, [current, currentId, at, index]);

  const refresh = () => client.invalidateQueries({ predicate: (q) => isReceiptsQuery(q.queryKey) });
  const go = (step: number) => {
    if (items.length === 0) return;
    const next = (at + step + items.length) % items.length;
    review.current?.stopEditing();
    setIndex(next);
    setCurrentId(items[next]!.id);
  };
  const acceptAll = async () => {
    if (!current || busy) return;
    const flags = openFlagsOfView(current).map(renderIssue);
    if (flags.length === 0) return;
    setBusy(true);
    try {
      let detail;
      for (const flag of flags) detail = await acceptIssue(current.id, flag);
      if (detail) client.setQueryData(receiptKey(detail.id), detail);
      toast({ title: 'Flags accepted', description: `${current.filename} is ready for export.` });
      await refresh();
    } catch (err) {
      toast({ title: 'Could not accept the flags', description: messageOf(err, 'Please try again.'), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };
  const acceptKind = async () => {
    if (!confirming) return;
    setBusy(true);
    try {
      const { receipts } = await acceptFlagKind(confirming.kind);
      toast({ title: 'Flags accepted', description: `“${confirming.kind}” accepted on ${receiptsCount(receipts)}.` });
      setConfirming(null);
      await refresh();
    } catch (err) {
      toast({ title: 'Could not accept the flags', description: messageOf(err, 'Please try again.'), variant: 'destructive' });
    } finally {
      setBusy(false);
    }
  };

  const keys = useRef<(e: KeyboardEvent) => void>(() => undefined);
  keys.current = (e) => {
    if (e.altKey || e.ctrlKey || e.metaKey || confirming) return;
    if (editing) {
      // Whatever field has focus (a date field takes Escape for its own picker).
      if (e.key === 'Escape') {
        e.preventDefault();
        review.current?.stopEditing();
      }
      return;
    }
    if (e.defaultPrevented || typing(e.target)) return;
    const actions: Record<string, () => void> = {
      ArrowRight: () => go(1),
      j: () => go(1),
      s: () => go(1),
      ArrowLeft: () => go(-1),
      k: () => go(-1),
      a: () => void acceptAll(),
      c: () => review.current?.startEditing(),
    };
    const action = actions[e.key.length === 1 ? e.key.toLowerCase() : e.key];
    if (!action || !current) return;
    e.preventDefault();
    action();
  };
  useEffect(() => {
    const listener = (e: KeyboardEvent) => keys.current(e);
    window.addEventListener('keydown', listener);
    return () => window.removeEventListener('keydown', listener);
  }, []);

  const kinds = flagKinds(items);
  const total = queue.data?.total ?? 0;

  return (
    <div className="container review-inbox">
      <h1>Review</h1>
      {queue.isPending ? (
        <p className="muted">Loading...</p>
      ) : queue.isError ? (
        <p className="error-text" role="alert">
          {messageOf(queue.error, 'Could not load the receipts to review.')}
        </p>
      ) : !current ? (
        <div className="card review-done">
          <p>Nothing to review: every receipt is ready for export.</p>
          <Link to="/receipts" className="btn btn-outline">
            My Receipts
          </Link>
        </div>
      ) : (
        <>
          <div className="review-bar">
            <p aria-live="polite">
              <strong>
                Receipt {at + 1} of {total}
              </strong>{' '}
              · {current.filename}
            </p>
            <div className="review-nav">
              <button type="button" className="btn btn-ghost" onClick={() => go(-1)} disabled={items.length < 2} aria-keyshortcuts="ArrowLeft K">
                ← Previous
              </button>
              <button type="button" className="btn btn-outline" onClick={() => go(1)} disabled={items.length < 2} aria-keyshortcuts="ArrowRight J S">
                Skip →
              </button>
            </div>
          </div>
          <p className="muted small review-keys">Keys: → next · ← previous · A accept this receipt’s flags · C correct fields (Esc stops) · S skip</p>
          <div className="card review-card">
            <ReceiptReview
              key={current.id}
              ref={review}
              receipt={current}
              onSaved={() => void refresh()}
              onEditingChange={setEditing}
              actions={
                <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void acceptAll()} aria-keyshortcuts="A">
                  Accept all flags
                </button>
              }
            />
          </div>
          {kinds.length > 0 && (
            <section className="card review-kinds" aria-labelledby="review-kinds-title">
              <h2 id="review-kinds-title">Accept one kind of flag on every receipt</h2>
              <p className="muted small">For flags you know are right as they stand, such as old receipts. Who accepted them and when is kept.</p>
              <ul>
                {kinds.map(({ kind, receipts }) => (
                  <li key={kind}>
                    <span>
                      ⚠ {kind} <span className="muted">({receiptsCount(receipts)})</span>
                    </span>
                    <button type="button" className="btn btn-outline btn-sm" disabled={busy} onClick={() => setConfirming({ kind, receipts })}>
                      Accept on {receiptsCount(receipts)}
                    </button>
                  </li>
                ))}
              </ul>
            </section>
          )}
        </>
      )}
      <Dialog.Root open={confirming !== null} onOpenChange={(o) => !o && setConfirming(null)}>
        <Dialog.Portal>
          <Dialog.Overlay className="dialog-overlay" />
          <Dialog.Content className="dialog" aria-describedby="confirm-kind-text">
            <Dialog.Title className="dialog-title">Accept this flag on every receipt?</Dialog.Title>
            <p id="confirm-kind-text">
              “{confirming?.kind}” will be accepted on {receiptsCount(confirming?.receipts ?? 0)} that need review for it. Receipts with no other open flag go to the Receipts sheet.
            </p>
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <button type="button" className="btn btn-ghost">
                  Cancel
                </button>
              </Dialog.Close>
              <button type="button" className="btn btn-primary" disabled={busy} onClick={() => void acceptKind()}>
                Accept on {receiptsCount(confirming?.receipts ?? 0)}
              </button>
            </div>
          </Dialog.Content>
        </Dialog.Portal>
      </Dialog.Root>
    </div>
  );
}

export default ReviewPage;
