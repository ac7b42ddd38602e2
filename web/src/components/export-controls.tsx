import { EXPORT_PRESET_LABELS, EXPORT_PRESETS } from '@receipts/common';
import { useId, useState } from 'react';
import { downloadExport, NO_COMPLETED_RECEIPTS, type ExportFormat, type ExportPreset } from '../lib/export-api.js';
import { toast } from '../lib/toast.js';

/** Runs an export and tells the person why when it did not work (the server's reason), and what a CSV left out. */
export async function runExport(options: { format: ExportFormat; preset: ExportPreset; ids?: readonly string[]; name?: string }): Promise<void> {
  if (options.ids && options.ids.length === 0) {
    toast({ title: NO_COMPLETED_RECEIPTS, variant: 'destructive' });
    return;
  }
  const outcome = await downloadExport(options);
  if (!outcome.saved) toast({ title: outcome.message, variant: 'destructive' });
  else if (outcome.note) toast({ title: 'Export saved', description: outcome.note });
}

/** Format and preset pickers and the Export button for a set of receipts. */
export function ExportControls({ ids, label = 'Export all', name }: { ids?: readonly string[]; label?: string; name?: string }) {
  const [preset, setPreset] = useState<ExportPreset>('generic');
  const [format, setFormat] = useState<ExportFormat>('xlsx');
  const [busy, setBusy] = useState(false);
  const presetId = useId();
  const formatId = useId();
  return (
    <div className="export-controls">
      <div className="field-inline">
        <label htmlFor={presetId}>Layout</label>
        <select id={presetId} value={preset} onChange={(e) => setPreset(e.target.value as ExportPreset)}>
          {EXPORT_PRESETS.map((p) => (
            <option key={p} value={p}>
              {EXPORT_PRESET_LABELS[p]}
            </option>
          ))}
        </select>
      </div>
      <div className="field-inline">
        <label htmlFor={formatId}>Format</label>
        <select id={formatId} value={format} onChange={(e) => setFormat(e.target.value as ExportFormat)}>
          <option value="xlsx">Excel (.xlsx)</option>
          <option value="csv">CSV</option>
        </select>
      </div>
      <button
        type="button"
        className="btn btn-primary"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void runExport({ format, preset, ids, name }).finally(() => setBusy(false));
        }}
      >
        {busy ? 'Exporting...' : label}
      </button>
    </div>
  );
}
