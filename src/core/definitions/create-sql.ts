/**
 * Small pieces of CREATE TABLE text shared by the table definitions rebuilt from a MySQL 8 data
 * dictionary (SDI) and from .frm files, written the way SHOW CREATE TABLE writes them.
 */

/** `name`, with backticks doubled. */
export function quoteIdentifier(name: string): string {
  return '`' + name.replace(/`/g, '``') + '`';
}

/**
 * A string literal as SHOW CREATE TABLE writes COMMENT and DEFAULT values (append_unescaped): the
 * quote doubled, backslash escaped, NUL, newline, carriage return and Ctrl-Z spelt out.
 */
export function quoteString(value: string): string {
  let out = "'";
  for (const ch of value) {
    switch (ch) {
      case '\\': out += '\\\\'; break;
      case "'": out += "''"; break;
      case '\0': out += '\\0'; break;
      case '\n': out += '\\n'; break;
      case '\r': out += '\\r'; break;
      case '\x1a': out += '\\Z'; break;
      default: out += ch;
    }
  }
  return out + "'";
}

/** An ENUM/SET member as the column type shows it: quotes doubled, nothing else escaped. */
export function quoteMember(value: string): string {
  return "'" + value.replace(/'/g, "''") + "'";
}

/** b'101' for a BIT value (big-endian bytes), as SHOW CREATE TABLE prints a BIT default. */
export function bitLiteral(bytes: Uint8Array): string {
  let v = 0n;
  for (const b of bytes) v = (v << 8n) | BigInt(b);
  return `b'${v.toString(2)}'`;
}
