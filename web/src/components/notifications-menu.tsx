import type { NotificationList } from '@receipts/common';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'react-router-dom';
import { markNotificationsRead, notificationsKey } from '../lib/approvals-api.js';
import './notifications-menu.css';

/** How often the bell looks for news: an approver's decision is not urgent to the second. */
export const NOTIFICATIONS_REFETCH_MS = 60_000;

/** The bell in the nav: how many notifications are unread, and the latest of them; opening it reads them. */
export function NotificationsMenu() {
  const client = useQueryClient();
  const list = useQuery<NotificationList>({ queryKey: notificationsKey, refetchInterval: NOTIFICATIONS_REFETCH_MS, meta: { silent: true } }).data;
  const read = useMutation({
    mutationFn: () => markNotificationsRead(),
    onSuccess: () => void client.invalidateQueries({ queryKey: notificationsKey }),
  });
  const unread = list?.unread ?? 0;
  const items = list?.items ?? [];
  return (
    <DropdownMenu.Root onOpenChange={(open) => !open && unread > 0 && read.mutate()}>
      <DropdownMenu.Trigger className="bell" aria-label={unread > 0 ? `Notifications, ${unread} unread` : 'Notifications'}>
        <svg className="bell-icon" viewBox="0 0 24 24" width="20" height="20" aria-hidden="true" focusable="false">
          <path d="M12 22a2.5 2.5 0 0 0 2.45-2h-4.9A2.5 2.5 0 0 0 12 22Zm7-6V11a7 7 0 0 0-5.5-6.84V3.5a1.5 1.5 0 0 0-3 0v.66A7 7 0 0 0 5 11v5l-2 2v1h18v-1l-2-2Z" fill="currentColor" />
        </svg>
        {unread > 0 && (
          <span className="nav-count" aria-hidden="true">
            {unread}
          </span>
        )}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className="menu notifications" align="end" sideOffset={6}>
          <DropdownMenu.Label className="menu-label">
            <strong>Notifications</strong>
          </DropdownMenu.Label>
          <DropdownMenu.Separator className="menu-separator" />
          {items.length === 0 ? (
            <p className="muted small notifications-empty">Nothing yet. You are told here when an approver decides on your receipts.</p>
          ) : (
            items.map((n) => (
              <DropdownMenu.Item key={n.id} asChild className={`menu-item notification${n.read ? '' : ' unread'}`}>
                <Link to="/receipts">
                  <span>{n.text}</span>
                  <time className="muted small" dateTime={n.at}>
                    {new Date(n.at).toLocaleString()}
                  </time>
                </Link>
              </DropdownMenu.Item>
            ))
          )}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
