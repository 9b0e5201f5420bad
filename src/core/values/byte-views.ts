/**
 * DataViews over the bytes the text writers read (pages) and write (a BatchBuilder's text), through
 * which they read and write whole words; one of each, shared by every writer.
 */

/**
 * A function giving a DataView of its argument, keeping the last one: the writers are called many
 * times over one page, and into one text buffer until a builder grows it.
 */
function viewKeeper(): (b: Uint8Array) => DataView {
  let viewed: Uint8Array | null = null;
  let view: DataView = new DataView(new ArrayBuffer(0));
  return (b) => {
    if (b !== viewed) {
      view = new DataView(b.buffer, b.byteOffset, b.byteLength);
      viewed = b;
    }
    return view;
  };
}

/** Views of the bytes read (pages) and of the text being written. */
export const dataView = viewKeeper();
export const textView = viewKeeper();
