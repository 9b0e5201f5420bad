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

/**
 * The file holds no InnoDB page at all (page 0 is no FSP header and no page anywhere checks out):
 * said before anything else, with what the file looks like instead (file-kind.ts).
 */
export class NotInnodbError extends IbdError {
  constructor(
    file: string,
    readonly looksLike: string,
  ) {
    super(file, `not an InnoDB tablespace: it looks like ${looksLike}`);
    this.message = `${file} is not an InnoDB tablespace: it looks like ${looksLike}`;
    this.name = 'NotInnodbError';
  }
}
