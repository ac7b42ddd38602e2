export * from './export-rows.js';
export * from './workbook.rules.js';
export * from './money-format.rule.js';
export * from './csv.rule.js';
export * from './accounting-presets.js';
export * from './export-request.schema.js';
export * from './sample-receipt.js';
