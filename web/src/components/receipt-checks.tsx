import { renderIssue, reviewFlags, type ReceiptView } from '@receipts/common';
import './receipt-checks.css';

const when = (iso: string) => new Date(iso).toLocaleString('en-US', { year: 'numeric', month: 'short', day: 'numeric', hour: '2-digit', minute: '2-digit' });

/**
 * Every flag that keeps the receipt off the Receipts sheet (its issues, low quality), each to
 * accept once a person has looked and the receipt is right as it stands — or to take back.
 */
export function ReceiptChecks({
  receipt,
  onAccept,
  onReopen,
  busy,
}: {
  receipt: ReceiptView;
  onAccept?: (flag: string) => void;
  onReopen?: (flag: string) => void;
  busy: boolean;
}) {
  const flags = reviewFlags(receipt, receipt.flags).map(renderIssue);
  const accepted = new Map((receipt.acceptedIssues ?? []).map((a) => [a.issue, a]));
  const open = flags.filter((f) => !accepted.has(f)).length;
  return (
    <section className="checks" aria-labelledby="checks-title">
      <div className={`validity ${receipt.valid ? 'validity-ok' : 'validity-bad'}`} id="checks-title">
        {receipt.valid
          ? flags.length > 0
            ? 'Ready for export: every flag was accepted'
            : 'Ready for export'
          : `Needs review: goes to the Validation Issues sheet (${open} open flag${open === 1 ? '' : 's'})`}{' '}
        · quality {Math.round(receipt.quality * 100)}%
      </div>
      {flags.length > 0 && (
        <>
          <ul className="check-flags" aria-label="Flags to review">
            {flags.map((flag) => {
              const acceptance = accepted.get(flag);
              return (
                <li key={flag} className={acceptance ? 'check-flag check-flag-accepted' : 'check-flag'}>
                  <span className="check-flag-text">
                    {acceptance ? '✓' : '⚠'} {flag}
                    {acceptance && <span className="muted small"> · accepted {when(acceptance.at)}</span>}
                  </span>
                  {acceptance
                    ? onReopen && (
                        <button type="button" className="btn btn-ghost btn-sm" disabled={busy} aria-label={`Undo accepting: ${flag}`} onClick={() => onReopen(flag)}>
                          Undo
                        </button>
                      )
                    : onAccept && (
                        <button type="button" className="btn btn-outline btn-sm" disabled={busy} aria-label={`Accept: ${flag}`} onClick={() => onAccept(flag)}>
                          Accept
                        </button>
                      )}
                </li>
              );
            })}
          </ul>
          {onAccept && open > 0 && (
            <p className="muted small check-help">
              Looked at the receipt and it is right as it stands (an old receipt, a real tip)? Accept the flag: the receipt then goes to the Receipts sheet, and who accepted it and when is kept.
            </p>
          )}
        </>
      )}
    </section>
  );
}
