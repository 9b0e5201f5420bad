/**
 * Where the grid's keyboard takes the active cell (RowGrid.svelte): the arrows by one, Page Up/Down
 * by a screen, Home/End to the first/last column, Ctrl+Home/End to the first/last row; Enter and
 * Space open the value. The grid clamps the cell to the rows and columns there are, and scrolls to it.
 */

export interface CellAt {
  row: number;
  col: number;
}

/** The cell `key` moves to from `at`, 'open' for Enter and Space, null for a key the grid leaves alone. */
export function keyTarget(key: string, ctrl: boolean, at: CellAt, size: { rows: number; cols: number; page: number }): CellAt | 'open' | null {
  switch (key) {
    case 'ArrowDown': return { row: at.row + 1, col: at.col };
    case 'ArrowUp': return { row: at.row - 1, col: at.col };
    case 'ArrowRight': return { row: at.row, col: at.col + 1 };
    case 'ArrowLeft': return { row: at.row, col: at.col - 1 };
    case 'PageDown': return { row: at.row + size.page, col: at.col };
    case 'PageUp': return { row: at.row - size.page, col: at.col };
    case 'Home': return { row: ctrl ? 0 : at.row, col: 0 };
    case 'End': return { row: ctrl ? size.rows - 1 : at.row, col: ctrl ? at.col : size.cols - 1 };
    case 'Enter':
    case ' ':
      return 'open';
    default:
      return null;
  }
}
