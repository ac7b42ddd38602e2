import type { ReceiptList } from '@receipts/common';
import { useQuery } from '@tanstack/react-query';
import { NavLink } from 'react-router-dom';
import { reviewQueueUrl } from '../lib/receipts-api.js';

/** "Review" with how many receipts need a person (read with the library's reads, so a change there updates it). */
export function ReviewLink({ className, onClick }: { className?: string; onClick?: () => void }) {
  const waiting = useQuery<ReceiptList>({ queryKey: [reviewQueueUrl(1)], meta: { silent: true } }).data?.total ?? 0;
  return (
    <NavLink to="/review" className={className} onClick={onClick} aria-label={waiting > 0 ? `Review, ${waiting} receipt${waiting === 1 ? '' : 's'} waiting` : 'Review'}>
      Review
      {waiting > 0 && (
        <span className="nav-count" aria-hidden="true">
          {waiting}
        </span>
      )}
    </NavLink>
  );
}
