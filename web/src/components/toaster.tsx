import * as ToastPrimitive from '@radix-ui/react-toast';
import { dismissToast, useToasts } from '../lib/toast.js';
import { TOAST_DURATION_MS } from '../lib/toast-queue.js';
import './toaster.css';

/** At most one notification at a time (spec §4); each can be dismissed. */
export function Toaster() {
  const toasts = useToasts();
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS}>
      {toasts.map((t) => (
        <ToastPrimitive.Root
          key={t.id}
          open={t.open}
          onOpenChange={(open) => {
            if (!open) dismissToast(t.id);
          }}
          className={`toast toast-${t.variant}`}
          type={t.variant === 'destructive' ? 'foreground' : 'background'}
        >
          {t.title && <ToastPrimitive.Title className="toast-title">{t.title}</ToastPrimitive.Title>}
          {t.description && <ToastPrimitive.Description className="toast-description">{t.description}</ToastPrimitive.Description>}
          <ToastPrimitive.Close className="toast-close" aria-label="Dismiss notification">
            ✕
          </ToastPrimitive.Close>
        </ToastPrimitive.Root>
      ))}
      <ToastPrimitive.Viewport className="toast-viewport" />
    </ToastPrimitive.Provider>
  );
}
