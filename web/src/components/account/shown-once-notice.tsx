import type { ReactNode } from 'react';
import { toast } from '../../lib/toast.js';

/**
 * A secret just made (a token's text, a webhook's signing secret): shown this once, with a copy
 * button and Done, which hides it for good.
 */
export function ShownOnceNotice({
  what,
  value,
  testId,
  className,
  codeClassName,
  intro,
  note,
  onDone,
}: {
  /** What the secret is called on its button and in its toasts: "token", "secret". */
  what: string;
  value: string;
  testId: string;
  className: string;
  codeClassName?: string;
  /** Above the secret: what it is. */
  intro: ReactNode;
  /** Below it: why to keep it. */
  note?: ReactNode;
  onDone: () => void;
}) {
  const copy = () =>
    navigator.clipboard.writeText(value).then(
      () => toast({ title: `${what[0]!.toUpperCase()}${what.slice(1)} copied` }),
      () => toast({ title: 'Could not copy', description: `Select the ${what} and copy it yourself.`, variant: 'destructive' }),
    );
  return (
    <div className={`notice notice-success ${className}`} role="status">
      <p>{intro}</p>
      <p>
        <code className={codeClassName} data-testid={testId}>
          {value}
        </code>
      </p>
      {note}
      <div className="button-row">
        <button type="button" className="btn btn-primary btn-sm" onClick={() => void copy()}>
          Copy {what}
        </button>
        <button type="button" className="btn btn-ghost btn-sm" onClick={onDone}>
          Done
        </button>
      </div>
    </div>
  );
}
