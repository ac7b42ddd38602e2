import { useState } from 'react';
import { messageOf } from '../lib/api.js';
import { resendVerification } from '../lib/auth-api.js';
import { toast } from '../lib/toast.js';

/** The "Resend verification e-mail" button's action: the server's answer (or refusal) as a toast. */
export function useResendVerification() {
  const [pending, setPending] = useState(false);
  const resend = async () => {
    setPending(true);
    try {
      const { message } = await resendVerification();
      toast({ title: 'Verification e-mail sent', description: message });
    } catch (err) {
      toast({ title: 'Could not send the e-mail', description: messageOf(err, 'Please try again in a minute.'), variant: 'destructive' });
    } finally {
      setPending(false);
    }
  };
  return { resend, pending };
}
