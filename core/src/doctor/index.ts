/**
 * The template doctor (see ./types.ts for the report and ./diagnose.ts for the rules).
 */
export { diagnose, inferRole, capacityOf, contentAreas, countPlaceholders, unfillableOf, fontSupport, areaKindOf, FOOTER_AREA_TYPES, CUSTOM_FIELD_MARKER } from './diagnose.js';
export { textCapacity, tableRowCapacity, tableRowHeightPt, MIN_FONT_SIZE_PT, DEFAULT_TABLE_FONT_PT, CELL_VERTICAL_MARGINS_PT } from './capacity.js';
export { repairFindings } from './repairs.js';
export { headerLikePlaceholder, headerPlaceholderOfPart, headerRuleShapeOf, headerRuleShapeOfAnalyzed, type HeaderRuleShape, type HeaderLikeFinding } from './header.js';
export type * from './types.js';
