import type { KeywordTable } from './keyword-table.js';

export const JA_KEYWORDS: KeywordTable = {
  language: 'ja',
  noWordBoundaries: true,
  total: ['合計', '合 計', '総合計', 'お買上計', 'お買上げ計', 'ご請求額'],
  grandTotal: ['総合計', 'お支払(い)?(金額|合計)?', 'ご請求(金)?額', '税込合計'],
  subtotal: ['小計', '小 計', '税抜合計'],
  tax: ['消費税', '内消費税', '税額', '外税', '内税', '(内|外)?税\\s*\\d+\\s*%', '消費税等'],
  taxIncluded: ['内税', '内消費税', '税込', '\\(内\\)'],
  tip: ['チップ', 'サービス料'],
  discount: ['値引', '割引', 'クーポン', '値引き'],
  rounding: ['端数'],
  change: ['お釣り?', 'おつり', '釣銭', 'お返し'],
  cash: ['現金', 'お預り?', 'お預かり', '預り金'],
  card: ['クレジット', 'カード', '電子マネー', 'ペイペイ', '交通系'],
  count: ['点数', '買上点数'],
  date: ['日付', '年月日'],
  time: ['時刻', '時間'],
  receiptNumber: ['レシート(番号)?', '伝票(番号)?', '取引(番号)?'],
  tin: ['登録番号'],
  otherDate: ['有効期限', '期限', 'ポイント', '迄', 'まで'],
  months: {},
};
