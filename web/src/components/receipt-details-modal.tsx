import type { ReceiptView } from '@receipts/common';
import * as Dialog from '@radix-ui/react-dialog';
import { useRef, useState } from 'react';
import { ReceiptReview, type ReceiptReviewHandle } from './receipt-review.js';
import './receipt-details-modal.css';

/**
 * The Receipt Details dialog: the receipt under review (receipt-review.tsx) with Export to Excel
 * and Close. It opens with focus on the dialog itself, not on the first flag's Accept; Escape
 * while correcting stops correcting (what was typed is dropped, the dialog stays open) and
 * closes the dialog only after that.
 */
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
  // Opened from a list without a Radix trigger: focus goes back to whatever opened it.
  const [opener] = useState(() => document.activeElement as HTMLElement | null);
  const review = useRef<ReceiptReviewHandle>(null);
  const content = useRef<HTMLDivElement>(null);
  const [editing, setEditing] = useState(false);

  return (
    <Dialog.Root
      open={open}
      onOpenChange={(o) => {
        if (!o) review.current?.stopEditing();
        onOpenChange(o);
      }}
    >
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content
          ref={content}
          className="dialog dialog-wide"
          aria-describedby={undefined}
          onOpenAutoFocus={(e) => {
            // The first focusable element would be a flag's Accept: one Enter from accepting unseen.
            e.preventDefault();
            content.current?.focus();
          }}
          onEscapeKeyDown={(e) => {
            if (!editing) return;
            e.preventDefault();
            review.current?.stopEditing();
          }}
          onCloseAutoFocus={(e) => {
            e.preventDefault();
            opener?.focus();
          }}
        >
          <Dialog.Title className="dialog-title">Receipt Details</Dialog.Title>
          {filename && <p className="muted dialog-subtitle">{filename}</p>}
          <ReceiptReview
            ref={review}
            receipt={receipt}
            onSaved={onSaved}
            onEditingChange={setEditing}
            actions={
              <>
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
              </>
            }
          />
          <Dialog.Close className="dialog-x" aria-label="Close">
            ✕
          </Dialog.Close>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
