import { fileTypeList, INTAKE_MIME_TYPES, type IntakeAddressView } from '@receipts/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { messageOf } from '../lib/api.js';
import { intakeKeys, renewIntakeAddress, turnOffIntakeAddress } from '../lib/intake-api.js';
import { toast } from '../lib/toast.js';
import './intake-address-card.css';

/**
 * The dashboard's e-mail intake card: the account's private address to mail or forward receipts
 * to, with a new address or off at a click (either stops the old address at once). Shown only
 * where the server receives mail. Until the account's address is confirmed the server refuses
 * mail to it, and the card says so before anyone sends any.
 */
export function IntakeAddressCard({ confirmed }: { confirmed: boolean }) {
  const client = useQueryClient();
  const { data } = useQuery<IntakeAddressView | null>({ queryKey: intakeKeys.address });
  const onSuccess = (view: IntakeAddressView) => client.setQueryData(intakeKeys.address, view);
  const onError = (err: Error) => toast({ title: 'Could not change the address', description: messageOf(err, 'Please try again.'), variant: 'destructive' });
  const renew = useMutation({ mutationFn: renewIntakeAddress, onSuccess, onError });
  const turnOff = useMutation({ mutationFn: turnOffIntakeAddress, onSuccess, onError });
  if (!data?.available) return null;
  const busy = renew.isPending || turnOff.isPending;

  const copy = () =>
    navigator.clipboard.writeText(data.address!).then(
      () => toast({ title: 'Address copied' }),
      () => toast({ title: 'Could not copy', description: 'Select the address and copy it yourself.', variant: 'destructive' }),
    );

  return (
    <section className="card" aria-labelledby="intake-title">
      <h2 id="intake-title">E-mail Receipts</h2>
      <p className="muted">
        Mail or forward receipts to your private address. Each attached {fileTypeList(INTAKE_MIME_TYPES)} becomes an upload, and an e-mail that is itself the receipt
        becomes one too.
      </p>
      {!confirmed && (
        <p className="muted" data-testid="intake-unconfirmed">
          Mail to this address is taken once your e-mail address is confirmed: follow the link we mailed you first.
        </p>
      )}
      {data.address ? (
        <>
          <p>
            <code className="intake-address" data-testid="intake-address">
              {data.address}
            </code>
          </p>
          <p className="muted">Keep it to yourself: anyone who knows it can send receipts to your account. A new address or turning it off stops this one at once.</p>
          <div className="button-row">
            <button type="button" className="btn btn-primary" onClick={() => void copy()}>
              Copy Address
            </button>
            <button type="button" className="btn btn-outline" onClick={() => renew.mutate()} disabled={busy}>
              New Address
            </button>
            <button type="button" className="btn btn-ghost" onClick={() => turnOff.mutate()} disabled={busy}>
              Turn Off
            </button>
          </div>
        </>
      ) : (
        <button type="button" className="btn btn-primary" onClick={() => renew.mutate()} disabled={busy}>
          Get My Address
        </button>
      )}
    </section>
  );
}
