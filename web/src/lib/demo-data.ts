/** The static sample of the home page's Excel Export Preview, in USD (converted at demo rates). */
export interface DemoReceipt {
  merchantName: string;
  date: string;
  time: string;
  subtotal: number;
  tax: number;
  total: number;
  paymentMethod: string;
  category: string;
  items: [DemoItem, DemoItem];
}
interface DemoItem {
  desc: string;
  qty: number;
  price: number;
}

export const DEMO_RECEIPTS: readonly DemoReceipt[] = [
  {
    merchantName: 'Green Valley Grocers',
    date: '2025-01-08',
    time: '14:32',
    subtotal: 45.67,
    tax: 3.65,
    total: 49.32,
    paymentMethod: 'Credit Card',
    category: 'grocery',
    items: [
      { desc: 'Organic Bananas', qty: 2, price: 1.99 },
      { desc: 'Whole Milk 1L', qty: 1, price: 3.49 },
    ],
  },
  {
    merchantName: 'Harbor Street Cafe',
    date: '2025-01-09',
    time: '12:05',
    subtotal: 24.5,
    tax: 2.2,
    total: 26.7,
    paymentMethod: 'Cash',
    category: 'restaurant',
    items: [
      { desc: 'Club Sandwich', qty: 1, price: 12.5 },
      { desc: 'Iced Latte', qty: 2, price: 6 },
    ],
  },
  {
    merchantName: 'QuickFuel Station',
    date: '2025-01-10',
    time: '08:47',
    subtotal: 7.5,
    tax: 0.6,
    total: 8.1,
    paymentMethod: 'Debit Card',
    category: 'gas',
    items: [
      { desc: 'Windshield Fluid', qty: 1, price: 4.5 },
      { desc: 'Bottled Water', qty: 2, price: 1.5 },
    ],
  },
];

/** Works worldwide: the spec's twelve countries and their currencies. */
export const COUNTRIES: ReadonlyArray<{ name: string; code: string; currency: string }> = [
  { name: 'Philippines', code: 'PH', currency: 'PHP' },
  { name: 'United States', code: 'US', currency: 'USD' },
  { name: 'Canada', code: 'CA', currency: 'CAD' },
  { name: 'Mexico', code: 'MX', currency: 'MXN' },
  { name: 'United Kingdom', code: 'GB', currency: 'GBP' },
  { name: 'Germany', code: 'DE', currency: 'EUR' },
  { name: 'France', code: 'FR', currency: 'EUR' },
  { name: 'Japan', code: 'JP', currency: 'JPY' },
  { name: 'Australia', code: 'AU', currency: 'AUD' },
  { name: 'Singapore', code: 'SG', currency: 'SGD' },
  { name: 'Brazil', code: 'BR', currency: 'BRL' },
  { name: 'India', code: 'IN', currency: 'INR' },
];
