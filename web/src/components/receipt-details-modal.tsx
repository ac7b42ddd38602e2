import type { ReceiptView } from '@receipts/common';
import * as Dialog from '@radix-ui/react-dialog';
import { useState } from 'react';
import { ReceiptCorrectionForm } from './receipt-correction-form.js';
import { ReceiptDetailsView } from './receipt-details-view.js';

/** The Receipt Details dialog: the details with Close and Export to Excel, or the correction form. */
export function ReceiptDetailsModal({
  receipt,
  filename,
  open,
  onOpenChange,
  onExport,
  onSaved,
}: {
  receipt: ReceiptView;
  filename?: string;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onExport?: () => void;
  onSaved?: (receipt: ReceiptView) => void;
}) {
  const [editing, setEditing] = useState(false);
  // Opened from a list without a Radix trigger: focus goes back to whatever opened it.
  const [opener] = useState(() => document.activeElement as HTMLElement | null);

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        if (!o) setEditing(false);
        onOpenChange(o);
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          className="dialog"
          aria-describedby={undefined}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            opener?.focus();
          }}
        >
          <Dialog.Title className="dialog-title">Receipt Details</Dialog.Title>
          {filename && <p className="muted dialog-subtitle">{filename}</p>}
          {editing ? (
            <ReceiptCorrectionForm
              receipt={receipt}
              onCancel={() => setEditing(false)}
              onSaved={(saved) => {
                setEditing(false);
                onSaved?.(saved);
              }}
            />
          ) : (
            <>
              <ReceiptDetailsView receipt={receipt} />
              <div className="dialog-actions">
                {onSaved && (
                  <button type="button" className="btn btn-outline" onClick={() => setEditing(true)}>
                    Correct fields
                  </button>
                )}
                {onExport && (
                  <button type="button" className="btn btn-primary" onClick={onExport}>
                    Export to Excel
                  </button>
                )}
                <Dialog.Close asChild>
                  <button type="button" className="btn btn-ghost">
                    Close
                  </button>
                </Dialog.Close>
              </div>
            </>
          )}
          <Dialog.Close className="dialog-x" aria-label="Close">
            ✕
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
