import { labelOf, type ClientToServerEvents, type ServerToClientEvents, type UploadView } from '@receipts/common';
import { useCallback, useEffect, useRef, useState } from 'react';
import { io, type Socket } from 'socket.io-client';
import { cancelUpload, listUploads, uploadReceipt } from './api-client.js';

/** A row of the list: a server upload, or a file still being sent (`uploading`). */
type Row = Pick<UploadView, 'id' | 'filename' | 'progress' | 'receipt' | 'error'> & {
  status: UploadView['status'] | 'uploading';
  step: string | null;
};

const ACTIVE = new Set<Row['status']>(['uploading', 'queued', 'processing']);

/** Server state wins for uploads it knows; files still being sent (local ids) stay on top. */
function merge(rows: Row[], server: UploadView[]): Row[] {
  const known = new Set(server.map((u) => u.id));
  return [...rows.filter((r) => r.id.startsWith('local-') && !known.has(r.id)), ...server.map(fromView)];
}

function fromView(u: UploadView): Row {
  return { id: u.id, filename: u.filename, status: u.status, progress: u.progress, step: u.step, error: u.error, receipt: u.receipt };
}

/** The minimal uploader: drop several files, watch each move through the worker's steps live. */
export function UploadPage() {
  const [rows, setRows] = useState<Row[]>([]);
  const [currency, setCurrency] = useState('USD');
  const socketRef = useRef<Socket<ServerToClientEvents, ClientToServerEvents> | null>(null);

  const patch = useCallback((id: string, change: Partial<Row>) => {
    setRows((all) => all.map((r) => (r.id === id ? { ...r, ...change } : r)));
  }, []);

  useEffect(() => {
    let socket: Socket<ServerToClientEvents, ClientToServerEvents> | null = null;
    // The first /api call gives the visitor a session cookie; the socket then rides on it.
    void listUploads()
      .then((uploads) => {
        setRows((rows) => merge(rows, uploads));
        socket = io({ withCredentials: true });
        socketRef.current = socket;
        socket.on('connect', () => socket?.emit('uploads:sync', (all) => setRows((rows) => merge(rows, all))));
        socket.on('upload:progress', (e) => patch(e.id, { status: 'processing', progress: e.progress, step: e.step }));
        socket.on('upload:completed', (e) => patch(e.id, { status: 'completed', progress: 100, step: null, receipt: e.receipt }));
        socket.on('upload:failed', (e) => patch(e.id, { status: 'failed', error: e.error, step: null }));
        socket.on('upload:cancelled', (e) => patch(e.id, { status: 'cancelled', step: null }));
      })
      .catch(() => undefined);
    return () => {
      socket?.close();
    };
  }, [patch]);

  const send = (files: FileList | null) => {
    for (const file of Array.from(files ?? [])) {
      const tempId = `local-${crypto.randomUUID()}`;
      setRows((all) => [{ id: tempId, filename: file.name, status: 'uploading', progress: 0, step: null }, ...all]);
      uploadReceipt(file, currency).then(
        // A sync may already have brought the server's row for this upload: keep that one.
        (accepted) =>
          setRows((all) =>
            all.some((r) => r.id === accepted.id)
              ? all.filter((r) => r.id !== tempId)
              : all.map((r) => (r.id === tempId ? { ...r, id: accepted.id, status: accepted.status } : r)),
          ),
        (err: Error) => patch(tempId, { status: 'failed', error: err.message || 'Upload failed' }),
      );
    }
  };

  const remove = async (row: Row) => {
    if (ACTIVE.has(row.status) && !row.id.startsWith('local-')) {
      await cancelUpload(row.id).catch((err: unknown) => console.warn('cancel failed', err));
    }
    setRows((all) => all.filter((r) => r.id !== row.id));
  };

  return (
    <main>
      <h1>Try it now - Upload a receipt</h1>
      <label>
        Currency{' '}
        <select value={currency} onChange={(e) => setCurrency(e.target.value)}>
          {['USD', 'EUR', 'GBP', 'MYR', 'SGD', 'JPY'].map((c) => (
            <option key={c}>{c}</option>
          ))}
        </select>
      </label>
      <label className="dropzone">
        <input type="file" multiple accept="image/*,application/pdf,.heic,.heif" onChange={(e) => send(e.target.files)} />
        <span>Drop receipts here or choose files — JPG, PNG, PDF, HEIC up to 10MB</span>
      </label>
      <ul className="uploads" aria-label="Uploads">
        {rows.map((row) => (
          <li key={row.id} data-status={row.status}>
            <div className="row-head">
              <strong>{row.filename}</strong>
              <span className="status">{row.step ? labelOf(row.step) : row.status}</span>
              <button type="button" onClick={() => void remove(row)} aria-label={`Remove ${row.filename}`}>
                Remove
              </button>
            </div>
            <progress max={100} value={row.progress} aria-label={`${row.filename} progress`} />
            <span className="percent">{row.progress}%</span>
            {row.error && <p className="error">{row.error}</p>}
            {row.receipt && (
              <p className="summary">
                {row.receipt.merchantName ?? 'Unknown merchant'} · {row.receipt.date ?? 'no date'} · total{' '}
                {row.receipt.total ?? '—'} {row.receipt.currency ?? 'USD'}
              </p>
            )}
          </li>
        ))}
      </ul>
    </main>
  );
}
