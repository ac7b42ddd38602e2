import { formatMoney, labelOf, queuePlaceText, type QueuePlace, type QueuePlaces } from '@receipts/common';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { messageOf } from '../lib/api.js';
import { keepUpload } from '../lib/uploads-api.js';
import { toast } from '../lib/toast.js';
import { useUploadStore, type UploadItem } from '../stores/upload-store.js';
import { ExportControls, runExport } from './export-controls.js';
import { ReceiptDetailsModal } from './receipt-details-modal.js';
import './upload-list.css';

/** How often the places of waiting uploads are read again while any waits. */
const QUEUE_PLACES_REFRESH_MS = 5_000;

function statusText(item: UploadItem, place: QueuePlace | undefined): string {
  switch (item.status) {
    case 'uploading':
      return 'Uploading...';
    case 'queued':
      return place ? `Waiting in queue · ${queuePlaceText(place)}` : 'Waiting in queue';
    case 'processing':
      return item.step ? labelOf(item.step) : 'Processing';
    case 'completed':
      return 'Completed';
    case 'error':
      return 'Failed';
    case 'duplicate':
      return 'Uploaded before';
  }
}

/**
 * What taking a row off the list does, named for it: an upload under way is cancelled, a failed
 * one dismissed, a completed one either hidden here (its receipt stays in the library and the
 * exports) or deleted with its receipt.
 */
function RowActions({ item, onRemove, onDelete, onUploadAgain }: { item: UploadItem; onRemove: () => void; onDelete: () => void; onUploadAgain: () => void }) {
  if (item.status === 'duplicate') {
    return (
      <>
        <button type="button" className="btn btn-outline btn-sm" aria-label={`Upload ${item.filename} again`} title="Reads it again: one more receipt, one more unit" onClick={onUploadAgain}>
          Upload again
        </button>
        <button type="button" className="btn btn-ghost btn-sm" aria-label={`Skip ${item.filename}`} onClick={onRemove}>
          Skip
        </button>
      </>
    );
  }
  if (item.status === 'completed') {
    return (
      <>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          aria-label={`Hide ${item.filename} from this list`}
          title="Hides it here; the receipt stays in My Receipts and in exports"
          onClick={onRemove}
        >
          Hide
        </button>
        <button type="button" className="btn btn-ghost btn-sm text-red" aria-label={`Delete ${item.filename}`} title="Deletes the receipt and its file" onClick={onDelete}>
          Delete
        </button>
      </>
    );
  }
  const cancel = item.status !== 'error';
  return (
    <button type="button" className="btn btn-ghost btn-sm" aria-label={`${cancel ? 'Cancel' : 'Dismiss'} ${item.filename}`} onClick={onRemove}>
      {cancel ? 'Cancel' : 'Dismiss'}
    </button>
  );
}

function UploadRow({
  item,
  onRemove,
  onDelete,
  onDetails,
  onKeep,
  onUploadAgain,
  place,
}: {
  item: UploadItem;
  onRemove: () => void;
  onDelete: () => void;
  onDetails: () => void;
  onKeep: () => void;
  onUploadAgain: () => void;
  /** Where it waits in the queue, while it does. */
  place: QueuePlace | undefined;
}) {
  const r = item.receiptData;
  return (
    <li className={`upload-row upload-${item.status}`} data-status={item.status} data-testid="upload-row" aria-label={item.filename}>
      <div className="upload-head">
        <span className="upload-name" title={item.filename}>
          {item.filename}
        </span>
        <span className={`status-pill status-${item.status}`} data-testid="upload-status">
          {statusText(item, place)}
        </span>
        <span className="upload-row-actions">
          <RowActions item={item} onRemove={onRemove} onDelete={onDelete} onUploadAgain={onUploadAgain} />
        </span>
      </div>
      {item.status !== 'duplicate' && (
        <div className="progress-line">
          <div
            className="progress"
            role="progressbar"
            aria-label={`${item.filename} progress`}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={item.progress}
          >
            <div className="progress-fill" style={{ width: `${item.progress}%` }} />
          </div>
          <span className="progress-value" data-testid="upload-progress">
            {item.progress}%
          </span>
        </div>
      )}
      {item.error && <p className={item.status === 'duplicate' ? 'muted' : 'error-text'}>{item.error}</p>}
      {item.status === 'completed' && r && (
        <div className="upload-result">
          <span>
            <strong>{r.merchantName ?? 'Unknown merchant'}</strong>
            {r.date && ` · ${r.date}`}
            {r.total != null && ` · ${formatMoney(r.total, r.currency ?? 'USD')}`}
            {!r.valid && <span className="tag tag-warn">Needs review</span>}
            {item.duplicateOf && (
              <>
                <span className="tag tag-info">Possible duplicate of {item.duplicateOf.filename}</span>
                <button type="button" className="btn btn-ghost btn-sm" onClick={onKeep}>
                  Keep both
                </button>
              </>
            )}
          </span>
          <span className="upload-actions">
            <button type="button" className="btn btn-outline btn-sm" onClick={onDetails}>
              Details
            </button>
            <button type="button" className="btn btn-outline btn-sm" onClick={() => void runExport({ format: 'xlsx', preset: 'generic', ids: [r.id] })}>
              Export
            </button>
          </span>
        </div>
      )}
    </li>
  );
}

export function UploadList({
  onRemove,
  onDelete,
  onUploadAgain,
}: {
  onRemove: (item: UploadItem) => void;
  onDelete: (item: UploadItem) => void;
  onUploadAgain: (item: UploadItem) => void;
}) {
  const items = useUploadStore((s) => s.items);
  const patch = useUploadStore((s) => s.patch);
  const [detailsId, setDetailsId] = useState<string | null>(null);
  // An import file books in one currency: the list can be narrowed to the receipts of one, and "Export completed" with it.
  const [currency, setCurrency] = useState('');
  const currencyId = useId();
  const currencyOf = (item: UploadItem) => (item.receiptData ? (item.receiptData.currency ?? 'USD') : null);
  const currencies = [...new Set(items.map(currencyOf).filter((c): c is string => c !== null))].sort();
  const shown = currency && currencies.includes(currency) ? items.filter((i) => currencyOf(i) === currency) : items;
  const selected = items.find((i) => i.id === detailsId);
  const completedIds = shown.filter((i) => i.status === 'completed' && i.receiptData).map((i) => i.receiptData!.id);
  const active = items.filter((i) => i.status === 'uploading' || i.status === 'queued' || i.status === 'processing').length;
  const waiting = items.some((i) => i.status === 'queued');
  const places = useQuery<QueuePlaces>({ queryKey: ['/api/uploads/queue'], enabled: waiting, refetchInterval: QUEUE_PLACES_REFRESH_MS, meta: { silent: true } });
  const placeOf = (id: string) => (waiting ? places.data?.uploads.find((p) => p.id === id) : undefined);

  if (items.length === 0) return null;
  return (
    <section className="card upload-list-card" aria-labelledby="uploads-title">
      <div className="card-head">
        <h2 id="uploads-title">Your uploads</h2>
        <p className="muted" aria-live="polite">
          {items.length} file{items.length === 1 ? '' : 's'}
          {active > 0 ? ` · ${active} in progress` : ''} · {items.filter((i) => i.status === 'completed').length} completed
        </p>
        {currencies.length > 1 && (
          <div className="field-inline">
            <label htmlFor={currencyId}>Currency</label>
            <select id={currencyId} value={currency} onChange={(e) => setCurrency(e.target.value)}>
              <option value="">All</option>
              {currencies.map((c) => (
                <option key={c} value={c}>
                  {c}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>
      <ul className="upload-list" aria-label="Uploads">
        {shown.map((item) => (
          <UploadRow
            key={item.id}
            item={item}
            onRemove={() => onRemove(item)}
            onDelete={() => onDelete(item)}
            onUploadAgain={() => onUploadAgain(item)}
            place={item.status === 'queued' ? placeOf(item.id) : undefined}
            onDetails={() => setDetailsId(item.id)}
            onKeep={() =>
              void keepUpload(item.id).then(
                () => patch(item.id, { duplicateOf: undefined }),
                (err: unknown) => toast({ title: 'Could not keep the upload', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
              )
            }
          />
        ))}
      </ul>
      <ExportControls ids={completedIds} label="Export completed" />
      {selected?.receiptData && (
        <ReceiptDetailsModal
          receipt={selected.receiptData}
          filename={selected.filename}
          open
          onOpenChange={(o) => !o && setDetailsId(null)}
          onExport={() => void runExport({ format: 'xlsx', preset: 'generic', ids: [selected.receiptData!.id] })}
          onSaved={(receipt) => patch(selected.id, { receiptData: receipt })}
        />
      )}
    </section>
  );
}
