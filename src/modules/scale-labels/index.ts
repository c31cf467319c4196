// Scale labels (D41): layouts and the EAN-13 label reader, pure; the merchants module keeps the
// layouts, the orders module weighs by label.
export {
  checkLayouts,
  LABEL_BODY_DIGITS,
  MAX_LAYOUTS,
  ScaleLabelLayout,
  ScaleLabelLayouts,
  VALUE_DECIMALS,
} from './label-layout.js';
export {
  buildLabel,
  ean13CheckDigit,
  type LabelProblem,
  type LabelReading,
  readLabel,
  sameScaleCode,
} from './scale-label.js';
