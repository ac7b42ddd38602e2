import { useId, useRef, useState, type DragEvent } from 'react';
import type { UploadMethod } from '../lib/analytics-events.js';
import { chosenFolderFiles, droppedFiles } from '../lib/dropped-files.js';
import './drop-zone.css';

const ACCEPT = 'image/*,application/pdf,.pdf,.heic,.heif,.tif,.tiff,.gif';

/** What a folder gave, said under the buttons. */
function folderNote(files: number, skipped: number): string | null {
  if (skipped === 0) return null;
  return `${files} receipt${files === 1 ? '' : 's'} from the folder; ${skipped} other file${skipped === 1 ? '' : 's'} left out.`;
}

/**
 * Drop files or a whole folder, or choose them; keyboard users reach the buttons. On phones a
 * Take a photo button opens the camera. Disabled when the quota is used up.
 */
export function DropZone({ disabled, onFiles }: { disabled: boolean; onFiles: (files: File[], method: UploadMethod) => void }) {
  const input = useRef<HTMLInputElement>(null);
  const camera = useRef<HTMLInputElement>(null);
  const folder = useRef<HTMLInputElement>(null);
  const [over, setOver] = useState(false);
  const [note, setNote] = useState<string | null>(null);
  const hintId = useId();

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setOver(false);
    if (disabled) return;
    // The drop's entries are read before this handler returns; their files may come after.
    void droppedFiles(e.dataTransfer).then(({ files, skipped }) => {
      setNote(folderNote(files.length, skipped));
      onFiles(files, 'drop');
    });
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
        JPG, PNG, PDF, HEIC up to 10MB · several at once, or a whole folder
      </p>
      <div className="button-row drop-buttons">
        <button type="button" className="btn btn-primary" disabled={disabled} aria-describedby={hintId} onClick={() => input.current?.click()}>
          Choose files
        </button>
        {/* Shown on touch screens and narrow windows (drop-zone.css): a phone's camera, straight to the upload. */}
        <button type="button" className="btn btn-outline" disabled={disabled} onClick={() => folder.current?.click()}>
          Choose a folder
        </button>
        <button type="button" className="btn btn-outline camera-button" disabled={disabled} onClick={() => camera.current?.click()}>
          Take a photo
        </button>
      </div>
      {note && (
        <p className="muted small" role="status">
          {note}
        </p>
      )}
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
      <input
        ref={folder}
        className="visually-hidden"
        type="file"
        multiple
        // Not in React's input attributes: every browser that picks folders reads it.
        {...{ webkitdirectory: '' }}
        disabled={disabled}
        tabIndex={-1}
        aria-label="Folder of receipts"
        data-testid="folder-input"
        onChange={(e) => {
          const { files, skipped } = chosenFolderFiles(Array.from(e.target.files ?? []));
          setNote(folderNote(files.length, skipped));
          onFiles(files, 'picker');
          e.target.value = '';
        }}
      />
      <input
        ref={camera}
        className="visually-hidden"
        type="file"
        accept="image/*"
        capture="environment"
        disabled={disabled}
        tabIndex={-1}
        aria-label="Photo of a receipt"
        data-testid="camera-input"
        onChange={(e) => {
          onFiles(Array.from(e.target.files ?? []), 'camera');
          e.target.value = '';
        }}
      />
    </div>
  );
}
