import { EXPORT_PRESET_LABELS, EXPORT_PRESETS, formatsOf, type ClientConfig } from '@receipts/common';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { configKey } from '../lib/config-api.js';
import { downloadExport, FIREFLY_CONFIG_URL, NO_COMPLETED_RECEIPTS, type ExportFilter, type ExportFormat, type ExportOptions, type ExportPreset } from '../lib/export-api.js';
import { toast } from '../lib/toast.js';
import './export-controls.css';

/** What the format picker calls each download. */
const FORMAT_LABELS: Record<ExportFormat, string> = {
  xlsx: 'Excel (.xlsx)',
  csv: 'CSV',
  ofx: 'OFX (.ofx)',
  qif: 'QIF (.qif)',
  zip: 'Export pack (.zip): workbook, file and originals',
};

/** Runs an export and tells the person why when it did not work (the server's reason), and what an import file left out. */
export async function runExport(options: ExportOptions): Promise<void> {
  if (options.ids && options.ids.length === 0) {
    toast({ title: NO_COMPLETED_RECEIPTS, variant: 'destructive' });
    return;
  }
  const outcome = await downloadExport(options);
  if (!outcome.saved) toast({ title: outcome.message, variant: 'destructive' });
  else if (outcome.note) toast({ title: 'Export saved', description: outcome.note });
}

/**
 * Layout and format pickers and the Export button for a set of receipts: a selection (`ids`),
 * or every receipt matching the library's `filter` (a date range, a search, a category).
 */
export function ExportControls({ ids, filter, label = 'Export all', name }: { ids?: readonly string[]; filter?: ExportFilter; label?: string; name?: string }) {
  const [preset, setPreset] = useState<ExportPreset>('generic');
  const [format, setFormat] = useState<ExportFormat>('xlsx');
  const [busy, setBusy] = useState(false);
  const [convertTo, setConvertTo] = useState('');
  const presetId = useId();
  const formatId = useId();
  const convertId = useId();
  const formats = formatsOf(preset);
  // Offered where the server has the operator's rates file, for the workbook (alone or in the pack).
  const convertible = useQuery<ClientConfig | null>({ queryKey: configKey, meta: { silent: true } }).data?.convertibleCurrencies ?? [];
  const converting = convertible.length > 0 && (format === 'xlsx' || format === 'zip');
  return (
    <div className="export-controls">
      <div className="field-inline">
        <label htmlFor={presetId}>Layout</label>
        <select
          id={presetId}
          value={preset}
          onChange={(e) => {
            const next = e.target.value as ExportPreset;
            setPreset(next);
            // The pack stays the pack; otherwise the layout's own file.
            setFormat(format === 'zip' ? 'zip' : formatsOf(next)[0]!);
          }}
        >
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
          {formats.map((f) => (
            <option key={f} value={f}>
              {FORMAT_LABELS[f]}
            </option>
          ))}
        </select>
      </div>
      {converting && (
        <div className="field-inline">
          <label htmlFor={convertId}>Also in</label>
          <select id={convertId} value={convertTo} onChange={(e) => setConvertTo(e.target.value)} title="Each total converted at its day's reference rate (ECB), from the rates file of this server">
            <option value="">No conversion</option>
            {convertible.map((c) => (
              <option key={c} value={c}>
                {c} at the ECB reference rate
              </option>
            ))}
          </select>
        </div>
      )}
      <button
        type="button"
        className="btn btn-primary"
        disabled={busy}
        onClick={() => {
          setBusy(true);
          void runExport({ format, preset, ids, filter, name, convertTo: converting && convertTo ? convertTo : undefined }).finally(() => setBusy(false));
        }}
      >
        {busy ? 'Exporting...' : label}
      </button>
      {preset === 'firefly' && format !== 'zip' && (
        <a className="muted" href={FIREFLY_CONFIG_URL} download>
          Firefly III importer configuration (.json)
        </a>
      )}
    </div>
  );
}
