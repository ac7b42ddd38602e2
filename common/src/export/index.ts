export * from './export-rows.js';
export * from './workbook.rules.js';
