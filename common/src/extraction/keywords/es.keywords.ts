import type { KeywordTable } from './keyword-table.js';

export const ES_KEYWORDS: KeywordTable = {
  language: 'es',
  total: ['total', 'importe', 'monto', 'suma'],
  grandTotal: ['total\\s*(a\\s*pagar|factura|compra)', 'importe\\s*(a\\s*(abonar|pagar)|total)', 'a\\s*pagar', 'monto\\s*total'],
  subtotal: ['sub[\\s-]*total', 'base\\s*imponible', 'neto', 'total\\s*neto'],
  tax: ['iva', 'i\\.v\\.a\\.?', 'impuestos?', 'igic'],
  taxIncluded: ['incl(uido|\\.)?', 'incluye'],
  tip: ['propina'],
  suggestion: ['sugerid[ao]s?', 'sugerencia'],
  discount: ['descuentos?', 'dto\\.?', 'rebaja', 'ahorro', 'cup(ó|o)n', 'promo(ci(ó|o)n)?'],
  rounding: ['redondeo'],
  change: ['cambio', 'vuelto', 'su\\s*cambio', 'devoluci(ó|o)n'],
  cash: ['efectivo', 'entregado', 'recibido', 'contado'],
  card: ['tarjeta', 'tarj\\.?', 'cr(é|e)dito', 'd(é|e)bito', 'pago'],
  count: ['art(í|i)culos', 'cant(idad)?\\.?', 'unidades'],
  taxBase: [],
  date: ['fecha', 'fec\\.?'],
  time: ['hora'],
  receiptNumber: ['factura', 'ticket', 'boleta', 'n(ú|u)m(ero)?\\.?\\s*(de\\s*)?(factura|ticket|boleta)', 'folio', 'comprobante'],
  tin: ['nif', 'cif', 'rut', 'rfc', 'n\\.?i\\.?f\\.?', 'c\\.?i\\.?f\\.?'],
  otherDate: ['v(á|a)lid[oa]', 'vence', 'vencimiento', 'caduca', 'hasta', 'puntos', 'periodo', 'desde'],
  months: {
    enero: 1, ene: 1, febrero: 2, feb: 2, marzo: 3, mar: 3, abril: 4, abr: 4, mayo: 5, may: 5, junio: 6, jun: 6, julio: 7, jul: 7,
    agosto: 8, ago: 8, septiembre: 9, setiembre: 9, sep: 9, sept: 9, octubre: 10, oct: 10, noviembre: 11, nov: 11, diciembre: 12, dic: 12,
  },
};
