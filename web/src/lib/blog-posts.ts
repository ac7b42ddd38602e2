export interface BlogPost {
  slug: string;
  title: string;
  summary: string;
  body: string[];
}

export const BLOG_POSTS: readonly BlogPost[] = [
  {
    slug: 'how-we-read-a-receipt',
    title: 'How we read a receipt',
    summary: 'From pixels to a spreadsheet row: the eight steps every file goes through.',
    body: [
      'Every upload goes into a queue and is picked up by a worker. The worker decodes the file, turns it upright and into greyscale, and hands the image to the text recogniser.',
      'The recognised text is then read line by line: the merchant from the first lines, the date in the formats receipts use, the currency from codes, symbols and place names, and the total by letting every line that states a total vote.',
      'Finally the receipt is checked: does subtotal + tax + tip − discount match the total? Is the tax rate plausible? Is the date real? Anything odd is shown beside the field it concerns, so you can fix it before exporting.',
    ],
  },
  {
    slug: 'exporting-to-quickbooks-and-xero',
    title: 'Exporting to QuickBooks and Xero',
    summary: 'Pick a layout when you export and the columns line up with the import screens.',
    body: [
      'The generic Excel export has one row per receipt with up to 20 line items, plus a Validation Issues sheet and a Summary sheet.',
      'The QuickBooks and Xero layouts rename and reorder columns to match what their import wizards expect, so you can map them in one click.',
    ],
  },
  {
    slug: 'why-we-show-our-accuracy',
    title: 'Why we show our accuracy',
    summary: 'We publish the figures we measure on real receipts, and how we measure them.',
    body: [
      'Marketing pages love round numbers. We prefer measured ones: every change to our extraction is run against a set of real scanned receipts with known totals, dates and merchants.',
      'The figures on our home page come from that run. When they change, the page changes.',
    ],
  },
];
