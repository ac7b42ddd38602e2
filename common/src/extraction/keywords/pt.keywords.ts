import type { KeywordTable } from './keyword-table.js';

export const PT_KEYWORDS: KeywordTable = {
  language: 'pt',
  total: ['total', 'valor', 'montante'],
  grandTotal: ['total\\s*a\\s*pagar', 'valor\\s*a\\s*pagar', 'valor\\s*total', 'a\\s*pagar'],
  subtotal: ['sub[\\s-]*total', 'base\\s*tribut(á|a)vel', 'valor\\s*l(í|i)quido'],
  tax: ['iva', 'icms', 'impostos?', 'tributos?', 'trib\\.?'],
  taxIncluded: ['inclu(í|i)do', 'incl\\.?', 'aprox'],
  tip: ['gorjeta', 'taxa\\s*de\\s*servi(ç|c)o'],
  suggestion: ['sugerid[ao]s?', 'sugest(ã|a)o'],
  discount: ['desconto', 'desc\\.?', 'poupan(ç|c)a', 'cup(ã|a)o', 'vale', 'promo(ç|c)(ã|a)o'],
  rounding: ['arredondamento'],
  change: ['troco'],
  cash: ['dinheiro', 'numer(á|a)rio', 'entregue', 'recebido'],
  card: ['cart(ã|a)o', 'cr(é|e)dito', 'd(é|e)bito', 'multibanco', 'mb', 'pagamento', 'pix'],
  count: ['qtd\\.?', 'quantidade', 'itens', 'artigos'],
  taxBase: ['base\\s*(de\\s*)?incid(ê|e)ncia'],
  date: ['data', 'emiss(ã|a)o'],
  time: ['hora'],
  receiptNumber: ['fatura', 'factura', 'recibo', 'cupom', 'nota', 'n(º|o|°)\\s*(doc|documento)', 'doc(umento)?', 'extrato'],
  tin: ['nif', 'nipc', 'cnpj', 'cpf', 'contribuinte'],
  otherDate: ['v(á|a)lid[oa]', 'validade', 'expira', 'at(é|e)', 'pontos', 'per(í|i)odo'],
  months: {
    janeiro: 1, jan: 1, fevereiro: 2, fev: 2, março: 3, marco: 3, mar: 3, abril: 4, abr: 4, maio: 5, mai: 5, junho: 6, jun: 6,
    julho: 7, jul: 7, agosto: 8, ago: 8, setembro: 9, set: 9, outubro: 10, out: 10, novembro: 11, nov: 11, dezembro: 12, dez: 12,
  },
};
