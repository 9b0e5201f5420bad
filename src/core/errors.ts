/** An error about a user's file, always naming the file and, where known, the page and record. */
export class IbdError extends Error {
  constructor(
    readonly file: string,
    readonly detail: string,
    readonly page: number | null = null,
    readonly record: number | null = null,
  ) {
    super(IbdError.format(file, detail, page, record));
    this.name = 'IbdError';
  }

  static format(file: string, detail: string, page: number | null, record: number | null): string {
    const where = [file];
    if (page !== null) where.push(`page ${page}`);
    if (record !== null) where.push(`record at offset ${record}`);
    return `${where.join(', ')}: ${detail}`;
  }
}
