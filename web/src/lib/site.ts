/** Where people write to us (spec §2 `{email}`); answered within 24 hours (spec §9). */
export const SUPPORT_EMAIL = 'support@receiptstoexcel.app';
export const SUPPORT_RESPONSE_HOURS = 24;
export const PRODUCT_NAME = 'Receipts to Excel';

export const NAV_LINKS = [
  { to: '/', label: 'Home' },
  { to: '/features', label: 'Features' },
  { to: '/pricing', label: 'Pricing' },
  { to: '/about', label: 'About' },
  { to: '/blog', label: 'Blog' },
  { to: '/contact', label: 'Contact Us' },
] as const;
