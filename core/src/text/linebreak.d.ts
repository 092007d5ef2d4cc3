/** Types of the `linebreak` package (UAX #14 break opportunities), which ships none. */
declare module 'linebreak' {
  /** A break opportunity before the character at `position` (UTF-16 index); `required` for mandatory breaks. */
  interface Break {
    position: number;
    required: boolean;
  }
  /** Iterates the break opportunities of a string in order. */
  export default class LineBreaker {
    constructor(text: string);
    nextBreak(): Break | null;
  }
}
