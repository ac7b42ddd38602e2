// qif2json ships no types: the part the tests read.
declare module 'qif2json' {
  export interface QifTransaction {
    date?: string;
    amount?: number;
    payee?: string;
    memo?: string;
    category?: string;
    subcategory?: string;
    number?: string;
  }
  export function parse(qif: string, options?: { dateFormat?: string | string[] }): { type: string; transactions: QifTransaction[] };
}
