import { APPROVAL_COMMENT_MAX } from '@receipts/common';
import { useId, useState } from 'react';
import './decision-controls.css';

/**
 * An approver's decision: Approve (the comment optional) or Reject, which needs a comment saying
 * what to correct (the api refuses one without).
 */
export function DecisionControls({ subject, busy, onDecide }: { subject: string; busy: boolean; onDecide: (decision: 'approve' | 'reject', comment: string) => void }) {
  const id = useId();
  const [comment, setComment] = useState('');
  const said = comment.trim();
  return (
    <div className="decision">
      <label htmlFor={id} className="visually-hidden">
        Comment on {subject}
      </label>
      <textarea id={id} rows={1} maxLength={APPROVAL_COMMENT_MAX} placeholder="Comment (needed to reject)" value={comment} onChange={(e) => setComment(e.target.value)} />
      <div className="decision-buttons">
        <button type="button" className="btn btn-primary btn-sm" disabled={busy} onClick={() => onDecide('approve', said)} aria-label={`Approve ${subject}`}>
          Approve
        </button>
        <button
          type="button"
          className="btn btn-outline btn-sm text-red"
          disabled={busy || !said}
          title={said ? undefined : 'Write what needs correcting first'}
          onClick={() => onDecide('reject', said)}
          aria-label={`Reject ${subject}`}
        >
          Reject
        </button>
      </div>
    </div>
  );
}
