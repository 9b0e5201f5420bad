/**
 * Which columns of a table the grid hides and which it freezes at the left (ColumnsMenu.svelte); one
 * per table for the session (column-layouts.ts). The grid alone follows it: an export writes every column.
 */
export class ColumnLayout {
  /** Output columns hidden, and frozen, ascending. */
  hidden = $state.raw<readonly number[]>([]);
  frozen = $state.raw<readonly number[]>([]);

  setHidden(column: number, hide: boolean): void {
    this.hidden = toggled(this.hidden, column, hide);
  }

  setFrozen(column: number, freeze: boolean): void {
    this.frozen = toggled(this.frozen, column, freeze);
  }

  showAll(): void {
    this.hidden = [];
  }

  /** The columns shown, in order, out of `count`. */
  visible(count: number): number[] {
    return Array.from({ length: count }, (_, c) => c).filter((c) => !this.hidden.includes(c));
  }
}

function toggled(list: readonly number[], column: number, on: boolean): readonly number[] {
  const rest = list.filter((c) => c !== column);
  return on ? [...rest, column].sort((a, b) => a - b) : rest;
}
