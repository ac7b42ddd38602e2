import {
  API_TOKEN_MESSAGES,
  createApiTokenSchema,
  TOKEN_NAME_MAX,
  TOKEN_SCOPE_LABELS,
  TOKEN_SCOPES,
  type ApiTokenCreated,
  type ApiTokenList,
  type ApiTokenView,
} from '@receipts/common';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { accountKeys, createToken, revokeToken } from '../../lib/account-api.js';
import { messageOf } from '../../lib/api.js';
import { toast } from '../../lib/toast.js';
import { DataTable, type TableColumn } from '../data-table.js';
import { ShownOnceNotice } from './shown-once-notice.js';
import './tokens-section.css';

/** How long a new token lasts: the choices offered, in days ('' for until revoked). */
const EXPIRY_CHOICES = [
  ['30', '30 days'],
  ['90', '90 days'],
  ['365', '1 year'],
  ['', 'Never'],
] as const;

const dateText = (iso: string) => new Date(iso).toLocaleDateString('en-US', { year: 'numeric', month: 'short', day: 'numeric' });

function Expiry({ token }: { token: ApiTokenView }) {
  if (!token.expiresAt) return <>Never</>;
  if (Date.parse(token.expiresAt) <= Date.now()) return <span className="tag tag-warn">Expired {dateText(token.expiresAt)}</span>;
  return <>{dateText(token.expiresAt)}</>;
}

/** A token just made: its text, this once, with a copy button. */
function NewToken({ made, onDone }: { made: ApiTokenCreated; onDone: () => void }) {
  return (
    <ShownOnceNotice
      what="token"
      value={made.token}
      testId="new-token"
      className="new-token"
      codeClassName="token-text"
      intro={
        <>
          <strong>{made.name}</strong> is ready. {API_TOKEN_MESSAGES.shownOnce}
        </>
      }
      onDone={onDone}
    />
  );
}

/**
 * Personal access tokens: scripts and tools call the api with one (`Authorization: Bearer`)
 * instead of signing in. Made here with a name, what it may do and how long it lasts; its text is
 * shown once; listed with when it was last used; revoked at a click.
 */
export function TokensSection({ confirmed }: { confirmed: boolean }) {
  const client = useQueryClient();
  const tokens = useQuery<ApiTokenList>({ queryKey: accountKeys.tokens });
  const [problem, setProblem] = useState<string | null>(null);
  const [made, setMade] = useState<ApiTokenCreated | null>(null);
  const refresh = () => client.invalidateQueries({ queryKey: accountKeys.tokens });
  const create = useMutation({
    mutationFn: createToken,
    onSuccess: (token) => {
      setProblem(null);
      setMade(token);
      void refresh();
    },
    onError: (err) => setProblem(messageOf(err, 'The token could not be created.')),
  });
  const revoke = useMutation({
    mutationFn: (id: string) => revokeToken(id),
    onSuccess: () => {
      toast({ title: 'Token revoked', description: 'Requests with it are refused from now on.' });
      void refresh();
    },
    onError: (err) => toast({ title: 'Could not revoke the token', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = e.currentTarget;
    const data = new FormData(form);
    const days = String(data.get('expiresInDays') ?? '');
    const input = createApiTokenSchema.safeParse({ name: String(data.get('name') ?? ''), scopes: data.getAll('scopes').map(String), expiresInDays: days ? Number(days) : null });
    if (!input.success) {
      setProblem(input.error.issues[0]!.message);
      return;
    }
    create.mutate(input.data, { onSuccess: () => form.reset() });
  };
  const columns: ReadonlyArray<TableColumn<ApiTokenView>> = [
    { header: 'Name', rowHeader: true, cell: (t) => t.name },
    { header: 'Token', cell: (t) => <code>{t.prefix}…</code> },
    { header: 'Scopes', cell: (t) => t.scopes.join(', ') },
    { header: 'Created', cell: (t) => dateText(t.createdAt) },
    { header: 'Last used', cell: (t) => (t.lastUsedAt ? dateText(t.lastUsedAt) : 'Never') },
    { header: 'Expires', cell: (t) => <Expiry token={t} /> },
    {
      header: 'Revoke',
      hideHeader: true,
      cell: (t) => (
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          disabled={revoke.isPending}
          onClick={() => {
            if (window.confirm(`Revoke ${t.name}? Scripts using it stop working at once.`)) revoke.mutate(t.id);
          }}
          aria-label={`Revoke the token ${t.name}`}
        >
          Revoke
        </button>
      ),
    },
  ];
  const list = tokens.data?.tokens ?? [];
  return (
    <section className="card account-section account-wide" aria-labelledby="tokens-title">
      <h2 id="tokens-title">Access tokens</h2>
      <p className="muted">
        Scripts and tools can call the API with a token instead of signing in: send it as <code>Authorization: Bearer &lt;token&gt;</code>. A token acts for your
        account within the scopes you choose; it cannot change your password, e-mail, plan or tokens. See the <a href="/docs/api">API reference</a>.
      </p>
      {made && <NewToken made={made} onDone={() => setMade(null)} />}
      {tokens.isError ? (
        <p className="error-text" role="alert">
          {messageOf(tokens.error, 'Your tokens could not be loaded.')}
        </p>
      ) : list.length === 0 ? (
        <p className="muted">{tokens.isPending ? 'Loading...' : 'No tokens yet.'}</p>
      ) : (
        <div className="table-scroll">
          <DataTable columns={columns} rows={list} rowKey={(t) => t.id} />
        </div>
      )}
      {confirmed ? (
        <form className="token-form" onSubmit={submit} aria-label="Create an access token" noValidate>
          <div className="form-field">
            <label htmlFor="token-name">Token name</label>
            <input id="token-name" name="name" maxLength={TOKEN_NAME_MAX} placeholder="e.g. Bookkeeping export" />
          </div>
          <fieldset>
            <legend>It may</legend>
            {TOKEN_SCOPES.map((scope) => (
              <label className="checkbox-line" key={scope}>
                <input type="checkbox" name="scopes" value={scope} defaultChecked={scope === 'receipts:read'} /> {TOKEN_SCOPE_LABELS[scope]} <code>{scope}</code>
              </label>
            ))}
          </fieldset>
          <div className="form-field">
            <label htmlFor="token-expiry">Expires after</label>
            <select id="token-expiry" name="expiresInDays" defaultValue="90">
              {EXPIRY_CHOICES.map(([days, label]) => (
                <option key={label} value={days}>
                  {label}
                </option>
              ))}
            </select>
          </div>
          {problem && (
            <p className="error-text" role="alert">
              {problem}
            </p>
          )}
          <button type="submit" className="btn btn-primary" disabled={create.isPending}>
            {create.isPending ? 'Creating...' : 'Create token'}
          </button>
        </form>
      ) : (
        <p className="muted" data-testid="tokens-unconfirmed">
          {API_TOKEN_MESSAGES.confirmBeforeCreating}
        </p>
      )}
    </section>
  );
}
