import * as Dialog from '@radix-ui/react-dialog';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { WORKSPACE_NAME_MAX, WORKSPACE_ROLE_NAMES, workspaceNameSchema, type WorkspaceList, type WorkspaceView } from '@receipts/common';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { messageOf } from '../lib/api.js';
import { toast } from '../lib/toast.js';
import { createWorkspace, switchWorkspace, workspaceKeys } from '../lib/workspaces-api.js';
import './workspace-switcher.css';

/** Names a workspace in a new one's form: checked as the api checks it, the api's refusal shown as it comes. */
function NewWorkspaceDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (made: WorkspaceView) => void }) {
  const [problem, setProblem] = useState<string | null>(null);
  const create = useMutation({ mutationFn: createWorkspace, onSuccess: onCreated, onError: (err) => setProblem(messageOf(err, 'The workspace could not be created.')) });
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const name = workspaceNameSchema.safeParse(String(new FormData(e.currentTarget).get('name') ?? ''));
    if (!name.success) return setProblem(name.error.issues[0]!.message);
    setProblem(null);
    create.mutate(name.data);
  };
  return (
    <Dialog.Root open={open} onOpenChange={(o) => !o && onClose()}>
      <Dialog.Portal>
        <Dialog.Overlay className="dialog-overlay" />
        <Dialog.Content className="dialog" aria-describedby="new-workspace-text">
          <Dialog.Title className="dialog-title">New workspace</Dialog.Title>
          <p id="new-workspace-text" className="muted">
            A place for a team’s receipts: you own it, invite people into it and switch between it and your own.
          </p>
          <form onSubmit={submit} noValidate aria-label="New workspace">
            <div className="form-field">
              <label htmlFor="new-workspace-name">Name</label>
              <input id="new-workspace-name" name="name" maxLength={WORKSPACE_NAME_MAX} placeholder="e.g. Corner Bakery" autoFocus />
            </div>
            {problem && (
              <p className="error-text" role="alert">
                {problem}
              </p>
            )}
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <button type="button" className="btn btn-ghost">
                  Cancel
                </button>
              </Dialog.Close>
              <button type="submit" className="btn btn-primary" disabled={create.isPending}>
                {create.isPending ? 'Creating...' : 'Create workspace'}
              </button>
            </div>
          </form>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}

/**
 * The nav bar's workspace switcher: the account's workspaces with its role in each, the one
 * requests act in checked. Choosing another switches the session to it, then the app loads
 * again (`reload`), since every read it holds was the other workspace's. A new workspace is
 * switched to once made.
 */
export function WorkspaceSwitcher({ reload = () => window.location.reload() }: { reload?: () => void }) {
  const { data } = useQuery<WorkspaceList | null>({ queryKey: workspaceKeys.list, meta: { silent: true } });
  const [creating, setCreating] = useState(false);
  const switchTo = useMutation({
    mutationFn: switchWorkspace,
    onSuccess: () => reload(),
    onError: (err) => toast({ title: 'Could not switch workspace', description: messageOf(err, 'Please try again.'), variant: 'destructive' }),
  });
  const current = data?.workspaces.find((w) => w.id === data.currentId);
  if (!data || !current) return null;
  return (
    <>
      <DropdownMenu.Root>
        <DropdownMenu.Trigger className="workspace-trigger" aria-label={`Workspace: ${current.name}. Switch workspace`} disabled={switchTo.isPending}>
          <span className="workspace-trigger-name">{current.name}</span>
          <span className="workspace-trigger-role">{WORKSPACE_ROLE_NAMES[current.role]}</span>
        </DropdownMenu.Trigger>
        <DropdownMenu.Portal>
          <DropdownMenu.Content className="menu workspace-menu" align="start" sideOffset={6}>
            <DropdownMenu.Label className="menu-label">Workspaces</DropdownMenu.Label>
            <DropdownMenu.RadioGroup value={current.id} onValueChange={(id) => id !== current.id && switchTo.mutate(id)}>
              {data.workspaces.map((w) => (
                <DropdownMenu.RadioItem key={w.id} value={w.id} className="menu-item workspace-item">
                  <span className="workspace-item-name">
                    {w.id === current.id && <span aria-hidden="true">✓ </span>}
                    {w.name}
                  </span>
                  <span className="workspace-item-role">{w.personal ? 'Personal' : `${WORKSPACE_ROLE_NAMES[w.role]} · ${w.members} ${w.members === 1 ? 'member' : 'members'}`}</span>
                </DropdownMenu.RadioItem>
              ))}
            </DropdownMenu.RadioGroup>
            <DropdownMenu.Separator className="menu-separator" />
            {!current.personal && (
              <DropdownMenu.Item asChild className="menu-item">
                <Link to="/workspace/members">Members</Link>
              </DropdownMenu.Item>
            )}
            <DropdownMenu.Item className="menu-item" onSelect={() => setCreating(true)}>
              New workspace
            </DropdownMenu.Item>
          </DropdownMenu.Content>
        </DropdownMenu.Portal>
      </DropdownMenu.Root>
      <NewWorkspaceDialog open={creating} onClose={() => setCreating(false)} onCreated={(made) => switchTo.mutate(made.id)} />
    </>
  );
}
