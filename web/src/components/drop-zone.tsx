import { useId, useRef, useState, type DragEvent } from 'react';

const ACCEPT = 'image/*,application/pdf,.pdf,.heic,.heif,.tif,.tiff,.gif';

/** Drop files or choose them; keyboard users reach the button. Disabled when the quota is used up. */
export function DropZone({ disabled, onFiles }: { disabled: boolean; onFiles: (files: File[], method: 'drop' | 'picker') => void }) {
  const input = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const hintId = useId();

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (!disabled) onFiles(Array.from(e.dataTransfer.files), 'drop');
  };

  return (
    <div
      className={`drop-zone${over ? ' drop-zone-over' : ''}${disabled ? ' drop-zone-disabled' : ''}`}
      aria-disabled={disabled}
      data-testid="drop-zone"
      onDragOver={(e) => {
        e.preventDefault();
        if (!disabled) setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={onDrop}
    >
      <span className="drop-icon" aria-hidden="true">
        ⇪
      </span>
      <p className="drop-title">Drop receipts here</p>
      <p className="muted" id={hintId}>
        JPG, PNG, PDF, HEIC up to 10MB · several at once
      </p>
      <button type="button" className="btn btn-primary" disabled={disabled} aria-describedby={hintId} onClick={() => input.current?.click()}>
        Choose files
      </button>
      <input
        ref={input}
        className="visually-hidden"
        type="file"
        multiple
        accept={ACCEPT}
        disabled={disabled}
        tabIndex={-1}
        aria-label="Receipt files"
        data-testid="file-input"
        onChange={(e) => {
          onFiles(Array.from(e.target.files ?? []), 'picker');
          e.target.value = '';
        }}
      />
    </div>
  );
}
